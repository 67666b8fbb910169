/**
 * A renewal schedule: boundaries `anchor + k * every units`, each computed from the anchor
 * (never by adding to the previous boundary), so month ends clamp without drifting:
 * a monthly schedule anchored on 31 January gives 28 or 29 February, 31 March, 30 April.
 *
 * Laws, for every schedule `s`, integer `k` and date `d` within the calendar:
 * - `boundaryOf(s, k) < boundaryOf(s, k + 1)` (periods are non-empty and contiguous)
 * - `boundaryOf(s, indexAt(s, d)) <= d < boundaryOf(s, indexAt(s, d) + 1)`
 * - `indexAt` is O(1): it does not walk from the anchor.
 *
 * @example
 * const s = { anchor: '2027-01-31', unit: 'month', every: 1 }
 * boundaryOf(s, 1) //=> '2027-02-28'
 * boundaryOf(s, 2) //=> '2027-03-31'
 * periodAt(s, '2027-03-01') //=> { starts_on: '2027-02-28', ends_on: '2027-03-31' }
 *
 * @since 0.1.0
 */
import {
  type CalendarDate,
  dayNumber,
  daysInMonth,
  fromDayNumber,
  fromPartsClamped,
  isCalendarDate,
  toParts
} from '../calendar/date'
import { typeError } from '../json/describe'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The unit a budget's periods are counted in.
 *
 * @example
 * boundaryOf({ anchor: '2026-11-22', unit: 'week', every: 2 }, 1) //=> '2026-12-06'
 *
 * @category model
 * @since 0.1.0
 */
export type RecurrenceUnit = 'day' | 'week' | 'month' | 'year'

/**
 * The units the service knows, in the order a UI lists them.
 *
 * @example
 * recurrenceUnits //=> ['day', 'week', 'month', 'year']
 *
 * @category model
 * @since 0.1.0
 */
export const recurrenceUnits: ReadonlyArray<RecurrenceUnit> = ['day', 'week', 'month', 'year']

/**
 * Renewals every `every` units, counted from `anchor` (a budget's `recurrence_starts_on`).
 *
 * @example
 * boundaryOf({ anchor: '2026-11-22', unit: 'day', every: 0 }, 1)
 * //=> throws TypeError('boundaryOf: schedule.every is 0, not an integer from 1 to 366')
 *
 * @category model
 * @since 0.1.0
 */
export interface Schedule {
  readonly anchor: CalendarDate
  readonly unit: RecurrenceUnit
  /** 1..366 */
  readonly every: number
}

/**
 * A period `[starts_on, ends_on)`; `ends_on` is `null` when it lies past 9999-12-31.
 *
 * @example
 * periodAt({ anchor: '9999-12-01', unit: 'month', every: 1 }, '9999-12-15') //=> { starts_on: '9999-12-01', ends_on: null }
 *
 * @category model
 * @since 0.1.0
 */
export interface Period {
  readonly starts_on: CalendarDate
  readonly ends_on: CalendarDate | null
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A schedule read into numbers once: boundaries and indices are then arithmetic on these, with
 * no date parsed again, so a caller listing many periods reads the anchor a single time.
 *
 * @example
 * cadenceOf({ anchor: '2027-01-31', unit: 'month', every: 1 }).origin //=> 2027 * 12
 *
 * @category model
 * @since 0.1.0
 */
export interface Cadence {
  /** Counted in days (`day`, `week`) rather than months (`month`, `year`). */
  readonly byDay: boolean
  /** Days or months from one boundary to the next. */
  readonly step: number
  /** The anchor as a day number (days since 1970-01-01) or a month number (`year * 12 + month - 1`). */
  readonly origin: number
  /** The anchor's day of the month, the day every boundary of a monthly schedule clamps from. */
  readonly day: number
}

/**
 * The {@link Cadence} of a schedule known to be valid.
 *
 * @example
 * cadenceOf({ anchor: '2027-01-31', unit: 'year', every: 2 }) //=> { byDay: false, step: 24, origin: 24324, day: 31 }
 * cadenceOf({ anchor: '1970-01-02', unit: 'week', every: 2 }) //=> { byDay: true, step: 14, origin: 1, day: 2 }
 *
 * @category constructors
 * @since 0.1.0
 */
export const cadenceOf = (s: Schedule): Cadence => {
  const { year, month, day } = toParts(s.anchor)
  const byDay = s.unit === 'day' || s.unit === 'week'
  return byDay
    ? { byDay, step: s.every * (s.unit === 'week' ? 7 : 1), origin: dayNumber(year, month, day), day }
    : { byDay, step: s.every * (s.unit === 'year' ? 12 : 1), origin: year * 12 + month - 1, day }
}

/**
 * Boundary `k` of a cadence, or `null` outside the calendar: {@link boundaryOf} on numbers.
 *
 * @example
 * boundaryAt(cadenceOf({ anchor: '2027-01-31', unit: 'month', every: 1 }), 1) //=> '2027-02-28'
 *
 * @category utils
 * @since 0.1.0
 */
export const boundaryAt = (c: Cadence, k: number): CalendarDate | null => {
  if (c.byDay) return fromDayNumber(c.origin + k * c.step)
  const month = c.origin + k * c.step
  return fromPartsClamped(Math.floor(month / 12), (month % 12) + 1, c.day)
}

/**
 * The index of the boundary of a cadence on or before `date`: {@link indexAt} on numbers.
 *
 * @example
 * indexOn(cadenceOf({ anchor: '2027-01-31', unit: 'month', every: 1 }), '2027-02-27') //=> 0
 *
 * @category utils
 * @since 0.1.0
 */
export const indexOn = (c: Cadence, date: CalendarDate): number => {
  const { year, month, day } = toParts(date)
  if (c.byDay) return Math.floor((dayNumber(year, month, day) - c.origin) / c.step)
  const dateMonth = year * 12 + month - 1
  const k = Math.floor((dateMonth - c.origin) / c.step)
  // Boundary k lies in date's month or earlier; in the same month it may still fall after date
  // (its day clamped or not), and before year 1 it is no date at all.
  const boundaryMonth = c.origin + k * c.step
  const boundaryYear = Math.floor(boundaryMonth / 12)
  const onOrBefore =
    boundaryYear >= 1 &&
    (boundaryMonth < dateMonth || Math.min(c.day, daysInMonth(boundaryYear, (boundaryMonth % 12) + 1)) <= day)
  return onOrBefore ? k : k - 1
}

/** {@link periodAt}, for a schedule and date known to be valid. */
export const period = (s: Schedule, date: CalendarDate): Period | null => {
  const c = cadenceOf(s)
  const k = indexOn(c, date)
  const starts_on = k < 0 ? null : boundaryAt(c, k)
  return starts_on === null ? null : { starts_on, ends_on: boundaryAt(c, k + 1) }
}

/** {@link nextBoundaryAfter}, for a schedule and date known to be valid. */
export const boundaryAfter = (s: Schedule, date: CalendarDate): CalendarDate | null => {
  const c = cadenceOf(s)
  return boundaryAt(c, Math.max(0, indexOn(c, date) + 1))
}

// -------------------------------------------------------------------------------------
// checked
// -------------------------------------------------------------------------------------

/** A schedule and date given from outside, checked: a zero or NaN `every` would loop. */
const checkSchedule = (fn: string, s: Schedule): void => {
  const { anchor, unit, every } = s
  if (!isCalendarDate(anchor)) throw typeError(fn, 'schedule.anchor', anchor, 'a date (YYYY-MM-DD)')
  if (!(recurrenceUnits as ReadonlyArray<unknown>).includes(unit))
    throw typeError(fn, 'schedule.unit', unit, 'day, week, month or year')
  if (!Number.isInteger(every) || every < 1 || every > 366)
    throw typeError(fn, 'schedule.every', every, 'an integer from 1 to 366')
}

const checkDate = (fn: string, date: CalendarDate): void => {
  if (!isCalendarDate(date)) throw typeError(fn, 'date', date, 'a date (YYYY-MM-DD)')
}

/**
 * Boundary `k` of the schedule (boundary 0 is the anchor), or `null` outside the calendar. A
 * schedule or `k` outside its type is a `TypeError`.
 *
 * @example
 * boundaryOf({ anchor: '2028-02-29', unit: 'year', every: 1 }, 1) //=> '2029-02-28'
 * boundaryOf({ anchor: '2028-02-29', unit: 'year', every: 1 }, 4) //=> '2032-02-29'
 *
 * @category utils
 * @since 0.1.0
 */
export const boundaryOf = (s: Schedule, k: number): CalendarDate | null => {
  checkSchedule('boundaryOf', s)
  if (!Number.isSafeInteger(k)) throw typeError('boundaryOf', 'k', k, 'a whole number')
  return boundaryAt(cadenceOf(s), k)
}

/**
 * The index of the boundary on or before `date`: the largest `k` with
 * `boundaryOf(s, k) <= date` (negative when `date` is before the anchor). O(1).
 *
 * @example
 * indexAt({ anchor: '2027-01-31', unit: 'month', every: 1 }, '2027-03-30') //=> 1
 *
 * @category utils
 * @since 0.1.0
 */
export const indexAt = (s: Schedule, date: CalendarDate): number => {
  checkSchedule('indexAt', s)
  checkDate('indexAt', date)
  return indexOn(cadenceOf(s), date)
}

/**
 * The period of the schedule that contains `date`, or `null` when `date` is before the anchor.
 *
 * @example
 * periodAt({ anchor: '2027-01-31', unit: 'month', every: 1 }, '2027-03-01') //=> { starts_on: '2027-02-28', ends_on: '2027-03-31' }
 *
 * @category utils
 * @since 0.1.0
 */
export const periodAt = (s: Schedule, date: CalendarDate): Period | null => {
  checkSchedule('periodAt', s)
  checkDate('periodAt', date)
  return period(s, date)
}

/**
 * The first boundary strictly after `date` (the anchor itself when `date` is before it), or
 * `null` past 9999-12-31.
 *
 * @example
 * nextBoundaryAfter({ anchor: '2025-10-18', unit: 'month', every: 1 }, '2026-11-22') //=> '2026-12-18'
 *
 * @category utils
 * @since 0.1.0
 */
export const nextBoundaryAfter = (s: Schedule, date: CalendarDate): CalendarDate | null => {
  checkSchedule('nextBoundaryAfter', s)
  checkDate('nextBoundaryAfter', date)
  return boundaryAfter(s, date)
}
