/**
 * The three money operations of a budget (contract section 7, R-16): a funded budget's balance
 * moves only through top_up and withdraw; a tracking budget's planned amount only through
 * amount, which moves no balance.
 *
 * Checked in order after authentication and scope: full rights (401), the body (400), an open
 * budget (409), then the mode and the amount (422, every invalid field at once).
 *
 * Laws, for every budget `b` and operation whose decision is `right(b2)`:
 * - top_up and withdraw change `balance_cents` only, by exactly the amount, and keep it within
 *   `0..Number.MAX_SAFE_INTEGER`;
 * - amount changes `period_amount_cents` only.
 *
 * @example
 * applyMoney('withdraw', budget, 500).result //=> right({ ...budget, balance_cents: 19500 })
 * applyMoney('withdraw', budget, 25000).result
 * //=> left({ _tag: 'Invalid', rule: 'money.validation', detail: 'amount_cents: must not exceed the balance of 20000 cents',
 * //     errors: [{ field: 'amount_cents', messages: ['must not exceed the balance of 20000 cents'] }] })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { fail, pass, type Trail } from '../decision/trail'
import * as problem from '../decision/problem'
import type { FieldError } from '../decision/problem'
import { type Budget, type Cents, Cents as CentsCodec, type Mode } from './model'
import type { Caller } from '../auth/session'
import { hasFullBudgetRights } from './permissions'
import { jsonObjectBody } from '../http/body'
import { hasOwn } from '../json/value'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The money operations: POST top_up and withdraw move a funded budget's balance; PATCH amount
 * sets a tracking budget's amount for the period in progress.
 *
 * @example
 * applyMoney('amount', { ...budget, mode: 'tracking', balance_cents: null }, 80000).result
 * //=> right({ ...budget, mode: 'tracking', balance_cents: null, period_amount_cents: 80000 })
 *
 * @category model
 * @since 0.1.0
 */
export type MoneyOperation = 'top_up' | 'withdraw' | 'amount'

/** The mode each operation applies to. */
const modeOf: Readonly<Record<MoneyOperation, Mode>> = { top_up: 'funded', withdraw: 'funded', amount: 'tracking' }

/**
 * The texts of the 422 field errors of the money operations.
 *
 * @example
 * moneyMessages.overBalance(20000) //=> 'must not exceed the balance of 20000 cents'
 *
 * @category constants
 * @since 0.1.0
 */
export const moneyMessages = {
  /** `mode`: the operation does not apply to the budget's mode. */
  mode: (operation: MoneyOperation) => `must be ${modeOf[operation]} for ${operation}`,
  positive: 'must be a whole number of cents greater than 0',
  nonNegative: 'must be a whole number of cents, 0 or more',
  /** `amount_cents`: a withdrawal larger than the balance. */
  overBalance: (balance: number) => `must not exceed the balance of ${balance} cents`,
  overflow: 'would take the balance past the largest amount the service holds'
} as const

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Full budget rights only; a manager or co-manager is refused like anyone else.
 *
 * @example
 * authorizeMoney({ user_id: 'u-7', role: 'member', permissions: [] }, budget).result
 * //=> left({ _tag: 'GuardRejected', rule: 'money.permission', detail: 'user u-7 may not move money of budget b-1' })
 *
 * @category rules
 * @since 0.1.0
 */
export const authorizeMoney = (caller: Caller, budget: Budget): Trail<Caller> =>
  hasFullBudgetRights(caller)
    ? pass('money.permission', `full budget rights (role ${caller.role})`, caller)
    : fail(problem.guardRejected('money.permission', `user ${caller.user_id} may not move money of budget ${budget.id}`))

/**
 * The body `{"amount_cents": <number>}`: 400 when it is not JSON, not an object, or its
 * amount_cents is missing or not a number. Other keys are ignored.
 *
 * @example
 * decodeMoneyBody('{"amount_cents":5000}').result //=> right(5000)
 * decodeMoneyBody('{"amount":5000}').result //=> left({ _tag: 'BadRequest', rule: 'money.body', message: 'amount_cents is required', detail: 'amount_cents is required' })
 *
 * @category rules
 * @since 0.1.0
 */
export const decodeMoneyBody = (body: string | undefined): Trail<number> => {
  const json = jsonObjectBody('money.body', body)
  if (E.isLeft(json)) return fail(json.left)
  const value = json.right
  if (!hasOwn(value, 'amount_cents')) return fail(problem.badRequest('money.body', 'amount_cents is required'))
  const amount = value.amount_cents
  return typeof amount === 'number'
    ? pass('money.body', `amount_cents ${amount}`, amount)
    : fail(problem.badRequest('money.body', 'amount_cents must be a number'))
}

/**
 * Money moves only on an open budget (as of today).
 *
 * @example
 * moneyStatus({ ...budget, status: 'closing' }).result
 * //=> left({ _tag: 'Conflict', rule: 'money.status', message: 'The budget is closing', detail: 'The budget is closing' })
 *
 * @category rules
 * @since 0.1.0
 */
export const moneyStatus = (budget: Budget): Trail<Budget> =>
  budget.status === 'open'
    ? pass('money.status', 'status open', budget)
    : fail(problem.conflict('money.status', `The budget is ${budget.status}`))

/**
 * The mode and the amount, every invalid field named, then the budget after the operation.
 *
 * @example
 * applyMoney('top_up', budget, 5000).reasons
 * //=> [{ rule: 'money.validation', detail: 'funded budget, 5000 cents' }, { rule: 'money.apply', detail: 'balance_cents 20000 -> 25000' }]
 *
 * @category rules
 * @since 0.1.0
 */
export const applyMoney = (operation: MoneyOperation, budget: Budget, amount: number): Trail<Budget> => {
  const errors: Array<FieldError> = []
  if (budget.mode !== modeOf[operation]) errors.push({ field: 'mode', messages: [moneyMessages.mode(operation)] })
  const valid = operation === 'amount' ? CentsCodec.is(amount) : CentsCodec.is(amount) && amount > 0
  const balance = budget.balance_cents ?? 0
  if (!valid)
    errors.push({
      field: 'amount_cents',
      messages: [operation === 'amount' ? moneyMessages.nonNegative : moneyMessages.positive]
    })
  else if (errors.length === 0 && operation === 'withdraw' && amount > balance)
    errors.push({ field: 'amount_cents', messages: [moneyMessages.overBalance(balance)] })
  else if (errors.length === 0 && operation === 'top_up' && !CentsCodec.is(balance + amount))
    errors.push({ field: 'amount_cents', messages: [moneyMessages.overflow] })
  if (errors.length > 0) return fail(problem.invalid('money.validation', errors))
  const checked = pass('money.validation', `${budget.mode} budget, ${amount} cents`, null)
  const cents = amount as Cents
  const next: Budget =
    operation === 'amount'
      ? { ...budget, period_amount_cents: cents }
      : { ...budget, balance_cents: (operation === 'top_up' ? balance + cents : balance - cents) as Cents }
  const detail =
    operation === 'amount'
      ? `period_amount_cents ${String(budget.period_amount_cents)} -> ${amount}`
      : `balance_cents ${balance} -> ${String(next.balance_cents)}`
  return { reasons: [...checked.reasons, { rule: 'money.apply', detail }], result: E.right(next) }
}
