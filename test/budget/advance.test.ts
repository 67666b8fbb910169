import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, budgetFields, type CalendarDate } from '../api'
import { advance } from '../../src/budget/advance'
import { budgetAndToday, budgets, renewingBudgetAndToday, tally } from '../arbitraries'
import { budget, day, monthly } from '../fixtures'
import { runs } from '../runs'
import { advanceModel, daysBetween, plusDays } from './calendar-oracle'

/** Days after a date: a few, a few years, or a century. */
const later = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 36525, max: 40000 }))
const after = (date: string, n: number) => plusDays(date, n) as CalendarDate

/** Whether advancing `b` to `t` starts a new period (a renewing budget, not closed, at or past its period end). */
const rolls = (b: { status: string; recurrence_unit: unknown; period_ends_on: string | null }, t: string) =>
  b.status !== 'closed' && b.recurrence_unit !== null && b.period_ends_on !== null && t >= b.period_ends_on

describe('advanceBudget', () => {
  it('rolls a monthly budget from 31 January through clamped month ends', () => {
    const b = monthly({
      recurrence_starts_on: '2027-01-31',
      period_starts_on: '2027-01-31',
      period_ends_on: '2027-02-28',
      period_amount_cents: 123
    })
    expect(advanceBudget(b, day('2027-04-02'))).toEqual({
      ...b,
      period_starts_on: '2027-03-31',
      period_ends_on: '2027-04-30',
      period_amount_cents: 50000
    })
  })

  it('starts the next period exactly on period_ends_on', () => {
    const b = monthly()
    expect(advanceBudget(b, day('2026-12-17'))).toEqual(b)
    expect(advanceBudget(b, day('2026-12-18'))).toMatchObject({ period_starts_on: '2026-12-18', period_ends_on: '2027-01-18' })
  })

  it('leaves a stopped budget open-ended with its amount once the period ends', () => {
    const b = budget({ period_starts_on: '2026-11-18', period_ends_on: '2026-12-18', period_amount_cents: 700 })
    expect(advanceBudget(b, day('2027-03-01'))).toEqual({ ...b, period_ends_on: null })
  })

  it('moves an open budget to closing on its closing date, and keeps rolling periods', () => {
    const b = monthly({ ends_on: '2026-12-01' })
    expect(advanceBudget(b, day('2026-11-30')).status).toBe('open')
    expect(advanceBudget(b, day('2026-12-01')).status).toBe('closing')
    expect(advanceBudget(b, day('2027-01-20'))).toMatchObject({ status: 'closing', period_starts_on: '2027-01-18' })
  })

  it('returns a closed budget unchanged', () => {
    const b = monthly({ status: 'closed', ends_on: '2026-01-01' })
    expect(advanceBudget(b, day('2030-01-01'))).toEqual(b)
  })

  it('never moves backwards', () => {
    const b = monthly({ status: 'closing', ends_on: '2026-11-20' })
    expect(advanceBudget(b, day('2020-01-01'))).toEqual(b)
  })

  it('equals the model of contract section 6 (date-fns on UTCDate), month-end anchors and century-old budgets included', () => {
    const reached = tally()
    const any = fc.oneof({ arbitrary: renewingBudgetAndToday, weight: 3 }, { arbitrary: budgetAndToday, weight: 1 })
    fc.assert(
      fc.property(any, ({ budget: b, today }) => {
        reached.run()
        expect(advanceBudget(b, today)).toEqual(advanceModel(b, today))
        if (rolls(b, today)) reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('composes: advancing to t1 then t2 is advancing to t2', () => {
    const reached = tally()
    // t2 counts from t1, or from the end of the period in progress on t1 so that it rolls in most runs.
    const twoDays = fc
      .oneof({ arbitrary: renewingBudgetAndToday, weight: 3 }, { arbitrary: budgetAndToday, weight: 1 })
      .chain(({ budget: b, today }) =>
        fc.tuple(fc.boolean(), later).map(([fromPeriodEnd, n]) => {
          const end = advanceBudget(b, today).period_ends_on
          return { b, t1: today, t2: after(fromPeriodEnd && end !== null ? end : today, n) }
        })
      )
    fc.assert(
      fc.property(twoDays, ({ b, t1, t2 }) => {
        reached.run()
        const a1 = advanceBudget(b, t1)
        expect(advanceBudget(a1, t2)).toEqual(advanceBudget(b, t2))
        if (rolls(a1, t2)) reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('is idempotent', () => {
    const reached = tally()
    fc.assert(
      fc.property(renewingBudgetAndToday, ({ budget: b, today }) => {
        reached.run()
        const once = advanceBudget(b, today)
        expect(advanceBudget(once, today)).toEqual(once)
        if (rolls(b, today)) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
  })

  it('never moves backwards: a day before the one the budget reflects changes nothing', () => {
    const reached = tally()
    const before = budgetAndToday.chain(({ budget: b, lastLook }) =>
      later.map((n) => ({ b, t: plusDays(lastLook, -Math.min(n, daysBetween('0001-01-01', lastLook))) as CalendarDate }))
    )
    fc.assert(
      fc.property(before, ({ b, t }) => {
        reached.run()
        expect(advanceBudget(b, t)).toEqual(b)
        reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare(1)
  })

  it('puts today inside the period in progress of a renewing budget', () => {
    const reached = tally()
    fc.assert(
      fc.property(renewingBudgetAndToday, ({ budget: b, today }) => {
        reached.run()
        const a = advanceBudget(b, today)
        expect(a.recurrence_unit).not.toBeNull()
        expect([a.period_starts_on <= today, a.period_ends_on !== null && today < a.period_ends_on]).toEqual([true, true])
        reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare(1)
  })

  it('changes nothing but the period fields and status; the balance never', () => {
    const reached = tally()
    fc.assert(
      fc.property(fc.oneof(renewingBudgetAndToday, budgetAndToday), ({ budget: b, today }) => {
        reached.run()
        const a = advanceBudget(b, today)
        for (const key of budgetFields) if (!key.startsWith('period_') && key !== 'status') expect(a[key], key).toEqual(b[key])
        if (rolls(b, today)) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
  })

  it('returns a closed budget unchanged, whatever the day', () => {
    const reached = tally()
    fc.assert(
      fc.property(budgets({ statuses: ['closed'] }), later, ({ budget: b, today }, n) => {
        reached.run()
        expect(advanceBudget(b, after(today, n))).toEqual(b)
        reached.reach()
      }),
      { numRuns: runs(500) }
    )
    reached.expectShare(1)
  })

  it('is O(1) in the age of the budget: a daily budget anchored on 0001-01-01 advanced to 9999-12-30', () => {
    const b = monthly({
      recurrence_unit: 'day',
      recurrence_every: 1,
      created_on: '0001-01-01',
      recurrence_starts_on: '0001-01-01',
      period_starts_on: '0001-01-01',
      period_ends_on: '0001-01-02'
    })
    expect(advanceBudget(b, day('9999-12-30'))).toMatchObject({ period_starts_on: '9999-12-30', period_ends_on: '9999-12-31' })
    // 3.65 million periods: a walk would take seconds for these 1,000 calls; arithmetic takes milliseconds.
    const started = performance.now()
    for (let i = 0; i < 1000; i++) advanceBudget(b, day('9999-12-30'))
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

// advanceBudget rolls the budget it checked in place, for speed only (its source says so): the
// budget it was given is a frozen object here, which it must not write, and the budget it
// returns is what advance (the rules' copy on write) makes of a copy, field for field and in the
// same order of keys, a fresh object whether anything changed or not.
describe('advanceBudget is advance of a fresh copy', () => {
  it('for every budget and day, rolled or not', () => {
    let rolled = 0
    let total = 0
    fc.assert(
      fc.property(budgetAndToday, later, ({ budget: b, today }, days) => {
        const t = after(today, days)
        const given = Object.freeze({ ...b })
        const result = advanceBudget(given, t)
        const expected = advance({ ...b }, t)
        expect(result).toStrictEqual(expected)
        expect(Object.keys(result)).toEqual(Object.keys(expected))
        expect(result).not.toBe(given)
        expect(given).toStrictEqual(b)
        total++
        if (rolls(b, t)) rolled++
      }),
      { numRuns: runs(500) }
    )
    expect(rolled / total).toBeGreaterThanOrEqual(0.3)
  })
})
