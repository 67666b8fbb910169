import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { accessValues, budgetFields, budgetStatuses, fieldChecks, isCents, isEvery, modes } from '../../src/budget/fields'
import { type BudgetField, BudgetFields, Cents, Every } from '../../src/budget/model'
import { recurrenceUnits } from '../../src/recurrence/schedule'
import { baseBudget, monthly } from '../fixtures'

// The plain checks the UI's rules read budgets with, pinned to the io-ts codecs of the
// model: the same fields in the same order, the same name, the same answer for anything.

/** Values near every field's type: the values it takes, their neighbours, and hostile ones. */
const near: ReadonlyArray<unknown> = [
  ...accessValues,
  ...modes,
  ...budgetStatuses,
  ...recurrenceUnits,
  'Members',
  'Open',
  'months',
  'toString',
  '__proto__',
  '',
  '2026-02-28',
  '2026-02-29',
  '2028-02-29',
  '0000-12-31',
  '0001-01-01',
  '9999-12-31',
  '2026-1-01',
  ' 2026-01-01',
  0,
  -0,
  1,
  -1,
  0.5,
  366,
  367,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '1',
  null,
  undefined,
  true,
  1n,
  [],
  {},
  new Number(1),
  new String('open'),
  Symbol('x')
]

const anything: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(...near), fc.anything())

describe('fieldChecks', () => {
  it("has the model's fields, in its order", () => {
    expect(budgetFields).toEqual(Object.keys(BudgetFields.props))
    expect(Object.keys(fieldChecks)).toEqual(budgetFields)
  })

  it.each(Object.keys(BudgetFields.props) as ReadonlyArray<BudgetField>)('%s: the name of its codec', (field) => {
    expect(fieldChecks[field].name).toBe(BudgetFields.props[field].name)
  })

  it('names each type as a message does', () => {
    expect(Object.fromEntries(budgetFields.map((f) => [f, fieldChecks[f].name]))).toEqual({
      id: 'string',
      company_id: 'string',
      name: 'string',
      description: '(string | null)',
      access: 'Access',
      currency: 'string',
      mode: 'Mode',
      manager_id: '(string | null)',
      co_manager_id: '(string | null)',
      status: 'BudgetStatus',
      created_on: 'CalendarDate',
      ends_on: '(CalendarDate | null)',
      recurrence_unit: '(RecurrenceUnit | null)',
      recurrence_every: '(Every | null)',
      base_amount_cents: '(Cents | null)',
      recurrence_starts_on: '(CalendarDate | null)',
      period_starts_on: 'CalendarDate',
      period_ends_on: '(CalendarDate | null)',
      period_amount_cents: '(Cents | null)',
      balance_cents: '(Cents | null)'
    })
  })

  it.each(Object.keys(BudgetFields.props) as ReadonlyArray<BudgetField>)(
    '%s: the answer of its codec for every value near a type, and for anything',
    (field) => {
      const codec = BudgetFields.props[field]
      for (const u of near) expect([u, fieldChecks[field].is(u)]).toEqual([u, codec.is(u)])
      fc.assert(fc.property(anything, (u) => fieldChecks[field].is(u) === codec.is(u)))
    }
  )

  it("holds of every field of a budget, and the fields' values of the wrong type fail", () => {
    for (const b of [baseBudget, monthly()]) for (const f of budgetFields) expect(fieldChecks[f].is(b[f])).toBe(true)
    expect(fieldChecks.status.is('archived')).toBe(false)
    expect(fieldChecks.mode.is(null)).toBe(false)
    expect(fieldChecks.recurrence_unit.is(null)).toBe(true)
    expect(fieldChecks.recurrence_unit.is('fortnight')).toBe(false)
    expect(fieldChecks.balance_cents.is(-1)).toBe(false)
    expect(fieldChecks.balance_cents.is('100')).toBe(false)
    expect(fieldChecks.created_on.is(null)).toBe(false)
    expect(fieldChecks.ends_on.is('2026-02-30')).toBe(false)
  })
})

describe('isCents and isEvery', () => {
  it.each<[number, boolean, boolean]>([
    [0, true, false],
    [1, true, true],
    [366, true, true],
    [367, true, false],
    [-1, false, false],
    [-0, true, false],
    [0.5, false, false],
    [1.5, false, false],
    [Number.MAX_SAFE_INTEGER, true, false],
    [Number.MAX_SAFE_INTEGER + 1, false, false],
    [Number.NaN, false, false],
    [Number.POSITIVE_INFINITY, false, false],
    [Number.NEGATIVE_INFINITY, false, false]
  ])('%s: cents %s, every %s', (n, cents, every) => {
    expect(isCents(n)).toBe(cents)
    expect(isEvery(n)).toBe(every)
  })

  it('are the brands the codecs check', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer({ min: -2, max: 400 }), fc.constantFrom(...near)), (u) => {
        expect(typeof u === 'number' && isCents(u)).toBe(Cents.is(u))
        expect(typeof u === 'number' && isEvery(u)).toBe(Every.is(u))
      })
    )
  })
})
