import { describe, expect, it } from 'vitest'
import { advanceBudget } from '../api'
import { day, monthly } from '../fixtures'

describe('a renewing budget missing a setting and its period end (R-17)', () => {
  it.each<[string, object, string]>([
    ['every', { recurrence_every: null }, 'recurrence_every is null while recurrence_unit is "month"'],
    ['anchor', { recurrence_starts_on: null }, 'recurrence_starts_on is null while recurrence_unit is "month"']
  ])('without %s is named for it alone: no period end is looked for without a schedule', (_, missing, problem) => {
    const broken = { ...monthly(), ...missing, period_ends_on: null } as never
    expect(() => advanceBudget(broken, day('2027-01-01'))).toThrow(
      new TypeError(`advanceBudget: the budget is malformed: ${problem}`)
    )
  })
})
