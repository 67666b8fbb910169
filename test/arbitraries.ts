import fc from 'fast-check'
import {
  addDays,
  type Budget,
  type CalendarDate,
  fromDayNumber,
  periodAt,
  type RecurrenceUnit,
  recurrenceUnits
} from '../src/index'
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

const users = ['u-manager', 'u-comanager', 'u-member', 'u-admin', 'u-other'] as const

/**
 * A budget in a consistent state, with `today` on or after the day it was last advanced to:
 * renewing (period from its schedule), stopped in mid-period, or open-ended.
 */
export const budgetAndToday: fc.Arbitrary<{ budget: Budget; today: CalendarDate }> = fc
  .record({
    created_on: nearDate,
    ageAtLastLook: fc.integer({ min: 0, max: 3000 }),
    lookToToday: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5000 })),
    renewal: fc.constantFrom('renewing', 'stopped', 'none'),
    unit,
    every,
    base: cents,
    amount: fc.option(cents, { nil: null }),
    anchorOffset: fc.integer({ min: 0, max: 400 }),
    status: fc.constantFrom('open', 'open', 'open', 'closing', 'closed'),
    endsIn: fc.option(fc.integer({ min: -100, max: 800 }), { nil: null }),
    manager: fc.option(fc.constantFrom(...users), { nil: null }),
    coManager: fc.option(fc.constantFrom(...users), { nil: null }),
    mode: fc.constantFrom('funded', 'tracking'),
    balance: cents,
    name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
    description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    access: fc.constantFrom('everyone', 'members')
  })
  .map((r) => {
    const lastLook = addDays(r.created_on, r.ageAtLastLook) ?? r.created_on
    const today = addDays(lastLook, r.lookToToday) ?? lastLook
    const anchor = addDays(r.created_on, r.anchorOffset % (r.ageAtLastLook + 1)) ?? r.created_on
    const schedule = { anchor, unit: r.unit, every: r.every }
    const period = periodAt(schedule, lastLook) ?? { starts_on: anchor, ends_on: null }
    const renewing = r.renewal === 'renewing'
    const ends_on = r.endsIn === null ? null : addDays(lastLook, r.endsIn)
    const status = r.status === 'open' && ends_on !== null && lastLook >= ends_on ? 'closing' : r.status
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
      created_on: r.created_on,
      ends_on,
      recurrence_unit: renewing ? r.unit : null,
      recurrence_every: renewing ? r.every : null,
      base_amount_cents: renewing ? r.base : null,
      recurrence_starts_on: renewing ? anchor : null,
      period_starts_on: r.renewal === 'none' ? r.created_on : period.starts_on,
      period_ends_on: r.renewal === 'none' || period.ends_on === null || period.ends_on <= lastLook ? null : period.ends_on,
      period_amount_cents: r.amount,
      balance_cents: r.mode === 'funded' ? r.balance : null
    } as Budget
    return { budget, today }
  })

export const who: fc.Arbitrary<Who> = fc.constantFrom('admin', 'owner', 'budgets_manage', 'manager', 'co_manager', 'member')

/** A value for an update field: valid, invalid, or of the wrong JSON type. */
const fieldValue = (b: Budget, today: CalendarDate): Record<string, fc.Arbitrary<unknown>> => ({
  name: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(b.name), fc.constant(''), fc.constant('x'.repeat(256))),
  description: fc.oneof(fc.constant(null), fc.string({ maxLength: 30 })),
  access: fc.constantFrom('everyone', 'members', 'nobody'),
  ends_on: fc.oneof(
    fc.constant(null),
    fc.integer({ min: -30, max: 900 }).map((n) => addDays(today, n)),
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
    .map(({ keys, vs }) =>
      Object.fromEntries(keys.map((k, i) => (k === 'wrong_type_name' ? ['name', vs[i]] : [k, vs[i]])))
    )
}

/** Keys whose value may be derived by an update from another key sent. */
export const derivedKeys = new Set([
  'status',
  'recurrence_every',
  'base_amount_cents',
  'recurrence_starts_on',
  'period_ends_on'
])


/** A mostly valid change of recurrence for `b`: turn on, change cadence, change base, or stop. */
export const recurrenceUpdateOf = (b: Budget): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    fc.record({ recurrence_unit: unit, base_amount_cents: cents }),
    fc.record({ recurrence_unit: unit, recurrence_every: every, base_amount_cents: cents }),
    fc.record({ recurrence_unit: unit, recurrence_every: every }, { requiredKeys: [] }),
    fc.record({ base_amount_cents: cents }),
    fc.constant({ recurrence_unit: null }),
    fc.constant({ recurrence_unit: b.recurrence_unit, recurrence_every: b.recurrence_every })
  )
