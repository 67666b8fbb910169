import { UTCDate } from '@date-fns/utc'
import { addDays as addDaysFns, format, getDaysInMonth, isLeapYear as isLeapYearFns } from 'date-fns'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, daysInMonth, fromDayNumber, isCalendarDate, isLeapYear, toDayNumber } from '../api'
import { anyDate } from '../arbitraries'
import { day } from '../fixtures'

// The oracles never read the process's local time: date-fns works on UTCDate (its getters and
// setters are the UTC ones), and day numbers come from Date.parse of an instant with `Z`. A
// local-time oracle is wrong wherever the zone skipped a day: Pacific/Kiritimati has no
// 1994-12-31 and Pacific/Apia no 2011-12-30, where local midnight of that day does not exist.
const MS_PER_DAY = 86_400_000
const utc = (d: string): UTCDate => new UTCDate(`${d}T00:00:00Z`)
const ymd = (d: Date): string => format(d, 'yyyy-MM-dd')
const fnsAddDays = (d: string, n: number): string => ymd(addDaysFns(utc(d), n))
/** Days since 1970-01-01, from the instant of its UTC midnight. */
const epochDay = (d: string): number => Date.parse(`${d}T00:00:00Z`) / MS_PER_DAY
/** The date of a day number, from the ISO text of its UTC midnight. */
const dateOfEpochDay = (n: number): string => new Date(n * MS_PER_DAY).toISOString().slice(0, 10)

const fnsDaysInMonth = (y: number, m: number): number =>
  getDaysInMonth(utc(`${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`))

/** Days a local-time oracle gets wrong in the zones the suite runs under. */
const SKIPPED_DAYS = ['1994-12-31', '2011-12-30'] as const

describe('isCalendarDate', () => {
  it.each([['2026-11-22'], ['2028-02-29'], ['0001-01-01'], ['9999-12-31'], ['2000-02-29'], ['1994-12-31'], ['2011-12-30']])(
    'accepts %s',
    (s) => {
      expect(isCalendarDate(s)).toBe(true)
    }
  )

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
    fc.assert(
      fc.property(
        fc.anything().filter((u) => typeof u !== 'string'),
        (u) => !isCalendarDate(u)
      )
    )
  })

  it('accepts exactly the days Date writes as the UTC midnight of a day from 0001 to 9999', () => {
    // Every real date, and the same text with a day past the month's end (Date rolls it over).
    const dayNumber = fc.integer({ min: epochDay('0001-01-01'), max: epochDay('9999-12-31') })
    fc.assert(
      fc.property(dayNumber, fc.integer({ min: 0, max: 3 }), (n, past) => {
        const real = dateOfEpochDay(n)
        const text = past === 0 ? real : `${real.slice(0, 8)}${String(28 + past).padStart(2, '0')}`
        // Date.parse rolls 2027-02-29 over to 1 March (V8), or may refuse it: either way, no date.
        const ms = Date.parse(`${text}T00:00:00Z`)
        const rolls = Number.isNaN(ms) || dateOfEpochDay(ms / MS_PER_DAY) !== text
        expect(isCalendarDate(text)).toBe(!rolls)
      })
    )
  })
})

describe('day numbers', () => {
  it('count from 1970-01-01', () => {
    expect([toDayNumber(day('1970-01-01')), toDayNumber(day('2000-03-01')), toDayNumber(day('0001-01-01'))]).toEqual([
      0, 11017, -719162
    ])
  })

  it('agree with the UTC instants of every date of the calendar, both ways', () => {
    fc.assert(
      fc.property(anyDate, (d) => {
        expect(toDayNumber(d)).toBe(epochDay(d))
        expect(fromDayNumber(epochDay(d))).toBe(d)
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: epochDay('0001-01-01'), max: epochDay('9999-12-31') }), (n) => {
        expect(fromDayNumber(n)).toBe(dateOfEpochDay(n))
      })
    )
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
})

describe('addDays', () => {
  // A local-time oracle reads 2011-12-29 + 1 as 2011-12-31 under Pacific/Apia, and 1994-12-30 + 1
  // as 1995-01-01 under Pacific/Kiritimati: these rows fail there with one.
  it.each([
    ['1994-12-30', 1, '1994-12-31'],
    ['1994-12-30', 2, '1995-01-01'],
    ['1994-12-31', 1, '1995-01-01'],
    ['1995-01-01', -1, '1994-12-31'],
    ['2011-12-29', 1, '2011-12-30'],
    ['2011-12-29', 2, '2011-12-31'],
    ['2011-12-30', 1, '2011-12-31'],
    ['2011-12-31', -1, '2011-12-30'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2100-02-28', 1, '2100-03-01']
  ])('%s + %d days is %s, for the library and for the oracle', (from, n, expected) => {
    expect([addDays(day(from), n), fnsAddDays(from, n)]).toEqual([expected, expected])
  })

  it('agrees with date-fns on UTC dates, whatever TZ the suite runs under', () => {
    // Dates from 1900 to 2100, half of them within a few days of a day some zone skipped.
    const nearSkipped = fc
      .constantFrom(...SKIPPED_DAYS)
      .chain((s) => fc.integer({ min: -3, max: 3 }).map((k) => dateOfEpochDay(epochDay(s) + k)))
    const wide = fc.integer({ min: epochDay('1900-01-01'), max: epochDay('2100-12-31') }).map(dateOfEpochDay)
    const from = fc.oneof(wide, nearSkipped).map(day)
    const n = fc.oneof(fc.integer({ min: -800, max: 800 }), fc.integer({ min: -3, max: 3 }))
    fc.assert(
      fc.property(from, n, (d, k) => {
        expect(addDays(d, k)).toBe(fnsAddDays(d, k))
      })
    )
  })
})

describe('month arithmetic helpers', () => {
  it('knows the leap years of the Gregorian calendar', () => {
    expect([2024, 2100, 2000, 2027, 1600, 1900, 4, 1].map(isLeapYear)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false
    ])
  })

  it('agrees with date-fns on the leap years from 1 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), (y) => {
        expect(isLeapYear(y)).toBe(isLeapYearFns(utc(`${String(y).padStart(4, '0')}-01-01`)))
      })
    )
  })

  // A local-time oracle (the last day as the day before the next month's first) gets December
  // 1994 wrong under Pacific/Kiritimati and December 2011 under Pacific/Apia.
  it.each([
    [1994, 12, 31],
    [2011, 12, 31],
    [2027, 2, 28],
    [2028, 2, 29],
    [2100, 2, 28],
    [2000, 2, 29],
    [2026, 4, 30],
    [2026, 11, 30],
    [2026, 1, 31]
  ])('%d-%d has %d days, for the library and for the oracle', (y, m, n) => {
    expect([daysInMonth(y, m), fnsDaysInMonth(y, m)]).toEqual([n, n])
  })

  it('agrees with date-fns on the length of every month from 0001 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        expect(daysInMonth(y, m)).toBe(fnsDaysInMonth(y, m))
      })
    )
  })
})
