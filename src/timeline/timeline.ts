/**
 * A budget's schedule as a timeline: the period in progress on a day, the periods after it, and
 * the pending changes a reader must see (a cadence that applies from the next period, renewals
 * that stop, the closing date), the model that {@link timelineText} and `periodsSvg` draw.
 *
 * @example
 * timelineText({ budget, today: '2026-11-22', next: 2 })
 * //=> [
 * //  'Team lunch (b-1): funded, CLP, open, balance 20,000 cents',
 * //  'renews every month from 2025-10-18',
 * //  'today 2026-11-22',
 * //  '',
 * //  '> 2026-11-18 .. 2026-12-18  50,000 cents  in progress',
 * //  '  2026-12-18 .. 2027-01-18  50,000 cents',
 * //  '  2027-01-18 .. 2027-02-18  50,000 cents',
 * //  ''
 * //].join('\n')
 *
 * @since 0.1.0
 */
import { advanceBudget, upcomingPeriods } from '../budget/advance'
import type { Budget, Cents } from '../budget/model'
import type { CalendarDate } from '../calendar/date'
import type { RecurrenceUnit } from '../recurrence/schedule'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a timeline is drawn from: a stored budget, the day to look from, and how many periods
 * after the one in progress to show (`upcomingPeriods`' `n`).
 *
 * @example
 * timelineOf({ budget, today: '2026-11-22', next: 0 }).periods.length //=> 1
 *
 * @category model
 * @since 0.1.0
 */
export interface TimelineInput {
  readonly budget: Budget
  readonly today: CalendarDate
  readonly next: number
}

/**
 * A period of a timeline. `ends_on` is `null` when the period goes on open-ended, renewals
 * having stopped; `in_progress` marks the period in progress on `today` (a closed budget has
 * none: its last period is shown, not in progress).
 *
 * @example
 * timelineOf({ budget, today: '2026-11-22', next: 0 }).periods
 * //=> [{ starts_on: '2026-11-18', ends_on: '2026-12-18', amount_cents: 50000, in_progress: true }]
 *
 * @category model
 * @since 0.1.0
 */
export interface TimelinePeriod {
  readonly starts_on: CalendarDate
  readonly ends_on: CalendarDate | null
  readonly amount_cents: Cents | null
  readonly in_progress: boolean
}

/**
 * A pending change and the day it takes effect:
 * - `cadence`: the budget's `recurrence_starts_on`, when it is on or after the end of the
 *   period in progress: a cadence changed (or renewals turned on again) that applies from the
 *   next period;
 * - `stop`: renewals were turned off; on `period_ends_on` no new period starts and the period
 *   in progress goes on, open-ended;
 * - `closing`: the `ends_on` of an open budget, the day it becomes closing.
 *
 * Changes on the same day come in the order listed here.
 *
 * @example
 * timelineOf({ budget: { ...budget, ends_on: '2027-01-05' }, today: '2026-11-22', next: 0 }).changes
 * //=> [{ _tag: 'closing', on: '2027-01-05' }]
 *
 * @category model
 * @since 0.1.0
 */
export type PendingChange =
  | {
      readonly _tag: 'cadence'
      readonly on: CalendarDate
      readonly unit: RecurrenceUnit
      readonly every: number
      readonly amount_cents: Cents
    }
  | { readonly _tag: 'stop'; readonly on: CalendarDate }
  | { readonly _tag: 'closing'; readonly on: CalendarDate }

/**
 * A budget's timeline on a day: the budget advanced to `today`, its periods (the one in
 * progress first, then the upcoming ones, contiguous) and its pending changes by date.
 *
 * @example
 * timelineOf({ budget, today: '2027-01-20', next: 1 }).budget.period_starts_on //=> '2027-01-18'
 *
 * @category model
 * @since 0.1.0
 */
export interface Timeline {
  readonly budget: Budget
  readonly today: CalendarDate
  readonly periods: ReadonlyArray<TimelinePeriod>
  readonly changes: ReadonlyArray<PendingChange>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The timeline of a budget on `today` with the `next` periods after the one in progress
 * (fewer when renewals stop). A malformed budget, a `today` that is not a date or a `next` that
 * is not a whole number is the `TypeError` of `advanceBudget` or `upcomingPeriods`.
 *
 * @example
 * // weekly, changed on 2026-11-20 to every 2 weeks from the end of the period in progress
 * const weekly = { ...budget, recurrence_unit: 'week', recurrence_every: 2, recurrence_starts_on: '2026-11-25', period_starts_on: '2026-11-18', period_ends_on: '2026-11-25' }
 * timelineOf({ budget: weekly, today: '2026-11-22', next: 1 })
 * //=> { budget: weekly, today: '2026-11-22',
 * //     periods: [{ starts_on: '2026-11-18', ends_on: '2026-11-25', amount_cents: 50000, in_progress: true },
 * //               { starts_on: '2026-11-25', ends_on: '2026-12-09', amount_cents: 50000, in_progress: false }],
 * //     changes: [{ _tag: 'cadence', on: '2026-11-25', unit: 'week', every: 2, amount_cents: 50000 }] }
 * timelineOf({ budget, today: '2026-11-22', next: 1.5 })
 * //=> throws TypeError('upcomingPeriods: n is 1.5, not a whole number or Infinity')
 *
 * @category constructors
 * @since 0.1.0
 */
export const timelineOf = ({ budget, today, next }: TimelineInput): Timeline => {
  const upcoming = upcomingPeriods(budget, today, next)
  const b = advanceBudget(budget, today)
  const closed = b.status === 'closed'
  const stops = !closed && b.recurrence_unit === null && b.period_ends_on !== null
  const changes: Array<PendingChange> = []
  if (
    !closed &&
    b.recurrence_unit !== null &&
    b.recurrence_every !== null &&
    b.base_amount_cents !== null &&
    b.recurrence_starts_on !== null &&
    b.period_ends_on !== null &&
    b.recurrence_starts_on >= b.period_ends_on
  )
    changes.push({
      _tag: 'cadence',
      on: b.recurrence_starts_on,
      unit: b.recurrence_unit,
      every: b.recurrence_every,
      amount_cents: b.base_amount_cents
    })
  if (stops && b.period_ends_on !== null) changes.push({ _tag: 'stop', on: b.period_ends_on })
  if (b.status === 'open' && b.ends_on !== null) changes.push({ _tag: 'closing', on: b.ends_on })
  return {
    budget: b,
    today,
    periods: [
      {
        starts_on: b.period_starts_on,
        ends_on: stops ? null : b.period_ends_on,
        amount_cents: b.period_amount_cents,
        in_progress: !closed
      },
      ...upcoming.map((p) => ({ ...p, in_progress: false }))
    ],
    changes: changes.sort((x, y) => (x.on < y.on ? -1 : x.on > y.on ? 1 : 0))
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Cents with a comma every three digits, the same in every locale.
 *
 * @example
 * formatCents(1234567) //=> '1,234,567'
 * formatCents(null) //=> 'no amount'
 *
 * @category utils
 * @since 0.1.0
 */
export const formatCents = (cents: number | null): string =>
  cents === null ? 'no amount' : String(cents).replace(/\B(?=(\d{3})+$)/g, ',')

/**
 * A cadence in words.
 *
 * @example
 * cadenceText('month', 1) //=> 'every month'
 * cadenceText('week', 2) //=> 'every 2 weeks'
 *
 * @category utils
 * @since 0.1.0
 */
export const cadenceText = (unit: RecurrenceUnit, every: number): string =>
  every === 1 ? `every ${unit}` : `every ${every} ${unit}s`

/**
 * The heading of a timeline: the budget, its mode, currency, status and balance.
 *
 * @example
 * headingText({ ...budget, mode: 'tracking', balance_cents: null, status: 'closing', ends_on: '2026-11-20' })
 * //=> 'Team lunch (b-1): tracking, CLP, closing since 2026-11-20'
 *
 * @category utils
 * @since 0.1.0
 */
export const headingText = (b: Budget): string => {
  const status = b.status === 'closing' && b.ends_on !== null ? `closing since ${b.ends_on}` : b.status
  const balance = b.balance_cents === null ? '' : `, balance ${formatCents(b.balance_cents)} cents`
  return `${b.name} (${b.id}): ${b.mode}, ${b.currency}, ${status}${balance}`
}

/**
 * How a budget renews, in words.
 *
 * @example
 * renewalText(budget) //=> 'renews every month from 2025-10-18'
 * renewalText({ ...budget, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null })
 * //=> 'does not renew'
 *
 * @category utils
 * @since 0.1.0
 */
export const renewalText = (b: Budget): string =>
  b.status === 'closed'
    ? 'closed: no periods to come'
    : b.recurrence_unit === null || b.recurrence_every === null || b.recurrence_starts_on === null
      ? 'does not renew'
      : `renews ${cadenceText(b.recurrence_unit, b.recurrence_every)} from ${b.recurrence_starts_on}`

/**
 * What a pending change does, in words.
 *
 * @example
 * changeText({ _tag: 'stop', on: '2026-12-18' }) //=> 'renewals stop: the period in progress goes on, open-ended'
 *
 * @category utils
 * @since 0.1.0
 */
export const changeText = (c: PendingChange): string => {
  switch (c._tag) {
    case 'cadence':
      return `from here: renews ${cadenceText(c.unit, c.every)}, ${formatCents(c.amount_cents)} cents a period`
    case 'stop':
      return 'renewals stop: the period in progress goes on, open-ended'
    case 'closing':
      return 'ends_on: the budget closes (status closing)'
  }
}

/** The dates of a period as one column: both dates are 10 characters, as is `open-ended`. */
const datesOf = (p: TimelinePeriod) => `${p.starts_on} .. ${p.ends_on ?? 'open-ended'}`

/**
 * A budget's timeline as text, one line per period or pending change in date order: `>` marks
 * the period in progress, `!` a pending change (a change on the day a period starts comes
 * before it). Ends with a newline.
 *
 * @example
 * // renewals stopped: the period in progress goes on past 2026-12-18, and it closes in March
 * const stopped = { ...budget, ends_on: '2027-03-01', recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null }
 * timelineText({ budget: stopped, today: '2026-11-22', next: 3 }).split('\n').slice(3)
 * //=> ['',
 * //    '> 2026-11-18 .. open-ended  50,000 cents  in progress',
 * //    '! 2026-12-18                              renewals stop: the period in progress goes on, open-ended',
 * //    '! 2027-03-01                              ends_on: the budget closes (status closing)',
 * //    '']
 *
 * @category utils
 * @since 0.1.0
 */
export const timelineText = (input: TimelineInput): string => {
  const t = timelineOf(input)
  const rows = [
    ...t.periods.map((p) => ({
      on: p.starts_on,
      order: 1,
      mark: p.in_progress ? '>' : ' ',
      dates: datesOf(p),
      amount: `${formatCents(p.amount_cents)}${p.amount_cents === null ? '' : ' cents'}`,
      note: p.in_progress ? 'in progress' : t.budget.status === 'closed' ? 'last period' : ''
    })),
    ...t.changes.map((c) => ({ on: c.on, order: 0, mark: '!', dates: c.on, amount: '', note: changeText(c) }))
  ].sort((x, y) => (x.on < y.on ? -1 : x.on > y.on ? 1 : x.order - y.order))
  const width = Math.max(...rows.map((r) => r.amount.length))
  const lines = rows.map((r) => `${r.mark} ${r.dates.padEnd(24)}  ${r.amount.padStart(width)}  ${r.note}`.trimEnd())
  return [headingText(t.budget), renewalText(t.budget), `today ${t.today}`, '', ...lines, ''].join('\n')
}
