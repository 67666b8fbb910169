import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, budgetFields, respondAmount, respondTopUp, respondWithdraw } from '../api'
import { budgetAndToday, who } from '../arbitraries'
import { adminOnBudget, budget, JSON_HEADERS, patch, session, TODAY, budgetOf } from '../fixtures'
import { runs } from '../runs'

const funded = budget({ balance_cents: 5000 })
const tracking = budget({ mode: 'tracking', balance_cents: null, period_amount_cents: 100000 })
const lastRule = (r: { reasons: ReadonlyArray<{ rule: string }> }) => r.reasons.at(-1)?.rule

/**
 * The reasons of an admin's request on budget b-1 up to the money rules: contract section 4
 * rows 1 to 5, the stored budget found consistent, brought to today with nothing to roll,
 * and full rights (contract section 7).
 */
const adminOnMoney = [...adminOnBudget, { rule: 'money.permission', detail: 'full budget rights (role admin)' }]

describe('respondTopUp and respondWithdraw', () => {
  it('adds to the balance of a funded budget and replies 200 with the budget', () => {
    const r = respondTopUp(patch('admin', { amount_cents: 2500 }, funded))
    const after = { ...funded, balance_cents: 7500 }
    expect(r).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: after,
      budget: after,
      reasons: [
        ...adminOnMoney,
        { rule: 'money.body', detail: 'amount_cents 2500' },
        { rule: 'money.status', detail: 'status open' },
        { rule: 'money.validation', detail: 'funded budget, 2500 cents' },
        { rule: 'money.apply', detail: 'balance_cents 5000 -> 7500' }
      ]
    })
  })

  it('takes from the balance, down to exactly 0', () => {
    expect(budgetOf(respondWithdraw(patch('budgets_manage', { amount_cents: 5000 }, funded)))?.balance_cents).toBe(0)
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
    expect(budgetOf(respondTopUp(patch('admin', { amount_cents: 10 }, full)))?.balance_cents).toBe(Number.MAX_SAFE_INTEGER)
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
    expect([r.status, budgetOf(r)]).toEqual([200, { ...tracking, period_amount_cents: 0 }])
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
    const r = respondWithdraw({
      ...ctx,
      request: body === undefined ? { headers: ctx.request.headers } : { ...ctx.request, body }
    })
    expect(r).toEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message },
      reasons: [...adminOnMoney, { rule: 'money.body', detail: message }]
    })
  })

  it.each([['closing'], ['closed']] as const)('replies 409 to a %s budget before validating', (status) => {
    const r = respondTopUp(
      patch('admin', { amount_cents: -1 }, budget({ status, ends_on: '2026-11-01', mode: 'tracking', balance_cents: null }))
    )
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

  /**
   * Four runs in five are built to succeed: a caller with full rights, the budget open, the
   * operation its mode takes and an amount it accepts. The fifth is any caller, operation and
   * amount on the budget as generated.
   */
  const fitted = fc
    .tuple(budgetAndToday, fc.constantFrom('admin' as const, 'owner' as const, 'budgets_manage' as const), fc.boolean(), fc.nat())
    .map(([{ budget: b, today }, caller, withdraw, seed]) => {
      const open: Budget = { ...b, status: 'open', ends_on: b.ends_on !== null && b.ends_on > today ? b.ends_on : null }
      const balance = b.balance_cents ?? 0
      const name =
        b.mode === 'tracking'
          ? 'amount'
          : balance === 0
            ? 'top_up'
            : balance === Number.MAX_SAFE_INTEGER
              ? 'withdraw'
              : withdraw
                ? 'withdraw'
                : 'top_up'
      const amount =
        name === 'amount'
          ? seed % 1_000_001
          : name === 'withdraw'
            ? 1 + (seed % Math.min(balance, 1_000_000))
            : 1 + (seed % Math.min(Number.MAX_SAFE_INTEGER - balance, 1_000_000))
      const op = ops.find(([n]) => n === name) ?? ops[0]
      return { budget: open, today, caller, op, amount }
    })
  const anyCase = fc
    .tuple(budgetAndToday, who, op, fc.integer({ min: -10, max: 2_000_000 }))
    .map(([{ budget: b, today }, caller, o, amount]) => ({ budget: b, today, caller, op: o, amount }))

  it('change nothing but balance_cents (top_up, withdraw) or period_amount_cents (amount)', () => {
    let moved = 0
    let total = 0
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: fitted, weight: 4 }, { arbitrary: anyCase, weight: 1 }),
        ({ budget: b, today, caller, op: [name, respond], amount }) => {
          total++
          const r = respond({ ...patch(caller, { amount_cents: amount }, b), today, session: session(caller) })
          if (r.status !== 200) return
          moved++
          const before: Budget = advanceBudget(b, today)
          const field = name === 'amount' ? 'period_amount_cents' : 'balance_cents'
          for (const key of budgetFields) if (key !== field) expect(r.budget[key], key).toEqual(before[key])
          if (name === 'amount') expect(r.budget.period_amount_cents).toBe(amount)
          else expect(r.budget.balance_cents).toBe((before.balance_cents ?? 0) + (name === 'top_up' ? amount : -amount))
          expect(r.budget.balance_cents === null || r.budget.balance_cents >= 0).toBe(true)
        }
      ),
      { numRuns: runs(2000) }
    )
    expect(moved / total).toBeGreaterThanOrEqual(0.5)
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
