import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, advanceBudget, budgetFields } from '../../src/index'
import { budgetAndToday } from '../arbitraries'
import { budget, day, monthly } from '../fixtures'

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

  const later = budgetAndToday.chain(({ budget: b, today }) =>
    fc.integer({ min: 0, max: 4000 }).map((n) => ({ b, t1: today, t2: addDays(today, n) ?? today }))
  )

  it('composes: advancing to t1 then t2 is advancing to t2', () => {
    fc.assert(
      fc.property(later, ({ b, t1, t2 }) => {
        expect(advanceBudget(advanceBudget(b, t1), t2)).toEqual(advanceBudget(b, t2))
      }),
      { numRuns: 2000 }
    )
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(budgetAndToday, ({ budget: b, today }) => {
        const once = advanceBudget(b, today)
        expect(advanceBudget(once, today)).toEqual(once)
      })
    )
  })

  it('puts today inside the period in progress of a renewing budget', () => {
    fc.assert(
      fc.property(budgetAndToday, ({ budget: b, today }) => {
        const a = advanceBudget(b, today)
        fc.pre(a.status !== 'closed' && a.recurrence_unit !== null && a.period_ends_on !== null)
        expect(a.period_starts_on <= today && today < a.period_ends_on).toBe(true)
      })
    )
  })

  it('changes nothing but the period fields and status', () => {
    fc.assert(
      fc.property(budgetAndToday, ({ budget: b, today }) => {
        const a = advanceBudget(b, today)
        for (const key of budgetFields)
          if (!key.startsWith('period_') && key !== 'status') expect(a[key], key).toEqual(b[key])
      })
    )
  })
})
