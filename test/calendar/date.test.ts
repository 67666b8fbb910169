import { addDays as addDaysFns, addMonths, format, parseISO } from 'date-fns'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, daysInMonth, fromDayNumber, isCalendarDate, isLeapYear, toDayNumber } from '../../src/index'
import { anyDate } from '../arbitraries'
import { day } from '../fixtures'

describe('isCalendarDate', () => {
  it.each([['2026-11-22'], ['2028-02-29'], ['0001-01-01'], ['9999-12-31'], ['2000-02-29']])('accepts %s', (s) => {
    expect(isCalendarDate(s)).toBe(true)
  })

  it.each([
    ['2027-02-29'],
    ['1900-02-29'],
    ['2026-04-31'],
    ['2026-13-01'],
    ['2026-00-10'],
    ['0000-01-01'],
    ['10000-01-01'],
    ['2026-1-05'],
    ['2026-11-22T00:00:00Z'],
    [' 2026-11-22'],
    ['']
  ])('rejects %j', (s) => {
    expect(isCalendarDate(s)).toBe(false)
  })

  it('rejects what is not a string', () => {
    fc.assert(fc.property(fc.anything().filter((u) => typeof u !== 'string'), (u) => !isCalendarDate(u)))
  })
})

describe('day numbers', () => {
  it('count from 1970-01-01', () => {
    expect([toDayNumber(day('1970-01-01')), toDayNumber(day('2000-03-01')), toDayNumber(day('0001-01-01'))]).toEqual([
      0, 11017, -719162
    ])
  })

  it('round-trip every date of the calendar', () => {
    fc.assert(fc.property(anyDate, (d) => fromDayNumber(toDayNumber(d)) === d))
  })

  it('return null outside 0001-01-01..9999-12-31', () => {
    expect([fromDayNumber(-719163), fromDayNumber(2932897), fromDayNumber(0.5)]).toEqual([null, null, null])
    expect([addDays(day('9999-12-31'), 1), addDays(day('0001-01-01'), -1)]).toEqual([null, null])
  })

  it('order as the strings do', () => {
    fc.assert(fc.property(anyDate, anyDate, (a, b) => a < b === toDayNumber(a) < toDayNumber(b)))
  })

  it('agree with date-fns on local dates, whatever TZ the suite runs under', () => {
    const near = fc.integer({ min: -25567, max: 47482 }).map((n) => fromDayNumber(n) ?? day('1970-01-01'))
    fc.assert(
      fc.property(near, fc.integer({ min: -800, max: 800 }), (d, n) => {
        expect(addDays(d, n)).toBe(format(addDaysFns(parseISO(d), n), 'yyyy-MM-dd'))
      })
    )
  })
})

describe('month arithmetic helpers', () => {
  it('knows the leap years of the Gregorian calendar', () => {
    expect([2024, 2100, 2000, 2027].map(isLeapYear)).toEqual([true, false, true, false])
  })

  it('agrees with date-fns on the length of every month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2200 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const first = parseISO(`${y}-${String(m).padStart(2, '0')}-01`)
        expect(daysInMonth(y, m)).toBe(Number(format(addDaysFns(addMonths(first, 1), -1), 'd')))
      })
    )
  })
})
