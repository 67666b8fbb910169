/**
 * A budget as of a day: its periods rolled forward and its status moved from open to closing
 * once the closing date has come (contract section 6, R-10, R-11).
 *
 * Laws, for every budget `b` and dates `t1 <= t2`:
 * - composes: `advanceBudget(advanceBudget(b, t1), t2) = advanceBudget(b, t2)`
 * - idempotent: `advanceBudget(advanceBudget(b, t), t) = advanceBudget(b, t)`
 * - never backwards: a date earlier than what `b` reflects changes nothing
 * - the period in progress contains `t` when the budget renews
 * - only `period_*` fields and `status` change; `balance_cents` never does
 * - a closed budget is returned unchanged
 *
 * It is O(1) in the age of the budget: the period is found by arithmetic, not by a walk.
 *
 * @example
 * // monthly from 2027-01-31, the period in progress ending 2027-02-28
 * const b = { ...budget, created_on: '2027-01-31', recurrence_starts_on: '2027-01-31', period_starts_on: '2027-01-31', period_ends_on: '2027-02-28' }
 * advanceBudget(b, '2027-04-02')
 * //=> { ...b, period_starts_on: '2027-03-31', period_ends_on: '2027-04-30', period_amount_cents: b.base_amount_cents }
 *
 * @since 0.1.0
 */
import { type CalendarDate, isCalendarDate } from '../calendar/date'
import { describeValue, typeError } from '../json/describe'
import { boundaryAt, cadenceOf, indexOn, period as periodOf, type Schedule } from '../recurrence/schedule'
import type { Budget, Cents } from './model'
import { readBudget } from './stored-read'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The renewal schedule of a budget's current settings, or `null` when it does not renew.
 *
 * @example
 * scheduleOf(budget) //=> { anchor: '2025-10-18', unit: 'month', every: 1 }
 * scheduleOf({ ...budget, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null }) //=> null
 *
 * @category utils
 * @since 0.1.0
 */
export const scheduleOf = (b: Budget): Schedule | null =>
  b.recurrence_unit === null || b.recurrence_every === null || b.recurrence_starts_on === null
    ? null
    : { anchor: b.recurrence_starts_on, unit: b.recurrence_unit, every: b.recurrence_every }

/**
 * The budget and date a typed function was given, checked: a `TypeError` naming
 * what is wrong, never a garbage date or a loop further on.
 */
const checked = (fn: string, budget: Budget, today: CalendarDate): Budget => {
  const read = readBudget(budget)
  if (read._tag === 'Left') throw new TypeError(`${fn}: the budget is malformed: ${read.left.join('; ')}`)
  if (!isCalendarDate(today)) throw typeError(fn, 'today', today, 'a date (YYYY-MM-DD)')
  return read.right
}

/** A budget whose fields may be written: a copy of one, or one no one else holds. */
type Writable = { -readonly [K in keyof Budget]: Budget[K] }

/**
 * `budget` as of `today`, the fields that change written into `own(budget)` (taken at most
 * once, and only when something changes): its period rolled forward, and its status moved from
 * open to closing once the closing date has come.
 */
const advanceInto = (budget: Budget, today: CalendarDate, own: (b: Budget) => Writable): Budget => {
  if (budget.status === 'closed') return budget
  let b: Writable | null = null
  if (budget.period_ends_on !== null && today >= budget.period_ends_on) {
    const schedule = scheduleOf(budget)
    // Renewals stopped: no new period starts, and the last one stays open-ended with its amount.
    const period = schedule === null ? null : periodOf(schedule, today)
    b = own(budget)
    if (period === null) b.period_ends_on = null
    else {
      b.period_starts_on = period.starts_on
      b.period_ends_on = period.ends_on
      b.period_amount_cents = budget.base_amount_cents
    }
  }
  if (budget.status === 'open' && budget.ends_on !== null && today >= budget.ends_on) {
    b = b ?? own(budget)
    b.status = 'closing'
  }
  return b ?? budget
}

/** {@link advanceBudget} of a budget already checked: a fresh copy when something changes. */
export const advance = (budget: Budget, today: CalendarDate): Budget => advanceInto(budget, today, (b) => ({ ...b }))

/**
 * The budget as of `today`, as a fresh plain object. A budget that is not consistent or
 * a `today` that is not a date is a `TypeError`.
 *
 * @example
 * // monthly from 2025-10-18, the period in progress 2026-11-18..2026-12-18
 * advanceBudget(budget, '2027-01-20') //=> { ...budget, period_starts_on: '2027-01-18', period_ends_on: '2027-02-18' }
 * advanceBudget({ ...budget, ends_on: '2026-12-01' }, '2026-12-01') //=> { ...budget, ends_on: '2026-12-01', status: 'closing' }
 * advanceBudget(budget, '2026-02-30') //=> throws TypeError('advanceBudget: today is "2026-02-30", not a date (YYYY-MM-DD)')
 *
 * @category utils
 * @since 0.1.0
 */
export const advanceBudget = (budget: Budget, today: CalendarDate): Budget =>
  // For speed only: the budget checked is a fresh object no one else holds, rolled in place
  // (test/budget/advance.test.ts pins it to advance).
  advanceInto(checked('advanceBudget', budget, today), today, (b) => b)

/**
 * A period after the one in progress, with the amount it will start with.
 *
 * @example
 * upcomingPeriods(budget, '2026-11-22', 1) //=> [{ starts_on: '2026-12-18', ends_on: '2027-01-18', amount_cents: 50000 }]
 *
 * @category model
 * @since 0.1.0
 */
export interface UpcomingPeriod {
  readonly starts_on: CalendarDate
  readonly ends_on: CalendarDate | null
  readonly amount_cents: Cents | null
}

/**
 * The most periods {@link upcomingPeriods} returns, whatever `n` asks for.
 *
 * @example
 * upcomingPeriods(budget, '2026-11-22', Infinity).length //=> MAX_UPCOMING_PERIODS
 *
 * @category constants
 * @since 0.1.0
 */
export const MAX_UPCOMING_PERIODS = 1000

/**
 * The `n` periods after the one in progress on `today`, given the settings the budget holds
 * now: the preview a UI shows after a change. Fewer when renewals stop (recurrence off, or the
 * end of the calendar), none for a closed budget or an open-ended period; `n` below 1 gives none,
 * `Infinity` all, and never more than {@link MAX_UPCOMING_PERIODS}. An `n` that is not a whole
 * number or `Infinity`, a malformed budget or a `today` that is not a date is a `TypeError`.
 *
 * Law: each period `p` returned is the period in progress of `advanceBudget(budget, p.starts_on)`,
 * with `p.amount_cents` its amount.
 *
 * @example
 * // monthly from 2027-01-31, 50,000 cents, today 2027-02-10
 * const b = { ...budget, created_on: '2027-01-31', recurrence_starts_on: '2027-01-31', period_starts_on: '2027-01-31', period_ends_on: '2027-02-28' }
 * upcomingPeriods(b, '2027-02-10', 2)
 * //=> [{ starts_on: '2027-02-28', ends_on: '2027-03-31', amount_cents: 50000 },
 * //    { starts_on: '2027-03-31', ends_on: '2027-04-30', amount_cents: 50000 }]
 * upcomingPeriods(b, '2027-02-10', 2.5) //=> throws TypeError('upcomingPeriods: n is 2.5, not a whole number or Infinity')
 *
 * @category utils
 * @since 0.1.0
 */
export const upcomingPeriods = (budget: Budget, today: CalendarDate, n: number): ReadonlyArray<UpcomingPeriod> => {
  if (!(Number.isInteger(n) || n === Number.POSITIVE_INFINITY || n === Number.NEGATIVE_INFINITY))
    throw new TypeError(`upcomingPeriods: n is ${describeValue(n)}, not a whole number or Infinity`)
  const b = advance(checked('upcomingPeriods', budget, today), today)
  const schedule = scheduleOf(b)
  if (b.status === 'closed' || b.period_ends_on === null || schedule === null) return []
  const periods: Array<UpcomingPeriod> = []
  const count = Math.min(n, MAX_UPCOMING_PERIODS)
  const cadence = cadenceOf(schedule)
  // Each period ends where the next starts: one boundary computed per period.
  let k = indexOn(cadence, b.period_ends_on)
  let starts_on = boundaryAt(cadence, k)
  while (starts_on !== null && periods.length < count) {
    k += 1
    const ends_on = boundaryAt(cadence, k)
    periods.push({ starts_on, ends_on, amount_cents: b.base_amount_cents })
    starts_on = ends_on
  }
  return periods
}
