/**
 * An oracle for renewal schedules written another way than src/recurrence/schedule.ts: date-fns
 * on `UTCDate` (never the process time zone), each boundary `anchor + k * every units` found by
 * adding from the anchor and letting date-fns clamp month ends. Also a model of `advanceBudget`
 * written from contract section 6.
 */
import { UTCDate } from '@date-fns/utc'
import { addDays, addMonths, differenceInCalendarDays, differenceInCalendarMonths, format } from 'date-fns'

export type Unit = 'day' | 'week' | 'month' | 'year'

export interface OracleSchedule {
  readonly anchor: string
  readonly unit: Unit
  readonly every: number
}

const utc = (date: string): UTCDate => new UTCDate(`${date}T00:00:00.000Z`)

/** A `UTCDate` as `YYYY-MM-DD`, or null outside 0001-01-01..9999-12-31. */
const text = (d: UTCDate): string | null => {
  const year = d.getUTCFullYear() // NaN past what a Date holds
  return year >= 1 && year <= 9999 ? format(d, 'yyyy-MM-dd') : null
}

/** `date` plus `n` days, or null outside the calendar. */
export const plusDays = (date: string, n: number): string | null => text(addDays(utc(date), n))

/** Whole days from `a` to `b`. */
export const daysBetween = (a: string, b: string): number => differenceInCalendarDays(utc(b), utc(a))

const months = (s: OracleSchedule): number => s.every * (s.unit === 'year' ? 12 : 1)
const days = (s: OracleSchedule): number => s.every * (s.unit === 'week' ? 7 : 1)
const dayBased = (s: OracleSchedule): boolean => s.unit === 'day' || s.unit === 'week'

/** Boundary `k` (the anchor is boundary 0), or null outside the calendar. */
export const boundary = (s: OracleSchedule, k: number): string | null => {
  if (dayBased(s)) return text(addDays(utc(s.anchor), k * days(s)))
  // The year is known before any Date is built: Date's own years below 100 and past 275760 are
  // traps the oracle must not fall into (a run once read year -16 as 0017).
  const year = Number(s.anchor.slice(0, 4)) + Math.floor((Number(s.anchor.slice(5, 7)) - 1 + k * months(s)) / 12)
  return year < 1 || year > 9999 ? null : text(addMonths(utc(s.anchor), k * months(s)))
}

/** The index `k` of the period containing `date` (`date` on or after the anchor). */
export const indexContaining = (s: OracleSchedule, date: string): number => {
  let k = dayBased(s)
    ? Math.floor(daysBetween(s.anchor, date) / days(s))
    : Math.floor(differenceInCalendarMonths(utc(date), utc(s.anchor)) / months(s))
  // The estimate is off by at most one step around clamped month ends: walk to the exact one.
  const le = (a: string | null, b: string) => a !== null && a <= b
  while (!le(boundary(s, k), date)) k--
  while (le(boundary(s, k + 1), date)) k++
  return k
}

/** The period `[starts_on, ends_on)` containing `date`, for `date` on or after the anchor. */
export const periodContaining = (s: OracleSchedule, date: string): { starts_on: string; ends_on: string | null } => {
  const k = indexContaining(s, date)
  return { starts_on: boundary(s, k) as string, ends_on: boundary(s, k + 1) }
}

/** The last day of a month, from the Gregorian rules (a table, not the library's code). */
export const lastDayOfMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

interface BudgetLike {
  readonly status: string
  readonly ends_on: string | null
  readonly recurrence_unit: Unit | null
  readonly recurrence_every: number | null
  readonly base_amount_cents: number | null
  readonly recurrence_starts_on: string | null
  readonly period_starts_on: string
  readonly period_ends_on: string | null
  readonly period_amount_cents: number | null
}

/**
 * The budget as of `today`, from contract section 6: a closed budget is unchanged; once
 * `period_ends_on` has come, a renewing budget is in the period of its schedule containing
 * `today` with `base_amount_cents`, a stopped one is open-ended with its amount; an open budget
 * is closing from `ends_on` on.
 */
export const advanceModel = <B extends BudgetLike>(b: B, today: string): B => {
  if (b.status === 'closed') return b
  let r: B = b
  if (r.period_ends_on !== null && today >= r.period_ends_on) {
    if (r.recurrence_unit === null || r.recurrence_starts_on === null || r.recurrence_every === null)
      r = { ...r, period_ends_on: null }
    else {
      const p = periodContaining({ anchor: r.recurrence_starts_on, unit: r.recurrence_unit, every: r.recurrence_every }, today)
      r = { ...r, period_starts_on: p.starts_on, period_ends_on: p.ends_on, period_amount_cents: r.base_amount_cents }
    }
  }
  if (r.status === 'open' && r.ends_on !== null && today >= r.ends_on) r = { ...r, status: 'closing' }
  return r
}
