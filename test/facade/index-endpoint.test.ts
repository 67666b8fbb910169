import { describe, expect, it } from 'vitest'
import { defineEndpoint, endpoints } from '../api'
import { session } from '../fixtures'
import { index, transaction, transactions } from '../paging/fixtures'

const EXPOSE = 'Content-Range, X-Total-Count'
const ids = (body: unknown) => (body as ReadonlyArray<{ id: string }>).map((r) => r.id)
const hundred = transactions(100)

describe('respondIndex: the window (spec section 4, contract section 8)', () => {
  it('defaults to _start=0, _end=_start+25, ascending by created_at, with the page headers', () => {
    const r = index('', [...hundred].reverse())
    expect(r.status).toBe(200)
    expect(r.headers).toEqual({
      'X-Total-Count': '100',
      'Content-Range': '0-24/100',
      'Access-Control-Expose-Headers': EXPOSE,
      'X-Request-Id': 'req-1',
      'Content-Type': 'application/json; charset=utf-8'
    })
    expect(ids(r.body)).toEqual(hundred.slice(0, 25).map((t) => t.id))
  })

  it('reads a request without a query as the empty query: the default window', () => {
    const r = index('', hundred, endpoints.bankTransactions, {
      request: { headers: { Authorization: 'Bearer key-1', 'company-id': 'c-1' } }
    })
    expect([r.status, r.headers['Content-Range'], ids(r.body)]).toEqual([200, '0-24/100', hundred.slice(0, 25).map((t) => t.id)])
    expect(r.reasons).toEqual(index('', hundred).reasons)
  })

  it('returns records [_start, _end): _end is exclusive', () => {
    const r = index('_start=10&_end=13', hundred)
    expect([ids(r.body), r.headers['Content-Range']]).toEqual([['tx-0010', 'tx-0011', 'tx-0012'], '10-12/100'])
  })

  it('defaults _end to _start + 25', () => {
    expect(index('_start=90', hundred).headers['Content-Range']).toBe('90-99/100')
    expect(index('_start=40', hundred).headers['Content-Range']).toBe('40-64/100')
  })

  it('gives newest first only with _order=desc', () => {
    expect(ids(index('_end=2&_order=desc', hundred).body)).toEqual(['tx-0099', 'tx-0098'])
    expect(ids(index('_end=2&_order=asc', hundred).body)).toEqual(['tx-0000', 'tx-0001'])
  })

  it('sorts by amount, then id in the same direction', () => {
    const records = [
      transaction(1, { amount: 5 }),
      transaction(2, { amount: 1 }),
      transaction(3, { amount: 5 }),
      transaction(4, { amount: 1 })
    ]
    expect(ids(index('_field=amount', records).body)).toEqual(['tx-0002', 'tx-0004', 'tx-0001', 'tx-0003'])
    expect(ids(index('_field=amount&_order=desc', records).body)).toEqual(['tx-0003', 'tx-0001', 'tx-0004', 'tx-0002'])
  })

  it('compares instants by the moment, not the text', () => {
    const records = [
      transaction(1, { created_at: '2026-11-22T10:00:00Z' }),
      transaction(2, { created_at: '2026-11-22T08:30:00-03:00' }),
      transaction(3, { created_at: '2026-11-22T09:59:59.999999999Z' })
    ]
    expect(ids(index('', records).body)).toEqual(['tx-0003', 'tx-0001', 'tx-0002'])
  })

  it('gives an empty page past the end with Content-Range */<total>', () => {
    const r = index('_start=500&_end=510', hundred)
    expect([r.status, r.body, r.headers['Content-Range'], r.headers['X-Total-Count']]).toEqual([200, [], '*/100', '100'])
    expect(index('_start=0&_end=0', hundred).headers['Content-Range']).toBe('*/100')
    expect(index('', []).headers['Content-Range']).toBe('*/0')
  })

  it('allows a window of exactly 2000', () => {
    expect(index('_start=0&_end=2000', hundred).status).toBe(200)
  })

  it.each([
    ['_start=0&_end=2001', 2001, '[0, 2001)'],
    ['_start=5&_end=3000', 2995, '[5, 3000)'],
    ['_start=10', null, '']
  ])('replies 416 with the exact message to %s', (query, size, window) => {
    const r = index(query, hundred)
    if (size === null) {
      expect(r.status).toBe(200)
      return
    }
    expect(r).toEqual({
      status: 416,
      headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
      body: { message: `Requested page size ${size} exceeds maximum of 2000` },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-member' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'company c-1' },
        { rule: 'auth.membership', detail: 'role member' },
        { rule: 'page.query', detail: '2 parameters' },
        { rule: 'page.window', detail: `${window} by created_at asc` },
        { rule: 'page.filter', detail: 'no filters' },
        { rule: 'page.size', detail: `a window of ${size} records, over the maximum of 2000` }
      ]
    })
  })

  it.each([
    ['_start=-1', '_start must be a base-10 integer from 0 to 9007199254740991'],
    ['_start=1.5', '_start must be a base-10 integer from 0 to 9007199254740991'],
    ['_start=0x10', '_start must be a base-10 integer from 0 to 9007199254740991'],
    ['_end=99999999999999999999', '_end must be a base-10 integer from 0 to 9007199254740991'],
    ['_start=', '_start must be a base-10 integer from 0 to 9007199254740991'],
    ['_start=10&_end=5', '_start must not be greater than _end'],
    ['_order=DESC', '_order must be asc or desc'],
    ['_order=newest', '_order must be asc or desc'],
    ['_field=status', '_field must be one of created_at, updated_at, amount'],
    ['_field=__proto__', '_field must be one of created_at, updated_at, amount'],
    ['_limit=10', '_limit is not a parameter of /v1/banking/bank_transactions'],
    ['_start=0&_start=5', 'The parameter _start is repeated'],
    ['status=pending&status=authorized', 'The parameter status is repeated'],
    ['_start=%ZZ', 'The query has a malformed % escape'],
    ['colour=red', 'colour is not a field of /v1/banking/bank_transactions'],
    ['__proto__[$eq]=1', '__proto__[$eq] is not a parameter of /v1/banking/bank_transactions'],
    ['constructor=1', 'constructor is not a field of /v1/banking/bank_transactions'],
    ['amount[$like]=1', '$like is not an operator'],
    ['status[$gt]=pending', '$gt applies to integer and instant fields, not status'],
    ['amount=ten', 'amount must be an integer'],
    ['amount[$gte]=1e3', 'amount[$gte] must be an integer'],
    ['status=refunded', 'status must be one of authorized, pending'],
    ['created_at[$gt]=2026-11-22', 'created_at[$gt] must be an ISO-8601 date-time with an offset'],
    ['created_at[$gt]=2026-11-22T10:00:00', 'created_at[$gt] must be an ISO-8601 date-time with an offset'],
    ['created_at[$gt]=2026-02-30T10:00:00Z', 'created_at[$gt] must be an ISO-8601 date-time with an offset'],
    ['status[$in]=pending', 'status[$in] must be a JSON array'],
    ['amount[$in]=["1"]', 'amount[$in] holds a value that is not an integer'],
    ['amount[$in]=[[1]]', 'amount[$in] holds a value that is not an integer'],
    [`amount[$in]=[${Array.from({ length: 501 }, (_, i) => i).join(',')}]`, 'amount[$in] holds more than 500 values'],
    [Array.from({ length: 101 }, (_, i) => `a${i}=1`).join('&'), 'The query has 101 parameters, more than 100']
  ])('replies 400 bad_request to %s', (query, message) => {
    const r = index(query, hundred)
    expect([r.status, r.body]).toEqual([400, { error: 'bad_request', message }])
  })

  it('checks every 400 before the 416', () => {
    expect(index('_start=0&_end=5000&colour=red', hundred).status).toBe(400)
    expect(index('_start=0&_end=5000&_order=DESC', hundred).status).toBe(400)
  })

  it('decodes the query as a form: + is a space and escapes are UTF-8', () => {
    const named = defineEndpoint({
      path: '/v1/things',
      fields: { id: { type: 'id' }, name: { type: 'string' }, created_at: { type: 'instant' } },
      sortable: ['created_at']
    })
    const records = [
      { id: 'a', name: 'Café central', created_at: '2026-11-22T10:00:00Z' },
      { id: 'b', name: 'Other', created_at: '2026-11-22T10:00:00Z' }
    ]
    expect(ids(index('name=Caf%C3%A9+central', records, named).body)).toEqual(['a'])
  })

  it('takes uppercase ASC and DESC on an endpoint that spells them so, and refuses lowercase', () => {
    const legacy = { ...endpoints.bankTransactions, orderCase: 'upper' as const }
    expect(ids(index('_end=1&_order=DESC', hundred, legacy).body)).toEqual(['tx-0099'])
    expect(index('_order=desc', hundred, legacy).body).toEqual({ error: 'bad_request', message: '_order must be ASC or DESC' })
  })
})

describe('respondIndex: filters (contract section 8)', () => {
  const q = (query: string) => ids(index(`_end=2000&${query}`, hundred).body)

  it('filters by equality, membership and ranges, before windowing', () => {
    expect(q('status=pending').length).toBe(34)
    expect(q('status[$ne]=pending').length).toBe(66)
    expect(q('amount[$in]=[0,37,74]')).toEqual(['tx-0000', 'tx-0001', 'tx-0002'])
    expect(q('amount[$nin]=[0,37,74]').length).toBe(97)
    // Transaction n has amount 37 n mod 1000: 925, 924 and 923 for n = 25, 52, 79.
    expect(q('amount[$gte]=900&amount[$lt]=950')).toEqual(['tx-0025', 'tx-0052', 'tx-0079'])
    const r = index('status=pending&_end=5', hundred)
    expect([r.headers['X-Total-Count'], r.headers['Content-Range']]).toEqual(['34', '0-4/34'])
  })

  it('compares instant filters by the moment, whatever the offset', () => {
    expect(q('created_at[$gt]=2026-11-01T01:37:00%2B00:00')).toEqual(q('created_at[$gt]=2026-10-31T22:37:00-03:00'))
    expect(q('created_at[$gt]=2026-10-31T22:37:00-03:00')).toEqual(['tx-0098', 'tx-0099'])
  })

  it('leaves Object.prototype alone whatever keys the query names', () => {
    index('__proto__[polluted]=1&constructor[prototype][polluted]=1', hundred)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('respondIndex: authentication and the companies endpoint', () => {
  it('needs company-id on bank transactions (401, empty body)', () => {
    const r = index('', hundred, endpoints.bankTransactions, { request: { headers: { Authorization: 'Bearer k' } } })
    expect([r.status, r.body]).toEqual([401, null])
  })

  it('replies 404 to a company the user is not a member of', () => {
    const r = index('', hundred, endpoints.bankTransactions, { session: session('member', 'c-9') })
    expect([r.status, r.body]).toEqual([404, { error: 'not_found', message: 'Not found' }])
  })

  it('lists companies without company-id, in a {data, cursors} body with the page headers', () => {
    const companies = Array.from({ length: 5 }, (_, i) => ({
      id: `c-${i}`,
      name: `Company ${i}`,
      created_at: `2026-0${i + 1}-01T00:00:00Z`,
      updated_at: `2026-0${i + 1}-01T00:00:00Z`
    }))
    const r = index('_start=2&_end=4&name[$ne]=nobody', companies, endpoints.companies, {
      request: { headers: { Authorization: 'Bearer k' }, query: '_start=2&_end=4&name[$ne]=nobody' }
    })
    expect(r.status).toBe(200)
    expect(r.headers['Content-Range']).toBe('2-3/5')
    expect(r.body).toEqual({
      data: [companies[2], companies[3]],
      cursors: {
        previous: '_start=0&_end=2&_order=asc&_field=created_at&name%5B%24ne%5D=nobody',
        next: '_start=4&_end=6&_order=asc&_field=created_at&name%5B%24ne%5D=nobody'
      }
    })
  })

  it('has no next cursor on the last page and no previous on the first', () => {
    const r = index(
      '',
      [{ id: 'c-1', name: 'A', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }],
      endpoints.companies
    )
    expect(r.body).toEqual({ data: [expect.objectContaining({ id: 'c-1' })], cursors: { previous: null, next: null } })
  })
})

describe('respondIndex: malformed server input', () => {
  it('replies 500 to a record missing a field the query reads', () => {
    const r = index('status=pending', [transaction(1), { id: 'x', amount: 1 }])
    expect([r.status, r.reasons.at(-1)]).toEqual([500, { rule: 'page.records', detail: 'record 1 has no valid status' }])
  })

  it('replies 500 to records that are not an array, or an endpoint that is not one', () => {
    expect(index('', 'nope' as never).status).toBe(500)
    expect(index('', hundred, { path: '/x' } as never).status).toBe(500)
  })
})
