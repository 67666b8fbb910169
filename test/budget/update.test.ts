import { describe, expect, it } from 'vitest'
import { decideUpdate, type UpdateRequest } from '../api'
import { budget, TODAY } from '../fixtures'

const request = (sent: UpdateRequest['sent'], rights: UpdateRequest['rights'] = 'full'): UpdateRequest => ({
  rights,
  budget: budget(),
  sent,
  today: TODAY
})

// Rows 9 to 13 of the decision table, called directly with the fields as decoded.
describe('decideUpdate', () => {
  it('keeps every message of a field sent twice, in the order sent (a 422 names every problem)', () => {
    const t = decideUpdate(
      request([
        { key: 'name', value: '  ' },
        { key: 'name', value: 'x'.repeat(256) }
      ])
    )
    const errors = [{ field: 'name', messages: ["can't be blank", 'is too long (maximum is 255 characters)'] }]
    expect(t.result).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'Invalid',
        rule: 'budget.validation',
        detail: "name: can't be blank, is too long (maximum is 255 characters)",
        errors
      }
    })
    expect(t.reasons).toEqual([
      { rule: 'budget.permission.manager', detail: 'full budget rights' },
      { rule: 'budget.permission.recurrence', detail: 'full budget rights' },
      { rule: 'budget.status.closed', detail: 'status open' },
      { rule: 'budget.validation', detail: "name: can't be blank, is too long (maximum is 255 characters)" }
    ])
  })
})
