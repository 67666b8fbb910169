/**
 * The io-ts codec of a stored budget: reading and checking one (`./stored-read.ts`, R-17,
 * R-18) as a decoder. Apart from the reading so that code which only reads a budget (the UI's
 * rules, R-107) loads no io-ts.
 *
 * @example
 * Budget.is({ ...budget, recurrence_unit: 'month', recurrence_every: null }) //=> false
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import type { Budget as BudgetModel, BudgetJson } from './model'
import { readBudget } from './stored-read'

export { checkRow, readBudget, readRow, type BudgetRow } from './stored-read'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * A budget (balance group), contract section 2: what {@link Budget} decodes.
 *
 * @example
 * Budget.is(budget) //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type Budget = BudgetModel

/**
 * The io-ts codec of a stored budget: `readBudget` as a decoder, so `Budget.decode` reads
 * class instances and ORM rows, checks consistency, and returns a fresh plain object.
 *
 * @example
 * // an ORM row (its fields inherited) reads as the plain budget it stands for
 * Budget.decode(Object.create(budget)) //=> right(budget)
 * // a tracking budget has no balance
 * Budget.is({ ...budget, mode: 'tracking' }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const Budget: t.Type<BudgetModel, BudgetJson> = /*#__PURE__*/ new t.Type<BudgetModel, BudgetJson>(
  'Budget',
  (u): u is BudgetModel => E.isRight(readBudget(u)),
  (u, c) => {
    const read = readBudget(u)
    return E.isRight(read) ? t.success(read.right) : t.failures(read.left.map((message) => ({ value: u, context: c, message })))
  },
  (b) => b
)
