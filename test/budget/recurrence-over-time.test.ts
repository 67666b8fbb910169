import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  advanceBudget,
  boundaryOf,
  type CalendarDate,
  indexAt,
  nextBoundaryAfter,
  periodAt,
  respondBudgetUpdate,
  type Schedule,
  upcomingPeriods
} from '../api'
import { anchorDate, every, renewingBudgetAndToday, tally, unit } from '../arbitraries'
import { budget, day, monthly, patch, TODAY } from '../fixtures'
import { runs } from '../runs'
import { advanceModel, boundary, daysBetween, indexContaining, periodContaining, plusDays } from './calendar-oracle'

const admin = (fields: Record<string, unknown>, b = budget(), today = TODAY) => {
  const r = respondBudgetUpdate({ ...patch('admin', { budget: fields }, b), today })
  if (r.status !== 200) throw new Error(`expected a 200, got ${r.status} ${JSON.stringify(r.body)}`)
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
  it('the upcoming periods are the next boundaries of the schedule (date-fns oracle), each the period in progress when its start day comes', () => {
    const reached = tally()
    fc.assert(
      fc.property(renewingBudgetAndToday, fc.integer({ min: 1, max: 6 }), ({ budget: b, today }, n) => {
        reached.run()
        const now = advanceModel(b, today)
        const s = {
          anchor: now.recurrence_starts_on as string,
          unit: now.recurrence_unit as Schedule['unit'],
          every: now.recurrence_every as number
        }
        const first = indexContaining(s, now.period_ends_on as string)
        // The period in progress ends on a boundary of its schedule, where the next one starts.
        expect(boundary(s, first)).toBe(now.period_ends_on)
        const expected = Array.from({ length: n }, (_, i) => ({
          starts_on: boundary(s, first + i),
          ends_on: boundary(s, first + i + 1),
          amount_cents: now.base_amount_cents
        }))
        const periods = upcomingPeriods(b, today, n)
        expect(periods).toEqual(expected)
        for (const p of periods) {
          const then = advanceBudget(b, p.starts_on)
          expect([then.period_starts_on, then.period_ends_on, then.period_amount_cents]).toEqual([
            p.starts_on,
            p.ends_on,
            p.amount_cents
          ])
        }
        if (periods.length > 0) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
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
    const reached = tally()
    const renewing = renewingBudgetAndToday.map(({ budget: b, today }) => ({ b: advanceBudget(b, today), today }))
    fc.assert(
      fc.property(renewing, unit, every, fc.integer({ min: 0, max: 10 ** 9 }), ({ b, today }, u, n, base) => {
        reached.run()
        const after = admin({ recurrence_unit: u, recurrence_every: n, base_amount_cents: base }, b, today)
        const [next] = upcomingPeriods(after, today, 1)
        expect(next).toBeDefined()
        if (next === undefined) return
        expect([next.starts_on, next.amount_cents]).toEqual([b.period_ends_on, base])
        // A new cadence counts from the old period end; an unchanged one (only the base moved)
        // keeps its anchor, which differs once a month end has clamped (29 Feb 2057 -> 28 Feb).
        const old = {
          anchor: b.recurrence_starts_on as string,
          unit: b.recurrence_unit as Schedule['unit'],
          every: b.recurrence_every as number
        }
        const sameCadence = u === b.recurrence_unit && n === b.recurrence_every
        expect(next.ends_on).toBe(
          sameCadence
            ? boundary(old, indexContaining(old, next.starts_on) + 1)
            : boundary({ anchor: next.starts_on, unit: u, every: n }, 1)
        )
        expect([after.period_starts_on, after.period_ends_on, after.period_amount_cents]).toEqual([
          b.period_starts_on,
          b.period_ends_on,
          b.period_amount_cents
        ])
        reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare(1)
  })
})

describe('renewal schedules: the laws of src/recurrence/schedule.ts', () => {
  /** A schedule anchored on a month end or 29 February in most runs, and a date before, near or a century after the anchor. */
  const scheduleAndDate = fc
    .record({
      anchor: anchorDate,
      unit,
      every,
      offset: fc.oneof(
        fc.integer({ min: -400, max: -1 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 36525, max: 40000 })
      )
    })
    .map(({ anchor, unit: u, every: n, offset }) => ({
      s: { anchor, unit: u, every: n },
      d: plusDays(anchor, offset) as CalendarDate
    }))

  it('boundary k is the anchor plus k times every units, month ends clamped (date-fns oracle), and boundaries increase', () => {
    const reached = tally()
    fc.assert(
      fc.property(
        scheduleAndDate,
        fc.oneof(fc.integer({ min: -60, max: 60 }), fc.integer({ min: -5000, max: 5000 })),
        ({ s }, k) => {
          reached.run()
          const b = boundaryOf(s, k)
          expect(b).toBe(boundary(s, k))
          const next = boundaryOf(s, k + 1)
          if (b !== null && next !== null) expect(b < next).toBe(true)
          if (b !== null) reached.reach()
        }
      ),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('indexAt finds the boundary on or before a date, and periodAt and nextBoundaryAfter agree with the oracle', () => {
    const reached = tally()
    fc.assert(
      fc.property(scheduleAndDate, ({ s, d }) => {
        reached.run()
        const k = indexAt(s, d)
        const [at, next] = [boundaryOf(s, k), boundaryOf(s, k + 1)]
        expect(at !== null && at <= d).toBe(true)
        expect(next === null || d < next).toBe(true)
        const afterAnchor = d >= s.anchor
        expect(periodAt(s, d)).toEqual(afterAnchor ? periodContaining(s, d) : null)
        expect(nextBoundaryAfter(s, d)).toBe(afterAnchor ? boundary(s, indexContaining(s, d) + 1) : s.anchor)
        if (afterAnchor) reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('indexAt is O(1): a daily schedule from 0001-01-01 to 9999-12-31, a thousand times', () => {
    const s: Schedule = { anchor: day('0001-01-01'), unit: 'day', every: 1 }
    expect(indexAt(s, day('9999-12-31'))).toBe(daysBetween('0001-01-01', '9999-12-31'))
    const started = performance.now()
    for (let i = 0; i < 1000; i++) indexAt(s, day('9999-12-31'))
    // A walk over 3.65 million boundaries a call would take minutes.
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('boundaries before year 1 (a case that once tripped the oracle)', () => {
  it('has no boundary 60 steps of 32 years before 1904-02-29, in the library or the oracle', () => {
    const s = { anchor: day('1904-02-29'), unit: 'year' as const, every: 32 }
    expect(boundaryOf(s, -60)).toBeNull()
    expect(boundary(s, -60)).toBeNull()
    expect([boundaryOf(s, -59), boundary(s, -59)]).toEqual(['0016-02-29', '0016-02-29'])
  })
})
