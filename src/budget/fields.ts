/**
 * The fields of a budget as plain values and checks: the values an enumerated field takes, the
 * amounts and counts a number field holds, the fields an update changes, and a check per field
 * with the name of its type. The io-ts codecs of the model (`./model.ts`) are built from these,
 * and typed by them; apart from the codecs so that code which only reads a budget (the UI's
 * rules, R-107) loads no io-ts.
 *
 * @example
 * fieldChecks.balance_cents.is(-1) //=> false
 *
 * @since 0.5.0
 */
import { isCalendarDate } from '../calendar/date'
import { recurrenceUnits } from '../recurrence/schedule'
import type { Access, Budget, BudgetField, BudgetStatus, Cents, Every, Mode } from './model'

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

/**
 * Every {@link Access}, for a UI's choice.
 *
 * @example
 * accessValues //=> ['everyone', 'members']
 *
 * @category model
 * @since 0.1.0
 */
export const accessValues: ReadonlyArray<Access> = ['everyone', 'members']

/**
 * Every {@link Mode}.
 *
 * @example
 * modes //=> ['funded', 'tracking']
 *
 * @category model
 * @since 0.5.0
 */
export const modes: ReadonlyArray<Mode> = ['funded', 'tracking']

/**
 * Every {@link BudgetStatus}, in the order a budget goes through them.
 *
 * @example
 * budgetStatuses //=> ['open', 'closing', 'closed']
 *
 * @category model
 * @since 0.5.0
 */
export const budgetStatuses: ReadonlyArray<BudgetStatus> = ['open', 'closing', 'closed']

/**
 * Whether `n` is an amount of money in integer cents, `0 <= n <= Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * isCents(5000) //=> true
 * isCents(50.5) //=> false
 * isCents(-1) //=> false
 *
 * @category refinements
 * @since 0.5.0
 */
export const isCents = (n: number): n is Cents => Number.isSafeInteger(n) && n >= 0

/**
 * Whether `n` is a number of units one period may last: an integer from 1 to 366.
 *
 * @example
 * isEvery(366) //=> true
 * isEvery(367) //=> false
 * isEvery(1.5) //=> false
 *
 * @category refinements
 * @since 0.5.0
 */
export const isEvery = (n: number): n is Every => Number.isInteger(n) && n >= 1 && n <= 366

/**
 * The fields an update may change, in the spec's order.
 *
 * @example
 * updateFields
 * //=> ['name', 'description', 'access', 'ends_on', 'manager_id', 'recurrence_unit', 'recurrence_every', 'base_amount_cents']
 *
 * @category model
 * @since 0.1.0
 */
export const updateFields = [
  'name',
  'description',
  'access',
  'ends_on',
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
] as const

/**
 * The update fields only full budget rights may change (spec section 5).
 *
 * @example
 * recurrenceFields //=> ['recurrence_unit', 'recurrence_every', 'base_amount_cents']
 *
 * @category model
 * @since 0.1.0
 */
export const recurrenceFields = ['recurrence_unit', 'recurrence_every', 'base_amount_cents'] as const

// -------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------

/**
 * A plain check of a field's value, and the name of its type as a message names it (the name
 * io-ts gives the field's codec).
 *
 * @example
 * const check: FieldCheck<string> = fieldChecks.name
 * check.name //=> 'string'
 *
 * @category model
 * @since 0.5.0
 */
export interface FieldCheck<A> {
  readonly name: string
  readonly is: (u: unknown) => u is A
}

const check = <A>(name: string, is: (u: unknown) => u is A): FieldCheck<A> => ({ name, is })

/** `c` or null, named as io-ts names `t.union([c, t.null])`. */
const nullable = <A>(c: FieldCheck<A>): FieldCheck<A | null> =>
  check(`(${c.name} | null)`, (u): u is A | null => u === null || c.is(u))

/** One of `values`, as `t.keyof` checks it: nothing but one of these strings. */
const oneOf = <A extends string>(values: ReadonlyArray<A>, name: string): FieldCheck<A> =>
  check(name, (u): u is A => (values as ReadonlyArray<unknown>).includes(u))

const text = /*#__PURE__*/ check('string', (u): u is string => typeof u === 'string')
const date = /*#__PURE__*/ check('CalendarDate', isCalendarDate)
const cents = /*#__PURE__*/ check('Cents', (u): u is Cents => typeof u === 'number' && isCents(u))
const every = /*#__PURE__*/ check('Every', (u): u is Every => typeof u === 'number' && isEvery(u))

/**
 * The check of each field of a budget (contract section 2), in the order of the contract;
 * typed by the model's codecs, so that each check narrows to exactly its field's type
 * (test/budget/fields.test.ts pins each to its codec, answer for answer and name for name).
 *
 * @example
 * fieldChecks.status.is('closing') //=> true
 * fieldChecks.ends_on.is(null) //=> true
 * fieldChecks.recurrence_every.name //=> '(Every | null)'
 *
 * @category constants
 * @since 0.5.0
 */
export const fieldChecks: { readonly [F in BudgetField]: FieldCheck<Budget[F]> } = {
  id: text,
  company_id: text,
  name: text,
  description: /*#__PURE__*/ nullable(text),
  access: /*#__PURE__*/ oneOf(accessValues, 'Access'),
  currency: text,
  mode: /*#__PURE__*/ oneOf(modes, 'Mode'),
  manager_id: /*#__PURE__*/ nullable(text),
  co_manager_id: /*#__PURE__*/ nullable(text),
  status: /*#__PURE__*/ oneOf(budgetStatuses, 'BudgetStatus'),
  created_on: date,
  ends_on: /*#__PURE__*/ nullable(date),
  recurrence_unit: /*#__PURE__*/ nullable(/*#__PURE__*/ oneOf(recurrenceUnits, 'RecurrenceUnit')),
  recurrence_every: /*#__PURE__*/ nullable(every),
  base_amount_cents: /*#__PURE__*/ nullable(cents),
  recurrence_starts_on: /*#__PURE__*/ nullable(date),
  period_starts_on: date,
  period_ends_on: /*#__PURE__*/ nullable(date),
  period_amount_cents: /*#__PURE__*/ nullable(cents),
  balance_cents: /*#__PURE__*/ nullable(cents)
}

/**
 * Every {@link BudgetField}, in the order of contract section 2.
 *
 * @example
 * budgetFields.length //=> 20
 * budgetFields.slice(0, 3) //=> ['id', 'company_id', 'name']
 *
 * @category model
 * @since 0.1.0
 */
export const budgetFields = /*#__PURE__*/ Object.keys(fieldChecks) as ReadonlyArray<BudgetField>
