import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, boundaryOf, respondBudgetUpdate, upcomingPeriods } from '../../src/index'
import { budgetAndToday, every, unit } from '../arbitraries'
import { budget, day, monthly, patch, TODAY } from '../fixtures'

const admin = (fields: Record<string, unknown>, b = budget(), today = TODAY) => {
  const r = respondBudgetUpdate({ ...patch('admin', { budget: fields }, b), today })
  if (r.budget === undefined) throw new Error(`expected a 200, got ${r.status} ${JSON.stringify(r.body)}`)
  return r.budget
}
const starts = (periods: ReadonlyArray<{ starts_on: string }>) => periods.map((p) => p.starts_on)

describe('periods over time: worked examples', () => {
  it('monthly from 31 January: 29 February in a leap year, then 31 March, 30 April, 31 May', () => {
    const b = monthly({
      created_on: '2028-01-31',
      recurrence_starts_on: '2028-01-31',
      period_starts_on: '2028-01-31',
      period_ends_on: '2028-02-29',
      base_amount_cents: 10000
    })
    expect(upcomingPeriods(b, day('2028-02-10'), 4)).toEqual([
      { starts_on: '2028-02-29', ends_on: '2028-03-31', amount_cents: 10000 },
      { starts_on: '2028-03-31', ends_on: '2028-04-30', amount_cents: 10000 },
      { starts_on: '2028-04-30', ends_on: '2028-05-31', amount_cents: 10000 },
      { starts_on: '2028-05-31', ends_on: '2028-06-30', amount_cents: 10000 }
    ])
  })

  it('yearly from 29 February: 28 February in common years, 29 February again in leap years', () => {
    const b = monthly({
      created_on: '2028-02-29',
      recurrence_unit: 'year',
      recurrence_starts_on: '2028-02-29',
      period_starts_on: '2028-02-29',
      period_ends_on: '2029-02-28'
    })
    expect(starts(upcomingPeriods(b, day('2028-03-01'), 4))).toEqual(['2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29'])
    expect(advanceBudget(b, day('2032-03-01'))).toMatchObject({ period_starts_on: '2032-02-29', period_ends_on: '2033-02-28' })
  })

  it('weekly and every 3 months', () => {
    const weekly = admin({ recurrence_unit: 'week', base_amount_cents: 700 })
    expect([weekly.recurrence_starts_on, weekly.period_ends_on]).toEqual(['2025-10-18', '2026-11-28'])
    expect(starts(upcomingPeriods(weekly, TODAY, 3))).toEqual(['2026-11-28', '2026-12-05', '2026-12-12'])
    const quarterly = admin({ recurrence_unit: 'month', recurrence_every: 3, base_amount_cents: 900 })
    expect(quarterly.period_ends_on).toBe('2027-01-18')
    expect(starts(upcomingPeriods(quarterly, TODAY, 3))).toEqual(['2027-01-18', '2027-04-18', '2027-07-18'])
  })

  it('recurrence turned on for a budget created 400 days ago counts from its creation date', () => {
    const b = budget({ created_on: '2025-10-18', period_starts_on: '2025-10-18', period_amount_cents: 100000 })
    const on = admin({ recurrence_unit: 'month', base_amount_cents: 50000 }, b)
    expect(on).toEqual({
      ...b,
      recurrence_unit: 'month',
      recurrence_every: 1,
      base_amount_cents: 50000,
      recurrence_starts_on: '2025-10-18',
      period_ends_on: '2026-12-18'
    })
    expect(advanceBudget(on, day('2026-12-18'))).toMatchObject({
      period_starts_on: '2026-12-18',
      period_ends_on: '2027-01-18',
      period_amount_cents: 50000
    })
  })

  it('unit changed mid-period: the period in progress keeps its end and amount, the new cadence starts there', () => {
    const b = monthly({ period_amount_cents: 41000 })
    const changed = admin({ recurrence_unit: 'week', recurrence_every: 2 }, b)
    expect(changed).toEqual({ ...b, recurrence_unit: 'week', recurrence_every: 2, recurrence_starts_on: '2026-12-18' })
    expect(upcomingPeriods(changed, TODAY, 2)).toEqual([
      { starts_on: '2026-12-18', ends_on: '2027-01-01', amount_cents: 50000 },
      { starts_on: '2027-01-01', ends_on: '2027-01-15', amount_cents: 50000 }
    ])
  })

  it('base changed mid-period: the period in progress keeps its amount, the next one gets the new base', () => {
    const changed = admin({ base_amount_cents: 65000 }, monthly())
    expect([changed.period_amount_cents, changed.recurrence_starts_on]).toEqual([50000, '2025-10-18'])
    expect(upcomingPeriods(changed, TODAY, 1)).toEqual([{ starts_on: '2026-12-18', ends_on: '2027-01-18', amount_cents: 65000 }])
  })

  it('stopped mid-period, then the period end passing: no new period, open-ended with its amount', () => {
    const stopped = admin({ recurrence_unit: null }, monthly({ period_amount_cents: 42000 }))
    expect(stopped).toMatchObject({
      recurrence_unit: null,
      recurrence_every: null,
      base_amount_cents: null,
      recurrence_starts_on: null,
      period_ends_on: '2026-12-18',
      period_amount_cents: 42000
    })
    expect(upcomingPeriods(stopped, TODAY, 3)).toEqual([])
    const later = advanceBudget(stopped, day('2027-03-01'))
    expect([later.period_starts_on, later.period_ends_on, later.period_amount_cents]).toEqual(['2026-11-18', null, 42000])
  })

  it('turned on again before the stopped period ends, renewals resume from its end', () => {
    const stopped = admin({ recurrence_unit: null }, monthly())
    const resumed = admin({ recurrence_unit: 'week', base_amount_cents: 100 }, stopped)
    expect([resumed.recurrence_starts_on, resumed.period_ends_on]).toEqual(['2026-12-18', '2026-12-18'])
  })

  it('turned on again once the period is open-ended, periods count from created_on again', () => {
    const stopped = advanceBudget(admin({ recurrence_unit: null }, monthly()), day('2027-01-05'))
    const on = admin({ recurrence_unit: 'month', base_amount_cents: 100 }, stopped, day('2027-01-05'))
    expect([on.recurrence_starts_on, on.period_starts_on, on.period_ends_on]).toEqual(['2025-10-18', '2026-11-18', '2027-01-18'])
  })

  it('no upcoming periods for a closed budget, an open-ended period, or n below 1', () => {
    expect(upcomingPeriods(monthly({ status: 'closed', ends_on: '2026-11-01' }), TODAY, 3)).toEqual([])
    expect(upcomingPeriods(budget(), TODAY, 3)).toEqual([])
    expect(upcomingPeriods(monthly(), TODAY, 0)).toEqual([])
  })

  it('stops the preview at the end of the calendar', () => {
    const b = monthly({
      recurrence_unit: 'year',
      recurrence_every: 366,
      created_on: '9000-01-01',
      recurrence_starts_on: '9000-01-01',
      period_starts_on: '9000-01-01',
      period_ends_on: '9366-01-01'
    })
    expect(upcomingPeriods(b, day('9000-06-01'), 5)).toEqual([
      { starts_on: '9366-01-01', ends_on: '9732-01-01', amount_cents: 50000 },
      { starts_on: '9732-01-01', ends_on: null, amount_cents: 50000 }
    ])
  })
})

describe('periods over time: properties', () => {
  it('each upcoming period is the period in progress when its start day comes', () => {
    fc.assert(
      fc.property(budgetAndToday, fc.integer({ min: 1, max: 6 }), ({ budget: b, today }, n) => {
        for (const p of upcomingPeriods(b, today, n)) {
          const then = advanceBudget(b, p.starts_on)
          expect([then.period_starts_on, then.period_ends_on, then.period_amount_cents]).toEqual([
            p.starts_on,
            p.ends_on,
            p.amount_cents
          ])
        }
      })
    )
  })

  it('keeps the anchor when only the base changes, even after a clamped month end', () => {
    const b = monthly({
      recurrence_every: 2,
      recurrence_starts_on: '2055-10-29',
      period_starts_on: '2056-12-29',
      period_ends_on: '2057-02-28'
    })
    const after = admin({ recurrence_unit: 'month', recurrence_every: 2, base_amount_cents: 0 }, b, day('2056-12-29'))
    expect(upcomingPeriods(after, day('2056-12-29'), 2)).toEqual([
      { starts_on: '2057-02-28', ends_on: '2057-04-29', amount_cents: 0 },
      { starts_on: '2057-04-29', ends_on: '2057-06-29', amount_cents: 0 }
    ])
  })

  it("a change's effect starts exactly at the old period_ends_on", () => {
    const renewing = budgetAndToday
      .map(({ budget: b, today }) => ({ b: advanceBudget(b, today), today }))
      .filter(({ b }) => b.status !== 'closed' && b.recurrence_unit !== null && b.period_ends_on !== null)
    fc.assert(
      fc.property(renewing, unit, every, fc.integer({ min: 0, max: 10 ** 9 }), ({ b, today }, u, n, base) => {
        const after = admin({ recurrence_unit: u, recurrence_every: n, base_amount_cents: base }, b, today)
        const [next] = upcomingPeriods(after, today, 1)
        fc.pre(next !== undefined)
        expect(next.starts_on).toBe(b.period_ends_on)
        expect(next.amount_cents).toBe(base)
        // A new cadence counts from the old period end; an unchanged one (only the base moved)
        // keeps its anchor, which differs once a month end has clamped (29 Feb 2057 -> 28 Feb).
        const sameCadence = u === b.recurrence_unit && n === b.recurrence_every
        expect(next.ends_on).toBe(
          sameCadence ? upcomingPeriods(b, today, 1)[0]?.ends_on : boundaryOf({ anchor: next.starts_on, unit: u, every: n }, 1)
        )
        expect([after.period_ends_on, after.period_amount_cents]).toEqual([b.period_ends_on, b.period_amount_cents])
      }),
      { numRuns: 1000 }
    )
  })
})
