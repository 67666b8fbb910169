/**
 * Request bodies as the service receives them, raw text: budget updates (contract section 5)
 * and money operations (section 7), valid, invalid and hostile.
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import type { Budget } from '../budget/stored'
import { addDays, type CalendarDate } from '../calendar/date'
import { recurrenceUnits } from '../recurrence/schedule'
import { cents } from './budget'

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

/** The company's members a new manager_id may name (`company_member_ids`). */
export const memberIds: ReadonlyArray<string> = ['u-manager', 'u-comanager', 'u-member', 'u-admin', 'u-owner', 'u-bm']

/** A name valid by construction: letters and inner spaces, 1..40 characters. */
const validName = fc.stringMatching(/^[A-Za-z]([A-Za-z ]{0,38}[A-Za-z])?$/)

const unit = fc.constantFrom(...recurrenceUnits)
const every = fc.oneof({ withCrossShrink: true }, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 366 }))

const after = (today: string, n: number): string => addDays(today as CalendarDate, n) ?? '9999-12-31'

/**
 * What a budget body is drawn against: the budget (as advanced to `today`) and `today`.
 *
 * @example
 * import { updateBody } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const context = { budget: { ...budget, ends_on: '2026-12-31' }, today: '2026-11-22' }
 * sample(updateBody(context), { numRuns: 200, seed: 1 }).some((text) => text?.includes('"ends_on":"2026-12-31"') === true)
 * //=> true
 *
 * @category model
 * @since 0.2.0
 */
export interface BodyContext {
  readonly budget: Budget
  readonly today: string
}

/**
 * A body's fields drawn before the budget is known, resolved against it: drawing them apart
 * from the budget (rather than by `chain`) lets fast-check shrink both.
 */
export type Recipe = (c: BodyContext) => Record<string, unknown>

type Value = (c: BodyContext) => unknown

/** A value that does not depend on the budget. */
const literal = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<Value> => arb.map((v) => () => v)

/** The value the budget holds for `key`. */
const held = (key: keyof Budget): fc.Arbitrary<Value> => fc.constant((c: BodyContext) => c.budget[key])

/** Some keys of `values` (at least `minLength`), each resolved against the context. */
const someOf = (values: Record<string, fc.Arbitrary<Value>>, minLength = 1): fc.Arbitrary<Recipe> =>
  fc
    .record(values, { requiredKeys: [] })
    .filter((r) => Object.keys(r).length >= minLength)
    .map((r) => (c: BodyContext) => Object.fromEntries(Object.entries(r).map(([k, f]) => [k, (f as Value)(c)])))

/** Two recipes' fields together, the second's winning on a shared key. */
const both = (a: fc.Arbitrary<Recipe>, b: fc.Arbitrary<Recipe>): fc.Arbitrary<Recipe> =>
  fc.tuple(a, b).map(([f, g]) => (c: BodyContext) => ({ ...f(c), ...g(c) }))

/** The first of `values` that differs from `current` (the list holds at least two values). */
const otherThan = <T>(values: ReadonlyArray<T>, pick: number, current: unknown): T => {
  const first = values[pick % values.length] as T
  return first !== current ? first : (values[(pick + 1) % values.length] as T)
}

/** A recurrence change a full-rights caller may make: turn on, change cadence or base, stop, or resend. */
const recurrenceChange: fc.Arbitrary<Recipe> = fc
  .record({
    variant: fc.constantFrom('cadence', 'base', 'stop', 'held'),
    unit,
    every,
    base: cents,
    sendEvery: fc.boolean()
  })
  .map((r) => (c: BodyContext): Record<string, unknown> => {
    const b = c.budget
    if (b.recurrence_unit === null)
      return { recurrence_unit: r.unit, base_amount_cents: r.base, ...(r.sendEvery ? { recurrence_every: r.every } : {}) }
    switch (r.variant) {
      case 'cadence':
        return { recurrence_unit: r.unit, ...(r.sendEvery ? { recurrence_every: r.every } : {}) }
      case 'base':
        return { base_amount_cents: r.base }
      case 'stop':
        return { recurrence_unit: null }
      default:
        return {
          recurrence_unit: b.recurrence_unit,
          recurrence_every: b.recurrence_every,
          base_amount_cents: b.base_amount_cents
        }
    }
  })

/** The recurrence fields as held (no change: a manager may resend them). */
const recurrenceHeld: fc.Arbitrary<Recipe> = someOf(
  {
    recurrence_unit: held('recurrence_unit'),
    recurrence_every: held('recurrence_every'),
    base_amount_cents: held('base_amount_cents')
  },
  0
)

/**
 * Fields a caller with `rights` may send and have accepted: a full-rights caller any valid
 * change (recurrence turned on, changed or stopped included), a manager or co-manager the plain
 * fields, with manager_id and the recurrence fields only as held.
 */
export const validFields = (rights: 'full' | 'manager'): fc.Arbitrary<Recipe> => {
  const plain = someOf(
    {
      name: fc.oneof(literal(validName), held('name')),
      description: literal(
        fc.option(
          fc.string({ maxLength: 30 }).map((s) => s.replace(/\0/g, '')),
          { nil: null }
        )
      ),
      access: literal(fc.constantFrom('everyone', 'members')),
      ends_on: fc.oneof(
        literal(fc.constant(null)),
        fc.integer({ min: 1, max: 900 }).map((n) => (c: BodyContext) => after(c.today, n)),
        held('ends_on')
      ),
      manager_id: rights === 'full' ? literal(fc.option(fc.constantFrom(...memberIds), { nil: null })) : held('manager_id')
    },
    0
  )
  const recurrence = fc.option(rights === 'full' ? recurrenceChange : recurrenceHeld, { nil: undefined })
  return fc.tuple(plain, recurrence).map(([p, r]) => (c: BodyContext) => {
    const fields = { ...p(c), ...(r === undefined ? {} : r(c)) }
    // An empty `budget` is a 200 that changes nothing: send a name as held instead.
    return Object.keys(fields).length > 0 ? fields : { name: c.budget.name }
  })
}

/**
 * Fields that change manager_id or the recurrence (each differing from the value held), with
 * other fields beside them: what a caller without full rights may not send (403).
 */
export const forbiddenFields = (): fc.Arbitrary<Recipe> => {
  const managers: ReadonlyArray<string | null> = [...memberIds, null, 'u-other']
  const units: ReadonlyArray<string | null> = [...recurrenceUnits, null]
  const change = fc.oneof(
    {
      weight: 2,
      arbitrary: someOf({
        manager_id: fc.nat().map((pick) => (c: BodyContext) => otherThan(managers, pick, c.budget.manager_id))
      })
    },
    {
      weight: 1,
      arbitrary: someOf({
        recurrence_unit: fc.nat().map((pick) => (c: BodyContext) => otherThan(units, pick, c.budget.recurrence_unit)),
        recurrence_every: every.map((n) => (c: BodyContext) => (n === c.budget.recurrence_every ? (n % 366) + 1 : n)),
        base_amount_cents: cents.map((n) => (c: BodyContext) => (n === c.budget.base_amount_cents ? (n === 0 ? 1 : n - 1) : n))
      })
    }
  )
  return both(someOf({ name: literal(validName), access: literal(fc.constantFrom('everyone', 'members', 'nobody')) }, 0), change)
}

/** Fields of which at least one is invalid (422), or in one run of four of the wrong JSON type (400). */
export const invalidFields = (): fc.Arbitrary<Recipe> =>
  both(
    validFields('full'),
    fc.oneof(
      {
        weight: 3,
        arbitrary: someOf({
          name: literal(fc.constantFrom('', '   ', 'x'.repeat(256), 'a\u0000b')),
          access: literal(fc.constantFrom('nobody', 'Everyone')),
          ends_on: fc.oneof(
            literal(fc.constantFrom('2027-02-30', '10000-01-01', '0000-12-31')),
            fc.integer({ min: -30, max: 0 }).map((n) => (c: BodyContext) => after(c.today, n))
          ),
          manager_id: literal(fc.constant('u-nobody')),
          recurrence_unit: literal(fc.constantFrom('fortnight', 'Month')),
          recurrence_every: literal(fc.constantFrom(0, 367, 2.5, -1)),
          base_amount_cents: literal(fc.constantFrom(-1, 0.5, Number.MAX_SAFE_INTEGER + 1)),
          currency: fc.constant((c: BodyContext) => (c.budget.currency === 'USD' ? 'CLP' : 'USD')),
          balance_cents: fc.constant((c: BodyContext) => (c.budget.balance_cents ?? 0) + 1),
          status: fc.constant((c: BodyContext) => (c.budget.status === 'closed' ? 'open' : 'closed')),
          colour: literal(fc.constant('red'))
        })
      },
      {
        weight: 1,
        arbitrary: someOf({
          name: literal(fc.constant(5)),
          access: literal(fc.constant(true)),
          ends_on: literal(fc.constant(20270101)),
          manager_id: literal(fc.constant(7)),
          recurrence_every: literal(fc.constant('2')),
          base_amount_cents: literal(fc.constant('100'))
        })
      }
    )
  )

/**
 * Bodies no well-behaved client sends: blank, not JSON, not an object, `budget` missing, null
 * or not an object, prototype keys, duplicate keys, a NUL or a lone surrogate written as a
 * JSON escape, numbers past any precision, a byte-order mark, deep nesting.
 */
const hostileUpdateText: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  '',
  '   \n',
  'null',
  '[]',
  '"budget"',
  '{',
  '{"budget":',
  '{"budget":null}',
  '{"other":{"name":"x"}}',
  '{"budget":[]}',
  '{"budget":"x"}',
  '{"budget":{}}',
  '{"budget":{"__proto__":{"name":"x"}}}',
  '{"__proto__":{"budget":{"name":"x"}}}',
  '{"budget":{"constructor":{"prototype":{"name":"x"}}}}',
  '{"budget":{"name":"a","name":""}}',
  '{"budget":{"name":"a\\u0000b"}}',
  '{"budget":{"name":"\\ud800"}}',
  '{"budget":{"base_amount_cents":1e400}}',
  '{"budget":{"recurrence_every":1.0}}',
  '\uFEFF{"budget":{"name":"x"}}',
  `{"budget":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  "{'budget':{'name':'x'}}"
)

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/**
 * The raw body of a budget update (PATCH /v1/budgets/{id}, contract section 5), or undefined
 * for none: valid `{"budget": {...}}` bodies for a caller with full rights in about half the
 * runs, bodies with invalid values or values of the wrong JSON type, changes a manager may not
 * make, and hostile text (see the list in the source: blank, not JSON, prototype keys, escapes
 * of NUL and lone surrogates, deep nesting, ...). Given the budget and `today`, values are
 * drawn around what it holds (its ends_on, its recurrence); otherwise around the `budget()`
 * fixture of the examples.
 *
 * @example
 * import { updateBody } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const bodies = sample(updateBody({ budget, today: '2026-11-22' }), { numRuns: 100, seed: 1 })
 * bodies.some((text) => text === undefined) && bodies.some((text) => text?.startsWith('{"budget":{') === true)
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const updateBody = (context?: BodyContext): fc.Arbitrary<string | undefined> => {
  const c: BodyContext = context ?? { budget: example, today: '2026-11-22' }
  return updateText().map((text) => text(c))
}

/** {@link updateBody} as a recipe: the raw text, resolved against the budget once it is known. */
export const updateText = (): fc.Arbitrary<(c: BodyContext) => string | undefined> => {
  const wrapped = (fields: fc.Arbitrary<Recipe>) => fields.map((f) => (c: BodyContext) => JSON.stringify({ budget: f(c) }))
  return fc.oneof(
    { arbitrary: wrapped(validFields('full')), weight: 4 },
    { arbitrary: wrapped(invalidFields()), weight: 2 },
    { arbitrary: wrapped(forbiddenFields()), weight: 1 },
    { arbitrary: hostileUpdateText.map((text) => () => text), weight: 1 }
  )
}

/**
 * The raw body of a money operation (POST top_up and withdraw, PATCH amount; contract section
 * 7): an `amount_cents` from 1 to a thousand in most runs, otherwise 0, negative, a fraction, a
 * string, the largest safe integer or past it, missing, or hostile text.
 *
 * @example
 * import { moneyBody } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(moneyBody(), { numRuns: 100, seed: 1 }).filter((text) => text !== undefined && /^\{"amount_cents":\d+\}$/.test(text)).length > 50
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const moneyBody = (): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 1000 }).map((amount_cents) => JSON.stringify({ amount_cents })), weight: 6 },
    {
      arbitrary: fc
        .constantFrom<unknown>(0, -1, 2.5, '100', null, Number.MAX_SAFE_INTEGER, 1e20, true)
        .map((amount_cents) => JSON.stringify({ amount_cents })),
      weight: 2
    },
    {
      arbitrary: fc.constantFrom(
        undefined,
        '',
        '{}',
        '[]',
        'null',
        '{"amount_cents":',
        '{"amount":100}',
        '{"amount_cents":1e400}',
        '{"amount_cents":100,"amount_cents":-5}',
        '{"__proto__":{"amount_cents":100}}'
      ),
      weight: 1
    }
  )

/** The budget the examples and {@link updateBody} without a context use (test/doc-examples.ts). */
const example = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Team lunch',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-7',
  co_manager_id: null,
  status: 'open',
  created_on: '2025-10-18',
  ends_on: null,
  recurrence_unit: 'month',
  recurrence_every: 1,
  base_amount_cents: 50000,
  recurrence_starts_on: '2025-10-18',
  period_starts_on: '2026-11-18',
  period_ends_on: '2026-12-18',
  period_amount_cents: 50000,
  balance_cents: 20000
} as Budget
