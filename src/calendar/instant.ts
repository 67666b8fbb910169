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
 * @example
 * parseInstant('2026-11-22T07:15:00.5-03:00') //=> { seconds: 1795342500, nanos: 500000000 }
 *
 * @category model
 * @since 0.1.0
 */
export interface Instant {
  readonly seconds: number
  readonly nanos: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The digits of `text` from `at`, `length` of them, as a number; -1 when one is not a digit. */
const digits = (text: string, at: number, length: number): number => {
  let n = 0
  for (let k = at; k < at + length; k++) {
    const d = text.charCodeAt(k) - 48
    if (!(d >= 0 && d <= 9)) return -1
    n = n * 10 + d
  }
  return n
}

/**
 * The instant `text` names, or `null` when it is not `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed
 * by `Z` or `+HH:MM` / `-HH:MM` (1 to 9 fraction digits), or names no real date or time (hours
 * 0-23, minutes and seconds 0-59, offsets up to 23:59). One pass over the characters, no regular
 * expression: index endpoints parse one per record.
 *
 * @example
 * parseInstant('2026-11-22T10:15:00Z') //=> { seconds: 1795342500, nanos: 0 }
 * parseInstant('2026-11-22 10:15:00Z') //=> null
 * parseInstant('2026-11-22T24:00:00Z') //=> null
 *
 * @category constructors
 * @since 0.1.0
 */
export const parseInstant = (text: string): Instant | null => {
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 2)
  const day = digits(text, 8, 2)
  const hour = digits(text, 11, 2)
  const minute = digits(text, 14, 2)
  if (
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== 'T' ||
    text[13] !== ':' ||
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59
  )
    return null
  let at = 16
  let second = 0
  let nanos = 0
  if (text[at] === ':') {
    second = digits(text, at + 1, 2)
    if (second < 0 || second > 59) return null
    at += 3
    if (text[at] === '.') {
      let width = 0
      while (width < 10 && digits(text, at + 1 + width, 1) >= 0) width++
      if (width < 1 || width > 9) return null
      nanos = digits(text, at + 1, width) * 10 ** (9 - width)
      at += 1 + width
    }
  }
  let offset = 0
  const sign = text[at]
  if (sign === 'Z') {
    if (text.length !== at + 1) return null
  } else if (sign === '+' || sign === '-') {
    const hours = digits(text, at + 1, 2)
    const minutes = digits(text, at + 4, 2)
    if (text[at + 3] !== ':' || text.length !== at + 6 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return null
    offset = (sign === '-' ? -1 : 1) * (hours * 3600 + minutes * 60)
  } else return null
  return { seconds: dayNumber(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset, nanos }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Negative when `a` is earlier than `b`, 0 when they are the same moment, positive otherwise.
 *
 * @example
 * compareInstants(parseInstant('2026-11-22T10:00:00Z')!, parseInstant('2026-11-22T10:00:00.000000001Z')!) //=> -1
 *
 * @category utils
 * @since 0.1.0
 */
export const compareInstants = (a: Instant, b: Instant): number => a.seconds - b.seconds || a.nanos - b.nanos
