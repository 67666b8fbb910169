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
import { dayNumber, daysInMonth, digitsOf as digits } from './date'

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

/**
 * Where {@link readInstant} writes the moment it reads, and what it remembers of the texts it
 * read before: one per pass over many instants, so that reading each allocates nothing, and an
 * instant on the same date as one before it has only its time and offset read.
 *
 * @example
 * const into = instantSlot()
 * readInstant('2026-11-22T10:15:00.25Z', into) && [into.seconds, into.nanos] //=> [1795342500, 250000000]
 *
 * @category model
 * @since 0.1.0
 */
export interface InstantSlot {
  seconds: number
  nanos: number
  /**
   * `YYYY-MM-DDT` of a real date read before, and the same with `U` for `T`: a text from the one
   * (included) to the other (excluded) starts with that date.
   */
  dateFrom: string
  dateTo: string
  /** Seconds from 1970-01-01T00:00 to that date's first second, on the same wall clock. */
  dateWall: number
  /** How many texts in a row did not start with that date. */
  misses: number
  /** The same for `YYYY-MM-DDTHH:MM` of an instant read before: its date, hour and minute. */
  minuteFrom: string
  minuteTo: string
  minuteWall: number
  minuteMisses: number
}

/**
 * A fresh {@link InstantSlot}, for a pass of {@link readInstant} over many instants.
 *
 * @example
 * instantSlot()
 * //=> { seconds: 0, nanos: 0, dateFrom: '', dateTo: '', dateWall: 0, misses: 0, minuteFrom: '', minuteTo: '', minuteWall: 0, minuteMisses: 0 }
 *
 * @category constructors
 * @since 0.1.0
 */
export const instantSlot = (): InstantSlot => ({
  seconds: 0,
  nanos: 0,
  dateFrom: '',
  dateTo: '',
  dateWall: 0,
  misses: 0,
  minuteFrom: '',
  minuteTo: '',
  minuteWall: 0,
  minuteMisses: 0
})

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The two digits of `text` at `at` as a number, or -1 when one is not a digit. */
const twoDigits = (text: string, at: number): number => {
  const tens = text.charCodeAt(at) - 48
  const units = text.charCodeAt(at + 1) - 48
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1
}

/**
 * The real date `YYYY-MM-DD` followed by `T` that `text` starts with, as seconds from
 * 1970-01-01T00:00 to its first second on the same wall clock, or NaN when it does not start so.
 */
const wallDate = (text: string): number => {
  const year = digits(text, 0, 4)
  const month = twoDigits(text, 5)
  const day = twoDigits(text, 8)
  if (
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month)
  )
    return NaN
  return dayNumber(year, month, day) * 86400
}

/** 10^(9 - width): what a fraction of `width` digits is multiplied by to give nanoseconds. */
const NANOS_PER_UNIT: ReadonlyArray<number> = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1]

/**
 * `:SS.fffZ` after the hour and minute, as toISOString writes it, read at fixed places: whether
 * `text` ends so, its moment then written into `into` (the minute's first second on the wall
 * clock being `wall`). For speed only: a function this small is inlined where it is called;
 * {@link readAfterMinute} reads every other spelling, and test/calendar/instant.test.ts pins both
 * to parseInstant.
 */
const readIsoSeconds = (text: string, wall: number, into: { seconds: number; nanos: number }): boolean => {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46) return false
  const tens = text.charCodeAt(17) - 48
  const units = text.charCodeAt(18) - 48
  const hundreds = text.charCodeAt(20) - 48
  const tenths = text.charCodeAt(21) - 48
  const thousandths = text.charCodeAt(22) - 48
  if (!(
    tens >= 0 &&
    tens <= 5 &&
    units >= 0 &&
    units <= 9 &&
    hundreds >= 0 &&
    hundreds <= 9 &&
    tenths >= 0 &&
    tenths <= 9 &&
    thousandths >= 0 &&
    thousandths <= 9
  ))
    return false
  into.seconds = wall + tens * 10 + units
  into.nanos = (hundreds * 100 + tenths * 10 + thousandths) * 1e6
  return true
}

/**
 * What follows the hour and minute in `text` (`[:SS[.fraction]]` then `Z` or `+HH:MM` /
 * `-HH:MM`), written into `into` as the moment it names in the minute whose first second on the
 * wall clock is `wall`: whether it is one.
 */
const readAfterMinute = (text: string, wall: number, into: { seconds: number; nanos: number }): boolean => {
  let at = 16
  let second = 0
  let nanos = 0
  if (text.charCodeAt(at) === 58) {
    second = twoDigits(text, at + 1)
    if (second < 0 || second > 59) return false
    at += 3
    if (text.charCodeAt(at) === 46) {
      const from = ++at
      for (let d = text.charCodeAt(at) - 48; d >= 0 && d <= 9; d = text.charCodeAt(++at) - 48) nanos = nanos * 10 + d
      const width = at - from
      if (width < 1 || width > 9) return false
      nanos *= NANOS_PER_UNIT[width] as number
    }
  }
  let offset = 0
  const sign = text.charCodeAt(at)
  if (sign === 90) {
    if (text.length !== at + 1) return false
  } else if (sign === 43 || sign === 45) {
    const hours = twoDigits(text, at + 1)
    const minutes = twoDigits(text, at + 4)
    if (text.charCodeAt(at + 3) !== 58 || text.length !== at + 6 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59)
      return false
    offset = (sign === 45 ? -1 : 1) * (hours * 3600 + minutes * 60)
  } else return false
  into.seconds = wall + second - offset
  into.nanos = nanos
  return true
}

/**
 * The hour and minute after the date in `text` (`HH:MM`), as seconds on the wall clock from
 * 1970-01-01T00:00 to the minute's first second, the date's first being `wall`; NaN when they
 * are no hour and minute.
 */
const wallMinute = (text: string, wall: number): number => {
  const hour = twoDigits(text, 11)
  const minute = twoDigits(text, 14)
  return text.charCodeAt(13) !== 58 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ? NaN : wall + hour * 3600 + minute * 60
}

/** What follows the date in `text`, as {@link readAfterMinute} reads what follows the minute. */
const readAfterDate = (text: string, wall: number, into: { seconds: number; nanos: number }): boolean => {
  const minute = wallMinute(text, wall)
  return !Number.isNaN(minute) && (readIsoSeconds(text, minute, into) || readAfterMinute(text, minute, into))
}

/**
 * Remembers the date `text` starts with, as two flat strings (a slice of `text` would keep a
 * reference into it, and compare slower).
 */
const rememberDate = (text: string, wall: number, into: InstantSlot): void => {
  const c = (at: number) => text.charCodeAt(at)
  into.dateFrom = String.fromCharCode(c(0), c(1), c(2), c(3), 45, c(5), c(6), 45, c(8), c(9), 84)
  into.dateTo = String.fromCharCode(c(0), c(1), c(2), c(3), 45, c(5), c(6), 45, c(8), c(9), 85)
  into.dateWall = wall
}

/** Remembers the date, hour and minute `text` starts with, as {@link rememberDate} the date. */
const rememberMinute = (text: string, wall: number, into: InstantSlot): void => {
  const c = (at: number) => text.charCodeAt(at)
  const day = [c(0), c(1), c(2), c(3), 45, c(5), c(6), 45, c(8), c(9), 84, c(11), c(12), 58, c(14)]
  into.minuteFrom = String.fromCharCode(...day, c(15))
  into.minuteTo = String.fromCharCode(...day, c(15) + 1)
  into.minuteWall = wall
}

/**
 * Whether `text` is an instant (as {@link parseInstant} reads it), writing its moment into
 * `into` when it is (`into` keeps the moment it held when it is not). The same text as the last
 * one read is not read again, and text on the date of one read before has only its time and
 * offset read (two comparisons of strings tell): instants of a collection in creation order share
 * their date with the one before far more often than not.
 *
 * @example
 * const into = instantSlot()
 * readInstant('2026-11-22T07:15:00.5-03:00', into) //=> true
 * [into.seconds, into.nanos] //=> [1795342500, 500000000]
 * readInstant('2026-11-22T10:15:30Z', into) && [into.seconds, into.nanos] //=> [1795342530, 0]
 * readInstant('2026-11-22T10:15:60Z', into) //=> false
 * readInstant('', instantSlot()) //=> false
 *
 * @category constructors
 * @since 0.1.0
 */
export const readInstant = (text: string, into: InstantSlot): boolean => {
  // For speed only: what the minute or the date a text starts with names is read once for many
  // texts; test/calendar/instant.test.ts pins it to parseInstant.
  if (text >= into.minuteFrom && text < into.minuteTo) {
    into.minuteMisses = 0
    return readIsoSeconds(text, into.minuteWall, into) || readAfterMinute(text, into.minuteWall, into)
  }
  return readOtherMinute(text, into)
}

/** {@link readInstant} of a text not on the minute remembered. */
const readOtherMinute = (text: string, into: InstantSlot): boolean => {
  let wall = into.dateWall
  if (text >= into.dateFrom && text < into.dateTo) into.misses = 0
  else {
    wall = wallDate(text)
    if (Number.isNaN(wall)) return false
    // Remembered on the first miss after a hit, and then once in 32 misses: a collection in no
    // order of dates pays for few strings.
    if (++into.misses === 1 || into.misses % 32 === 0) rememberDate(text, wall, into)
  }
  const minute = wallMinute(text, wall)
  if (Number.isNaN(minute) || !(readIsoSeconds(text, minute, into) || readAfterMinute(text, minute, into))) return false
  if (++into.minuteMisses === 1 || into.minuteMisses % 32 === 0) rememberMinute(text, minute, into)
  return true
}

/**
 * The instant `text` names, or `null` when it is not `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed
 * by `Z` or `+HH:MM` / `-HH:MM` (1 to 9 fraction digits), or names no real date or time (hours
 * 0-23, minutes and seconds 0-59, offsets up to 23:59). One pass over the characters, no regular
 * expression.
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
  const wall = wallDate(text)
  const into = { seconds: 0, nanos: 0 }
  return !Number.isNaN(wall) && readAfterDate(text, wall, into) ? into : null
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
