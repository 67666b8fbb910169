import fc from 'fast-check'
import { expect } from 'vitest'
import { type Budget, type CalendarDate, fromDayNumber, type RecurrenceUnit, recurrenceUnits } from './api'
import { daysBetween, lastDayOfMonth, periodContaining, plusDays } from './budget/calendar-oracle'
import type { Who } from './fixtures'

const toDate = (n: number): CalendarDate => {
  const d = fromDayNumber(n)
  if (d === null) throw new Error(`day ${n} is outside the calendar`)
  return d
}

/** Any date of the calendar, 0001-01-01..9999-12-31. */
export const anyDate = fc.integer({ min: -719162, max: 2932896 }).map(toDate)

/** A date near the present, where budgets live: 1990..2060, month ends and leap days included. */
export const nearDate = fc.integer({ min: 7305, max: 32873 }).map(toDate)

export const unit: fc.Arbitrary<RecurrenceUnit> = fc.constantFrom(...recurrenceUnits)

/** Mostly short cadences, sometimes the longest. */
export const every = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 366 }))

export const cents = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(Number.MAX_SAFE_INTEGER))

const pad = (n: number, width = 2) => String(n).padStart(width, '0')
const dateOf = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}` as CalendarDate

/** `date` plus `n` days (the oracle's arithmetic), within the calendar. */
const shift = (date: string, n: number): CalendarDate => {
  const d = plusDays(date, n)
  if (d === null) throw new Error(`${date} + ${n} days is past the calendar`)
  return d as CalendarDate
}

/** A month end: the 29th, 30th or 31st, or the last day of a shorter month (28 February). */
export const monthEnd: fc.Arbitrary<CalendarDate> = fc
  .record({
    year: fc.integer({ min: 1900, max: 2060 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.constantFrom(29, 30, 31)
  })
  .map(({ year, month, day }) => dateOf(year, month, Math.min(day, lastDayOfMonth(year, month))))

/** 29 February of a leap year, 1904..2060. */
export const leapDay: fc.Arbitrary<CalendarDate> = fc.integer({ min: 476, max: 515 }).map((q) => dateOf(4 * q, 2, 29))

const SPAN = daysBetween('1900-01-01', '2060-12-31')

/**
 * An anchor for a schedule: a month end or 29 February in three runs of five (the days where
 * month arithmetic clamps), any day of 1900..2060 otherwise.
 */
export const anchorDate: fc.Arbitrary<CalendarDate> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: SPAN }).map((n) => shift('1900-01-01', n)), weight: 2 },
  { arbitrary: monthEnd, weight: 2 },
  { arbitrary: leapDay, weight: 1 }
)

const users = ['u-manager', 'u-comanager', 'u-member', 'u-admin', 'u-other'] as const

/** The company members a new manager_id may name (`company_member_ids`). */
export const memberIds: ReadonlyArray<string> = ['u-manager', 'u-comanager', 'u-member', 'u-admin']

/** How a budget renews: by its schedule, stopped in mid-period, stopped and lapsed, or never. */
export type Renewal = 'renewing' | 'stopped' | 'lapsed' | 'none'

/** Days: a few, a few years, or a century. */
const span = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 36525, max: 40000 }))

export type BudgetStatus = 'open' | 'closing' | 'closed'

export interface BudgetOptions {
  /** How it renews, drawn evenly from this list (repeat an entry to weigh it). */
  readonly renewals?: ReadonlyArray<Renewal>
  readonly statuses?: ReadonlyArray<BudgetStatus>
  /** Weight of a `today` at or past the end of the period in progress, against 1 for any `today`. */
  readonly pastPeriodEnd?: number
}

/**
 * A budget in a consistent state as it was last advanced, on `lastLook`, and a `today`
 * on or after that day. The schedule's anchor is a month end or 29 February in three runs of
 * five, the budget is a century old in about a third of the runs, and `today` is at or past
 * the end of the period in progress in about half (`pastPeriodEnd`), so that advancing rolls
 * periods.
 *
 * Beyond R-17 it keeps status and ends_on together: closing only once ends_on has come, open
 * only before it.
 */
export const budgets = ({
  renewals = ['renewing', 'renewing', 'renewing', 'stopped', 'lapsed', 'none'],
  statuses = ['open', 'open', 'open', 'closing', 'closed'],
  pastPeriodEnd = 1
}: BudgetOptions = {}): fc.Arbitrary<{ budget: Budget; today: CalendarDate; lastLook: CalendarDate }> =>
  fc
    .record({
      anchor: anchorDate,
      createdBefore: fc.oneof(
        { arbitrary: fc.constant(0), weight: 3 },
        { arbitrary: fc.integer({ min: 1, max: 1000 }), weight: 1 }
      ),
      age: span,
      toToday: fc.oneof(
        { arbitrary: fc.record({ from: fc.constant('lastLook' as const), days: span }), weight: 1 },
        {
          arbitrary: fc.record({ from: fc.constant('periodEnd' as const), days: fc.oneof(fc.constant(0), span) }),
          weight: pastPeriodEnd
        }
      ),
      renewal: fc.constantFrom(...renewals),
      unit,
      every,
      base: cents,
      amount: fc.option(cents, { nil: null }),
      status: fc.constantFrom(...statuses),
      endsSet: fc.boolean(),
      endsIn: fc.integer({ min: 1, max: 800 }),
      endedAgo: fc.integer({ min: 0, max: 100 }),
      manager: fc.option(fc.constantFrom(...users), { nil: null }),
      coManager: fc.option(fc.constantFrom(...users), { nil: null }),
      mode: fc.constantFrom('funded', 'tracking'),
      balance: cents,
      name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
      description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      access: fc.constantFrom('everyone', 'members')
    })
    .map((r) => {
      const created_on = shift(r.anchor, -r.createdBefore)
      const lastLook = shift(r.anchor, r.age)
      const period = periodContaining({ anchor: r.anchor, unit: r.unit, every: r.every }, lastLook)
      if (period.ends_on === null) throw new Error('a period in progress past 9999-12-31')
      const renewing = r.renewal === 'renewing'
      const status = r.status === 'closing' ? 'closing' : r.status === 'closed' ? 'closed' : 'open'
      const ends_on =
        status === 'closing'
          ? shift(lastLook, -Math.min(r.endedAgo, daysBetween(created_on, lastLook)))
          : !r.endsSet
            ? null
            : status === 'open'
              ? shift(lastLook, r.endsIn)
              : shift(lastLook, -r.endedAgo)
      const period_ends_on = renewing || r.renewal === 'stopped' ? (period.ends_on as CalendarDate) : null
      const budget = {
        id: 'b-1',
        company_id: 'c-1',
        name: r.name,
        description: r.description,
        access: r.access,
        currency: 'CLP',
        mode: r.mode,
        manager_id: r.manager,
        co_manager_id: r.coManager,
        status,
        created_on,
        ends_on,
        recurrence_unit: renewing ? r.unit : null,
        recurrence_every: renewing ? r.every : null,
        base_amount_cents: renewing ? r.base : null,
        recurrence_starts_on: renewing ? r.anchor : null,
        period_starts_on: r.renewal === 'none' ? created_on : (period.starts_on as CalendarDate),
        period_ends_on,
        period_amount_cents: r.amount,
        balance_cents: r.mode === 'funded' ? r.balance : null
      } as Budget
      const today =
        r.toToday.from === 'periodEnd' && period_ends_on !== null
          ? shift(period_ends_on, r.toToday.days)
          : shift(lastLook, r.toToday.days)
      return { budget, today, lastLook }
    })

/** Any budget of {@link budgets}: every way of renewing, every status. */
export const budgetAndToday = budgets()

/** A budget that is not closed (open or closing), any way of renewing. */
export const unclosedBudgetAndToday = budgets({ statuses: ['open', 'open', 'open', 'closing'] })

/** A renewing budget that is not closed, with `today` past the end of its period in three runs of four. */
export const renewingBudgetAndToday = budgets({ renewals: ['renewing'], statuses: ['open', 'open', 'closing'], pastPeriodEnd: 3 })

/**
 * What R-17 finds wrong with a stored budget, written from its list (empty when consistent).
 * Dates are checked as real against the Gregorian table of month lengths.
 */
export const r17Problems = (b: Budget): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const real = (d: string | null) => {
    if (d === null) return true
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d)
    if (m === null) return false
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
    return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= lastDayOfMonth(year, month)
  }
  if (b.mode === 'funded' && (b.balance_cents === null || b.balance_cents < 0)) problems.push('funded without a balance')
  if (b.mode === 'tracking' && b.balance_cents !== null) problems.push('tracking with a balance')
  if (
    b.recurrence_unit === null &&
    (b.recurrence_every !== null || b.base_amount_cents !== null || b.recurrence_starts_on !== null)
  )
    problems.push('recurrence settings without a unit')
  if (
    b.recurrence_unit !== null &&
    (!Number.isInteger(b.recurrence_every) ||
      (b.recurrence_every as number) < 1 ||
      (b.recurrence_every as number) > 366 ||
      b.base_amount_cents === null ||
      b.recurrence_starts_on === null ||
      b.period_ends_on === null)
  )
    problems.push('a unit without every, base, anchor or period end')
  for (const key of ['created_on', 'ends_on', 'recurrence_starts_on', 'period_starts_on', 'period_ends_on'] as const)
    if (!real(b[key])) problems.push(`${key} is not a real date`)
  if (b.period_ends_on !== null && b.period_ends_on <= b.period_starts_on)
    problems.push('period_ends_on not after period_starts_on')
  return problems
}

export const who: fc.Arbitrary<Who> = fc.constantFrom('admin', 'owner', 'budgets_manage', 'manager', 'co_manager', 'member')

/** The user id of each caller of test/fixtures.ts `session`. */
export const userIdOf: Record<Who, string> = {
  admin: 'u-admin',
  owner: 'u-owner',
  budgets_manage: 'u-bm',
  manager: 'u-manager',
  co_manager: 'u-comanager',
  member: 'u-member'
}

export const fullRights: ReadonlyArray<Who> = ['admin', 'owner', 'budgets_manage']

/**
 * A caller allowed to update `b` (section 5 row 6): one with full rights, or its manager or
 * co-manager (the budget then names that user).
 */
export const allowedCallerOf = (b: Budget): fc.Arbitrary<{ budget: Budget; caller: Who }> =>
  fc.constantFrom<Who>('admin', 'owner', 'budgets_manage', 'manager', 'co_manager').map((caller) => ({
    caller,
    budget:
      caller === 'manager'
        ? { ...b, manager_id: userIdOf.manager }
        : caller === 'co_manager'
          ? { ...b, co_manager_id: userIdOf.co_manager }
          : b
  }))

/** A value for an update field: valid, invalid, or of the wrong JSON type. */
const fieldValue = (b: Budget, today: CalendarDate): Record<string, fc.Arbitrary<unknown>> => ({
  name: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(b.name), fc.constant(''), fc.constant('x'.repeat(256))),
  description: fc.oneof(fc.constant(null), fc.string({ maxLength: 30 })),
  access: fc.constantFrom('everyone', 'members', 'nobody'),
  ends_on: fc.oneof(
    fc.constant(null),
    fc.integer({ min: -30, max: 900 }).map((n) => plusDays(today, n)),
    fc.constant('2027-02-30'),
    fc.constant(b.ends_on)
  ),
  manager_id: fc.oneof(fc.constant(null), fc.constantFrom(...users), fc.constant(b.manager_id)),
  recurrence_unit: fc.oneof(fc.constant(null), unit, fc.constant('fortnight'), fc.constant(b.recurrence_unit)),
  recurrence_every: fc.oneof(fc.constant(null), every, fc.constant(0), fc.constant(2.5), fc.constant(b.recurrence_every)),
  base_amount_cents: fc.oneof(fc.constant(null), cents, fc.constant(-1), fc.constant(b.base_amount_cents)),
  currency: fc.constantFrom(b.currency, 'USD'),
  balance_cents: fc.constantFrom(b.balance_cents, 1),
  status: fc.constantFrom(b.status, 'closed'),
  unknown_key: fc.constant(1),
  wrong_type_name: fc.constant(5)
})

/** A `budget` object for a PATCH of `b`: a few keys, each any kind of value. */
export const updateOf = (b: Budget, today: CalendarDate): fc.Arbitrary<Record<string, unknown>> => {
  const values = fieldValue(b, today)
  return fc
    .subarray(Object.keys(values), { maxLength: 5 })
    .chain((keys) => fc.tuple(...keys.map((k) => values[k] as fc.Arbitrary<unknown>)).map((vs) => ({ keys, vs })))
    .map(({ keys, vs }) => Object.fromEntries(keys.map((k, i) => (k === 'wrong_type_name' ? ['name', vs[i]] : [k, vs[i]]))))
}

/** Keys whose value may be derived by an update from another key sent. */
export const derivedKeys = new Set(['status', 'recurrence_every', 'base_amount_cents', 'recurrence_starts_on', 'period_ends_on'])

/** A name that is valid by construction: letters and inner spaces, 1..40 characters. */
export const validName = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,38}[A-Za-z]$|^[A-Za-z]$/)

/** The kinds of a real change of recurrence, by what `b` holds. */
export type RecurrenceChange = 'turn_on' | 'cadence' | 'base' | 'stop'

/**
 * A valid change of recurrence for `b` (already advanced to today) that really changes
 * something: turn renewals on (unit and base, every sometimes), change the unit or every, change
 * only the base, or stop renewals.
 */
export const recurrenceChangeOf = (b: Budget): fc.Arbitrary<{ kind: RecurrenceChange; fields: Record<string, unknown> }> => {
  if (b.recurrence_unit === null)
    return fc
      .record(
        { recurrence_unit: unit, recurrence_every: every, base_amount_cents: cents },
        { requiredKeys: ['recurrence_unit', 'base_amount_cents'] }
      )
      .map((fields) => ({ kind: 'turn_on' as const, fields }))
  const current = { unit: b.recurrence_unit, every: b.recurrence_every }
  const cadence = fc
    .record({ u: unit, n: every, sendUnit: fc.boolean(), sendEvery: fc.boolean() })
    .filter(({ u, n }) => u !== current.unit || n !== current.every)
    .chain(({ u, n, sendUnit, sendEvery }) => {
      // Send what differs, and sometimes the part that stays the same too.
      const fields: Record<string, unknown> = {}
      if (u !== current.unit || sendUnit) fields.recurrence_unit = u
      if (n !== current.every || sendEvery) fields.recurrence_every = n
      return fc
        .option(cents, { nil: undefined })
        .map((base) => (base === undefined ? fields : { ...fields, base_amount_cents: base }))
    })
    .map((fields) => ({ kind: 'cadence' as const, fields }))
  const base = cents
    .filter((c) => c !== b.base_amount_cents)
    .chain((c) =>
      fc.constantFrom<Record<string, unknown>>(
        { base_amount_cents: c },
        { recurrence_unit: current.unit, recurrence_every: current.every, base_amount_cents: c }
      )
    )
    .map((fields) => ({ kind: 'base' as const, fields }))
  const stop = fc.constant({ kind: 'stop' as const, fields: { recurrence_unit: null } })
  return fc.oneof(cadence, base, stop)
}

/**
 * A valid update body for `b` (advanced to `today`, not closed) by a caller with `rights`:
 * 1 to 5 fields, each a valid value that may or may not differ from the one held. A manager
 * sends manager_id and the recurrence fields only with the values held (no change).
 */
export const validUpdateOf = (
  b: Budget,
  today: CalendarDate,
  rights: 'full' | 'manager'
): fc.Arbitrary<Record<string, unknown>> => {
  const plain: Record<string, fc.Arbitrary<unknown>> = {
    name: fc.oneof(validName, fc.constant(b.name)),
    description: fc.oneof(fc.constant(null), fc.string({ maxLength: 30 })),
    access: fc.constantFrom('everyone', 'members'),
    ends_on: fc.oneof(
      fc.constant(null),
      fc.integer({ min: 1, max: 900 }).map((n) => plusDays(today, n)),
      fc.constant(b.ends_on)
    ),
    manager_id:
      rights === 'full'
        ? fc.oneof(fc.constant(null), fc.constantFrom(...memberIds), fc.constant(b.manager_id))
        : fc.constant(b.manager_id)
  }
  const held = {
    recurrence_unit: b.recurrence_unit,
    recurrence_every: b.recurrence_every,
    base_amount_cents: b.base_amount_cents
  }
  const recurrence =
    rights === 'full'
      ? fc.oneof(
          recurrenceChangeOf(b).map((c) => c.fields),
          fc.constant(held)
        )
      : fc.subarray(Object.keys(held)).map((ks) => Object.fromEntries(ks.map((k) => [k, held[k as keyof typeof held]])))
  return fc
    .record({
      keys: fc.subarray(Object.keys(plain), { minLength: 0 }),
      withRecurrence: fc.boolean()
    })
    .filter(({ keys, withRecurrence }) => keys.length > 0 || withRecurrence)
    .chain(({ keys, withRecurrence }) =>
      fc
        .tuple(fc.tuple(...keys.map((k) => plain[k] as fc.Arbitrary<unknown>)), withRecurrence ? recurrence : fc.constant({}))
        .map(([vs, rec]) => ({ ...Object.fromEntries(keys.map((k, i) => [k, vs[i]])), ...rec }))
    )
}

/**
 * A body by which a caller without full rights changes manager_id or a recurrence field of `b`
 * (a value that differs from the one `b` holds, valid or not but of the right JSON type), with
 * other fields of the right type beside it, valid or not. `code` is the 403 it must get: row 9
 * (manager) comes before row 10 (recurrence).
 */
export const forbiddenChangeOf = (b: Budget): fc.Arbitrary<{ fields: Record<string, unknown>; code: string }> => {
  const differing = <T>(values: ReadonlyArray<T>, held: unknown) => fc.constantFrom(...values.filter((v) => v !== held))
  const changes = fc.record(
    {
      manager_id: differing<string | null>([null, 'u-admin', 'u-other', 'u-member', 'u-manager', 'u-nobody'], b.manager_id),
      recurrence_unit: differing<string | null>([null, 'day', 'week', 'month', 'year', 'fortnight'], b.recurrence_unit),
      recurrence_every: fc.oneof(every, fc.constantFrom(0, 2.5, 367, null)).filter((n) => n !== b.recurrence_every),
      base_amount_cents: fc.oneof(cents, fc.constantFrom(-1, null)).filter((c) => c !== b.base_amount_cents)
    },
    { requiredKeys: [] }
  )
  const others = fc.record(
    {
      name: fc.oneof(validName, fc.constant(''), fc.constant('x'.repeat(256))),
      access: fc.constantFrom('everyone', 'members', 'nobody'),
      ends_on: fc.constantFrom(null, '2027-02-30', '2999-01-01', '2000-01-01'),
      description: fc.constant(null)
    },
    { requiredKeys: [] }
  )
  return fc
    .tuple(
      changes.filter((c) => Object.keys(c).length > 0),
      others
    )
    .map(([c, o]) => ({
      fields: { ...o, ...c },
      code: 'manager_id' in c ? 'budgets/cannot_change_manager' : 'budgets/cannot_change_recurrence'
    }))
}

/**
 * Counts a property's runs and those that reach its conclusion, so that a test can check that
 * its generators produce the interesting case rather than filter it out.
 */
export const tally = () => {
  let runs = 0
  let reached = 0
  return {
    run: (): void => {
      runs++
    },
    reach: (): void => {
      reached++
    },
    /** Asserts that at least `share` of the runs (half by default) reached the conclusion. */
    expectShare: (share = 0.5): void => {
      expect(runs).toBeGreaterThan(0)
      expect(reached / runs, `${reached} of ${runs} runs reached the conclusion`).toBeGreaterThanOrEqual(share)
    },
    get counts() {
      return { runs, reached }
    }
  }
}
