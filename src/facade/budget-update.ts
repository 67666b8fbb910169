/**
 * PATCH /v1/budgets/{id}: the whole update endpoint as one pure function. The server passes
 * the request as received, the session it resolved from the key, the budget the path names
 * (looked up in the company that company-id names, or null), today's date in the company's
 * time zone and its request id; it gets back the exact reply, and on a 200 the budget to
 * persist.
 *
 * Rules consulted, in order (contract sections 4 and 5): `auth.bearer`, `auth.email_verified`,
 * `auth.company_header`, `auth.membership`, `budget.scope`, `budget.stored`, `budget.advance`,
 * `budget.permission.update`, `budget.body.type` and `budget.body.wrapper`,
 * `budget.permission.manager`, `budget.permission.recurrence`, `budget.status.closed`,
 * `budget.validation`, `budget.update` (with `budget.reopen` and `recurrence.*`).
 *
 * @example
 * import { respondBudgetUpdate } from 'budget-rules'
 *
 * const { reasons, ...reply } = respondBudgetUpdate({
 *   request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: '{"budget":{"name":"Travel"}}' },
 *   session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
 *   budget, today: '2026-11-22', request_id: 'req-1'
 * })
 * reply
 * //=> { status: 200, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { ...budget, name: 'Travel' }, budget: { ...budget, name: 'Travel' } }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'budget.scope', 'budget.stored',
 * //    'budget.advance', 'budget.permission.update', 'budget.body.type', 'budget.body.wrapper', 'budget.permission.manager',
 * //    'budget.permission.recurrence', 'budget.status.closed', 'budget.validation', 'budget.update']
 *
 * @since 0.1.0
 */
import { function as fn } from 'fp-ts'
import { decodeUpdateBody } from '../budget/patch'
import { authorizeUpdate, decideUpdate } from '../budget/update'
import { bind, chain, check, pass, tap } from '../decision/trail'
import { type BudgetContext, type BudgetReply, budgetFacade } from './budget-context'

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * The reply to PATCH /v1/budgets/{id}. Never throws.
 *
 * @example
 * respondBudgetUpdate({ request: { headers, body: '{"name":"Travel"}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }).body
 * //=> { message: 'The request body must hold the budget under the key "budget"' }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondBudgetUpdate: (context: BudgetContext) => BudgetReply = /*#__PURE__*/ budgetFacade((c, scoped) =>
  fn.pipe(
    scoped,
    bind('rights', ({ scope, budget }) => authorizeUpdate(scope.caller, budget)),
    bind('sent', () =>
      fn.pipe(
        check('budget.body.type', () => 'a JSON object with a budget object', decodeUpdateBody(c.request.body)),
        tap((sent) => pass('budget.body.wrapper', `budget holds ${sent.length} keys`, null))
      )
    ),
    chain(({ rights, budget, sent }) =>
      decideUpdate({ rights, budget, sent, today: c.today, company_member_ids: c.company_member_ids })
    )
  )
)
