/**
 * Instants on a PostgreSQL `timestamptz` column, exactly. The library reads an instant to the
 * nanosecond; PostgreSQL keeps microseconds. A value goes to the database as UTC text of whole
 * microseconds, which PostgreSQL reads without rounding or floating point, and a column comes
 * back as ISO-8601 text `parseInstant` reads. Both work for every instant the library
 * parses: from `0001-01-01T00:00+23:59` (a UTC date in 1 BC) to `9999-12-31T23:59:59.999999999-23:59`
 * (a UTC date in 10000), the ends PostgreSQL's input and `to_char` would get wrong.
 *
 * @example
 * import { parseInstant } from 'budget-rules/rules'
 *
 * timestamptzText(parseInstant('2026-11-22T07:00:00.1234567-03:00')!) //=> '2026-11-22T10:00:00.123456Z'
 *
 * @since 0.2.0
 */
import type { Instant } from '../calendar/instant'
import { type CalendarDate, dayNumber, fromDayNumber } from '../calendar/date'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The UTC days an instant the library parses may fall on: 0000-12-31 (1 BC) to 10000-01-01. */
const FIRST_DAY = dayNumber(1, 1, 1) - 1
const LAST_DAY = dayNumber(9999, 12, 31) + 1

/** The Gregorian calendar repeats every 400 years, 146,097 days: the two edge days are shifted in. */
const FOUR_CENTURIES = 146_097

const pad = (n: number, width: number): string => String(n).padStart(width, '0')

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * Whether `u` is an `Instant` the library can parse: whole seconds and 0 to 999,999,999
 * nanoseconds, on a UTC day from 0000-12-31 to 10000-01-01.
 *
 * @example
 * isParsedInstant({ seconds: 1795341600, nanos: 0 }) //=> true
 * isParsedInstant({ seconds: 1795341600, nanos: 1e9 }) //=> false
 *
 * @category refinements
 * @since 0.2.0
 */
export const isParsedInstant = (u: unknown): u is Instant => {
  if (typeof u !== 'object' || u === null) return false
  const { seconds, nanos } = u as Readonly<Record<string, unknown>>
  return (
    Number.isSafeInteger(seconds) &&
    Number.isInteger(nanos) &&
    (nanos as number) >= 0 &&
    (nanos as number) < 1e9 &&
    Math.floor((seconds as number) / 86400) >= FIRST_DAY &&
    Math.floor((seconds as number) / 86400) <= LAST_DAY
  )
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Whether an instant is a whole number of microseconds: one a `timestamptz` can hold.
 *
 * @example
 * isWholeMicrosecond({ seconds: 0, nanos: 1000 }) //=> true
 * isWholeMicrosecond({ seconds: 0, nanos: 1001 }) //=> false
 *
 * @category utils
 * @since 0.2.0
 */
export const isWholeMicrosecond = (instant: Instant): boolean => instant.nanos % 1000 === 0

/**
 * The last whole microsecond at or before `instant`, as UTC text PostgreSQL reads exactly as a
 * `timestamptz` (year 1 BC written `0001-12-31...Z BC`, year 10000 with five digits), whatever
 * its `TimeZone` and `DateStyle`. An instant that is not one the library parses is the caller's
 * mistake: {@link isParsedInstant} first.
 *
 * @example
 * timestamptzText({ seconds: 0, nanos: 999 }) //=> '1970-01-01T00:00:00.000000Z'
 * timestamptzText({ seconds: -62135596800 - 60, nanos: 0 }) //=> '0001-12-31T23:59:00.000000Z BC'
 *
 * @category utils
 * @since 0.2.0
 */
export const timestamptzText = (instant: Instant): string => {
  const day = Math.floor(instant.seconds / 86400)
  const second = instant.seconds - day * 86400
  // Shifted by 400 years, the edge days are dates fromDayNumber writes; the year is put back.
  const shift = day < FIRST_DAY + 1 ? FOUR_CENTURIES : day > LAST_DAY - 1 ? -FOUR_CENTURIES : 0
  // A day of the calendar once shifted, for an instant the library parses.
  const date = fromDayNumber(day + shift) as CalendarDate
  const year = Number(date.slice(0, 4)) - (shift / FOUR_CENTURIES) * 400
  const time = `${pad(Math.floor(second / 3600), 2)}:${pad(Math.floor(second / 60) % 60, 2)}:${pad(second % 60, 2)}`
  const micros = pad(Math.floor(instant.nanos / 1000), 6)
  // PostgreSQL has no year 0: the year before 1 AD is 1 BC.
  return year < 1
    ? `${pad(1 - year, 4)}${date.slice(4)}T${time}.${micros}Z BC`
    : `${pad(year, 4)}${date.slice(4)}T${time}.${micros}Z`
}

/**
 * The SQL expression writing the `timestamptz` column `column` (already quoted) as ISO-8601
 * text the library parses back to the same instant: UTC with six fraction digits, or at
 * `+23:59` / `-23:59` on the UTC days 0000-12-31 and 10000-01-01, whose UTC year `to_char`
 * would write wrong or in five digits. It reads neither the session's `TimeZone` nor `DateStyle`.
 *
 * @example
 * instantColumnText('"created_at"').startsWith(`CASE WHEN "created_at" < '0001-01-01T00:00:00Z' THEN`) //=> true
 *
 * @category utils
 * @since 0.2.0
 */
export const instantColumnText = (column: string): string =>
  `CASE WHEN ${column} < '0001-01-01T00:00:00Z' THEN ${atOffset(column, "INTERVAL '+23:59'", '+23:59')}` +
  ` WHEN ${column} < '10000-01-01T00:00:00Z' THEN ${atOffset(column, "'UTC'", 'Z')}` +
  ` ELSE ${atOffset(column, "INTERVAL '-23:59'", '-23:59')} END`

const atOffset = (column: string, zone: string, suffix: string): string =>
  `to_char(${column} AT TIME ZONE ${zone}, 'YYYY-MM-DD"T"HH24:MI:SS.US"${suffix}"')`
