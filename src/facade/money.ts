/**
 * POST /v1/budgets/{id}/top_up, POST /v1/budgets/{id}/withdraw and PATCH /v1/budgets/{id}/amount
 * (contract section 7, R-16), each one pure function over the same context as the update.
 *
 * Rules consulted, in order: the authentication and scope rules, `budget.advance`,
 * `money.permission`, `money.body`, `money.status`, `money.validation`, `money.apply`.
 *
 * @example
 * respondTopUp({ request: { headers, body: '{"amount_cents":5000}' }, session, budget, today, request_id })
 * //=> { status: 200, body: { ...budget, balance_cents: budget.balance_cents + 5000 }, budget: ..., ... }
 *
 * @since 0.1.0
 */
import { function as fn } from 'fp-ts'
import { applyMoney, authorizeMoney, decodeMoneyBody, type MoneyOperation, moneyStatus } from '../budget/money'
import { bind, chain } from '../decision/trail'
import { type BudgetContext, type BudgetReply, budgetFacade } from './budget-context'

const respondMoney = (operation: MoneyOperation): ((context: BudgetContext) => BudgetReply) =>
  budgetFacade((c, scoped) =>
    fn.pipe(
      scoped,
      bind('caller', ({ scope, budget }) => authorizeMoney(scope.caller, budget)),
      bind('amount', () => decodeMoneyBody(c.request.body)),
      bind('open', ({ budget }) => moneyStatus(budget)),
      chain(({ open, amount }) => applyMoney(operation, open, amount))
    )
  )

/**
 * POST /v1/budgets/{id}/top_up: adds `amount_cents` (> 0) to a funded budget's balance.
 *
 * @category facades
 * @since 0.1.0
 */
export const respondTopUp = /*#__PURE__*/ respondMoney('top_up')

/**
 * POST /v1/budgets/{id}/withdraw: takes `amount_cents` (> 0, at most the balance) from a funded
 * budget's balance.
 *
 * @category facades
 * @since 0.1.0
 */
export const respondWithdraw = /*#__PURE__*/ respondMoney('withdraw')

/**
 * PATCH /v1/budgets/{id}/amount: sets a tracking budget's planned amount for the period in
 * progress (`amount_cents` >= 0); moves no balance.
 *
 * @category facades
 * @since 0.1.0
 */
export const respondAmount = /*#__PURE__*/ respondMoney('amount')
