/**
 * How an update of recurrence_unit, recurrence_every or base_amount_cents reshapes a budget's
 * periods (contract section 6, R-12). The period in progress always keeps its start, its end
 * and its amount; a change takes effect from the next period.
 *
 * | change | recurrence_starts_on | period in progress |
 * |---|---|---|
 * | turned on, period open-ended | created_on | now ends at the first boundary after today |
 * | turned on, period has an end (renewals stopped in it) | that period_ends_on | unchanged |
 * | unit or every changed | period_ends_on | unchanged |
 * | only base_amount_cents changed | unchanged | unchanged |
 * | turned off (unit null) | null, with every and base | unchanged; open-ended once its end comes |
 *
 * Law: for every budget `b` already advanced to `today` and every change `c`,
 * `changeRecurrence(b, today, c).budget` has the same `period_starts_on` and
 * `period_amount_cents` as `b`, and the same `period_ends_on` unless recurrence is turned on
 * over an open-ended period.
 *
 * @since 0.1.0
 */
import type { CalendarDate } from '../calendar/date'
import type { Budget, Cents, Every } from './model'
import type { Reason } from '../decision/rules'
import { boundaryAfter, type RecurrenceUnit } from '../recurrence/schedule'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The recurrence settings after the update: what was sent, or else what the budget holds.
 *
 * @example
 * // every 2 weeks from the end of the period in progress, which keeps its end and amount
 * changeRecurrence(budget, '2026-11-22', { unit: 'week', every: 2, base: 50000 }).budget
 * //=> { ...budget, recurrence_unit: 'week', recurrence_every: 2, recurrence_starts_on: '2026-12-18' }
 *
 * @category model
 * @since 0.1.0
 */
export interface RecurrenceSettings {
  readonly unit: RecurrenceUnit | null
  readonly every: Every | null
  readonly base: Cents | null
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const ONE = 1 as Every

/**
 * The budget with its new recurrence settings, and the reason that names what happened
 * (`null` when the settings are the ones it holds).
 *
 * @example
 * // created 2025-10-18, renewals off, period open-ended; today 2026-11-22
 * const b = { ...budget, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null,
 *   period_starts_on: '2025-10-18', period_ends_on: null }
 * changeRecurrence(b, '2026-11-22', { unit: 'month', every: null, base: 50000 })
 * //=> { budget: { ...b, recurrence_unit: 'month', recurrence_every: 1, base_amount_cents: 50000,
 * //               recurrence_starts_on: '2025-10-18', period_ends_on: '2026-12-18' },
 * //     reason: { rule: 'recurrence.turn_on', detail: 'periods count from 2025-10-18; the period in progress ends 2026-12-18' } }
 *
 * @category utils
 * @since 0.1.0
 */
export const changeRecurrence = (
  b: Budget,
  today: CalendarDate,
  next: RecurrenceSettings
): { readonly budget: Budget; readonly reason: Reason | null } => {
  if (next.unit === null) {
    if (b.recurrence_unit === null) return { budget: { ...b, base_amount_cents: next.base }, reason: null }
    return {
      budget: { ...b, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null },
      reason: {
        rule: 'recurrence.stop',
        detail:
          b.period_ends_on === null ? 'renewals stopped' : `renewals stopped; the period in progress ends ${b.period_ends_on}`
      }
    }
  }
  const every = next.every ?? b.recurrence_every ?? ONE
  if (b.recurrence_unit === null) {
    const turnedOn = { ...b, recurrence_unit: next.unit, recurrence_every: every, base_amount_cents: next.base }
    if (b.period_ends_on !== null)
      return {
        budget: { ...turnedOn, recurrence_starts_on: b.period_ends_on },
        reason: { rule: 'recurrence.turn_on', detail: `renewals resume from ${b.period_ends_on}` }
      }
    const ends = boundaryAfter({ anchor: b.created_on, unit: next.unit, every }, today)
    return {
      budget: { ...turnedOn, recurrence_starts_on: b.created_on, period_ends_on: ends },
      reason: {
        rule: 'recurrence.turn_on',
        detail: `periods count from ${b.created_on}; the period in progress ends ${ends ?? 'never'}`
      }
    }
  }
  if (next.unit !== b.recurrence_unit || every !== b.recurrence_every)
    return {
      budget: {
        ...b,
        recurrence_unit: next.unit,
        recurrence_every: every,
        base_amount_cents: next.base,
        recurrence_starts_on: b.period_ends_on ?? b.recurrence_starts_on
      },
      reason: {
        rule: 'recurrence.change',
        detail: `every ${every} ${next.unit} from ${b.period_ends_on ?? b.recurrence_starts_on ?? 'the anchor'}`
      }
    }
  if (next.base !== b.base_amount_cents)
    return {
      budget: { ...b, base_amount_cents: next.base },
      reason: { rule: 'recurrence.base', detail: `periods after the one in progress get ${next.base ?? 0} cents` }
    }
  return { budget: b, reason: null }
}
