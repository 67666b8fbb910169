import { describe, expect, it } from 'vitest'
import {
  advanceBudget,
  boundaryOf,
  indexAt,
  MAX_UPCOMING_PERIODS,
  nextBoundaryAfter,
  periodAt,
  permittedUpdateFields,
  upcomingPeriods
} from '../api'
import { baseBudget, budget, day, monthly } from '../fixtures'

// the typed functions terminate promptly on any input; a value outside their type is a
// TypeError naming it, never a loop, a garbage date or a shared array.

const daily = () =>
  budget({
    recurrence_unit: 'day',
    recurrence_every: 1,
    base_amount_cents: 100,
    recurrence_starts_on: '2026-01-01',
    period_starts_on: '2026-11-22',
    period_ends_on: '2026-11-23',
    period_amount_cents: 100
  })

describe('upcomingPeriods', () => {
  it('returns at most 1,000 periods: an n of Infinity means all, capped', () => {
    const periods = upcomingPeriods(daily(), day('2026-11-22'), Number.POSITIVE_INFINITY)
    expect(MAX_UPCOMING_PERIODS).toBe(1000)
    expect(periods).toHaveLength(1000)
    expect(periods[0]).toEqual({ starts_on: '2026-11-23', ends_on: '2026-11-24', amount_cents: 100 })
    // 2026-11-23 plus 999 days: 8 to 2026-12-01, 365 + 366 to 2028-12-01, 260 to 2029-08-18
    expect(periods[999]).toEqual({ starts_on: '2029-08-18', ends_on: '2029-08-19', amount_cents: 100 })
  })

  it('returns none for -Infinity, as for any n below 1', () => {
    expect(upcomingPeriods(daily(), day('2026-11-22'), Number.NEGATIVE_INFINITY)).toEqual([])
  })

  it.each<[string, unknown, string]>([
    ['NaN', Number.NaN, 'upcomingPeriods: n is NaN, not a whole number or Infinity'],
    ['2.5', 2.5, 'upcomingPeriods: n is 2.5, not a whole number or Infinity'],
    ['a string', '3', 'upcomingPeriods: n is "3", not a whole number or Infinity']
  ])('an n of %s is a TypeError', (_, n, message) => {
    expect(() => upcomingPeriods(daily(), day('2026-11-22'), n as number)).toThrow(new TypeError(message))
  })
})

describe('advanceBudget and upcomingPeriods given a budget or date outside their types', () => {
  const broken = (overrides: object) => ({ ...monthly(), ...overrides }) as never

  it.each<[string, object, string]>([
    ['every 0', { recurrence_every: 0 }, 'recurrence_every is 0, not (Every | null)'],
    ['every NaN', { recurrence_every: Number.NaN }, 'recurrence_every is NaN, not (Every | null)'],
    ['every null with a unit', { recurrence_every: null }, 'recurrence_every is null while recurrence_unit is "month"'],
    [
      'a period_starts_on that is no date',
      { period_starts_on: '2026-02-30' },
      'period_starts_on is "2026-02-30", not CalendarDate'
    ]
  ])('a budget with %s is a TypeError naming the problem', (_, overrides, problem) => {
    expect(() => advanceBudget(broken(overrides), day('2027-01-01'))).toThrow(
      new TypeError(`advanceBudget: the budget is malformed: ${problem}`)
    )
    expect(() => upcomingPeriods(broken(overrides), day('2027-01-01'), 3)).toThrow(
      new TypeError(`upcomingPeriods: the budget is malformed: ${problem}`)
    )
  })

  it.each(['2026-02-30', '+275760-09-13', '', 20261122])('a today of %s is a TypeError', (today) => {
    expect(() => advanceBudget(monthly(), today as never)).toThrow(TypeError)
    expect(() => upcomingPeriods(monthly(), today as never, 1)).toThrow(TypeError)
  })

  it('returns a fresh plain object even when nothing rolls', () => {
    const b = monthly()
    const a = advanceBudget(b, day('2026-11-22'))
    expect(a).toEqual(b)
    expect(a).not.toBe(b)
  })
})

describe('the schedule functions given a schedule outside their type', () => {
  const schedule = { anchor: day('2027-01-31'), unit: 'month' as const, every: 1 }

  it.each<[string, object, string]>([
    ['every 0', { every: 0 }, 'schedule.every is 0, not an integer from 1 to 366'],
    ['every NaN', { every: Number.NaN }, 'schedule.every is NaN, not an integer from 1 to 366'],
    ['every -1', { every: -1 }, 'schedule.every is -1, not an integer from 1 to 366'],
    ['a unit of fortnight', { unit: 'fortnight' }, 'schedule.unit is "fortnight", not day, week, month or year'],
    ['an anchor that is no date', { anchor: '2027-02-29' }, 'schedule.anchor is "2027-02-29", not a date (YYYY-MM-DD)']
  ])('%s is a TypeError in each of them', (_, overrides, problem) => {
    const s = { ...schedule, ...overrides } as never
    expect(() => boundaryOf(s, 1)).toThrow(new TypeError(`boundaryOf: ${problem}`))
    expect(() => indexAt(s, day('2027-03-01'))).toThrow(new TypeError(`indexAt: ${problem}`))
    expect(() => periodAt(s, day('2027-03-01'))).toThrow(new TypeError(`periodAt: ${problem}`))
    expect(() => nextBoundaryAfter(s, day('2027-03-01'))).toThrow(new TypeError(`nextBoundaryAfter: ${problem}`))
  })

  it('a k that is not a whole number, or a date that is not one, is a TypeError', () => {
    expect(() => boundaryOf(schedule, Number.NaN)).toThrow(new TypeError('boundaryOf: k is NaN, not a whole number'))
    expect(() => boundaryOf(schedule, 0.5)).toThrow(new TypeError('boundaryOf: k is 0.5, not a whole number'))
    expect(() => periodAt(schedule, '2027-13-01' as never)).toThrow(
      new TypeError('periodAt: date is "2027-13-01", not a date (YYYY-MM-DD)')
    )
  })
})

describe('permittedUpdateFields', () => {
  const admin = { user_id: 'u-admin', role: 'admin' as const, permissions: [] }
  const manager = { user_id: 'u-manager', role: 'member' as const, permissions: [] }

  it('returns a new array each call: a caller mutating one changes nothing for the next', () => {
    const first = permittedUpdateFields(admin, baseBudget)
    first.length = 0
    ;(permittedUpdateFields(manager, baseBudget) as Array<string>).push('manager_id')
    expect(permittedUpdateFields(admin, baseBudget)).toEqual([
      'name',
      'description',
      'access',
      'ends_on',
      'manager_id',
      'recurrence_unit',
      'recurrence_every',
      'base_amount_cents'
    ])
    expect(permittedUpdateFields(manager, baseBudget)).toEqual(['name', 'description', 'access', 'ends_on'])
  })

  it('gives no field of a closed budget to anyone, and the manager fields to a co-manager of a closing one', () => {
    const owner = { user_id: 'u-owner', role: 'owner' as const, permissions: [] }
    const coManager = { user_id: 'u-comanager', role: 'member' as const, permissions: [] }
    const member = { user_id: 'u-member', role: 'member' as const, permissions: [] }
    const closed = { ...baseBudget, status: 'closed' as const }
    expect([owner, admin, manager, coManager].map((c) => permittedUpdateFields(c, closed))).toEqual([[], [], [], []])
    expect(permittedUpdateFields(coManager, { ...baseBudget, status: 'closing' })).toEqual([
      'name',
      'description',
      'access',
      'ends_on'
    ])
    expect(permittedUpdateFields(member, baseBudget)).toEqual([])
    expect(permittedUpdateFields({ ...member, permissions: ['budgets_manage'] }, baseBudget)).toHaveLength(8)
  })

  it.each<[string, object, object, string]>([
    ['a role in another case', { ...manager, role: 'Owner' }, baseBudget, 'caller.role is "Owner", not owner, admin or member'],
    ['a null role', { ...manager, role: null }, baseBudget, 'caller.role is null, not owner, admin or member'],
    [
      'permissions that are not a list',
      { ...manager, permissions: 'budgets_manage' },
      baseBudget,
      'caller.permissions is "budgets_manage", not an array of strings'
    ],
    ['a user id that is not a string', { ...manager, user_id: 7 }, baseBudget, 'caller.user_id is 7, not a string'],
    [
      'a status that is not one',
      manager,
      { ...baseBudget, status: 'archived' },
      'budget.status is "archived", not open, closing or closed'
    ],
    [
      'a manager id that is not a string',
      manager,
      { ...baseBudget, manager_id: 7 },
      'budget.manager_id is 7, not a string or null'
    ],
    [
      'a co-manager id that is not a string',
      manager,
      { ...baseBudget, co_manager_id: ['u-1'] },
      'budget.co_manager_id is an array, not a string or null'
    ],
    [
      'a permission that is not a string',
      { ...manager, permissions: ['budgets_manage', 1] },
      baseBudget,
      'caller.permissions is an array, not an array of strings'
    ],
    ['no status', manager, { ...baseBudget, status: undefined }, 'budget.status is undefined, not open, closing or closed']
  ])('%s is a TypeError', (_, caller, b, problem) => {
    expect(() => permittedUpdateFields(caller as never, b as never)).toThrow(new TypeError(`permittedUpdateFields: ${problem}`))
  })
})
