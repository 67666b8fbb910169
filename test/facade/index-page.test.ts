import { describe, expect, it } from 'vitest'
import { endpoints, type IndexPageContext, type IndexQueryContext, planIndex, respondIndex, respondIndexPage } from '../api'
import { headers, memberPageReasons as decided, session } from '../fixtures'
import { transactions } from '../paging/fixtures'

const hundred = transactions(100)
const JSON_TYPE = 'application/json; charset=utf-8'
const EXPOSE = 'Content-Range, X-Total-Count'

const context = (query: string, extra: Partial<IndexQueryContext> = {}): IndexQueryContext => ({
  request: { headers: headers(), query },
  session: session('member'),
  endpoint: endpoints.bankTransactions,
  request_id: 'req-1',
  ...extra
})

const page = (query: string, rows: ReadonlyArray<unknown>, total: number, extra: Partial<IndexPageContext> = {}) =>
  respondIndexPage({ ...context(query), page: rows, total, ...extra })

/** The 500 of malformed server input: the log's detail, and the message naming the mistake. */
const SERVER_INPUT = (detail: string, mistake: string) => ({
  status: 500,
  headers: { 'X-Request-Id': 'req-1', 'Content-Type': JSON_TYPE },
  body: { error: 'internal_error', message: `Internal server error: ${mistake}` },
  reasons: [{ rule: 'server.input', detail }]
})

describe('planIndex: the page request, or the reply already', () => {
  it('plans a page: the window, the sort and the typed filters, as sent', () => {
    expect(planIndex(context('_start=10&_end=20&_field=amount&_order=desc&amount[$gte]=100&status=pending'))).toStrictEqual({
      _tag: 'Page',
      request: {
        window: { start: 10, end: 20 },
        sort: { field: 'amount', order: 'desc' },
        filters: [
          { field: 'amount', type: { type: 'integer' }, op: '$gte', values: [100] },
          { field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$eq', values: ['pending'] }
        ],
        filterParameters: [
          ['amount[$gte]', '100'],
          ['status', 'pending']
        ]
      }
    })
  })

  it('plans the default window of a request without a query', () => {
    expect(planIndex({ ...context(''), request: { headers: headers() } })).toStrictEqual({
      _tag: 'Page',
      request: { window: { start: 0, end: 25 }, sort: { field: 'created_at', order: 'asc' }, filters: [], filterParameters: [] }
    })
  })

  it('plans GET /v1/companies without company-id', () => {
    const plan = planIndex(
      context('_end=2', { endpoint: endpoints.companies, request: { headers: { Authorization: 'Bearer k' }, query: '_end=2' } })
    )
    expect(plan).toStrictEqual({
      _tag: 'Page',
      request: { window: { start: 0, end: 2 }, sort: { field: 'created_at', order: 'asc' }, filters: [], filterParameters: [] }
    })
  })

  it('replies 401 with an empty body to a request without a key', () => {
    expect(planIndex(context('', { request: { headers: {}, query: '' } }))).toStrictEqual({
      _tag: 'Reply',
      reply: {
        status: 401,
        headers: { 'X-Request-Id': 'req-1' },
        body: null,
        reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
      }
    })
  })

  it('replies 404 to a company the caller is not a member of', () => {
    const plan = planIndex(context('', { session: session('member', 'c-9') }))
    expect(plan._tag === 'Reply' && [plan.reply.status, plan.reply.body]).toStrictEqual([
      404,
      { error: 'not_found', message: 'Not found' }
    ])
  })

  it('replies 400 with the reasons up to the malformed parameter', () => {
    expect(planIndex(context('_end=5&status[$gt]=pending'))).toStrictEqual({
      _tag: 'Reply',
      reply: {
        status: 400,
        headers: { 'X-Request-Id': 'req-1', 'Content-Type': JSON_TYPE },
        body: { error: 'bad_request', message: '$gt applies to integer and instant fields, not status' },
        reasons: [
          ...decided(2, '[0, 5) by created_at asc').slice(0, 6),
          { rule: 'page.filter', detail: '$gt applies to integer and instant fields, not status' }
        ]
      }
    })
  })

  it.each([
    ['a lone surrogate', '["\\ud800"]', 'The query holds a lone surrogate'],
    ['a NUL character', '["tx-1","\\u0000"]', 'The query holds a NUL character']
  ])('replies 400 to %s written as a JSON escape in a $in list, as respondIndex does (R-47, ADR 0013)', (_, list, message) => {
    const query = `_end=5&id[$in]=${encodeURIComponent(list)}`
    const reply = {
      status: 400,
      headers: { 'X-Request-Id': 'req-1', 'Content-Type': JSON_TYPE },
      body: { error: 'bad_request', message },
      reasons: [...decided(2, '[0, 5) by created_at asc').slice(0, 6), { rule: 'page.filter', detail: message }]
    }
    expect(planIndex(context(query))).toStrictEqual({ _tag: 'Reply', reply })
    expect(respondIndex({ ...context(query), records: hundred })).toStrictEqual(reply)
  })

  it('replies 416 past 2000 records, after every 400 check', () => {
    expect(planIndex(context('_start=1&_end=2502'))).toStrictEqual({
      _tag: 'Reply',
      reply: {
        status: 416,
        headers: { 'X-Request-Id': 'req-1', 'Content-Type': JSON_TYPE },
        body: { message: 'Requested page size 2501 exceeds maximum of 2000' },
        reasons: [
          ...decided(2, '[1, 2502) by created_at asc').slice(0, 7),
          { rule: 'page.size', detail: 'a window of 2501 records, over the maximum of 2000' }
        ]
      }
    })
  })

  it.each([
    ['', []],
    ['_start=0&_end=5000', []],
    ['_order=DESC', []],
    ['colour=red', []]
  ])('replies to %s as respondIndex does, whatever the records', (query, records) => {
    for (const extra of [{}, { request: { headers: {}, query } }, { session: session('member', 'c-9') }]) {
      const plan = planIndex(context(query, extra))
      const expected = respondIndex({ ...context(query, extra), records })
      if (plan._tag === 'Reply') expect(plan.reply).toStrictEqual(expected)
      else expect(expected.status).toBe(200)
    }
  })

  it.each([
    ['a context that is not an object', null, 'malformed server input at ', 'the context is null, not an object'],
    [
      'a request without headers',
      { ...context(''), request: { query: '' } },
      'malformed server input at request.headers',
      'request.headers: headers must be an object'
    ],
    [
      'an endpoint that is not one',
      { ...context(''), endpoint: { path: '/x' } },
      'malformed server input at endpoint.fields, endpoint.sortable, endpoint.defaultField, endpoint.orderCase, endpoint.envelope',
      'endpoint.fields is undefined, not { [K in string]: (({ type: "integer" | "instant" | "id" | "string" | "json" } | { type: "enum", values: Array<string> }) & Partial<{ nullable: boolean }>) }; ' +
        'endpoint.sortable is undefined, not a list of strings; endpoint.defaultField is undefined, not a string; ' +
        'endpoint.orderCase is undefined, not one of lower, upper; endpoint.envelope is undefined, not one of bare, data-cursors'
    ],
    [
      'a session without memberships',
      { ...context(''), session: { user: null } },
      'malformed server input at session.memberships',
      'session.memberships is undefined, not { [K in string]: { role: Role, permissions: Array<string> } }'
    ]
  ])('replies 500 server.input to %s, never throws', (_, malformed, detail, mistake) => {
    const plan = planIndex(malformed as never)
    expect(plan._tag).toBe('Reply')
    if (plan._tag !== 'Reply') return
    expect(plan.reply).toStrictEqual({
      ...SERVER_INPUT(detail, mistake),
      headers: { ...SERVER_INPUT(detail, mistake).headers, 'X-Request-Id': malformed === null ? '' : 'req-1' }
    })
  })

  it('replies 500 to a request_id that is not a string, with an empty X-Request-Id', () => {
    const plan = planIndex({ ...context(''), request_id: 7 } as never)
    expect(plan._tag === 'Reply' && [plan.reply.status, plan.reply.headers['X-Request-Id'], plan.reply.reasons]).toStrictEqual([
      500,
      '',
      [{ rule: 'server.input', detail: 'malformed server input at request_id' }]
    ])
  })
})

describe('respondIndexPage: the reply to the rows a database found', () => {
  it('replies 200 with the rows, the page headers and every rule consulted', () => {
    expect(page('_start=10&_end=13', hundred.slice(10, 13), 100)).toStrictEqual({
      status: 200,
      headers: {
        'X-Total-Count': '100',
        'Content-Range': '10-12/100',
        'Access-Control-Expose-Headers': EXPOSE,
        'X-Request-Id': 'req-1',
        'Content-Type': JSON_TYPE
      },
      body: hundred.slice(10, 13),
      reasons: [
        ...decided(2, '[10, 13) by created_at asc', 'no filters', 3),
        { rule: 'page.records', detail: '100 match, 3 found by the database' },
        { rule: 'page.slice', detail: '3 records from 10' },
        { rule: 'page.headers', detail: 'Content-Range 10-12/100' }
      ]
    })
  })

  it.each([
    ['_start=10&_end=13', 10, 13],
    ['_start=95&_end=120', 95, 100],
    ['_start=0&_end=2000', 0, 100],
    ['_start=100&_end=125', 100, 100],
    ['_start=500&_end=510', 100, 100],
    ['_start=7&_end=7', 7, 7]
  ])('replies to %s as respondIndex does over the whole collection', (query, from, to) => {
    expect(page(query, hundred.slice(from, to), 100)).toStrictEqual({
      ...respondIndex({ ...context(query), records: hundred }),
      reasons: expect.any(Array) as unknown
    })
    const { reasons } = page(query, hundred.slice(from, to), 100)
    const { reasons: expected } = respondIndex({ ...context(query), records: hundred })
    expect(reasons.map((r) => r.rule)).toStrictEqual(expected.map((r) => r.rule))
  })

  it('replies with the filtered total the database counted, in the filtered order', () => {
    // Transactions 0, 3, 6, ... are pending: 34 of the hundred.
    const pending = hundred.filter((t) => t.status === 'pending')
    const query = '_start=30&_end=40&status=pending'
    const reply = page(query, pending.slice(30, 34), 34)
    expect(reply).toStrictEqual({ ...respondIndex({ ...context(query), records: hundred }), reasons: reply.reasons })
    expect([reply.headers['Content-Range'], reply.headers['X-Total-Count']]).toStrictEqual(['30-33/34', '34'])
  })

  it('writes the {data, cursors} body of GET /v1/companies from the rows and the total', () => {
    const companies = Array.from({ length: 5 }, (_, i) => ({
      id: `c-${i}`,
      name: `Company ${i}`,
      created_at: `2026-0${i + 1}-01T00:00:00Z`,
      updated_at: `2026-0${i + 1}-01T00:00:00Z`
    }))
    const query = '_start=2&_end=4&name[$ne]=nobody'
    const extra = { endpoint: endpoints.companies, request: { headers: { Authorization: 'Bearer k' }, query } }
    const reply = page(query, companies.slice(2, 4), 5, extra)
    expect(reply.body).toStrictEqual({
      data: [companies[2], companies[3]],
      cursors: {
        previous: '_start=0&_end=2&_order=asc&_field=created_at&name%5B%24ne%5D=nobody',
        next: '_start=4&_end=6&_order=asc&_field=created_at&name%5B%24ne%5D=nobody'
      }
    })
    expect(reply.body).toStrictEqual(respondIndex({ ...context(query, extra), records: companies }).body)
    // The first and only page has neither cursor; an empty window has none either.
    const whole = { endpoint: endpoints.companies, request: { headers: { Authorization: 'Bearer k' }, query: '_end=10' } }
    expect(page('_end=10', companies, 5, whole).body).toStrictEqual({ data: companies, cursors: { previous: null, next: null } })
    const empty = { endpoint: endpoints.companies, request: { headers: { Authorization: 'Bearer k' }, query: '_start=2&_end=2' } }
    expect(page('_start=2&_end=2', [], 5, empty).body).toStrictEqual({ data: [], cursors: { previous: null, next: null } })
  })

  it('sends each row as a plain record of the endpoint fields: class instances read, other columns dropped', () => {
    class Row {
      constructor(readonly id: string) {}
      get amount() {
        return 5
      }
      readonly status = 'pending'
      readonly created_at = '2026-11-22T10:00:00.000000Z'
      readonly updated_at = '2026-11-22T07:00:00-03:00'
      readonly company_id = 'c-1'
    }
    const reply = page('_end=1', [new Row('tx-9')], 1)
    expect(reply.body).toStrictEqual([
      {
        id: 'tx-9',
        amount: 5,
        status: 'pending',
        created_at: '2026-11-22T10:00:00.000000Z',
        updated_at: '2026-11-22T07:00:00-03:00'
      }
    ])
    expect(Object.getPrototypeOf((reply.body as ReadonlyArray<unknown>)[0])).toBe(Object.prototype)
  })

  it('decides the request again: a page handed in for a request without a key is a 401', () => {
    const reply = respondIndexPage({
      ...context('', { request: { headers: {}, query: '' } }),
      page: hundred.slice(0, 25),
      total: 100
    })
    expect([reply.status, reply.body]).toStrictEqual([401, null])
    expect(page('_end=5000', [], 0).status).toBe(416)
  })

  it.each([
    [
      'longer than the window',
      '_start=0&_end=2',
      hundred.slice(0, 3),
      100,
      'a page of 3 rows of 100 does not fit the window [0, 2)'
    ],
    [
      'past the total',
      '_start=10&_end=20',
      hundred.slice(10, 20),
      15,
      'a page of 10 rows of 15 does not fit the window [10, 20)'
    ],
    [
      'empty where the total says rows are',
      '_start=10&_end=20',
      [],
      11,
      'a page of 0 rows of 11 does not fit the window [10, 20)'
    ],
    [
      'shorter than the window where the total says more rows are',
      '_start=0&_end=5',
      hundred.slice(0, 3),
      100,
      'a page of 3 rows of 100 does not fit the window [0, 5)'
    ]
  ])('replies 500 to a page %s', (_, query, rows, total, detail) => {
    const reply = page(query, rows, total)
    // The message says the same in the words of the fields the server passed.
    const [, held, of, window] = /^a page of (\d+) rows of (\d+) does not fit the window (.*)$/.exec(detail) ?? []
    expect([reply.status, reply.body, reply.reasons.at(-1)]).toStrictEqual([
      500,
      {
        error: 'internal_error',
        message: `Internal server error: page holds ${held} rows and total is ${of}, not a page of the window ${window} of that many`
      },
      { rule: 'server.input', detail }
    ])
  })

  it('takes an empty page past the total or for an empty window, and a short last page', () => {
    expect(page('_start=100&_end=110', [], 100).headers['Content-Range']).toBe('*/100')
    expect(page('_start=3&_end=3', [], 100).headers['Content-Range']).toBe('*/100')
    expect(page('_start=98&_end=110', hundred.slice(98), 100).headers['Content-Range']).toBe('98-99/100')
  })

  it.each([
    ['a total of -1', { total: -1 }, 'malformed server input at total', 'total is -1, not a whole number of records (0 or more)'],
    [
      'a total of 2.5',
      { total: 2.5 },
      'malformed server input at total',
      'total is 2.5, not a whole number of records (0 or more)'
    ],
    [
      'a total of NaN',
      { total: Number.NaN },
      'malformed server input at total',
      'total is NaN, not a whole number of records (0 or more)'
    ],
    [
      'a total given as text',
      { total: '3' },
      'malformed server input at total',
      'total is "3", not a whole number of records (0 or more)'
    ],
    ['rows that are not an array', { page: 'rows' }, 'malformed server input at page', 'page is "rows", not an array'],
    ['no rows', { page: undefined }, 'malformed server input at page', 'page is undefined, not an array']
  ])('replies 500 server.input to %s', (_, extra, detail, mistake) => {
    expect(respondIndexPage({ ...context('_end=3'), page: hundred.slice(0, 3), total: 100, ...extra } as never)).toStrictEqual(
      SERVER_INPUT(detail, mistake)
    )
  })

  it.each([
    ['a row without an id', [{ amount: 1 }], 'record 0 has no valid id', 'page[0].id is undefined, not a string'],
    ['a row that is not an object', [hundred[0], 'tx-1'], 'record 1 has no valid shape', 'page[1] is "tx-1", not an object'],
    [
      'a row with an amount as text',
      [{ ...hundred[0], amount: '5' }],
      'record 0 has no valid amount',
      'page[0].amount is "5", not an integer'
    ],
    [
      'a row with an instant that is none',
      [{ ...hundred[0], created_at: '2026-11-22 10:00:00+00' }],
      'record 0 has no valid created_at',
      'page[0].created_at is "2026-11-22 10:00:00+00", not an ISO-8601 date-time with an offset'
    ],
    // pg's reading of a timestamptz column, unless told to keep the text.
    [
      'a row with an instant as a Date',
      [{ ...hundred[0], created_at: new Date(Date.UTC(2026, 10, 22, 10)) }],
      'record 0 has no valid created_at',
      'page[0].created_at is a Date, not an ISO-8601 date-time with an offset'
    ]
  ])('replies 500 page.records to %s, its message naming the row, field, value and shape', (_, rows, detail, mistake) => {
    const reply = page(`_end=${rows.length}`, rows, rows.length)
    expect([reply.status, reply.body, reply.reasons.at(-1)]).toStrictEqual([
      500,
      { error: 'internal_error', message: `Internal server error: ${mistake}` },
      { rule: 'page.records', detail }
    ])
  })
})
