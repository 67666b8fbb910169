/**
 * A budget as the server's store hands it over (R-17, R-18): read field by field by property
 * access (own or inherited, getters included, each read once), so that a class instance, an
 * ORM row or `Object.create(row)` reads like the plain object it stands for; then checked, field
 * by field and as a whole. A budget that fails is malformed trusted input: a facade replies 500
 * and has nothing to persist. Nothing is repaired on the way through.
 *
 * Consistency (R-17), beyond each field's type:
 * - funded: `balance_cents` is a number; tracking: it is null;
 * - `recurrence_unit` null: `recurrence_every`, `base_amount_cents` and `recurrence_starts_on`
 *   are null;
 * - `recurrence_unit` set: `recurrence_every` (1..366), `base_amount_cents` and
 *   `recurrence_starts_on` are set, and so is `period_ends_on` unless the next boundary lies
 *   past 9999-12-31 (ADR 0010), and `recurrence_starts_on` is not after `period_ends_on` (the
 *   periods of the current settings count from the end of the period in progress at the
 *   latest, R-12);
 * - `period_ends_on`, when set, is after `period_starts_on`.
 *
 * Law: `readBudget(b) = right(b2)` gives a fresh plain object with exactly the fields of
 * contract section 2, each equal to `b`'s.
 *
 * The reading is apart from the codec (`./stored.ts`), and spelled without io-ts or fp-ts, so that
 * code which only reads a budget (the UI's rules, R-107) loads neither.
 *
 * @example
 * readBudget({ ...budget, recurrence_unit: 'month', recurrence_every: null })
 * //=> left(['recurrence_every is null while recurrence_unit is "month"'])
 *
 * @since 0.5.0
 */
import type { either as E } from 'fp-ts'
import { describeValue } from '../json/describe'
import { boundaryAfter } from '../recurrence/schedule'
import { budgetFields, fieldChecks } from './fields'
import type { Budget, BudgetField } from './model'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The fields of a stored budget as read, before they are checked, and the fields whose getter
 * threw.
 *
 * @example
 * readRow({ ...budget, name: 7 }).values.name //=> 7
 *
 * @category model
 * @since 0.1.0
 */
export interface BudgetRow {
  readonly values: Readonly<Record<BudgetField, unknown>>
  readonly unreadable: ReadonlyArray<BudgetField>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** What a field holds until it is read: no getter can return it. */
const UNREAD: unique symbol = Symbol('unread')

const BLANK: Readonly<Record<BudgetField, unknown>> = /*#__PURE__*/ Object.fromEntries(
  budgetFields.map((field) => [field, UNREAD])
) as Record<BudgetField, unknown>

/** fp-ts's `left` and `right`, spelled as the plain objects they make, so that reading a budget loads no fp-ts. */
const left = <L>(e: L): E.Either<L, never> => ({ _tag: 'Left', left: e })
const right = <A>(a: A): E.Either<never, A> => ({ _tag: 'Right', right: a })

/**
 * An object holding every budget field, to be filled in. Twenty properties added one by one
 * to `{}` would turn it into a dictionary, and every later read or spread of the budget would
 * cost ten to a hundred times more; a copy of an object that has them all keeps its shape.
 */
const blankBudget = (): Record<BudgetField, unknown> => ({ ...BLANK })

/**
 * Reads every field of `u` once, by property access. `u` must be an object (a class instance
 * or a function with properties counts); a getter that throws leaves its field unreadable.
 *
 * @example
 * readRow(Object.create(budget)).values.name //=> 'Team lunch'
 * readRow({ get name() { throw new Error('gone') } }).unreadable.includes('name') //=> true
 *
 * @category constructors
 * @since 0.1.0
 */
export const readRow = (u: object): BudgetRow => {
  const values = blankBudget()
  const o = u as Readonly<Record<BudgetField, unknown>>
  try {
    // Written out for speed, in the order of `budgetFields`: a read by a name written here costs a
    // fraction of one by a key that changes (test/budget/stored-read.test.ts pins the order).
    values.id = o.id
    values.company_id = o.company_id
    values.name = o.name
    values.description = o.description
    values.access = o.access
    values.currency = o.currency
    values.mode = o.mode
    values.manager_id = o.manager_id
    values.co_manager_id = o.co_manager_id
    values.status = o.status
    values.created_on = o.created_on
    values.ends_on = o.ends_on
    values.recurrence_unit = o.recurrence_unit
    values.recurrence_every = o.recurrence_every
    values.base_amount_cents = o.base_amount_cents
    values.recurrence_starts_on = o.recurrence_starts_on
    values.period_starts_on = o.period_starts_on
    values.period_ends_on = o.period_ends_on
    values.period_amount_cents = o.period_amount_cents
    values.balance_cents = o.balance_cents
    return { values, unreadable: [] }
  } catch {
    // A getter threw: the fields from it on are read one at a time, the others are not read again.
    return readRest(u, values)
  }
}

/**
 * After a getter threw in {@link readRow}: the first field still `UNREAD` is the one whose getter
 * threw, and is unreadable; each field after it is read once, a getter that throws leaving its
 * field unreadable too.
 */
const readRest = (u: object, values: Record<BudgetField, unknown>): BudgetRow => {
  const at = budgetFields.findIndex((field) => values[field] === UNREAD)
  const thrown = budgetFields[at] as BudgetField
  values[thrown] = undefined
  const unreadable: Array<BudgetField> = [thrown]
  for (const field of budgetFields.slice(at + 1)) {
    try {
      values[field] = (u as Readonly<Record<string, unknown>>)[field]
    } catch {
      values[field] = undefined
      unreadable.push(field)
    }
  }
  return { values, unreadable }
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** The fields set exactly when `recurrence_unit` is. */
const RECURRENCE_SETTINGS = ['recurrence_every', 'base_amount_cents', 'recurrence_starts_on'] as const

/** What is inconsistent in a budget whose fields each have their type. */
const inconsistencies = (b: Budget): Array<string> => {
  const found: Array<string> = []
  if (b.mode === 'funded' && b.balance_cents === null) found.push('balance_cents is null on a funded budget')
  if (b.mode === 'tracking' && b.balance_cents !== null)
    found.push(`balance_cents is ${String(b.balance_cents)} on a tracking budget`)
  if (b.recurrence_unit === null) {
    for (const field of RECURRENCE_SETTINGS)
      if (b[field] !== null) found.push(`${field} is ${describeValue(b[field])} while recurrence_unit is null`)
  } else {
    for (const field of RECURRENCE_SETTINGS)
      if (b[field] === null) found.push(`${field} is null while recurrence_unit is "${b.recurrence_unit}"`)
    if (
      b.period_ends_on === null &&
      b.recurrence_every !== null &&
      b.recurrence_starts_on !== null &&
      boundaryAfter(
        { anchor: b.recurrence_starts_on, unit: b.recurrence_unit, every: b.recurrence_every },
        b.period_starts_on
      ) !== null
    )
      found.push(`period_ends_on is null while recurrence_unit is "${b.recurrence_unit}"`)
    if (b.recurrence_starts_on !== null && b.period_ends_on !== null && b.recurrence_starts_on > b.period_ends_on)
      found.push(`recurrence_starts_on ${b.recurrence_starts_on} is after period_ends_on ${b.period_ends_on}`)
  }
  if (b.period_ends_on !== null && b.period_ends_on <= b.period_starts_on)
    found.push(`period_ends_on ${b.period_ends_on} is not after period_starts_on ${b.period_starts_on}`)
  return found
}

/**
 * `BudgetFields.is` for the values of a row, written out for speed: one site per field, each
 * seeing one check, where a loop over the fields calls twenty checks from one site
 * (test/budget/stored-read.test.ts pins it to `BudgetFields.is`).
 */
const hasFieldTypes = (v: Readonly<Record<BudgetField, unknown>>): boolean => {
  const p = fieldChecks
  return (
    p.id.is(v.id) &&
    p.company_id.is(v.company_id) &&
    p.name.is(v.name) &&
    p.description.is(v.description) &&
    p.access.is(v.access) &&
    p.currency.is(v.currency) &&
    p.mode.is(v.mode) &&
    p.manager_id.is(v.manager_id) &&
    p.co_manager_id.is(v.co_manager_id) &&
    p.status.is(v.status) &&
    p.created_on.is(v.created_on) &&
    p.ends_on.is(v.ends_on) &&
    p.recurrence_unit.is(v.recurrence_unit) &&
    p.recurrence_every.is(v.recurrence_every) &&
    p.base_amount_cents.is(v.base_amount_cents) &&
    p.recurrence_starts_on.is(v.recurrence_starts_on) &&
    p.period_starts_on.is(v.period_starts_on) &&
    p.period_ends_on.is(v.period_ends_on) &&
    p.period_amount_cents.is(v.period_amount_cents) &&
    p.balance_cents.is(v.balance_cents)
  )
}

/**
 * The budget a row holds, as a fresh plain object, or every problem found in it: unreadable
 * fields, fields of the wrong type, then inconsistencies.
 *
 * @example
 * checkRow(readRow({ ...budget, balance_cents: -1 })) //=> left(['balance_cents is -1, not (Cents | null)'])
 *
 * @category rules
 * @since 0.1.0
 */
export const checkRow = (row: BudgetRow): E.Either<ReadonlyArray<string>, Budget> => {
  if (row.unreadable.length === 0 && hasFieldTypes(row.values)) return consistent(row.values)
  const found: Array<string> = row.unreadable.map((field) => `${field} could not be read`)
  for (const field of budgetFields) {
    const check = fieldChecks[field]
    const value = row.values[field]
    if (!check.is(value) && !row.unreadable.includes(field)) found.push(`${field} is ${describeValue(value)}, not ${check.name}`)
  }
  // Here a field is unreadable or of the wrong type, which the loop above names.
  return left(found)
}

/** Values of the right types: the budget, unless it is inconsistent. */
const consistent = (values: Readonly<Record<BudgetField, unknown>>): E.Either<ReadonlyArray<string>, Budget> => {
  // `values` is the fresh object `readRow` made, holding exactly the budget's fields: the budget.
  const budget = values as Budget
  const inconsistent = inconsistencies(budget)
  return inconsistent.length > 0 ? left(inconsistent) : right(budget)
}

/**
 * A stored budget read and checked: {@link readRow} then {@link checkRow}.
 *
 * @example
 * readBudget(null) //=> left(['the budget is null, not an object'])
 *
 * @category rules
 * @since 0.1.0
 */
export const readBudget = (u: unknown): E.Either<ReadonlyArray<string>, Budget> =>
  (typeof u === 'object' || typeof u === 'function') && u !== null
    ? checkRow(readRow(u))
    : left([`the budget is ${describeValue(u)}, not an object`])
