/**
 * Calendar dates as the service writes them, `YYYY-MM-DD`, and the arithmetic on them.
 *
 * No `Date` object is involved anywhere: a date is turned into a count of days since
 * 1970-01-01 with integer arithmetic (the civil-from-days algorithm), so no result can depend
 * on the process time zone, its daylight-saving gaps or its locale.
 *
 * @example
 * import { addDays, isCalendarDate } from 'budget-rules/rules'
 *
 * const d = '2028-02-28'
 * isCalendarDate(d) && addDays(d, 1) //=> '2028-02-29'
 *
 * @since 0.1.0
 */
import type * as t from 'io-ts'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * @category model
 * @since 0.1.0
 */
export interface CalendarDateBrand {
  readonly CalendarDate: unique symbol
}

/**
 * A real calendar date from 0001-01-01 to 9999-12-31, written `YYYY-MM-DD`. Strings of this
 * shape order the same way as the dates they name, so `<` and `>=` compare them.
 *
 * @example
 * isCalendarDate('2026-11-22') //=> true
 * '2026-11-22' < '2026-12-01' //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type CalendarDate = t.Branded<string, CalendarDateBrand>

/** Days since 1970-01-01 of the first and last date the service accepts. */
const FIRST_DAY = -719162
const LAST_DAY = 2932896

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Whether `year` has a 29 February.
 *
 * @example
 * isLeapYear(2028) //=> true
 * isLeapYear(2100) //=> false
 *
 * @category utils
 * @since 0.1.0
 */
export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/**
 * The number of days in `month` (1-12) of `year`.
 *
 * @example
 * daysInMonth(2027, 2) //=> 28
 *
 * @category utils
 * @since 0.1.0
 */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/**
 * Days since 1970-01-01 of a proleptic Gregorian year, month (1-12) and day; exact for every
 * year >= 0.
 *
 * @example
 * dayNumber(2000, 3, 1) //=> 11017
 *
 * @category utils
 * @since 0.1.0
 */
export const dayNumber = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** A date of years 1-9999 written as `YYYY-MM-DD`, character by character: one string made, no number to text. */
const format = (year: number, month: number, day: number): CalendarDate =>
  String.fromCharCode(
    48 + Math.floor(year / 1000),
    48 + (Math.floor(year / 100) % 10),
    48 + (Math.floor(year / 10) % 10),
    48 + (year % 10),
    45,
    48 + Math.floor(month / 10),
    48 + (month % 10),
    45,
    48 + Math.floor(day / 10),
    48 + (day % 10)
  ) as CalendarDate

/**
 * The number the `length` characters of `date` from `at` spell, as `Number` reads them: digit
 * by digit when they are all digits (every date is), so that no substring is made.
 */
const partOf = (date: string, at: number, length: number): number => {
  const n = digitsOf(date, at, length)
  return n >= 0 ? n : Number(date.slice(at, at + length))
}

/**
 * The year, month (1-12) and day of a date.
 *
 * @example
 * toParts('2026-11-22') //=> { year: 2026, month: 11, day: 22 }
 *
 * @category utils
 * @since 0.1.0
 */
export const toParts = (date: CalendarDate): { readonly year: number; readonly month: number; readonly day: number } => ({
  year: partOf(date, 0, 4),
  month: partOf(date, 5, 2),
  day: partOf(date, 8, 2)
})

/**
 * Days since 1970-01-01 (negative before it).
 *
 * @example
 * toDayNumber('2026-11-22') //=> 20779
 * toDayNumber('1969-12-31') //=> -1
 *
 * @category utils
 * @since 0.1.0
 */
export const toDayNumber = (date: CalendarDate): number => dayNumber(partOf(date, 0, 4), partOf(date, 5, 2), partOf(date, 8, 2))

/**
 * The date `n` days after 1970-01-01, or `null` outside 0001-01-01..9999-12-31.
 *
 * @example
 * fromDayNumber(20779) //=> '2026-11-22'
 * fromDayNumber(-719162) //=> '0001-01-01'
 * fromDayNumber(-719163) //=> null
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromDayNumber = (n: number): CalendarDate | null => {
  if (!Number.isSafeInteger(n) || n < FIRST_DAY || n > LAST_DAY) return null
  const z = n + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return format(yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/**
 * The date with these parts, the day clamped to the month's last day (31 becomes 30 in
 * April), or `null` when the year is outside 1..9999.
 *
 * @example
 * fromPartsClamped(2027, 2, 31) //=> '2027-02-28'
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromPartsClamped = (year: number, month: number, day: number): CalendarDate | null =>
  year < 1 || year > 9999 ? null : format(year, month, Math.min(day, daysInMonth(year, month)))

/**
 * `date` moved by `n` days (`n` may be negative), or `null` past the calendar's ends.
 *
 * @example
 * addDays('2026-12-31', 1) //=> '2027-01-01'
 * addDays('9999-12-31', 1) //=> null
 *
 * @category utils
 * @since 0.1.0
 */
export const addDays = (date: CalendarDate, n: number): CalendarDate | null => fromDayNumber(toDayNumber(date) + n)

/**
 * Whether `u` is a real date written `YYYY-MM-DD` within 0001-01-01..9999-12-31.
 *
 * @example
 * isCalendarDate('2027-02-29') //=> false
 * isCalendarDate('2028-02-29') //=> true
 *
 * @category refinements
 * @since 0.1.0
 */
export const isCalendarDate = (u: unknown): u is CalendarDate => {
  if (typeof u !== 'string' || u.length !== 10 || u.charCodeAt(4) !== 45 || u.charCodeAt(7) !== 45) return false
  // Digit by digit rather than a regular expression: a budget holds five dates, each checked on
  // every request, and the match array and three Number calls cost ten times the comparisons.
  const year = digitsOf(u, 0, 4)
  const month = digitsOf(u, 5, 2)
  const day = digitsOf(u, 8, 2)
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/**
 * The number the `length` ASCII digits of `s` from `at` spell, or -1 when one is not a digit
 * or lies past the end: dates and instants are read with it, without substrings or `Number`.
 *
 * @example
 * digitsOf('2026-11-22', 5, 2) //=> 11
 * digitsOf('2026-1x-22', 5, 2) //=> -1
 * digitsOf('2026', 2, 4) //=> -1
 *
 * @category utils
 * @since 0.2.0
 */
export const digitsOf = (s: string, at: number, length: number): number => {
  let n = 0
  for (let k = at; k < at + length; k++) {
    const d = s.charCodeAt(k) - 48
    // NaN past the end fails the test too.
    if (!(d >= 0 && d <= 9)) return -1
    n = n * 10 + d
  }
  return n
}
