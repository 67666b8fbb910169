/**
 * `decisions show` of a record whose body was not kept: a stranger's, or one over 16 KiB.
 * The record says what came, in bytes and digest, where the body would stand.
 */
import { describe, expect, it } from 'vitest'
import { recordText } from '../../src/cli/decision-text'
import type { DecisionRecord } from '../../src/decisions'

const stranger: DecisionRecord = {
  request_id: 'req-9',
  at: '2026-11-23T15:00:00.000000Z',
  company_id: null,
  actor_id: null,
  key_id: null,
  endpoint: 'budget.update',
  method: 'PATCH',
  path: '/v1/budgets/b-initech-ops',
  resource_id: 'b-initech-ops',
  idempotency_key: null,
  replay_of: null,
  status: 401,
  rules: ['auth.bearer'],
  case: {
    request: {
      headers: {},
      body: { erased: 'body', bytes: 40, sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' }
    }
  },
  reply: { status: 401, headers: {}, body: null },
  changes: [],
  masked: [],
  erased: ['case.request.body'],
  library_version: '0.4.0'
}

describe('recordText of a record that kept no body', () => {
  it('shows the length and digest where the body would stand', () => {
    expect(recordText(stranger).split('\n').slice(0, 5)).toEqual([
      'request  req-9 at 2026-11-23T15:00:00.000000Z (budget.update, budget-rules 0.4.0)',
      'who      no user, key none, company none',
      'asked    PATCH /v1/budgets/b-initech-ops',
      '         a body of 40 bytes, not kept (sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08)',
      'replied  401 Unauthorized'
    ])
  })

  it('shows nothing for a body that is neither text nor an erased one', () => {
    const odd = { ...stranger, case: { request: { headers: {}, body: { erased: 'headers' } } } }
    expect(recordText(odd).split('\n').slice(2, 4)).toEqual([
      'asked    PATCH /v1/budgets/b-initech-ops',
      'replied  401 Unauthorized'
    ])
  })
})
