import { describe, expect, it } from 'vitest'
import { budgetInScope, type Scope } from '../api'

const scope: Scope = { company_id: 'c-1', caller: { user_id: 'u-1', role: 'member', permissions: [] } }
const notFound = (detail: string) => ({ _tag: 'NotFound', rule: 'budget.scope', detail })

// Row 5 of the decision table: a budget of another company is the reply of no budget.
describe('budgetInScope', () => {
  it("passes a budget of the caller's company, the very object given", () => {
    const b = { id: 'b-1', company_id: 'c-1', name: 'Travel' }
    const t = budgetInScope(scope, b)
    expect(t).toEqual({ reasons: [{ rule: 'budget.scope', detail: 'budget b-1' }], result: { _tag: 'Right', right: b } })
    expect(t.result._tag === 'Right' && t.result.right).toBe(b)
  })

  it('is a 404 with no budget', () => {
    expect(budgetInScope(scope, null)).toEqual({
      reasons: [{ rule: 'budget.scope', detail: 'no budget with that id' }],
      result: { _tag: 'Left', left: notFound('no budget with that id') }
    })
  })

  it.each<[string, { id: unknown; company_id: unknown }, string]>([
    ['another company', { id: 'b-9', company_id: 'c-2' }, 'budget b-9 belongs to another company'],
    ['an id that is not a string, named by its value', { id: 42, company_id: 'c-2' }, 'budget 42 belongs to another company'],
    ['an id that is an object', { id: { $oid: 'x' }, company_id: 'c-2' }, 'budget an object belongs to another company'],
    ['a company id of another type', { id: 'b-9', company_id: 1 }, 'budget b-9 belongs to another company'],
    ['no company id', { id: 'b-9', company_id: undefined }, 'budget b-9 belongs to another company']
  ])('is a 404 for %s, whatever else the budget holds', (_, b, detail) => {
    expect(budgetInScope(scope, b)).toEqual({
      reasons: [{ rule: 'budget.scope', detail }],
      result: { _tag: 'Left', left: notFound(detail) }
    })
  })

  it('names a budget in scope with a non-string id by its value', () => {
    expect(budgetInScope(scope, { id: Number.NaN, company_id: 'c-1' }).reasons).toEqual([
      { rule: 'budget.scope', detail: 'budget NaN' }
    ])
  })
})
