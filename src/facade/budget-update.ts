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
import { either as E } from 'fp-ts'
import { decodeUpdateBody } from '../budget/patch'
import { authorizeUpdate, decideUpdateInto } from '../budget/update'
import { check, recordInto } from '../decision/trail'
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
export const respondBudgetUpdate: (context: BudgetContext) => BudgetReply = /*#__PURE__*/ budgetFacade(
  (c, { scope, budget }, reasons) => {
    const rights = recordInto(reasons, authorizeUpdate(scope.caller, budget))
    if (E.isLeft(rights)) return rights
    const sent = recordInto(
      reasons,
      check('budget.body.type', () => 'a JSON object with a budget object', decodeUpdateBody(c.request.body))
    )
    if (E.isLeft(sent)) return sent
    reasons.push({ rule: 'budget.body.wrapper', detail: `budget holds ${sent.right.length} keys` })
    return decideUpdateInto(reasons, {
      rights: rights.right,
      budget,
      sent: sent.right,
      today: c.today,
      company_member_ids: c.company_member_ids
    })
  }
)
