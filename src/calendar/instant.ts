/**
 * Instants as the service writes them: ISO-8601 with a date, a time and an offset
 * (`2026-11-22T10:15:00Z`, `2026-11-22T07:15:00.5-03:00`). Compared by the moment they name,
 * not by their text, and without `Date`: seconds since the epoch plus nanoseconds, exact to the
 * nanosecond whatever the offset.
 *
 * @example
 * compareInstants(parseInstant('2026-11-22T10:00:00Z')!, parseInstant('2026-11-22T07:00:00-03:00')!) //=> 0
 *
 * @since 0.1.0
 */
import { dayNumber, daysInMonth } from './date'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A moment: whole seconds since 1970-01-01T00:00:00Z and the nanoseconds past them.
 *
 * @category model
 * @since 0.1.0
 */
export interface Instant {
  readonly seconds: number
  readonly nanos: number
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The instant `text` names, or `null` when it is not an ISO-8601 date-time with an offset, or
 * names no real date or time (hours 0-23, minutes and seconds 0-59, offsets up to 23:59).
 *
 * @category constructors
 * @since 0.1.0
 */
export const parseInstant = (text: string): Instant | null => {
  const m = INSTANT.exec(text)
  if (m === null) return null
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number]
  const second = Number(m[6] ?? '0')
  const offsetHours = Number(m[10] ?? '0')
  const offsetMinutes = Number(m[11] ?? '0')
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  )
    return null
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
  return {
    seconds: dayNumber(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset,
    nanos: Number((m[7] ?? '').padEnd(9, '0'))
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Negative when `a` is earlier than `b`, 0 when they are the same moment, positive otherwise.
 *
 * @category utils
 * @since 0.1.0
 */
export const compareInstants = (a: Instant, b: Instant): number => a.seconds - b.seconds || a.nanos - b.nanos
