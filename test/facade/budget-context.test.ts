import { describe, expect, it } from 'vitest'
import { scopedBudget } from '../../src/facade/budget-context'
import { budget, headers, monthly, session, TODAY } from '../fixtures'

// scopedBudget is what a server's GET of one budget runs (rows 1-5, R-17, then the roll of
// contract section 6): the budget of the path, in the caller's company, brought to `today`.
const context = (b: object | null, company = 'c-1') => ({
  request: { headers: headers(company) },
  session: session('member'),
  budget: b,
  today: TODAY,
  request_id: 'req-1'
})
const scope = { company_id: 'c-1', caller: { user_id: 'u-member', role: 'member', permissions: [] } }
const authenticated = [
  { rule: 'auth.bearer', detail: 'key of user u-member' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role member' }
]

describe('scopedBudget', () => {
  it('is the budget of the path brought to today, with the reasons that decided it', () => {
    // Monthly from 2025-10-18: on 2026-11-22 the period 2026-10-18..2026-11-18 is over, and
    // the one in progress is the fixture's, 2026-11-18..2026-12-18 at the base amount.
    const lapsed = monthly({ period_starts_on: '2026-10-18', period_ends_on: '2026-11-18', period_amount_cents: 1 })
    expect(scopedBudget(context(lapsed))).toEqual({
      result: { _tag: 'Right', right: { scope, budget: monthly() } },
      reasons: [
        ...authenticated,
        { rule: 'budget.scope', detail: 'budget b-1' },
        { rule: 'budget.stored', detail: 'the stored budget is consistent' },
        { rule: 'budget.advance', detail: 'period in progress 2026-11-18..2026-12-18' }
      ]
    })
  })

  it('gives a budget already current as it is', () => {
    expect(scopedBudget(context(budget()))).toEqual({
      result: { _tag: 'Right', right: { scope, budget: budget() } },
      reasons: [
        ...authenticated,
        { rule: 'budget.scope', detail: 'budget b-1' },
        { rule: 'budget.stored', detail: 'the stored budget is consistent' },
        { rule: 'budget.advance', detail: 'nothing to roll forward' }
      ]
    })
  })

  it.each<[string, object | null, string]>([
    ['of another company', budget({ company_id: 'c-2' }), 'budget b-1 belongs to another company'],
    ['that does not exist', null, 'no budget with that id']
  ])('is a 404 for a budget %s', (_, b, detail) => {
    expect(scopedBudget(context(b))).toEqual({
      result: { _tag: 'Left', left: { _tag: 'NotFound', rule: 'budget.scope', detail } },
      reasons: [...authenticated, { rule: 'budget.scope', detail }]
    })
  })

  it('is a 404 for a caller outside the company of the header, before the budget is looked at', () => {
    const detail = 'user u-member is not a member of company c-9'
    expect(scopedBudget(context(budget(), 'c-9'))).toEqual({
      result: { _tag: 'Left', left: { _tag: 'NotFound', rule: 'auth.membership', detail } },
      reasons: [
        ...authenticated.slice(0, 2),
        { rule: 'auth.company_header', detail: 'company c-9' },
        { rule: 'auth.membership', detail }
      ]
    })
  })

  it.each<[string, object, string, string]>([
    [
      'a base without a unit (R-17)',
      { ...budget(), base_amount_cents: 10 },
      'malformed stored budget: base_amount_cents is 10 while recurrence_unit is null',
      'budget.base_amount_cents is 10 while recurrence_unit is null'
    ],
    [
      'a company_id that cannot be read',
      {
        ...budget(),
        get company_id(): string {
          throw new Error('gone')
        }
      },
      'malformed stored budget: company_id could not be read',
      'budget.company_id could not be read'
    ]
  ])('is a 500 for a stored budget with %s', (_, b, detail, mistake) => {
    const reasons = detail.includes('company_id')
      ? authenticated
      : [...authenticated, { rule: 'budget.scope', detail: 'budget b-1' }]
    expect(scopedBudget(context(b))).toEqual({
      result: { _tag: 'Left', left: { _tag: 'InternalError', rule: 'budget.stored', detail, mistake } },
      reasons: [...reasons, { rule: 'budget.stored', detail }]
    })
  })
})
