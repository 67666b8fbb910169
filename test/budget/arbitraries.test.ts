import { either } from 'fp-ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Budget } from '../api'
import { budgetAndToday, r17Problems, tally } from '../arbitraries'
import { budget, monthly } from '../fixtures'
import { runs } from '../runs'
import { advanceModel, daysBetween } from './calendar-oracle'

const monthEndDay = (d: string | null) => d !== null && (Number(d.slice(8)) >= 29 || d.slice(5) === '02-28')

describe('test/arbitraries.ts budgetAndToday', () => {
  it('makes only budgets consistent per R-17, which the codec accepts, as of their last look', () => {
    const consistent = tally()
    fc.assert(
      fc.property(budgetAndToday, ({ budget: b, today, lastLook }) => {
        consistent.run()
        expect(r17Problems(b)).toEqual([])
        expect(either.isRight(Budget.decode(b))).toBe(true)
        expect(lastLook <= today).toBe(true)
        // Status and ends_on agree on the day it was last advanced, and advancing to that day is a no-op.
        if (b.status === 'closing') expect(b.ends_on !== null && b.ends_on <= lastLook).toBe(true)
        if (b.status === 'open') expect(b.ends_on === null || b.ends_on > lastLook).toBe(true)
        expect(advanceModel(b, lastLook)).toEqual(b)
        consistent.reach()
      }),
      { numRuns: runs(1000) }
    )
    consistent.expectShare(1)
  })

  it('anchors most schedules on a month end, makes century-old budgets, and crosses period ends', () => {
    const stats = { renewing: 0, monthEnd: 0, leapDay: 0, century: 0, rolls: 0, all: 0 }
    fc.assert(
      fc.property(budgetAndToday, ({ budget: b, today }) => {
        stats.all++
        if (daysBetween(b.created_on, today) >= 36525) stats.century++
        if (b.recurrence_starts_on === null || b.period_ends_on === null) return
        stats.renewing++
        if (monthEndDay(b.recurrence_starts_on)) stats.monthEnd++
        if (b.recurrence_starts_on.slice(5) === '02-29') stats.leapDay++
        if (b.status !== 'closed' && today >= b.period_ends_on) stats.rolls++
      }),
      { numRuns: runs(2000) }
    )
    expect(stats.renewing / stats.all).toBeGreaterThan(0.35)
    expect(stats.monthEnd / stats.renewing).toBeGreaterThan(0.45)
    expect(stats.leapDay / stats.renewing).toBeGreaterThan(0.1)
    expect(stats.century / stats.all).toBeGreaterThan(0.25)
    expect(stats.rolls / stats.renewing).toBeGreaterThan(0.4)
  })

  it('r17Problems names each inconsistency of the R-17 list', () => {
    expect(r17Problems(monthly())).toEqual([])
    expect(r17Problems(budget())).toEqual([])
    const cases: ReadonlyArray<[Partial<Budget>, string]> = [
      [{ balance_cents: null }, 'funded without a balance'],
      [{ balance_cents: -1 as never }, 'funded without a balance'],
      [{ mode: 'tracking' }, 'tracking with a balance'],
      [{ recurrence_every: 1 as never }, 'recurrence settings without a unit'],
      [{ base_amount_cents: 0 as never }, 'recurrence settings without a unit'],
      [{ recurrence_starts_on: '2025-10-18' as never }, 'recurrence settings without a unit'],
      [{ created_on: '2026-02-29' as never }, 'created_on is not a real date'],
      [{ period_ends_on: '2025-10-18' as never }, 'period_ends_on not after period_starts_on']
    ]
    for (const [overrides, problem] of cases) expect(r17Problems({ ...budget(), ...overrides })).toEqual([problem])
    const renewing: ReadonlyArray<Partial<Budget>> = [
      { recurrence_every: null },
      { recurrence_every: 0 as never },
      { recurrence_every: 367 as never },
      { recurrence_every: 1.5 as never },
      { base_amount_cents: null },
      { recurrence_starts_on: null },
      { period_ends_on: null }
    ]
    for (const overrides of renewing)
      expect(r17Problems({ ...monthly(), ...overrides })).toEqual(['a unit without every, base, anchor or period end'])
  })
})
