import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, type CalendarDate, respondBudgetUpdate, upcomingPeriods } from '../api'
import { budgets, renewingBudgetAndToday } from '../arbitraries'
import { plusDays } from '../budget/calendar-oracle'
import { budget, budgetOf, day, monthly, patch, TODAY } from '../fixtures'
import { runs } from '../runs'
import { timelineOf, timelineText } from '../../src/timeline/timeline'

const example = (name: string) => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8')) as Budget

describe('timelineText', () => {
  it('shows the period in progress, the next ones with their month-end dates, and the closing day among them', () => {
    expect(timelineText({ budget: example('budget-monthly.json'), today: TODAY, next: 4 })).toBe(
      [
        'Team lunch (b-31): funded, CLP, open, balance 20,000 cents',
        'renews every month from 2026-01-31',
        'today 2026-11-22',
        '',
        '> 2026-10-31 .. 2026-11-30  50,000 cents  in progress',
        '  2026-11-30 .. 2026-12-31  50,000 cents',
        '  2026-12-31 .. 2027-01-31  50,000 cents',
        '  2027-01-31 .. 2027-02-28  50,000 cents',
        '  2027-02-28 .. 2027-03-31  50,000 cents',
        '! 2027-03-15                              ends_on: the budget closes (status closing)',
        ''
      ].join('\n')
    )
  })

  it('shows a cadence changed for the next period where it takes effect, before the first period of it', () => {
    expect(timelineText({ budget: example('budget-cadence-change.json'), today: TODAY, next: 2 })).toBe(
      [
        'Field trips (b-42): tracking, CLP, open',
        'renews every 2 weeks from 2026-11-25',
        'today 2026-11-22',
        '',
        '> 2026-11-18 .. 2026-11-25  12,000 cents  in progress',
        '! 2026-11-25                              from here: renews every 2 weeks, 30,000 cents a period',
        '  2026-11-25 .. 2026-12-09  30,000 cents',
        '  2026-12-09 .. 2026-12-23  30,000 cents',
        ''
      ].join('\n')
    )
  })

  it('shows where renewals stop, the period in progress going on open-ended', () => {
    const stopped = monthly({
      recurrence_unit: null,
      recurrence_every: null,
      base_amount_cents: null,
      recurrence_starts_on: null
    })
    expect(timelineText({ budget: stopped, today: TODAY, next: 12 }).split('\n').slice(1)).toEqual([
      'does not renew',
      'today 2026-11-22',
      '',
      '> 2026-11-18 .. open-ended  50,000 cents  in progress',
      '! 2026-12-18                              renewals stop: the period in progress goes on, open-ended',
      ''
    ])
  })

  it('rolls the periods of a closing budget on, with no closing day to come', () => {
    const closing = monthly({ ends_on: '2026-12-01', period_amount_cents: 1 })
    expect(timelineText({ budget: closing, today: day('2027-01-20'), next: 1 }).split('\n')).toEqual([
      'Travel (b-1): funded, CLP, closing since 2026-12-01, balance 5,000 cents',
      'renews every month from 2025-10-18',
      'today 2027-01-20',
      '',
      '> 2027-01-18 .. 2027-02-18  50,000 cents  in progress',
      '  2027-02-18 .. 2027-03-18  50,000 cents',
      ''
    ])
  })

  it('shows the last period of a closed budget, not in progress, and nothing to come', () => {
    expect(
      timelineText({ budget: monthly({ status: 'closed' }), today: TODAY, next: 3 })
        .split('\n')
        .slice(1)
    ).toEqual(['closed: no periods to come', 'today 2026-11-22', '', '  2026-11-18 .. 2026-12-18  50,000 cents  last period', ''])
  })

  it('shows a budget that never renewed as one open-ended period, its amount possibly unset', () => {
    const never = budget({ mode: 'tracking', balance_cents: null, period_amount_cents: null })
    expect(timelineText({ budget: never, today: TODAY, next: 3 }).split('\n')).toEqual([
      'Travel (b-1): tracking, CLP, open',
      'does not renew',
      'today 2026-11-22',
      '',
      '> 2025-10-18 .. open-ended  no amount  in progress',
      ''
    ])
  })

  it('refuses what upcomingPeriods refuses, with its TypeError', () => {
    expect(() => timelineText({ budget: monthly(), today: '2026-02-30' as CalendarDate, next: 1 })).toThrow(
      new TypeError('upcomingPeriods: today is "2026-02-30", not a date (YYYY-MM-DD)')
    )
    expect(() => timelineText({ budget: { ...monthly(), period_ends_on: null }, today: TODAY, next: 1 })).toThrow(TypeError)
  })
})

/** The budget an admin's PATCH of `b` gives on `today`, which must succeed. */
const updated = (b: Budget, today: CalendarDate, fields: Record<string, unknown>): Budget => {
  const reply = respondBudgetUpdate(patch('admin', { budget: fields }, b, { today }))
  const after = budgetOf(reply)
  if (after === undefined) throw new Error(`the update was refused: ${JSON.stringify(reply.body)}`)
  return after
}

// The pending changes, checked against budgets changed through the library's own update (R-12,
// the change must show where the contract says it takes effect, and only then.
describe('timelineOf: pending changes', () => {
  const unclosed = fc
    .tuple(renewingBudgetAndToday, fc.integer({ min: 1, max: 12 }))
    .map(([{ budget: b, today }, next]) => ({ b: advanceBudget(b, today), today, next }))
    .filter(({ b }) => b.status === 'open' && b.period_ends_on !== null)

  it('a changed cadence shows at the end of the period in progress, and the periods after it follow the new cadence', () => {
    fc.assert(
      fc.property(unclosed, fc.integer({ min: 1, max: 366 }), ({ b, today, next }, every) => {
        fc.pre(every !== b.recurrence_every && plusDays(b.period_ends_on as string, 800) !== null)
        const changed = updated(b, today, { recurrence_every: every })
        const t = timelineOf({ budget: changed, today, next })
        expect(t.changes.filter((c) => c._tag !== 'closing')).toEqual([
          { _tag: 'cadence', on: b.period_ends_on, unit: b.recurrence_unit, every, amount_cents: b.base_amount_cents }
        ])
        expect(t.periods[0]).toEqual({
          starts_on: b.period_starts_on,
          ends_on: b.period_ends_on,
          amount_cents: b.period_amount_cents,
          in_progress: true
        })
        expect(t.periods[1]?.starts_on).toBe(b.period_ends_on)
      }),
      { numRuns: runs(60) }
    )
  })

  it('renewals turned off show where they stop, the period in progress open-ended and alone', () => {
    fc.assert(
      fc.property(unclosed, ({ b, today, next }) => {
        const t = timelineOf({ budget: updated(b, today, { recurrence_unit: null }), today, next })
        expect(t.changes.filter((c) => c._tag !== 'closing')).toEqual([{ _tag: 'stop', on: b.period_ends_on }])
        expect(t.periods).toEqual([
          { starts_on: b.period_starts_on, ends_on: null, amount_cents: b.period_amount_cents, in_progress: true }
        ])
      }),
      { numRuns: runs(40) }
    )
  })

  it('a closing day set shows on that day, and none when it is taken away', () => {
    fc.assert(
      fc.property(unclosed, fc.integer({ min: 1, max: 900 }), ({ b, today, next }, days) => {
        const ends_on = plusDays(today, days)
        fc.pre(ends_on !== null)
        const closes = timelineOf({ budget: updated(b, today, { ends_on }), today, next })
        expect(closes.changes.filter((c) => c._tag === 'closing')).toEqual([{ _tag: 'closing', on: ends_on }])
        const open = timelineOf({ budget: updated(b, today, { ends_on: null }), today, next })
        expect(open.changes).toEqual([])
      }),
      { numRuns: runs(40) }
    )
  })

  it('a budget as stored (no change made since its schedule began) has only its closing day pending, if any', () => {
    fc.assert(
      fc.property(budgets(), fc.integer({ min: 0, max: 6 }), ({ budget: b, today }, next) => {
        const t = timelineOf({ budget: b, today, next })
        const a = advanceBudget(b, today)
        const stopped = a.status !== 'closed' && a.recurrence_unit === null && a.period_ends_on !== null
        const pending = [
          ...(stopped ? [{ _tag: 'stop', on: a.period_ends_on as string }] : []),
          ...(a.status === 'open' && a.ends_on !== null ? [{ _tag: 'closing', on: a.ends_on as string }] : [])
        ]
        // In date order.
        expect(t.changes).toEqual(pending.sort((x, y) => (x.on <= y.on ? -1 : 1)))
        // The periods: the one in progress, then exactly upcomingPeriods', contiguous.
        expect(t.periods.slice(1)).toEqual(upcomingPeriods(b, today, next).map((p) => ({ ...p, in_progress: false })))
        for (let i = 1; i < t.periods.length; i++) expect(t.periods[i]?.starts_on).toBe(t.periods[i - 1]?.ends_on)
      }),
      { numRuns: runs(100) }
    )
  })
})
