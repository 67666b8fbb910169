import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, budgetFields, respondAmount, respondTopUp, respondWithdraw } from '../../src/index'
import { budgetAndToday, who } from '../arbitraries'
import { budget, JSON_HEADERS, patch, session, TODAY } from '../fixtures'

const funded = budget({ balance_cents: 5000 })
const tracking = budget({ mode: 'tracking', balance_cents: null, period_amount_cents: 100000 })
const lastRule = (r: { reasons: ReadonlyArray<{ rule: string }> }) => r.reasons.at(-1)?.rule

describe('respondTopUp and respondWithdraw', () => {
  it('adds to the balance of a funded budget and replies 200 with the budget', () => {
    const r = respondTopUp(patch('admin', { amount_cents: 2500 }, funded))
    const after = { ...funded, balance_cents: 7500 }
    expect(r).toEqual({ status: 200, headers: JSON_HEADERS, body: after, budget: after, reasons: r.reasons })
    expect(lastRule(r)).toBe('money.apply')
  })

  it('takes from the balance, down to exactly 0', () => {
    expect(respondWithdraw(patch('budgets_manage', { amount_cents: 5000 }, funded)).budget?.balance_cents).toBe(0)
  })

  it('replies 422 on amount_cents to a withdraw over the balance', () => {
    const r = respondWithdraw(patch('admin', { amount_cents: 5001 }, funded))
    expect([r.status, r.body]).toEqual([422, { errors: { amount_cents: ['must not exceed the balance of 5000 cents'] } }])
  })

  it('replies 422 to a top-up that would pass Number.MAX_SAFE_INTEGER, and accepts one that reaches it', () => {
    const full = budget({ balance_cents: Number.MAX_SAFE_INTEGER - 10 })
    expect(respondTopUp(patch('admin', { amount_cents: 11 }, full)).body).toEqual({
      errors: { amount_cents: ['would take the balance past the largest amount the service holds'] }
    })
    expect(respondTopUp(patch('admin', { amount_cents: 10 }, full)).budget?.balance_cents).toBe(Number.MAX_SAFE_INTEGER)
  })

  it.each([[0], [-5], [1.5], [2 ** 53]])('replies 422 to amount_cents %d', (amount) => {
    const r = respondTopUp(patch('admin', { amount_cents: amount }, funded))
    expect([r.status, r.body]).toEqual([422, { errors: { amount_cents: ['must be a whole number of cents greater than 0'] } }])
  })

  it('replies 422 on mode to a tracking budget, naming an invalid amount too', () => {
    const r = respondWithdraw(patch('admin', { amount_cents: -1 }, tracking))
    expect(r.body).toEqual({
      errors: { mode: ['must be funded for withdraw'], amount_cents: ['must be a whole number of cents greater than 0'] }
    })
  })
})

describe('respondAmount', () => {
  it("sets a tracking budget's planned amount for the period in progress and moves no balance", () => {
    const r = respondAmount(patch('owner', { amount_cents: 0 }, tracking))
    expect([r.status, r.budget]).toEqual([200, { ...tracking, period_amount_cents: 0 }])
  })

  it('replies 422 on mode to a funded budget', () => {
    const r = respondAmount(patch('admin', { amount_cents: 10 }, funded))
    expect([r.status, r.body]).toEqual([422, { errors: { mode: ['must be tracking for amount'] } }])
  })
})

describe('money operations: the order of the checks (contract section 7)', () => {
  it.each([['manager'], ['co_manager'], ['member']] as const)('replies 401 Unauthorized (401) to a %s', (caller) => {
    const r = respondTopUp(patch(caller, 'not even json', funded))
    expect([r.status, r.body, lastRule(r)]).toEqual([401, { message: 'Unauthorized (401)' }, 'money.permission'])
  })

  it.each([
    [undefined, 'The body is not valid JSON'],
    ['', 'The body is not valid JSON'],
    ['{"amount_cents": 5', 'The body is not valid JSON'],
    ['[5]', 'The body must be a JSON object'],
    ['{}', 'amount_cents is required'],
    ['{"amount_cents": "5"}', 'amount_cents must be a number'],
    ['{"amount_cents": null}', 'amount_cents must be a number']
  ])('replies 400 to the body %j, before the status is looked at', (body, message) => {
    const ctx = patch('admin', '', budget({ status: 'closed' }))
    const r = respondWithdraw({ ...ctx, request: body === undefined ? { headers: ctx.request.headers } : { ...ctx.request, body } })
    expect(r).toEqual({ status: 400, headers: JSON_HEADERS, body: { error: 'bad_request', message }, reasons: r.reasons })
  })

  it.each([['closing'], ['closed']] as const)('replies 409 to a %s budget before validating', (status) => {
    const r = respondTopUp(patch('admin', { amount_cents: -1 }, budget({ status, ends_on: '2026-11-01', mode: 'tracking', balance_cents: null })))
    expect([r.status, r.body]).toEqual([409, { error: 'conflict', message: `The budget is ${status}` }])
  })

  it('replies 409 to a budget whose closing date has come today', () => {
    const r = respondTopUp(patch('admin', { amount_cents: 1 }, budget({ ends_on: TODAY })))
    expect([r.status, r.body]).toEqual([409, { error: 'conflict', message: 'The budget is closing' }])
  })

  it('authenticates first: no key is a 401 with an empty body', () => {
    const r = respondAmount({ ...patch('admin', { amount_cents: 1 }, tracking), session: { user: null, memberships: {} } })
    expect([r.status, r.body]).toEqual([401, null])
  })
})

describe('money operations: properties', () => {
  const ops = [
    ['top_up', respondTopUp],
    ['withdraw', respondWithdraw],
    ['amount', respondAmount]
  ] as const
  const op = fc.constantFrom(...ops)

  it('change nothing but balance_cents (top_up, withdraw) or period_amount_cents (amount)', () => {
    fc.assert(
      fc.property(budgetAndToday, who, op, fc.integer({ min: -10, max: 2_000_000 }), ({ budget: b, today }, caller, [name, respond], amount) => {
        const r = respond({ ...patch(caller, { amount_cents: amount }, b), today, session: session(caller) })
        if (r.budget === undefined) return
        const before: Budget = advanceBudget(b, today)
        const moved = name === 'amount' ? 'period_amount_cents' : 'balance_cents'
        for (const key of budgetFields) if (key !== moved) expect(r.budget[key], key).toEqual(before[key])
        if (name === 'amount') expect(r.budget.period_amount_cents).toBe(amount)
        else expect(r.budget.balance_cents).toBe((before.balance_cents ?? 0) + (name === 'top_up' ? amount : -amount))
        expect(r.budget.balance_cents === null || r.budget.balance_cents >= 0).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })

  it('never throw on any body or context', () => {
    fc.assert(
      fc.property(op, fc.option(fc.oneof(fc.string(), fc.json()), { nil: undefined }), ([, respond], body) => {
        const ctx = patch('admin', '', budget())
        const r = respond({ ...ctx, request: body === undefined ? { headers: ctx.request.headers } : { ...ctx.request, body } })
        expect([200, 400, 422]).toContain(r.status)
      })
    )
    fc.assert(fc.property(op, fc.anything(), ([, respond], junk) => respond(junk as never).status === 500))
  })
})
