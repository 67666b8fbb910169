/**
 * Who reads which decision records: a record holds what a request carried and what the
 * decision saw (a recipient's RUT and account, a role given, a transaction authorized), so a
 * caller reads only the records of the endpoints whose data they could read or act on through
 * the API. An owner or admin reads every record of the company; a member with `budgets_manage`
 * only those of the budgets (`budget.*` and `index.budgets`); anyone else none. The one place
 * that says so: GET /v1/decisions narrows its page with it, in memory and in SQL alike, and
 * every reader of records (the admin console, the CLI's `--url`) reads through that endpoint.
 *
 * @example
 * readableDecisions({ user_id: 'u-bm', role: 'member', permissions: ['budgets_manage'] })
 * //=> ['budget.get', 'budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount', 'index.budgets']
 *
 * @since 0.4.0
 */
import type { Caller } from '../auth/session'
import { type DecisionEndpoint, decisionEndpoints } from '../decision/endpoints'

/** The decisions over a company's budgets: what `budgets_manage` reads and acts on. */
const BUDGET_DECISIONS: ReadonlyArray<DecisionEndpoint> = /*#__PURE__*/ decisionEndpoints.filter(
  (e) => e.startsWith('budget.') || e === 'index.budgets'
)

/**
 * The decision endpoints whose records `caller` may read, in the order of
 * `decisionEndpoints`: all of them for an owner or admin, the budgets' for a member with
 * `budgets_manage`, none for another member.
 *
 * @example
 * import { decisionEndpoints } from 'budget-rules/decisions'
 *
 * readableDecisions({ user_id: 'u-1', role: 'admin', permissions: [] }) === decisionEndpoints //=> true
 * readableDecisions({ user_id: 'u-2', role: 'member', permissions: ['banking_manage'] }) //=> []
 *
 * @category rules
 * @since 0.4.0
 */
export const readableDecisions = (caller: Caller): ReadonlyArray<DecisionEndpoint> =>
  caller.role === 'owner' || caller.role === 'admin'
    ? decisionEndpoints
    : caller.permissions.includes('budgets_manage')
      ? BUDGET_DECISIONS
      : []
