import { describe, expect, it } from 'vitest'
import { decideUpdate, type UpdateRequest } from '../api'
import { budget, monthly, TODAY } from '../fixtures'

/** The field errors of an update by a caller with full rights, or 'valid'. */
const errorsOf = (b: UpdateRequest['budget'], sent: UpdateRequest['sent'], extra: Partial<UpdateRequest> = {}): unknown => {
  const r = decideUpdate({ rights: 'full', budget: b, sent, today: TODAY, ...extra }).result
  if (r._tag === 'Right') return 'valid'
  return r.left._tag === 'Invalid' ? r.left.errors : r.left
}

// Row 12 of the decision table: the recurrence settings an update may leave.
describe('validating the recurrence settings of an update', () => {
  it('refuses every set to null while the budget renews', () => {
    expect(errorsOf(monthly(), [{ key: 'recurrence_every', value: null }])).toEqual([
      { field: 'recurrence_every', messages: ['must be an integer from 1 to 366'] }
    ])
  })

  it('refuses base_amount_cents set to null while the budget renews', () => {
    expect(errorsOf(monthly(), [{ key: 'base_amount_cents', value: null }])).toEqual([
      { field: 'base_amount_cents', messages: ['is required while recurrence is on'] }
    ])
  })

  it('refuses turning recurrence on with base_amount_cents sent as null, the null it already holds', () => {
    const turnedOn = [
      { key: 'recurrence_unit', value: 'month' },
      { key: 'recurrence_every', value: 1 },
      { key: 'base_amount_cents', value: null }
    ]
    expect(errorsOf(budget(), turnedOn)).toEqual([
      { field: 'base_amount_cents', messages: ['is required while recurrence is on'] }
    ])
  })

  it('blames only the unit when the unit sent is unknown, whatever else is null', () => {
    const unknownUnit = { key: 'recurrence_unit', value: 'fortnight' }
    const only = [{ field: 'recurrence_unit', messages: ['is not included in the list'] }]
    expect(errorsOf(budget(), [unknownUnit])).toEqual(only)
    expect(
      errorsOf(budget(), [unknownUnit, { key: 'recurrence_every', value: null }, { key: 'base_amount_cents', value: null }])
    ).toEqual(only)
    // On a budget that renews, every and base sent as null are changes, and still not blamed.
    expect(
      errorsOf(monthly(), [unknownUnit, { key: 'recurrence_every', value: null }, { key: 'base_amount_cents', value: null }])
    ).toEqual(only)
  })
})

describe('validating manager_id', () => {
  it('takes any manager when the server gives no list of company members', () => {
    expect(errorsOf(budget(), [{ key: 'manager_id', value: 'u-anyone' }])).toBe('valid')
  })

  it('refuses a manager outside the list when there is one', () => {
    expect(errorsOf(budget(), [{ key: 'manager_id', value: 'u-anyone' }], { company_member_ids: ['u-1'] })).toEqual([
      { field: 'manager_id', messages: ['is not a member of the company'] }
    ])
  })
})
