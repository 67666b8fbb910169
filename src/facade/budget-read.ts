/**
 * GET /v1/budgets/{id}: the budget the path names, in the caller's company, as of `today`
 * (contract section 4). Any member reads it; nothing is persisted, though `budget` is the state
 * a server may keep (the periods rolled to today).
 *
 * Rules consulted, in order: the authentication and scope rules, `budget.stored`, `budget.advance`.
 *
 * @example
 * const { reasons, ...reply } = respondBudget({ request: { headers }, session, budget, today: '2026-11-22', request_id: 'req-1' })
 * reply.status //=> 200
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'budget.scope', 'budget.stored', 'budget.advance']
 *
 * @since 0.4.0
 */
import { either as E } from 'fp-ts'
import { type BudgetContext, type BudgetReply, budgetFacade } from './budget-context'

/**
 * The reply to GET /v1/budgets/{id}: 200 with the budget as of `today`, or the refusal of
 * contract section 4 (401, 404) or a 500 for a malformed stored budget. Never throws.
 *
 * @example
 * respondBudget({ request: { headers }, session, budget: null, today: '2026-11-22', request_id: 'req-1' }).status //=> 404
 *
 * @category facades
 * @since 0.4.0
 */
export const respondBudget: (context: BudgetContext) => BudgetReply = /*#__PURE__*/ budgetFacade((_, { budget }) =>
  E.right(budget)
)
