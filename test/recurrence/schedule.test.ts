import { addMonths, addYears, format, parseISO } from 'date-fns'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { boundaryOf, indexAt, nextBoundaryAfter, periodAt, type Schedule } from '../../src/index'
import { every, nearDate, unit } from '../arbitraries'
import { day } from '../fixtures'

const schedule = (anchor: string, u: Schedule['unit'], n = 1): Schedule => ({ anchor: day(anchor), unit: u, every: n })
const boundaries = (s: Schedule, n: number) => Array.from({ length: n }, (_, k) => boundaryOf(s, k))

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

  it('is null past 9999-12-31', () => {
    expect(boundaryOf(schedule('9999-06-01', 'year'), 1)).toBeNull()
    expect(boundaryOf(schedule('9999-12-30', 'day', 2), 1)).toBeNull()
  })

  it('agrees with date-fns adding months or years to the anchor', () => {
    fc.assert(
      fc.property(nearDate, fc.constantFrom('month', 'year'), every, fc.integer({ min: 0, max: 40 }), (a, u, n, k) => {
        const fns = u === 'month' ? addMonths(parseISO(a), k * n) : addYears(parseISO(a), k * n)
        fc.pre(fns.getFullYear() <= 9999)
        expect(boundaryOf({ anchor: a, unit: u, every: n }, k)).toBe(format(fns, 'yyyy-MM-dd'))
      })
    )
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

  const scheduleArb = fc.record({ anchor: nearDate, unit, every })

  it('returns a non-empty period that contains the date', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 20000 }), (s, offset) => {
        const d = boundaryOf({ anchor: s.anchor, unit: 'day', every: 1 }, offset)
        fc.pre(d !== null)
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
      fc.property(scheduleArb, fc.integer({ min: 0, max: 500 }), (s, k) => {
        const a = boundaryOf(s, k)
        const b = boundaryOf(s, k + 1)
        fc.pre(a !== null && b !== null)
        expect(a < b).toBe(true)
        expect(indexAt(s, a)).toBe(k)
        expect(periodAt(s, a)).toEqual({ starts_on: a, ends_on: b })
      })
    )
  })

  it('agrees with a walk from the anchor', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 3000 }), (s, offset) => {
        const d = boundaryOf({ anchor: s.anchor, unit: 'day', every: 1 }, offset)
        fc.pre(d !== null)
        let k = 0
        for (let next = boundaryOf(s, 1); next !== null && next <= d; next = boundaryOf(s, k + 1)) k++
        expect(indexAt(s, d)).toBe(k)
      })
    )
  })

  it('nextBoundaryAfter is strictly after the date and the anchor before it', () => {
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2026-11-22'))).toBe('2026-12-18')
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2026-12-18'))).toBe('2027-01-18')
    expect(nextBoundaryAfter(schedule('2025-10-18', 'month'), day('2025-01-01'))).toBe('2025-10-18')
  })
})
