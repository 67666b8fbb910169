import { describe, expect, it } from 'vitest'
import { budgetRights, defineEndpoint, indexAt, nextBoundaryAfter, reopen } from '../api'
import { budget, day } from '../fixtures'

describe('reopen (R-15)', () => {
  it('names an ends_on set to null in its reason', () => {
    const closing = budget({ status: 'closing' })
    expect(reopen(closing, null)).toEqual({
      budget: { ...closing, status: 'open' },
      reason: { rule: 'budget.reopen', detail: 'ends_on now null; the budget is open again' }
    })
  })
})

describe('budgetRights (contract section 7)', () => {
  it('gives a member who manages or co-manages the budget manager rights', () => {
    const b = { manager_id: 'u-7', co_manager_id: 'u-8' }
    expect(['u-7', 'u-8', 'u-9'].map((user_id) => budgetRights({ user_id, role: 'member', permissions: [] }, b))).toEqual([
      'manager',
      'manager',
      'none'
    ])
  })
})

describe('defineEndpoint', () => {
  it('needs company-id unless told otherwise', () => {
    const fields = { id: { type: 'string' }, created_at: { type: 'instant' } } as const
    expect(defineEndpoint({ path: '/v1/x', fields, sortable: ['created_at'] })).toEqual({
      path: '/v1/x',
      fields,
      sortable: ['created_at'],
      defaultField: 'created_at',
      orderCase: 'lower',
      envelope: 'bare',
      requiresCompany: true
    })
  })
})

// each schedule function names itself in its TypeError.
describe('the schedule functions given a date or every outside their types', () => {
  const schedule = { anchor: day('2027-01-31'), unit: 'month' as const, every: 1 }

  it('name themselves for a date that is no date', () => {
    expect(() => indexAt(schedule, '2027-13-01' as never)).toThrow(
      new TypeError('indexAt: date is "2027-13-01", not a date (YYYY-MM-DD)')
    )
    expect(() => nextBoundaryAfter(schedule, '2027-13-01' as never)).toThrow(
      new TypeError('nextBoundaryAfter: date is "2027-13-01", not a date (YYYY-MM-DD)')
    )
  })

  it('refuse every 367 and take every 366', () => {
    expect(() => indexAt({ ...schedule, every: 367 }, day('2027-03-01'))).toThrow(
      new TypeError('indexAt: schedule.every is 367, not an integer from 1 to 366')
    )
    expect(indexAt({ ...schedule, every: 366 }, day('2027-03-01'))).toBe(0)
  })
})
