import { describe, expect, it } from 'vitest'
import { endpoints } from '../api'
import { defineEndpoint } from '../../src/paging/endpoint'
import { memberPageReasons, session } from '../fixtures'
import { index, transactions } from '../paging/fixtures'

// Contract section 8: the last steps of an index request, each a rule that names what it did.
describe('the reasons of the last steps of respondIndex', () => {
  it('name the records matched, the slice taken and the Content-Range sent', () => {
    const r = index('_start=1&_end=3&status=pending', transactions(9), endpoints.bankTransactions)
    // Of tx-0000..tx-0008, the pending ones are those numbered 0, 3 and 6.
    expect([r.status, r.headers['Content-Range'], r.reasons.slice(-3)]).toEqual([
      200,
      '1-2/3',
      [
        { rule: 'page.records', detail: '9 records, 3 match' },
        { rule: 'page.slice', detail: '2 records from 1' },
        { rule: 'page.headers', detail: 'Content-Range 1-2/3' }
      ]
    ])
  })
})

// GET /v1/decisions is read only by admin or budgets_manage callers; the others are refused
// as a guard refuses (401). The rule names who may read, or who may not.
describe('the reasons of an index read only with full rights', () => {
  const authenticated = (user: string, role: string) => [
    { rule: 'auth.bearer', detail: `key of user ${user}` },
    { rule: 'auth.email_verified', detail: 'email verified' },
    { rule: 'auth.company_header', detail: 'company c-1' },
    { rule: 'auth.membership', detail: `role ${role}` }
  ]
  const page = [
    { rule: 'page.query', detail: '0 parameters' },
    { rule: 'page.window', detail: '[0, 25) by at asc' },
    { rule: 'page.filter', detail: 'no filters' },
    { rule: 'page.size', detail: '25 records at most' },
    { rule: 'page.records', detail: '0 records, 0 match' },
    { rule: 'page.slice', detail: '0 records from 0' },
    { rule: 'page.headers', detail: 'Content-Range */0' }
  ]
  const pageHeaders = {
    'X-Total-Count': '0',
    'Content-Range': '*/0',
    'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
    'X-Request-Id': 'req-1',
    'Content-Type': 'application/json; charset=utf-8'
  }

  it('an admin, and a member with budgets_manage, may read: the permission names the role, and the decisions the member may read (R-125)', () => {
    expect(index('', [], endpoints.decisions, { session: session('admin') })).toStrictEqual({
      status: 200,
      headers: pageHeaders,
      body: [],
      reasons: [...authenticated('u-admin', 'admin'), { rule: 'page.permission', detail: 'admin may read' }, ...page]
    })
    expect(index('', [], endpoints.decisions, { session: session('budgets_manage') })).toStrictEqual({
      status: 200,
      headers: pageHeaders,
      body: [],
      reasons: [
        ...authenticated('u-bm', 'member'),
        {
          rule: 'page.permission',
          detail:
            'member may read the records of budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets'
        },
        ...page
      ]
    })
  })

  it('a member without full rights is refused with 401, the permission naming the user', () => {
    expect(index('', [], endpoints.decisions, { session: session('member') })).toStrictEqual({
      status: 401,
      headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
      body: { message: 'Unauthorized (401)' },
      reasons: [...authenticated('u-member', 'member'), { rule: 'page.permission', detail: 'user u-member has no full rights' }]
    })
  })
})

// An endpoint readable by members, said so or by default, is read by any member of the company:
// no permission is asked of them.
describe('the reasons of an index any member reads', () => {
  const notes = (readableBy?: 'members') =>
    defineEndpoint({
      path: '/v1/notes',
      fields: { id: { type: 'id' }, created_at: { type: 'instant' } },
      sortable: ['created_at'],
      ...(readableBy === undefined ? {} : { readableBy })
    })
  const rows = [{ id: 'n-1', created_at: '2026-11-22T10:00:00Z' }]

  it.each([['members' as const], [undefined]])('readableBy %s: a member without permissions reads the page', (readableBy) => {
    const r = index('', rows, notes(readableBy), { session: session('member') })
    expect([r.status, r.body, r.reasons]).toEqual([
      200,
      rows,
      [
        ...memberPageReasons(0, '[0, 25) by created_at asc'),
        { rule: 'page.records', detail: '1 records, 1 match' },
        { rule: 'page.slice', detail: '1 records from 0' },
        { rule: 'page.headers', detail: 'Content-Range 0-0/1' }
      ]
    ])
  })
})
