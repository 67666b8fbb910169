/**
 * planScope: rows 1 to 4 of contract section 4, before the server reads anything. Law:
 * whenever it replies, every facade of an endpoint that takes company-id replies the same to the
 * same request and session (status, headers, body, rule ids), whatever the server would have
 * looked up; when it lets the caller through, each of them gets past those rows too.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { session as sessionArb } from '../../src/arbitraries'
import {
  planScope,
  respondAuthorizeTransaction,
  respondBankRecipient,
  respondBudget,
  respondBudgetUpdate,
  respondRoleAssignment,
  respondTopUp
} from '../../src/index'
import { monthly, session } from '../fixtures'
import { runs } from '../runs'

/** Mostly a key and the company of the sessions' members, so that both answers come often. */
const headersArb = fc.oneof(
  { arbitrary: fc.constant({ Authorization: 'Bearer k', 'company-id': 'c-1' }), weight: 3 },
  {
    arbitrary: fc.record(
      {
        Authorization: fc.constantFrom('Bearer k', 'bearer  k ', 'Basic k', 'Bearer', ''),
        'company-id': fc.constantFrom('c-1', 'c-2', '', ' c-1 ')
      },
      { requiredKeys: [] }
    ),
    weight: 2
  }
)

/** Each facade of a company's endpoint, over what a server may have looked up. */
const facades = (request: { headers: object; body: string }, session: unknown) => {
  const base = { request, session, request_id: 'req-1' } as never as Record<string, unknown>
  return {
    'budget.get': respondBudget({ ...base, budget: monthly(), today: '2026-11-22' } as never),
    'budget.update': respondBudgetUpdate({ ...base, budget: monthly(), today: '2026-11-22' } as never),
    'budget.top_up': respondTopUp({ ...base, budget: null, today: '2026-11-22' } as never),
    'transaction.authorize': respondAuthorizeTransaction({ ...base, transaction: null } as never),
    'recipient.enroll': respondBankRecipient({ ...base, bank_ids: [], enrolled: [] } as never),
    'role.assign': respondRoleAssignment({ ...base, user_id: 'u-member', company_member_ids: ['u-member'] } as never)
  }
}

const AUTH = ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership']

describe('planScope', () => {
  it('replies exactly as every facade of a company endpoint does, or lets through a caller each lets through', () => {
    const seen = { replies: 0, members: 0 }
    fc.assert(
      fc.property(
        headersArb,
        sessionArb(),
        fc.constantFrom('{"budget":{"name":"x"}}', '{"amount_cents":1}', '[]'),
        (headers, session, body) => {
          const request = { headers, body }
          const plan = planScope({ request, session, request_id: 'req-1' })
          const replies = Object.values(facades(request, session))
          if (plan._tag === 'Reply') {
            seen.replies++
            for (const reply of replies)
              expect([reply.status, reply.headers, reply.body, reply.reasons.map((r) => r.rule)]).toEqual([
                plan.reply.status,
                plan.reply.headers,
                plan.reply.body,
                plan.reply.reasons.map((r) => r.rule)
              ])
          } else {
            seen.members++
            for (const reply of replies) expect(reply.reasons.slice(0, 4).map((r) => r.rule)).toEqual(AUTH)
            expect(plan.company_id).toBe(headers['company-id']?.trim())
          }
        }
      ),
      { numRuns: runs(500) }
    )
    expect(seen.replies).toBeGreaterThan(runs(500) / 4)
    expect(seen.members).toBeGreaterThan(runs(500) / 10)
  })

  it('lets a member through with the company company-id names, trimmed', () => {
    const request = { headers: { Authorization: 'Bearer k', 'company-id': ' c-1 ' } }
    expect(planScope({ request, session: session('member'), request_id: 'req-1' })).toStrictEqual({
      _tag: 'Member',
      company_id: 'c-1'
    })
  })

  it('a context that is not one is a 500, never an exception', () => {
    const plan = planScope(null as never)
    expect(plan._tag === 'Reply' && [plan.reply.status, plan.reply.reasons.map((r) => r.rule)]).toEqual([500, ['server.input']])
  })
})
