import { UTCDate } from '@date-fns/utc'
import { addDays, addMonths, addWeeks, addYears, format } from 'date-fns'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { boundaryOf, type CalendarDate, indexAt, nextBoundaryAfter, periodAt, type Schedule } from '../api'
import { every, unit } from '../arbitraries'
import { day } from '../fixtures'

const schedule = (anchor: string, u: Schedule['unit'], n = 1): Schedule => ({ anchor: day(anchor), unit: u, every: n })
const boundaries = (s: Schedule, n: number) => Array.from({ length: n }, (_, k) => boundaryOf(s, k))

// The oracle never reads the process's local time: date-fns on UTCDate, and day numbers from
// Date.parse of an instant with `Z`. A local-time oracle is wrong wherever the zone skipped a
// day (Pacific/Kiritimati has no 1994-12-31, Pacific/Apia no 2011-12-30).
const MS_PER_DAY = 86_400_000
const utc = (d: string): UTCDate => new UTCDate(`${d}T00:00:00Z`)
const epochDay = (d: string): number => Date.parse(`${d}T00:00:00Z`) / MS_PER_DAY
const dateOfEpochDay = (n: number): CalendarDate => day(new Date(n * MS_PER_DAY).toISOString().slice(0, 10))
const LAST_DAY = epochDay('9999-12-31')

/** Boundary k as date-fns computes it from the anchor, or null past 9999-12-31. */
const fnsBoundary = (s: Schedule, k: number): string | null => {
  const a = utc(s.anchor)
  const n = k * s.every
  const d =
    s.unit === 'day' ? addDays(a, n) : s.unit === 'week' ? addWeeks(a, n) : s.unit === 'month' ? addMonths(a, n) : addYears(a, n)
  return d.getUTCFullYear() > 9999 ? null : format(d, 'yyyy-MM-dd')
}

/** The largest k whose boundary k + 1 is still within the calendar, counted without the library. */
const lastFullPeriod = (s: Schedule): number => {
  if (s.unit === 'day' || s.unit === 'week')
    return Math.floor((LAST_DAY - epochDay(s.anchor)) / (s.every * (s.unit === 'week' ? 7 : 1))) - 1
  const monthsLeft = (9999 - Number(s.anchor.slice(0, 4))) * 12 + (12 - Number(s.anchor.slice(5, 7)))
  return Math.floor(monthsLeft / (s.every * (s.unit === 'year' ? 12 : 1))) - 1
}

/** Dates from 1990 to 2060, a third of them within two weeks of a day some zone skipped. */
const anchorDate: fc.Arbitrary<CalendarDate> = fc.oneof(
  fc.integer({ min: epochDay('1990-01-01'), max: epochDay('2060-12-31') }).map(dateOfEpochDay),
  fc.integer({ min: epochDay('1990-01-01'), max: epochDay('2060-12-31') }).map(dateOfEpochDay),
  fc
    .constantFrom('1994-12-31', '2011-12-30')
    .chain((s) => fc.integer({ min: -14, max: 14 }).map((k) => dateOfEpochDay(epochDay(s) + k)))
)

const scheduleArb: fc.Arbitrary<Schedule> = fc.record({ anchor: anchorDate, unit, every })

describe('boundaryOf', () => {
  it('clamps monthly boundaries from 31 January without drifting', () => {
    expect(boundaries(schedule('2028-01-31', 'month'), 5)).toEqual([
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
      '2028-05-31'
    ])
    expect(boundaryOf(schedule('2027-01-31', 'month'), 1)).toBe('2027-02-28')
  })

  it('gives 28 February in common years and 29 February in leap years for a 29 February anchor', () => {
    expect(boundaries(schedule('2028-02-29', 'year'), 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29'
    ])
  })

  it('steps weeks as 7 days and honours every', () => {
    expect(boundaries(schedule('2026-11-22', 'week', 2), 3)).toEqual(['2026-11-22', '2026-12-06', '2026-12-20'])
    expect(boundaries(schedule('2026-11-30', 'month', 3), 3)).toEqual(['2026-11-30', '2027-02-28', '2027-05-30'])
  })

  // A local-time oracle gets each of these wrong under Pacific/Kiritimati (1994) or Pacific/Apia
  // (2011): it finds no local midnight on the skipped day and lands on the day after.
  it.each<[string, Schedule['unit'], number, number, string]>([
    ['1994-12-29', 'day', 2, 1, '1994-12-31'],
    ['1994-12-24', 'week', 1, 1, '1994-12-31'],
    ['1994-10-31', 'month', 2, 1, '1994-12-31'],
    ['1993-12-31', 'year', 1, 1, '1994-12-31'],
    ['2011-12-29', 'day', 1, 1, '2011-12-30'],
    ['2011-12-16', 'week', 1, 2, '2011-12-30'],
    ['2011-11-30', 'month', 1, 1, '2011-12-30'],
    ['2010-12-30', 'year', 1, 1, '2011-12-30'],
    ['2011-12-30', 'day', 1, 1, '2011-12-31'],
    ['2011-12-30', 'month', 1, 1, '2012-01-30']
  ])('anchored %s, every %s x%d: boundary %d is %s, for the library and for the oracle', (anchor, u, n, k, expected) => {
    const s = schedule(anchor, u, n)
    expect([boundaryOf(s, k), fnsBoundary(s, k)]).toEqual([expected, expected])
  })

  it('is null past 9999-12-31', () => {
    expect(boundaryOf(schedule('9999-06-01', 'year'), 1)).toBeNull()
    expect(boundaryOf(schedule('9999-12-30', 'day', 2), 1)).toBeNull()
  })

  it('agrees with date-fns adding days, weeks, months or years to the anchor', () => {
    let dates = 0
    let total = 0
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 40 }), (s, k) => {
        total++
        const expected = fnsBoundary(s, k)
        if (expected !== null) dates++
        expect(boundaryOf(s, k)).toBe(expected)
      })
    )
    // Most runs compare a date; the rest check the null past the calendar's end.
    expect(dates / total).toBeGreaterThanOrEqual(0.5)
  })
})

describe('indexAt and periodAt', () => {
  it('finds the period containing a date after month-end clamping', () => {
    const s = schedule('2027-01-31', 'month')
    expect(periodAt(s, day('2027-03-30'))).toEqual({ starts_on: '2027-02-28', ends_on: '2027-03-31' })
    expect(periodAt(s, day('2027-03-31'))).toEqual({ starts_on: '2027-03-31', ends_on: '2027-04-30' })
    expect(periodAt(s, day('2027-01-30'))).toBeNull()
  })

  it('finds the period of a daily schedule anchored in 1900 without walking', () => {
    expect(periodAt(schedule('1900-01-01', 'day'), day('2026-11-22'))).toEqual({ starts_on: '2026-11-22', ends_on: '2026-11-23' })
  })

  it('finds the periods around the skipped days', () => {
    expect(periodAt(schedule('2011-11-30', 'month'), day('2011-12-30'))).toEqual({
      starts_on: '2011-12-30',
      ends_on: '2012-01-30'
    })
    expect(periodAt(schedule('2011-11-30', 'month'), day('2011-12-29'))).toEqual({
      starts_on: '2011-11-30',
      ends_on: '2011-12-30'
    })
    expect(periodAt(schedule('1994-12-24', 'week'), day('1994-12-31'))).toEqual({
      starts_on: '1994-12-31',
      ends_on: '1995-01-07'
    })
  })

  it('returns a non-empty period that contains the date', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 20000 }), (s, offset) => {
        // On or after the anchor, within the calendar: there is always a period.
        const d = dateOfEpochDay(epochDay(s.anchor) + offset)
        const p = periodAt(s, d)
        expect(p).not.toBeNull()
        if (p === null) return
        expect(p.starts_on <= d).toBe(true)
        expect(p.ends_on === null || (d < p.ends_on && p.starts_on < p.ends_on)).toBe(true)
      })
    )
  })

  it('makes consecutive periods contiguous and strictly increasing', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 500 }), (s, raw) => {
        // k and k + 1 both within the calendar, by construction.
        const k = raw % (Math.min(500, lastFullPeriod(s)) + 1)
        const a = boundaryOf(s, k)
        const b = boundaryOf(s, k + 1)
        expect(a).not.toBeNull()
        expect(b).not.toBeNull()
        if (a === null || b === null) return
        expect(a < b).toBe(true)
        expect(indexAt(s, a)).toBe(k)
        expect(periodAt(s, a)).toEqual({ starts_on: a, ends_on: b })
      })
    )
  })

  it('agrees with a walk from the anchor', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 3000 }), (s, offset) => {
        const d = dateOfEpochDay(epochDay(s.anchor) + offset)
        let k = 0
        for (let next = boundaryOf(s, 1); next !== null && next <= d; next = boundaryOf(s, k + 1)) k++
        expect(indexAt(s, d)).toBe(k)
      })
    )
  })

  it('counts back from the anchor for a date before it: the largest k whose boundary is on or before the date', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 1, max: 3000 }), (s, back) => {
        const d = dateOfEpochDay(epochDay(s.anchor) - back)
        let k = -1
        for (let b = boundaryOf(s, k); b !== null && b > d; b = boundaryOf(s, k)) k--
        expect(indexAt(s, d)).toBe(k)
        expect(periodAt(s, d)).toBeNull()
      })
    )
  })

  it('finds a boundary in year 1 on the date itself', () => {
    const s = schedule('0001-01-31', 'month')
    expect([indexAt(s, day('0001-03-31')), periodAt(s, day('0001-03-31'))]).toEqual([
      2,
      { starts_on: '0001-03-31', ends_on: '0001-04-30' }
    ])
  })

  it('is negative, with no period, for a date before the anchor where the boundary before it would fall before year 1', () => {
    const s = schedule('0001-02-28', 'month', 2)
    expect(boundaryOf(s, -1)).toBeNull()
    expect(indexAt(s, day('0001-01-15'))).toBeLessThan(0)
    expect(periodAt(s, day('0001-01-15'))).toBeNull()
  })

  it('nextBoundaryAfter is strictly after the date and the anchor before it', () => {
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2026-11-22'))).toBe('2026-12-18')
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2026-12-18'))).toBe('2027-01-18')
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2025-01-01'))).toBe('2025-10-18')
  })
})
