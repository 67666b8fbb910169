import { describe, expect, it } from 'vitest'
import { respondAmount, respondTopUp } from '../api'
import { budget, patch } from '../fixtures'

const tracking = budget({ mode: 'tracking', balance_cents: null, period_amount_cents: 100000 })

/** The status, body and last reason of a reply: where a money rule says what it decided. */
const outcome = (r: { status: number; body: unknown; reasons: ReadonlyArray<unknown> }) => [r.status, r.body, r.reasons.at(-1)]

// Contract section 7: each money rule names what it decided (the reasons a server logs).
describe('the reasons of the money rules', () => {
  it('a member may not move money: the guard names the user and the budget', () => {
    expect(outcome(respondTopUp(patch('member', { amount_cents: 1 }, budget({ balance_cents: 5000 }))))).toEqual([
      401,
      { message: 'Unauthorized (401)' },
      { rule: 'money.permission', detail: 'user u-member may not move money of budget b-1' }
    ])
  })

  it('a closing budget moves no money: the status rule names the status', () => {
    expect(
      outcome(respondTopUp(patch('admin', { amount_cents: 1 }, budget({ balance_cents: 5000, status: 'closing' }))))
    ).toEqual([
      409,
      { error: 'conflict', message: 'The budget is closing' },
      { rule: 'money.status', detail: 'The budget is closing' }
    ])
  })

  it('a negative planned amount is refused as not 0 or more', () => {
    expect(outcome(respondAmount(patch('admin', { amount_cents: -1 }, tracking)))).toEqual([
      422,
      { errors: { amount_cents: ['must be a whole number of cents, 0 or more'] } },
      { rule: 'money.validation', detail: 'amount_cents: must be a whole number of cents, 0 or more' }
    ])
  })

  it('a new planned amount names the old and the new', () => {
    expect(respondAmount(patch('admin', { amount_cents: 2500 }, tracking)).reasons.slice(-2)).toEqual([
      { rule: 'money.validation', detail: 'tracking budget, 2500 cents' },
      { rule: 'money.apply', detail: 'period_amount_cents 100000 -> 2500' }
    ])
  })
})
