/**
 * The budget (balance group) as the service's clients see it: contract section 2, snake_case,
 * dates as `YYYY-MM-DD`, money as integer cents.
 *
 * @example
 * import { budgetFields } from 'budget-rules/rules'
 *
 * budgetFields.length //=> 20
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { CalendarDate } from '../calendar/codec'
import { recurrenceUnits } from '../recurrence/schedule'
import { accessValues, budgetFields, budgetStatuses, isCents, isEvery, modes, recurrenceFields, updateFields } from './fields'

// The plain values and checks the codecs are built from (`./fields.ts`), where the model's readers find them.
export { accessValues, budgetFields, recurrenceFields, updateFields }

// -------------------------------------------------------------------------------------
// codecs of the parts
// -------------------------------------------------------------------------------------

const keyed = <K extends string>(keys: ReadonlyArray<K>, name: string) =>
  t.keyof(Object.fromEntries(keys.map((k) => [k, null])) as Record<K, null>, name)

/**
 * Who can use the group.
 *
 * @example
 * BudgetFields.props.access.is('members') //=> true
 * BudgetFields.props.access.is('Members') //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type Access = 'everyone' | 'members'

/**
 * A funded budget holds a balance (top_up, withdraw); a tracking budget only plans an amount
 * per period (amount). It never changes.
 *
 * @example
 * BudgetFields.props.mode.is('tracking') //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type Mode = 'funded' | 'tracking'

/**
 * A closing budget has reached its closing date but has not closed yet.
 *
 * @example
 * BudgetFields.props.status.is('closing') //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetStatus = 'open' | 'closing' | 'closed'

/**
 * @category model
 * @since 0.1.0
 */
export interface CentsBrand {
  readonly Cents: unique symbol
}

/**
 * An amount of money in integer cents, `0 <= n <= Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * Cents.is(5000) //=> true
 * Cents.is(50.5) //=> false
 * Cents.is(-1) //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type Cents = t.Branded<number, CentsBrand>

/**
 * The io-ts codec of {@link Cents}.
 *
 * @category codecs
 * @since 0.1.0
 */
export const Cents = /*#__PURE__*/ t.brand(t.number, isCents, 'Cents')

/**
 * @category model
 * @since 0.1.0
 */
export interface EveryBrand {
  readonly Every: unique symbol
}

/**
 * How many units one period lasts: an integer from 1 to 366.
 *
 * @example
 * Every.is(366) //=> true
 * Every.is(367) //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type Every = t.Branded<number, EveryBrand>

/**
 * The io-ts codec of {@link Every}.
 *
 * @category codecs
 * @since 0.1.0
 */
export const Every = /*#__PURE__*/ t.brand(t.number, isEvery, 'Every')

/**
 * `c` or null, as `t.union([c, t.null])` decodes it, with an `is` that asks `c` only about a
 * value that is not null: a stored budget's twenty fields are checked on every request, and the
 * union's `is` builds a closure per call.
 */
export class NullableType<C extends t.Mixed> extends t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null> {
  /** Told apart as io-ts tells its own codecs apart, so a reader of the model (the API's JSON Schema) sees `C | null`. */
  readonly _tag = 'NullableType' as const
  constructor(readonly type: C) {
    const union = t.union([type, t.null])
    super(union.name, (u): u is t.TypeOf<C> | null => u === null || type.is(u), union.validate, union.encode)
  }
}

const nullable = <C extends t.Mixed>(c: C): NullableType<C> => new NullableType(c)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The fields of a budget and the type of each (contract section 2). Reading a stored budget
 * (`./stored.ts`) checks each field with these codecs, then the budget as a whole.
 *
 * @example
 * BudgetFields.is(budget) //=> true
 * BudgetFields.is({ ...budget, balance_cents: -1 }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const BudgetFields = /*#__PURE__*/ t.type(
  {
    id: t.string,
    company_id: t.string,
    name: t.string,
    description: nullable(t.string),
    access: keyed(accessValues, 'Access'),
    currency: t.string,
    mode: keyed(modes, 'Mode'),
    manager_id: nullable(t.string),
    co_manager_id: nullable(t.string),
    status: keyed(budgetStatuses, 'BudgetStatus'),
    created_on: CalendarDate,
    ends_on: nullable(CalendarDate),
    recurrence_unit: nullable(keyed(recurrenceUnits, 'RecurrenceUnit')),
    recurrence_every: nullable(Every),
    base_amount_cents: nullable(Cents),
    recurrence_starts_on: nullable(CalendarDate),
    period_starts_on: CalendarDate,
    period_ends_on: nullable(CalendarDate),
    period_amount_cents: nullable(Cents),
    balance_cents: nullable(Cents)
  },
  'Budget'
)

/**
 * A budget (balance group), contract section 2.
 *
 * @example
 * BudgetFields.is(budget) //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type Budget = t.TypeOf<typeof BudgetFields>

/**
 * A budget as plain JSON, before decoding: what a server reads from its store.
 *
 * @example
 * BudgetFields.encode(budget) //=> budget
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetJson = t.OutputOf<typeof BudgetFields>

/**
 * The keys of a budget, in the order of contract section 2.
 *
 * @example
 * isBudgetField('balance_cents') //=> true
 * isBudgetField('balance') //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetField = keyof Budget

/**
 * A field an update may change.
 *
 * @example
 * updateFields.includes('balance_cents' as UpdateField) //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type UpdateField = (typeof updateFields)[number]

/**
 * Whether `key` is a field of a budget (own fields only, not `toString` or `__proto__`).
 *
 * @example
 * isBudgetField('name') //=> true
 * isBudgetField('__proto__') //=> false
 *
 * @category refinements
 * @since 0.1.0
 */
export const isBudgetField = (key: string): key is BudgetField => (budgetFields as ReadonlyArray<string>).includes(key)
