/**
 * Who reads which decision records (R-125): an owner or admin every record of the company, a
 * member with budgets_manage only the budgets' (budget.* and index.budgets), counted as such,
 * whatever they filter on; an endpoint read with full rights that holds no decision records is
 * read whole.
 */
import { describe, expect, it } from 'vitest'
import { endpoints } from '../api'
import { readableDecisions } from '../../src/facade/decision-readers'
import { defineEndpoint } from '../../src/paging/endpoint'
import { INDEX_DECISIONS, RESOURCE_DECISIONS, session } from '../fixtures'
import { index } from '../paging/fixtures'

/** One record of each decision endpoint, its id the endpoint's name. */
const records = [...RESOURCE_DECISIONS, ...INDEX_DECISIONS].map((endpoint, i) => ({
  id: endpoint,
  request_id: endpoint,
  at: `2026-11-22T10:00:${String(i).padStart(2, '0')}Z`,
  company_id: 'c-1',
  actor_id: 'u-admin',
  key_id: null,
  endpoint,
  method: 'GET',
  path: '/',
  resource_id: null,
  idempotency_key: null,
  replay_of: null,
  status: 200,
  rules: [],
  case: {},
  reply: {},
  changes: [],
  masked: [],
  erased: [],
  library_version: '0.4.0'
}))
const BUDGETS = ['budget.get', 'budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount', 'index.budgets']

const listed = (query: string, who: Parameters<typeof session>[0]) => {
  const reply = index(query, records, endpoints.decisions, { session: session(who) })
  return [
    reply.status,
    (reply.body as ReadonlyArray<{ id: string }>).map((r) => r.id),
    reply.headers['X-Total-Count'],
    reply.headers['Content-Range']
  ]
}

describe('readableDecisions', () => {
  it('an owner or admin reads every decision; budgets_manage the budgets’; any other member none', () => {
    const all = [...RESOURCE_DECISIONS, ...INDEX_DECISIONS].sort()
    expect([...readableDecisions({ user_id: 'u', role: 'owner', permissions: [] })].sort()).toEqual(all)
    expect([...readableDecisions({ user_id: 'u', role: 'admin', permissions: [] })].sort()).toEqual(all)
    expect(readableDecisions({ user_id: 'u', role: 'member', permissions: ['x', 'budgets_manage'] })).toEqual(BUDGETS)
    expect(readableDecisions({ user_id: 'u', role: 'member', permissions: ['banking_manage'] })).toEqual([])
    expect(readableDecisions({ user_id: 'u', role: 'member', permissions: [] })).toEqual([])
  })
})

describe('GET /v1/decisions over records in memory (R-125)', () => {
  it('a member with budgets_manage lists only the budgets’ records, and counts only those', () => {
    expect(listed('_end=100', 'budgets_manage')).toEqual([200, BUDGETS, '6', '0-5/6'])
    expect(listed('_start=4&_end=5&_order=desc', 'budgets_manage')).toEqual([200, ['budget.update'], '6', '4-4/6'])
  })

  it('their filters narrow within what they may read, never beyond', () => {
    expect(listed('endpoint=recipient.enroll', 'budgets_manage')).toEqual([200, [], '0', '*/0'])
    expect(listed('endpoint[$ne]=budget.get', 'budgets_manage')).toEqual([200, BUDGETS.slice(1), '5', '0-4/5'])
    expect(listed('endpoint[$nin]=["budget.get"]&_end=3', 'budgets_manage')).toEqual([
      200,
      ['budget.update', 'budget.top_up', 'budget.withdraw'],
      '5',
      '0-2/5'
    ])
  })

  it('an owner or an admin lists every record', () => {
    const all = records.map((r) => r.id)
    expect(listed('_end=100', 'admin')).toEqual([200, all, '12', '0-11/12'])
    expect(listed('_end=100', 'owner')).toEqual([200, all, '12', '0-11/12'])
    expect(listed('endpoint=recipient.enroll', 'admin')).toEqual([200, ['recipient.enroll'], '1', '0-0/1'])
  })

  it('an endpoint read with full rights that is not of decision records is read whole by budgets_manage', () => {
    const audit = defineEndpoint({
      path: '/v1/audit',
      fields: { id: { type: 'id' }, endpoint: { type: 'string' }, created_at: { type: 'instant' } },
      sortable: ['created_at'],
      readableBy: 'full_rights'
    })
    // Its `endpoint` field names decisions, or anything else: none of it is narrowed.
    const rows = [
      { id: 'a-1', endpoint: 'recipient.enroll', created_at: '2026-11-22T10:00:00Z' },
      { id: 'a-2', endpoint: 'budget.get', created_at: '2026-11-22T10:00:01Z' },
      { id: 'a-3', endpoint: 'GET /v1/budgets', created_at: '2026-11-22T10:00:02Z' }
    ]
    for (const [who, role] of [
      ['budgets_manage', 'member'],
      ['admin', 'admin']
    ] as const) {
      const reply = index('', rows, audit, { session: session(who) })
      expect([reply.status, reply.body, reply.reasons.find((r) => r.rule === 'page.permission')], who).toEqual([
        200,
        rows,
        { rule: 'page.permission', detail: `${role} may read` }
      ])
    }
  })
})
