/**
 * The react-admin data provider method by method over a recording fetch: the exact URL,
 * method, headers and body it sends, and what it resolves or rejects with. Expected URLs are
 * written out by hand from the contract (section 8 and R-101), not built with buildQuery.
 */
import { HttpError } from 'ra-core'
import { describe, expect, it } from 'vitest'
import { reactAdminDataProvider } from '../../src/react-admin'
import { type Canned, pageOf, recorder, replying } from './fetch'

const BASE = 'http://api.test'
const member = { Authorization: 'Bearer demo-member', 'company-id': 'c-acme' }
const provider = (fetch: ReturnType<typeof recorder>['fetch'], timeoutMs?: number) =>
  reactAdminDataProvider({
    url: `${BASE}/`,
    token: 'demo-member',
    companyId: 'c-acme',
    fetch,
    ...(timeoutMs === undefined ? {} : { timeoutMs })
  })

const tx = (n: number) => ({
  id: `tx-${n}`,
  amount: 1000 * n,
  status: 'pending',
  created_at: '2026-11-20T09:00:00.000000Z',
  updated_at: '2026-11-20T09:00:00.000000Z'
})

const travel = {
  id: 'b-travel',
  company_id: 'c-acme',
  name: 'Travel',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-manager',
  co_manager_id: null,
  status: 'open',
  created_on: '2026-01-01',
  ends_on: null,
  recurrence_unit: null,
  recurrence_every: null,
  base_amount_cents: null,
  recurrence_starts_on: null,
  period_starts_on: '2026-01-01',
  period_ends_on: null,
  period_amount_cents: null,
  balance_cents: 420000
}

/** The rejection of `p`, which must be an HttpError. */
const rejected = async (p: Promise<unknown>): Promise<{ status: number; message: string; body: unknown }> => {
  const error: unknown = await p.then(
    () => {
      throw new Error('resolved where a rejection was expected')
    },
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(HttpError)
  // ra-core types an HttpError's status and body as any.
  const { status, message, body } = error as { status: number; message: string; body: unknown }
  return { status, message, body }
}

describe('getList (R-101)', () => {
  it('asks for _start = (page - 1) * perPage, _end = page * perPage, _order in lowercase, _field, and reads X-Total-Count', async () => {
    const { calls, fetch } = replying(pageOf([tx(3), tx(4)], 5000, 50))
    const got = await provider(fetch).getList('bank_transactions', {
      pagination: { page: 2, perPage: 50 },
      sort: { field: 'amount', order: 'DESC' },
      filter: {}
    })
    expect(got).toEqual({ data: [tx(3), tx(4)], total: 5000 })
    expect(calls.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: `${BASE}/v1/banking/bank_transactions?_start=50&_end=100&_order=desc&_field=amount`,
        method: 'GET',
        headers: member,
        body: undefined
      }
    ])
  })

  it('writes a field filter as equality, a list as $in, a field[$op] key as the service spells it', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    await provider(fetch).getList('bank_transactions', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'created_at', order: 'ASC' },
      filter: {
        status: 'pending',
        id: ['tx-1', 'tx-2'],
        'amount[$gte]': 1000,
        'amount[$lt]': '5000',
        'created_at[$gt]': '2026-11-22T10:00:00-03:00',
        'updated_at[$nin]': ['2026-11-22T10:00:00Z'],
        'status[$ne]': 'authorized'
      }
    })
    expect(calls[0]?.url).toBe(
      `${BASE}/v1/banking/bank_transactions?_start=0&_end=25&_order=asc&_field=created_at` +
        '&status=pending' +
        '&id%5B%24in%5D=%5B%22tx-1%22%2C%22tx-2%22%5D' +
        '&amount%5B%24gte%5D=1000' +
        '&amount%5B%24lt%5D=5000' +
        '&created_at%5B%24gt%5D=2026-11-22T10%3A00%3A00-03%3A00' +
        '&updated_at%5B%24nin%5D=%5B%222026-11-22T10%3A00%3A00Z%22%5D' +
        '&status%5B%24ne%5D=authorized'
    )
  })

  it('spreads an operator object out, as react-admin forms set an input named amount.$gte', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    await provider(fetch).getList('bank_transactions', {
      filter: { amount: { $gte: 1000, $lte: 2000 }, created_at: { $lt: '2026-11-22T00:00:00Z' }, status: 'pending' }
    })
    expect(calls[0]?.url).toBe(
      `${BASE}/v1/banking/bank_transactions?amount%5B%24gte%5D=1000&amount%5B%24lte%5D=2000&created_at%5B%24lt%5D=2026-11-22T00%3A00%3A00Z&status=pending`
    )
    const refused = replying(pageOf([], 0))
    expect(
      await rejected(provider(refused.fetch).getList('bank_transactions', { filter: { amount: { gte: 1 } } }))
    ).toMatchObject({
      status: 400,
      message: 'amount is an object, not an integer'
    })
    expect(await rejected(provider(refused.fetch).getList('bank_transactions', { filter: { amount: {} } }))).toMatchObject({
      status: 400,
      message: 'amount is an object, not an integer'
    })
    expect(refused.calls).toEqual([])
  })

  it.each<[string, 'ASC' | 'DESC', string]>([
    ['bank_transactions', 'ASC', '/v1/banking/bank_transactions?_start=0&_end=25&_order=asc'],
    ['budgets', 'DESC', '/v1/budgets?_start=0&_end=25&_order=desc'],
    ['companies', 'ASC', '/v1/companies?_start=0&_end=25&_order=asc']
  ])(
    'takes react-admin’s default sort by id on %s as the endpoint’s default order, %s: no _field (R-103)',
    async (resource, order, path) => {
      const { calls, fetch } = replying(
        resource === 'companies'
          ? { status: 200, headers: { 'X-Total-Count': '0' }, body: { data: [], cursors: { previous: null, next: null } } }
          : pageOf([], 0)
      )
      await provider(fetch).getList(resource, { pagination: { page: 1, perPage: 25 }, sort: { field: 'id', order }, filter: {} })
      expect(calls.map((c) => c.url)).toEqual([`${BASE}${path}`])
    }
  )

  it('takes the default sort by id in getManyReference too, the target still a filter (R-103)', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    await provider(fetch).getManyReference('budgets', {
      target: 'status',
      id: 'open',
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'id', order: 'DESC' },
      filter: {}
    })
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/v1/budgets?_start=10&_end=20&_order=desc&status=open`])
  })

  it('leaves out what is not given: no window, no sort, an undefined filter value', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    await provider(fetch).getList('budgets', { filter: { name: undefined } })
    expect(calls[0]?.url).toBe(`${BASE}/v1/budgets`)
  })

  it('reads the {data, cursors} envelope of companies, and sends no company-id there', async () => {
    const acme = { id: 'c-acme', name: 'Acme SpA', created_at: '2025-01-01T12:00:00Z', updated_at: '2025-01-01T12:00:00Z' }
    const { calls, fetch } = replying({
      status: 200,
      headers: { 'X-Total-Count': '1' },
      body: { data: [acme], cursors: { previous: null, next: null } }
    })
    const got = await provider(fetch).getList('companies', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {}
    })
    expect(got).toEqual({ data: [acme], total: 1 })
    expect(calls[0]?.url).toBe(`${BASE}/v1/companies?_start=0&_end=10&_order=asc&_field=name`)
    expect(calls[0]?.headers).toEqual({ Authorization: 'Bearer demo-member' })
  })

  it.each([
    ['a page of 0', { pagination: { page: 0, perPage: 25 } }, 'pagination.page is 0, not a whole number >= 1'],
    ['a fractional perPage', { pagination: { page: 1, perPage: 2.5 } }, 'pagination.perPage is 2.5, not a whole number >= 1'],
    [
      'a page past what a window can name',
      { pagination: { page: 2 ** 52, perPage: 2000 } },
      'pagination.page 4503599627370496 is past the last record a window can name'
    ],
    [
      'a sort by a field the endpoint does not sort by',
      { sort: { field: 'status', order: 'ASC' } },
      'sort.field "status" is not a sort field of /v1/banking/bank_transactions (created_at, updated_at, amount)'
    ],
    [
      'react-admin’s default sort by id in a lowercase order',
      { sort: { field: 'id', order: 'asc' } },
      'sort.order is "asc", not ASC or DESC'
    ],
    ['a lowercase order', { sort: { field: 'amount', order: 'asc' } }, 'sort.order is "asc", not ASC or DESC'],
    ['an unknown filter field', { filter: { q: 'lunch' } }, 'q is not a field of /v1/banking/bank_transactions'],
    ['an unknown operator', { filter: { 'amount[$like]': 1 } }, '$like is not an operator'],
    [
      'an order operator on an enum',
      { filter: { 'status[$gt]': 'pending' } },
      '$gt applies to integer and instant fields, not status'
    ],
    ['a status the service does not have', { filter: { status: 'paid' } }, 'status is "paid", not one of authorized, pending'],
    ['an amount that is not an integer', { filter: { 'amount[$gte]': 10.5 } }, 'amount[$gte] is 10.5, not an integer'],
    [
      'an instant without an offset',
      { filter: { 'created_at[$gt]': '2026-11-22T10:00:00' } },
      'created_at[$gt] is "2026-11-22T10:00:00", not an ISO-8601 date-time with an offset'
    ],
    ['a list of amounts as text', { filter: { 'amount[$in]': ['1000'] } }, 'amount[$in] holds "1000", not an integer'],
    ['$in without a list', { filter: { 'status[$in]': 'pending' } }, 'status[$in] is "pending", not a list'],
    [
      'a list of 501 values',
      { filter: { id: Array.from({ length: 501 }, (_, i) => `tx-${i}`) } },
      'id holds 501 values, more than 500'
    ],
    ['a NUL character', { filter: { id: 'tx\u0000' } }, 'id holds a NUL character'],
    ['a lone surrogate', { filter: { id: ['tx-\uD800'] } }, 'id holds a lone surrogate'],
    ['an empty id', { filter: { id: '' } }, 'id is "", not an id'],
    ['a boolean', { filter: { status: true } }, 'status is true, not one of authorized, pending'],
    [
      'one filter given twice',
      { filter: { status: 'pending', 'status[$eq]': 'authorized' } },
      'The filter status is given twice (as status[$eq] too)'
    ],
    ['a filter that is not an object', { filter: 'status=pending' }, 'filter is "status=pending", not an object'],
    ['no parameters', null, 'The parameters are null, not an object']
  ])('refuses %s with a 400 naming it, and sends nothing', async (_, params, message) => {
    const { calls, fetch } = replying(pageOf([], 0))
    expect(await rejected(provider(fetch).getList('bank_transactions', params as never))).toEqual({
      status: 400,
      message,
      body: { error: 'bad_request', message }
    })
    expect(calls).toEqual([])
  })

  it('refuses a window over 2000 records with the service’s 416 and its body, and sends a window of 2000', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    expect(await rejected(provider(fetch).getList('bank_transactions', { pagination: { page: 3, perPage: 2001 } }))).toEqual({
      status: 416,
      message: 'Requested page size 2001 exceeds maximum of 2000',
      body: { message: 'Requested page size 2001 exceeds maximum of 2000' }
    })
    expect(calls).toEqual([])
    await provider(fetch).getList('bank_transactions', { pagination: { page: 3, perPage: 2000 } })
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/v1/banking/bank_transactions?_start=4000&_end=6000`])
  })

  it('rejects a reply without X-Total-Count, which react-admin needs to page', async () => {
    const { fetch } = replying({ status: 200, body: [tx(1)] })
    expect(await rejected(provider(fetch).getList('bank_transactions', {}))).toEqual({
      status: 200,
      message: 'The reply to GET /v1/banking/bank_transactions is not a page with an X-Total-Count',
      body: [tx(1)]
    })
  })

  it('rejects a negative X-Total-Count', async () => {
    const { fetch } = replying({ status: 200, headers: { 'X-Total-Count': '-1' }, body: [tx(1)] })
    expect(await rejected(provider(fetch).getList('bank_transactions', {}))).toEqual({
      status: 200,
      message: 'The reply to GET /v1/banking/bank_transactions is not a page with an X-Total-Count',
      body: [tx(1)]
    })
  })

  it('rejects a 2xx reply that is not a list of records', async () => {
    const { fetch } = replying({ status: 200, headers: { 'X-Total-Count': '1' }, body: '<html>' })
    expect(await rejected(provider(fetch).getList('bank_transactions', {}))).toEqual({
      status: 200,
      message: 'The reply to GET /v1/banking/bank_transactions is not a list of records',
      body: null
    })
  })
})

describe('getManyReference (R-101)', () => {
  it('is getList with target = id added to the filter', async () => {
    const { calls, fetch } = replying(pageOf([tx(1)], 1))
    const got = await provider(fetch).getManyReference('bank_transactions', {
      target: 'status',
      id: 'pending',
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'updated_at', order: 'DESC' },
      filter: { 'amount[$lte]': 9000 }
    })
    expect(got).toEqual({ data: [tx(1)], total: 1 })
    expect(calls[0]?.url).toBe(
      `${BASE}/v1/banking/bank_transactions?_start=0&_end=5&_order=desc&_field=updated_at&amount%5B%24lte%5D=9000&status=pending`
    )
  })

  it('refuses a target that is not a field name', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    const got = await rejected(provider(fetch).getManyReference('bank_transactions', { target: 7, id: 'x' } as never))
    expect([got.status, got.message, calls.length]).toEqual([400, 'target is 7, not a field', 0])
  })

  it('refuses a target that is not a field of the endpoint', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    const got = await rejected(
      provider(fetch).getManyReference('bank_transactions', {
        target: 'budget_id',
        id: 'b-travel',
        pagination: { page: 1, perPage: 5 },
        sort: { field: 'amount', order: 'ASC' },
        filter: {}
      })
    )
    expect([got.status, got.message, calls.length]).toEqual([400, 'budget_id is not a field of /v1/banking/bank_transactions', 0])
  })
})

describe('getOne (R-101)', () => {
  it('reads GET /v1/budgets/{id}, the id percent-encoded', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    expect(await provider(fetch).getOne('budgets', { id: 'b-travel' })).toEqual({ data: travel })
    await provider(fetch).getOne('budgets', { id: 'a/b c' })
    expect(calls.map((c) => [c.method, c.url, c.headers])).toEqual([
      ['GET', `${BASE}/v1/budgets/b-travel`, member],
      ['GET', `${BASE}/v1/budgets/a%2Fb%20c`, member]
    ])
  })

  it('reads a transaction through the index, id=<id> in a window of one', async () => {
    const { calls, fetch } = replying(pageOf([tx(7)], 1))
    expect(await provider(fetch).getOne('bank_transactions', { id: 'tx-7' })).toEqual({ data: tx(7) })
    expect(calls[0]?.url).toBe(`${BASE}/v1/banking/bank_transactions?_start=0&_end=1&id=tx-7`)
  })

  it('rejects with 404 when the index holds no such record', async () => {
    const { fetch } = replying(pageOf([], 0))
    expect(await rejected(provider(fetch).getOne('bank_transactions', { id: 'tx-0' }))).toEqual({
      status: 404,
      message: 'Not found',
      body: { error: 'not_found', message: 'Not found' }
    })
  })

  it("rejects with the service's 404 message", async () => {
    const { fetch } = replying({ status: 404, statusText: 'Not Found', body: { error: 'not_found', message: 'Not found' } })
    expect(await rejected(provider(fetch).getOne('budgets', { id: 'b-initech-ops' }))).toEqual({
      status: 404,
      message: 'Not found',
      body: { error: 'not_found', message: 'Not found' }
    })
  })

  it('refuses an id that is not one, and a resource with no index', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    expect(await rejected(provider(fetch).getOne('budgets', { id: '' }))).toMatchObject({
      status: 400,
      message: 'id is "", not an id'
    })
    expect(await rejected(provider(fetch).getOne('budgets', { id: { id: 1 } }))).toMatchObject({
      status: 400,
      message: 'id is an object, not an id'
    })
    expect(await rejected(provider(fetch).getOne('bank_recipients', { id: 'r-1' }))).toMatchObject({
      status: 405,
      message: 'getOne is not available on bank_recipients: the service has no endpoint for it'
    })
    expect(calls).toEqual([])
  })

  it('rejects a 2xx reply that is not a record', async () => {
    const { fetch } = replying({ status: 200, body: [travel] })
    expect(await rejected(provider(fetch).getOne('budgets', { id: 'b-travel' }))).toEqual({
      status: 200,
      message: 'The reply to GET /v1/budgets/b-travel is not a record',
      body: [travel]
    })
  })

  it('writes a numeric id in decimal', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    await provider(fetch).getOne('budgets', { id: 42 })
    expect(calls[0]?.url).toBe(`${BASE}/v1/budgets/42`)
  })
})

describe('getMany (R-101)', () => {
  it('asks for id[$in] in one window for a few ids, each once', async () => {
    const { calls, fetch } = replying(pageOf([tx(1), tx(2)], 2))
    expect(await provider(fetch).getMany('bank_transactions', { ids: ['tx-1', 'tx-2', 'tx-1'] })).toEqual({
      data: [tx(1), tx(2)]
    })
    expect(calls.map((c) => c.url)).toEqual([
      `${BASE}/v1/banking/bank_transactions?_start=0&_end=2&id%5B%24in%5D=%5B%22tx-1%22%2C%22tx-2%22%5D`
    ])
  })

  it('sends no request for no ids', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    expect(await provider(fetch).getMany('budgets', { ids: [] })).toEqual({ data: [] })
    expect(calls).toEqual([])
  })

  it('splits 1,201 ids into lists of 500, 500 and 201 (the most a $in takes), and joins the pages', async () => {
    const ids = Array.from({ length: 1201 }, (_, i) => `tx-${i + 1}`)
    const { calls, fetch } = recorder((call) => {
      const list = JSON.parse(new URL(call.url).searchParams.get('id[$in]') ?? '[]') as Array<string>
      return pageOf(
        list.map((id) => ({ ...tx(0), id })),
        list.length
      )
    })
    const got = await provider(fetch).getMany('bank_transactions', { ids })
    expect((got.data as Array<{ id: string }>).map((r) => r.id)).toEqual(ids)
    expect(
      calls.map((c) => {
        const q = new URL(c.url).searchParams
        const list = JSON.parse(q.get('id[$in]') ?? '[]') as Array<string>
        return [q.get('_start'), q.get('_end'), list.length, list[0]]
      })
    ).toEqual([
      ['0', '500', 500, 'tx-1'],
      ['0', '500', 500, 'tx-501'],
      ['0', '201', 201, 'tx-1001']
    ])
  })

  it('refuses ids that are not a list of ids', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    expect(await rejected(provider(fetch).getMany('budgets', { ids: 'b-travel' as never }))).toMatchObject({
      status: 400,
      message: 'ids is "b-travel", not a list'
    })
    expect(await rejected(provider(fetch).getMany('budgets', { ids: ['b-travel', null] as never }))).toMatchObject({
      status: 400,
      message: 'ids holds null, not an id'
    })
    expect(calls).toEqual([])
  })
})

describe('update (R-101)', () => {
  it('PATCHes only the fields that differ from previousData, under the budget wrapper, and resolves with the budget returned', async () => {
    const saved = { ...travel, name: 'Trips', description: 'Flights and hotels' }
    const { calls, fetch } = replying({ status: 200, body: saved })
    const got = await provider(fetch).update('budgets', {
      id: 'b-travel',
      data: { ...travel, name: 'Trips', description: 'Flights and hotels' },
      previousData: travel
    })
    expect(got).toEqual({ data: saved })
    expect(calls.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: `${BASE}/v1/budgets/b-travel`,
        method: 'PATCH',
        headers: { ...member, 'Content-Type': 'application/json' },
        body: '{"budget":{"name":"Trips","description":"Flights and hotels"}}'
      }
    ])
  })

  it('sends a field set to null, and an empty budget when nothing changed', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    await provider(fetch).update('budgets', {
      id: 'b-travel',
      data: { ...travel, ends_on: '2027-01-01' },
      previousData: { ...travel, ends_on: null }
    })
    await provider(fetch).update('budgets', { id: 'b-travel', data: { ...travel }, previousData: travel })
    await provider(fetch).update('budgets', {
      id: 'b-travel',
      data: { manager_id: null },
      previousData: { ...travel, manager_id: 'u-manager' }
    })
    expect(calls.map((c) => c.body)).toEqual([
      '{"budget":{"ends_on":"2027-01-01"}}',
      '{"budget":{}}',
      '{"budget":{"manager_id":null}}'
    ])
  })

  it('compares lists and objects by value, not by identity', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    await provider(fetch).update('budgets', {
      id: 'b-travel',
      data: { tags: ['a', 'b'], limits: { day: 1 }, pair: [1], nested: { a: [1] }, list: ['x'] },
      previousData: { tags: ['a', 'b'], limits: { day: 2 }, pair: { 0: 1 }, nested: { a: [1], b: 2 }, list: null }
    })
    expect(calls[0]?.body).toBe('{"budget":{"limits":{"day":1},"pair":[1],"nested":{"a":[1]},"list":["x"]}}')
  })

  it('sends every field of data when there is no previousData', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    await provider(fetch).update('budgets', { id: 'b-travel', data: { name: 'Trips', access: 'members' } } as never)
    expect(calls[0]?.body).toBe('{"budget":{"name":"Trips","access":"members"}}')
  })

  it('on 422 rejects with body.errors holding each field’s first message, as react-admin forms read them', async () => {
    const { fetch } = replying({
      status: 422,
      statusText: 'Unprocessable Entity',
      headers: { 'X-Request-Id': 'r-1', 'Content-Type': 'application/json' },
      body: { errors: { name: ["can't be blank", 'is too short'], ends_on: ['must be after 2026-11-23'], other: [] } }
    })
    // toStrictEqual: a field with no message is left out, not sent as undefined.
    expect(
      await rejected(provider(fetch).update('budgets', { id: 'b-travel', data: { ...travel, name: '' }, previousData: travel }))
    ).toStrictEqual({
      status: 422,
      message: 'Unprocessable Entity',
      body: { errors: { name: "can't be blank", ends_on: 'must be after 2026-11-23' } }
    })
  })

  it('on 422 without field errors, and on another status with them, rejects with the body as the service sent it', async () => {
    const update = (reply: Canned) =>
      rejected(provider(replying(reply).fetch).update('budgets', { id: 'b-travel', data: { name: 'x' }, previousData: travel }))
    const unprocessable = { error: 'validation_failed', message: 'The budget is not valid' }
    expect(await update({ status: 422, body: unprocessable })).toEqual({
      status: 422,
      message: 'The budget is not valid',
      body: unprocessable
    })
    const badRequest = { error: 'bad_request', message: 'The body is not valid', errors: { name: ['is not text'] } }
    expect(await update({ status: 400, body: badRequest })).toEqual({
      status: 400,
      message: 'The body is not valid',
      body: badRequest
    })
  })

  it("on 403 rejects with the service's message and its body", async () => {
    const body = {
      error_code: 'budgets/cannot_change_recurrence',
      message: 'Only an admin or a user with budgets_manage can change the recurrence'
    }
    const { fetch } = replying({ status: 403, statusText: 'Forbidden', body })
    expect(
      await rejected(
        provider(fetch).update('budgets', {
          id: 'b-travel',
          data: { ...travel, recurrence_unit: 'month' },
          previousData: travel
        })
      )
    ).toEqual({ status: 403, message: body.message, body })
  })

  it('on an empty 401 rejects with the status text, or HTTP <status> when there is none', async () => {
    const update = (statusText: string) =>
      rejected(
        provider(replying({ status: 401, statusText }).fetch).update('budgets', {
          id: 'b-travel',
          data: { name: 'x' },
          previousData: travel
        })
      )
    expect(await update('Unauthorized')).toEqual({ status: 401, message: 'Unauthorized', body: null })
    expect(await update('')).toEqual({ status: 401, message: 'HTTP 401', body: null })
  })

  it('is a 405 on a resource the service updates no record of, sending nothing', async () => {
    const { calls, fetch } = replying({ status: 200, body: {} })
    expect(
      await rejected(provider(fetch).update('bank_transactions', { id: 'tx-1', data: {}, previousData: { id: 'tx-1' } }))
    ).toEqual({
      status: 405,
      message: 'update is not available on bank_transactions: the service has no endpoint for it',
      body: {
        error: 'method_not_allowed',
        message: 'update is not available on bank_transactions: the service has no endpoint for it'
      }
    })
    expect(calls).toEqual([])
  })
})

describe('create (R-101)', () => {
  const recipient = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-chile', name: 'Ana Pérez' }
  const normalised = { rut: '12345678-5', account_number: '00123456', bank_id: 'bank-chile', name: 'Ana Pérez' }

  it('POSTs {bank_recipient: data} with an Idempotency-Key, and gives the recipient an id of its RUT, bank and account', async () => {
    const { calls, fetch } = replying({ status: 201, body: normalised })
    const got = await provider(fetch).create('bank_recipients', { data: recipient, meta: { idempotencyKey: 'k-1' } })
    expect(got).toEqual({ data: { ...normalised, id: '12345678-5/bank-chile/00123456' } })
    expect(calls.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: `${BASE}/v1/banking/bank_recipients`,
        method: 'POST',
        headers: { ...member, 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
        body: JSON.stringify({ bank_recipient: recipient })
      }
    ])
  })

  it('makes a new version 4 UUID for each create not given a key', async () => {
    const { calls, fetch } = replying({ status: 201, body: normalised })
    const p = provider(fetch)
    await p.create('bank_recipients', { data: recipient })
    await p.create('bank_recipients', { data: recipient })
    const keys = calls.map((c) => c.headers['Idempotency-Key'])
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(keys[0]).not.toBe(keys[1])
  })

  it('makes a key when the one given is empty', async () => {
    const { calls, fetch } = replying({ status: 201, body: normalised })
    await provider(fetch).create('bank_recipients', { data: recipient, meta: { idempotencyKey: '' } })
    expect(calls[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('on 409 rejects with the service’s message', async () => {
    const { fetch } = replying({ status: 409, body: { error: 'conflict', message: 'The recipient is already enrolled' } })
    expect(await rejected(provider(fetch).create('bank_recipients', { data: recipient }))).toEqual({
      status: 409,
      message: 'The recipient is already enrolled',
      body: { error: 'conflict', message: 'The recipient is already enrolled' }
    })
  })

  it.each(['budgets', 'bank_transactions', 'companies', 'payables'])('is a 405 on %s, sending nothing', async (resource) => {
    const { calls, fetch } = replying({ status: 201, body: {} })
    expect(await rejected(provider(fetch).create(resource, { data: { name: 'x' } }))).toMatchObject({
      status: 405,
      message: `create is not available on ${resource}: the service has no endpoint for it`
    })
    expect(calls).toEqual([])
  })
})

describe('delete, deleteMany, updateMany (R-101)', () => {
  it.each([
    ['delete', (p: ReturnType<typeof provider>) => p.delete('budgets', { id: 'b-travel', previousData: travel })],
    ['deleteMany', (p: ReturnType<typeof provider>) => p.deleteMany('budgets', { ids: ['b-travel'] })],
    ['updateMany', (p: ReturnType<typeof provider>) => p.updateMany('budgets', { ids: ['b-travel'], data: { name: 'x' } })]
  ])('%s rejects with 405 naming the method and resource, sending nothing', async (method, call) => {
    const { calls, fetch } = replying({ status: 200, body: {} })
    const message = `${method} is not available on budgets: the service has no endpoint for it`
    expect(await rejected(call(provider(fetch)))).toEqual({
      status: 405,
      message,
      body: { error: 'method_not_allowed', message }
    })
    expect(calls).toEqual([])
  })

  it('getList on a resource with no index is a 405 too', async () => {
    const { calls, fetch } = replying(pageOf([], 0))
    expect(await rejected(provider(fetch).getList('bank_recipients', {}))).toMatchObject({
      status: 405,
      message: 'getList is not available on bank_recipients: the service has no endpoint for it'
    })
    expect(await rejected(provider(fetch).getList('__proto__', {}))).toMatchObject({ status: 405 })
    expect(calls).toEqual([])
  })
})

describe('network failures (R-101)', () => {
  it('a fetch that rejects is an HttpError of status 0 naming the request', async () => {
    const { fetch } = replying({ fail: new TypeError('fetch failed') })
    expect(await rejected(provider(fetch).getOne('budgets', { id: 'b-travel' }))).toEqual({
      status: 0,
      message: 'GET /v1/budgets/b-travel failed: fetch failed',
      body: null
    })
  })

  it('a fetch that throws something other than an Error is named as well as it can be', async () => {
    const fetch = () => {
      // A polyfill or a wrapper may throw anything.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw Object.create(null) as object
    }
    expect(await rejected(provider(fetch).getList('budgets', {}))).toEqual({
      status: 0,
      message: 'GET /v1/budgets failed: an object',
      body: null
    })
  })

  it('a fetch that never answers is an HttpError of status 0 after timeoutMs, its signal aborted', async () => {
    const { calls, fetch } = recorder(() => new Promise<never>(() => undefined))
    expect(await rejected(provider(fetch, 20).getList('budgets', {}))).toEqual({
      status: 0,
      message: 'No reply to GET /v1/budgets within 20 ms',
      body: null
    })
    expect(calls[0]?.signal.aborted).toBe(true)
  })

  it('a body that never ends is cut by the same timeout', async () => {
    const { fetch } = recorder(() =>
      Promise.resolve({
        status: 200,
        statusText: 'OK',
        headers: new Headers({ 'X-Total-Count': '1' }),
        text: () => new Promise<string>(() => undefined)
      })
    )
    expect(await rejected(provider(fetch, 20).getList('budgets', {}))).toMatchObject({ status: 0 })
  })

  it("react-admin's signal aborts the request: an HttpError of status 0", async () => {
    const { calls, fetch } = recorder(() => new Promise<never>(() => undefined))
    const controller = new AbortController()
    const pending = rejected(provider(fetch).getList('budgets', { signal: controller.signal }))
    controller.abort()
    expect(await pending).toEqual({ status: 0, message: 'GET /v1/budgets was aborted', body: null })
    expect(calls[0]?.signal.aborted).toBe(true)
    const aborted = new AbortController()
    aborted.abort()
    expect(await rejected(provider(fetch).getList('budgets', { signal: aborted.signal }))).toMatchObject({ status: 0 })
  })
})

describe('what is left once a call settles (R-101)', () => {
  it('rejects a reply outside 2xx that no server sends (the status 0 of an opaque response), and takes every 2xx', async () => {
    const opaque = recorder(() =>
      Promise.resolve({ status: 0, statusText: '', headers: new Headers(), text: () => Promise.resolve('') })
    )
    expect(await rejected(provider(opaque.fetch).getOne('budgets', { id: 'b-travel' }))).toEqual({
      status: 0,
      message: 'HTTP 0',
      body: null
    })
    expect(await provider(replying({ status: 299, body: travel }).fetch).getOne('budgets', { id: 'b-travel' })).toEqual({
      data: travel
    })
  })

  it('names an abort as such when the fetch throws at once on the aborted signal', async () => {
    const fetch = (_url: string, init: { readonly signal: AbortSignal }) => {
      if (init.signal.aborted) throw new DOMException('This operation was aborted', 'AbortError')
      return new Promise<never>(() => undefined)
    }
    const aborted = new AbortController()
    aborted.abort()
    expect(await rejected(provider(fetch).getList('budgets', { signal: aborted.signal }))).toEqual({
      status: 0,
      message: 'GET /v1/budgets was aborted',
      body: null
    })
  })

  it('neither times out nor aborts a request once it is answered', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    const controller = new AbortController()
    expect(await provider(fetch, 20).getOne('budgets', { id: 'b-travel', signal: controller.signal })).toEqual({ data: travel })
    await new Promise((resolve) => setTimeout(resolve, 60))
    controller.abort()
    expect(calls[0]?.signal.aborted).toBe(false)
  })
})

describe('reactAdminDataProvider options (R-101)', () => {
  it.each([
    [{ url: 'ftp://x' }, 'reactAdminDataProvider: url is "ftp://x", not an http(s) URL'],
    [{ url: 'see http://x' }, 'reactAdminDataProvider: url is "see http://x", not an http(s) URL'],
    // A URL object reads as its text, but is not the string the provider takes.
    [{ url: new URL('http://x') }, 'reactAdminDataProvider: url is an object, not an http(s) URL'],
    [{ token: '' }, 'reactAdminDataProvider: token is "", not an API key'],
    [{ token: 7 }, 'reactAdminDataProvider: token is 7, not an API key'],
    [{ companyId: 7 }, 'reactAdminDataProvider: companyId is 7, not a company id'],
    [{ companyId: '' }, 'reactAdminDataProvider: companyId is "", not a company id'],
    [{ timeoutMs: 0 }, 'reactAdminDataProvider: timeoutMs is 0, not a whole number of milliseconds from 1 to 2147483647'],
    [{ fetch: 'fetch' }, 'reactAdminDataProvider: fetch is "fetch", not a function'],
    [{ timeoutMs: 1.5 }, 'reactAdminDataProvider: timeoutMs is 1.5, not a whole number of milliseconds from 1 to 2147483647'],
    [
      { timeoutMs: 2 ** 31 },
      'reactAdminDataProvider: timeoutMs is 2147483648, not a whole number of milliseconds from 1 to 2147483647'
    ]
  ])('refuses %j with a TypeError', (options, message) => {
    expect(() => reactAdminDataProvider({ url: BASE, token: 'k', companyId: 'c', ...options } as never)).toThrow(
      new TypeError(message)
    )
  })

  it('takes a timeout from 1 ms to 2147483647 ms, and a URL ending in slashes as its base', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    for (const timeoutMs of [1, 2_147_483_647])
      expect(() => reactAdminDataProvider({ url: BASE, token: 'k', companyId: 'c', fetch, timeoutMs })).not.toThrow()
    await reactAdminDataProvider({ url: `${BASE}//`, token: 'k', companyId: 'c', fetch }).getOne('budgets', { id: 'b-travel' })
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/v1/budgets/b-travel`])
  })

  it('sends through globalThis.fetch when given none', async () => {
    const original = globalThis.fetch
    const { calls, fetch } = replying({ status: 200, body: travel })
    globalThis.fetch = fetch as typeof globalThis.fetch
    try {
      const p = reactAdminDataProvider({ url: BASE, token: 'demo-admin', companyId: 'c-acme' })
      expect(await p.getOne('budgets', { id: 'b-travel' })).toEqual({ data: travel })
    } finally {
      globalThis.fetch = original
    }
    expect(calls[0]?.headers).toEqual({ Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' })
  })
})

describe('authorize, topUp, withdraw: the service’s actions (R-101 provider)', () => {
  it('topUp POSTs {amount_cents} to /v1/budgets/{id}/top_up with the click’s Idempotency-Key', async () => {
    const { calls, fetch } = replying({ status: 200, body: { ...travel, balance_cents: 425000 } })
    const got = await provider(fetch).topUp({ id: 'b-travel', amount_cents: 5000, idempotencyKey: 'click-1' })
    expect(got).toEqual({ data: { ...travel, balance_cents: 425000 } })
    expect(calls.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: `${BASE}/v1/budgets/b-travel/top_up`,
        method: 'POST',
        headers: { ...member, 'Content-Type': 'application/json', 'Idempotency-Key': 'click-1' },
        body: '{"amount_cents":5000}'
      }
    ])
  })

  it('withdraw POSTs to .../withdraw, a new key for each click not given one', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    const p = provider(fetch)
    await p.withdraw({ id: 'b-travel', amount_cents: 1000 })
    await p.withdraw({ id: 'b-travel', amount_cents: 1000 })
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${BASE}/v1/budgets/b-travel/withdraw`, '{"amount_cents":1000}'],
      [`${BASE}/v1/budgets/b-travel/withdraw`, '{"amount_cents":1000}']
    ])
    expect(calls[0]?.headers['Idempotency-Key']).not.toBe(calls[1]?.headers['Idempotency-Key'])
  })

  it('authorize POSTs no body to .../authorize, and a 409 rejects with the service’s message', async () => {
    const { calls, fetch } = replying({
      status: 409,
      body: { error: 'conflict', message: 'The transaction is already authorized' }
    })
    expect(await rejected(provider(fetch).authorize({ id: 'tx-00001', idempotencyKey: 'k' }))).toEqual({
      status: 409,
      message: 'The transaction is already authorized',
      body: { error: 'conflict', message: 'The transaction is already authorized' }
    })
    expect(calls.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: `${BASE}/v1/banking/bank_transactions/tx-00001/authorize`,
        method: 'POST',
        headers: { ...member, 'Idempotency-Key': 'k' },
        body: undefined
      }
    ])
  })

  it('refuses an amount that is not a number and an id that is not one, sending nothing', async () => {
    const { calls, fetch } = replying({ status: 200, body: travel })
    expect(await rejected(provider(fetch).topUp({ id: 'b-travel', amount_cents: '5000' as never }))).toMatchObject({
      status: 400,
      message: 'amount_cents is "5000", not a number'
    })
    expect(await rejected(provider(fetch).authorize({ id: '' }))).toMatchObject({ status: 400, message: 'id is "", not an id' })
    expect(calls).toEqual([])
  })
})
