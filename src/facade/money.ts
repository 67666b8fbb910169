/**
 * POST /v1/budgets/{id}/top_up, POST /v1/budgets/{id}/withdraw and PATCH /v1/budgets/{id}/amount
 * (contract section 7, R-16), each one pure function over the same context as the update.
 *
 * Rules consulted, in order: the authentication and scope rules, `budget.stored`, `budget.advance`,
 * `money.permission`, `money.body`, `money.status`, `money.validation`, `money.apply`.
 *
 * @example
 * const { reasons, ...reply } = respondTopUp({ request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' })
 * reply
 * //=> { status: 200, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { ...budget, balance_cents: 25000 }, budget: { ...budget, balance_cents: 25000 } }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'budget.scope', 'budget.stored',
 * //    'budget.advance', 'money.permission', 'money.body', 'money.status', 'money.validation', 'money.apply']
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { applyMoney, authorizeMoney, decodeMoneyBody, type MoneyOperation, moneyStatus } from '../budget/money'
import { recordInto } from '../decision/trail'
import { type BudgetContext, type BudgetReply, budgetFacade } from './budget-context'

const respondMoney = (operation: MoneyOperation): ((context: BudgetContext) => BudgetReply) =>
  budgetFacade((c, { scope, budget }, reasons) => {
    const caller = recordInto(reasons, authorizeMoney(scope.caller, budget))
    if (E.isLeft(caller)) return caller
    const amount = recordInto(reasons, decodeMoneyBody(c.request.body))
    if (E.isLeft(amount)) return amount
    const open = recordInto(reasons, moneyStatus(budget))
    if (E.isLeft(open)) return open
    return recordInto(reasons, applyMoney(operation, open.right, amount.right))
  })

/**
 * POST /v1/budgets/{id}/top_up: adds `amount_cents` (> 0) to a funded budget's balance.
 *
 * @example
 * respondTopUp({ request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }).body
 * //=> { ...budget, balance_cents: 25000 }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondTopUp = /*#__PURE__*/ respondMoney('top_up')

/**
 * POST /v1/budgets/{id}/withdraw: takes `amount_cents` (> 0, at most the balance) from a funded
 * budget's balance.
 *
 * @example
 * respondWithdraw({ request: { headers, body: '{"amount_cents":25000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }).body
 * //=> { errors: { amount_cents: ['must not exceed the balance of 20000 cents'] } }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondWithdraw = /*#__PURE__*/ respondMoney('withdraw')

/**
 * PATCH /v1/budgets/{id}/amount: sets a tracking budget's planned amount for the period in
 * progress (`amount_cents` >= 0); moves no balance.
 *
 * @example
 * const tracking = { ...budget, mode: 'tracking', balance_cents: null }
 * respondAmount({ request: { headers, body: '{"amount_cents":80000}' }, session, budget: tracking, today: '2026-11-22', request_id: 'req-1' }).body
 * //=> { ...tracking, period_amount_cents: 80000 }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondAmount = /*#__PURE__*/ respondMoney('amount')
