import { describe, expect, it } from 'vitest'
import { advanceBudget, scheduleOf, upcomingPeriods } from '../api'
import { day, monthly } from '../fixtures'

// Monthly from 2025-10-18 (the fixture): a schedule needs all three settings.
describe('scheduleOf', () => {
  it('is the schedule of a budget holding unit, every and anchor', () => {
    expect(scheduleOf(monthly({ recurrence_every: 3 }))).toEqual({ anchor: '2025-10-18', unit: 'month', every: 3 })
  })

  it.each<[string, object]>([
    ['no unit', { recurrence_unit: null }],
    ['no every', { recurrence_every: null }],
    ['no anchor', { recurrence_starts_on: null }],
    ['none of the three', { recurrence_unit: null, recurrence_every: null, recurrence_starts_on: null }]
  ])('is null for a budget with %s', (_, overrides) => {
    expect(scheduleOf({ ...monthly(), ...overrides })).toBeNull()
  })
})

describe('the TypeErrors of advanceBudget and upcomingPeriods (R-19)', () => {
  it('lists every problem of a malformed budget, separated by semicolons', () => {
    const broken = { ...monthly(), recurrence_every: null, base_amount_cents: null } as never
    expect(() => advanceBudget(broken, day('2027-01-01'))).toThrow(
      new TypeError(
        'advanceBudget: the budget is malformed: recurrence_every is null while recurrence_unit is "month"; ' +
          'base_amount_cents is null while recurrence_unit is "month"'
      )
    )
  })

  it('names the date it was given that is no date', () => {
    expect(() => advanceBudget(monthly(), '2026-02-30' as never)).toThrow(
      new TypeError('advanceBudget: today is "2026-02-30", not a date (YYYY-MM-DD)')
    )
    expect(() => upcomingPeriods(monthly(), 20261122 as never, 1)).toThrow(
      new TypeError('upcomingPeriods: today is 20261122, not a date (YYYY-MM-DD)')
    )
  })
})
