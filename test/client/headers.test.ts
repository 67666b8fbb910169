/**
 * headers come in as a plain object (values a string, a list of strings as Node's
 * `IncomingHttpHeaders` has them, or undefined; names in any case) or as a Fetch `Headers`
 * object (anything with `get`), wherever they come in: requests given to the facades, replies
 * given to the client functions.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  endpoints,
  headerOf,
  type IndexContext,
  parseErrorResponse,
  Request,
  respondBudgetUpdate,
  respondIndex,
  retryDecision
} from '../api'
import type { HttpHeaders as LibraryHeaders } from '../api'
import { budget, JSON_HEADERS, session, TODAY, budgetOf } from '../fixtures'

/** An index request over no records, by a member of c-1, with these headers. */
const emptyIndex = (headers: unknown) =>
  respondIndex({
    request: { headers, query: '' },
    session: session('member'),
    endpoint: endpoints.bankTransactions,
    records: [],
    request_id: 'req-1'
  } as IndexContext)

/** A `get` that throws, as a hostile or broken Headers-like object might. */
const throwingGet = {
  get: (): string => {
    throw new Error('boom')
  }
}

describe('headerOf: the one place a header is read', () => {
  it.each<[string, unknown, string | undefined]>([
    ['a plain string', { 'Retry-After': '7' }, '7'],
    ['a name in another case', { 'RETRY-after': '7' }, '7'],
    ['a list of one value (Node)', { 'retry-after': ['7'] }, '7'],
    ['a list whose values agree', { 'retry-after': ['7', '7'] }, '7'],
    ['a list whose values disagree', { 'retry-after': ['7', '8'] }, undefined],
    ['two spellings that disagree', { 'Retry-After': '7', 'retry-after': '8' }, undefined],
    ['two spellings that agree, one a list', { 'Retry-After': '7', 'retry-after': ['7'] }, '7'],
    ['an empty list', { 'retry-after': [] }, undefined],
    ['a list holding a non-string, passed over', { 'retry-after': ['7', 5, null] }, '7'],
    ['a value that is neither a string nor a list', { 'retry-after': 7 }, undefined],
    ['undefined', { 'retry-after': undefined }, undefined],
    ['no such header', { other: '7' }, undefined],
    ['a Fetch Headers object', new Headers({ 'Retry-After': '7' }), '7'],
    ['a Fetch Headers object without the header', new Headers({ other: '7' }), undefined],
    ['a Map with lower-case names (anything with get)', new Map([['retry-after', '7']]), '7'],
    ['a get returning a list', { get: (name: string) => (name === 'retry-after' ? ['7', '7'] : null) }, '7'],
    ['a get returning a number', { get: () => 7 }, undefined],
    ['a get that throws', throwingGet, undefined],
    [
      'a plain object whose value getter throws',
      Object.defineProperty({}, 'retry-after', {
        enumerable: true,
        get: () => {
          throw new Error('boom')
        }
      }),
      undefined
    ],
    ['null', null, undefined],
    ['a string', 'retry-after: 7', undefined]
  ])('reads %s', (_, headers, expected) => {
    expect(headerOf(headers, 'Retry-After')).toBe(expected)
  })

  it('reads no header in a string or an array, whose indices a plain object would list as keys', () => {
    expect([headerOf('7', '0'), headerOf(['7'], '0'), headerOf(['7'], 'length')]).toEqual([undefined, undefined, undefined])
  })

  it('asks a Headers-like object by get, never by enumerating it', () => {
    // Own enumerable keys that get does not know are not headers of a Headers-like object.
    const asked: Array<string> = []
    const h = { 'retry-after': '99', get: (name: string) => (asked.push(name), name === 'retry-after' ? '7' : null) }
    expect([headerOf(h, 'Retry-After'), asked]).toEqual(['7', ['retry-after']])
  })

  it('reads an object whose get getter throws as a plain object', () => {
    const headers = Object.defineProperty({ authorization: 'Bearer key-1', 'company-id': 'c-1' }, 'get', {
      get: () => {
        throw new Error('boom')
      }
    })
    expect(headerOf(headers, 'Authorization')).toBe('Bearer key-1')
    expect(emptyIndex(headers).status).toBe(200)
  })

  it('reads a Fetch Headers object that joined a repeated header, as Fetch does', () => {
    const h = new Headers()
    h.append('X-Request-Id', 'r-1')
    h.append('X-Request-Id', 'r-2')
    expect(headerOf(h, 'x-request-id')).toBe('r-1, r-2')
  })
})

describe('parseErrorResponse and retryDecision read a Fetch Headers object', () => {
  const fetchHeaders = () =>
    new Headers({ 'Retry-After': '7', 'X-Request-Id': 'r-1', 'Content-Type': 'application/json; charset=utf-8' })
  const body = '{"error":"rate_limit_exceeded","message":"Too many requests","retry_after":5}'

  it('keeps Retry-After and X-Request-Id from a Fetch reply', () => {
    expect(parseErrorResponse({ status: 429, headers: fetchHeaders(), body })).toEqual({
      status: 429,
      kind: 'rate_limited',
      code: 'rate_limit_exceeded',
      message: 'Too many requests',
      request_id: 'r-1',
      retry_after_s: 7
    })
  })

  it('reads a Retry-After date against the Date header of a Fetch reply', () => {
    const headers = new Headers({ 'Retry-After': 'Sun, 22 Nov 2026 10:00:30 GMT', Date: 'Sun, 22 Nov 2026 10:00:00 GMT' })
    expect(parseErrorResponse({ status: 503, headers, body: '' })).toEqual({ status: 503, kind: 'upstream', retry_after_s: 30 })
    expect(retryDecision({ method: 'POST', status: 429, headers, attempt: 0, random: 0.5 })).toEqual({
      retry: true,
      delay_ms: 30_000
    })
  })

  it('waits the Retry-After of a Fetch reply on 429', () => {
    expect(retryDecision({ method: 'POST', status: 429, headers: fetchHeaders(), attempt: 0, random: 0.5 })).toEqual({
      retry: true,
      delay_ms: 7000
    })
  })

  it('reads a Node reply (lists of values), and counts a repeated header that disagrees as absent', () => {
    const node: IncomingHttpHeaders = { 'retry-after': '7', 'x-request-id': 'r-1', 'set-cookie': ['a=1', 'b=2'] }
    expect(parseErrorResponse({ status: 429, headers: node, body: '' })).toEqual({
      status: 429,
      kind: 'rate_limited',
      request_id: 'r-1',
      retry_after_s: 7
    })
    const distinct: Record<string, Array<string>> = { 'retry-after': ['7', '9'], 'x-request-id': ['r-1'] }
    expect(parseErrorResponse({ status: 429, headers: distinct, body: '' })).toEqual({
      status: 429,
      kind: 'rate_limited',
      request_id: 'r-1'
    })
    expect(retryDecision({ method: 'GET', status: 429, headers: distinct, attempt: 0, random: 0.5 })).toEqual({
      retry: true,
      delay_ms: 1000
    })
  })

  it('counts a get that throws as no headers at all, and never throws', () => {
    expect(parseErrorResponse({ status: 429, headers: throwingGet, body: '' })).toEqual({ status: 429, kind: 'rate_limited' })
    expect(retryDecision({ method: 'GET', status: 429, headers: throwingGet, attempt: 0, random: 0.5 })).toEqual({
      retry: true,
      delay_ms: 1000
    })
  })
})

describe('the facades read the request headers in every form (R-54)', () => {
  const AUTH_REASONS = [
    { rule: 'auth.bearer', detail: 'key of user u-member' },
    { rule: 'auth.email_verified', detail: 'email verified' },
    { rule: 'auth.company_header', detail: 'company c-1' },
    { rule: 'auth.membership', detail: 'role member' }
  ]
  const EMPTY_PAGE_HEADERS = {
    'X-Total-Count': '0',
    'Content-Range': '*/0',
    'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
    ...JSON_HEADERS
  }

  it.each<[string, unknown]>([
    [
      'Node IncomingHttpHeaders with a list value',
      { authorization: 'Bearer key-1', 'company-id': 'c-1', 'set-cookie': ['a=1', 'b=2'], host: 'api.example' }
    ],
    ['Node headersDistinct (every value a list)', { authorization: ['Bearer key-1'], 'company-id': ['c-1'] }],
    ['a Fetch Headers object', new Headers({ Authorization: 'Bearer key-1', 'Company-Id': 'c-1' })],
    [
      'a Map (anything with get)',
      new Map([
        ['authorization', 'Bearer key-1'],
        ['company-id', 'c-1']
      ])
    ]
  ])('answers an index request whose headers are %s', (_, headers) => {
    const r = emptyIndex(headers)
    expect({ status: r.status, headers: r.headers, body: r.body, auth: r.reasons.slice(0, 4) }).toEqual({
      status: 200,
      headers: EMPTY_PAGE_HEADERS,
      body: [],
      auth: AUTH_REASONS
    })
    expect(r).toEqual(emptyIndex({ Authorization: 'Bearer key-1', 'company-id': 'c-1' }))
  })

  it.each<[string, unknown]>([
    ['Authorization given twice with different values', { authorization: ['Bearer key-1', 'Bearer key-2'], 'company-id': 'c-1' }],
    ['a Headers-like object whose get throws', throwingGet],
    ['a Fetch Headers object without Authorization', new Headers({ 'company-id': 'c-1' })]
  ])('replies 401 with an empty body for %s', (_, headers) => {
    expect(emptyIndex(headers)).toEqual({
      status: 401,
      headers: { 'X-Request-Id': 'req-1' },
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it('updates a budget with a Fetch Headers object and with Node headers', () => {
    const context = (headers: unknown) =>
      ({
        request: { headers, body: '{"budget":{"name":"Trips"}}' },
        session: session('admin'),
        budget: budget(),
        today: TODAY,
        request_id: 'req-1'
      }) as never
    const fromFetch = respondBudgetUpdate(context(new Headers({ authorization: 'Bearer key-1', 'company-id': 'c-1' })))
    const fromNode = respondBudgetUpdate(context({ authorization: ['Bearer key-1'], 'company-id': 'c-1', 'set-cookie': ['a=1'] }))
    for (const r of [fromFetch, fromNode]) {
      expect([r.status, r.headers, (r.body as { name: string }).name, budgetOf(r)?.name]).toEqual([
        200,
        JSON_HEADERS,
        'Trips',
        'Trips'
      ])
    }
  })

  it('is a 500 when a header value is neither a string nor a list of strings (malformed server input)', () => {
    expect(emptyIndex({ authorization: 'Bearer key-1', 'company-id': 'c-1', 'x-n': 5 })).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: {
        error: 'internal_error',
        message: 'Internal server error: request.headers.x-n: header x-n is not a string or a list of strings'
      },
      reasons: [{ rule: 'server.input', detail: 'malformed server input at request.headers.x-n' }]
    })
    expect(emptyIndex({ authorization: ['Bearer key-1', 5], 'company-id': 'c-1' }).status).toBe(500)
  })
})

describe('the Request codec', () => {
  it('accepts plain objects with string, list and undefined values, and Headers-like objects', () => {
    for (const headers of [{ a: 'x', b: ['y', 'z'], c: undefined }, new Headers({ a: 'x' }), new Map(), { get: () => null }]) {
      expect(Request.is({ headers })).toBe(true)
      expect(Request.decode({ headers })).toEqual({ _tag: 'Right', right: { headers } })
    }
  })

  it('refuses other values', () => {
    for (const headers of [null, 'a: x', [['a', 'x']], { a: 5 }, { a: null }, { a: ['x', 5] }, { get: 5 }]) {
      expect([Request.is({ headers }), Request.decode({ headers })._tag]).toEqual([false, 'Left'])
    }
  })

  it('refuses a plain object whose value getter throws, without throwing', () => {
    const headers = Object.defineProperty({}, 'authorization', {
      enumerable: true,
      get: () => {
        throw new Error('boom')
      }
    })
    expect(Request.decode({ headers })._tag).toBe('Left')
    expect(emptyIndex(headers).status).toBe(500)
  })
})

describe('a revoked proxy as headers (it throws on every question)', () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  }

  it('is no header to headerOf, and leaves the status to parseErrorResponse and retryDecision', () => {
    expect(headerOf(revoked(), 'retry-after')).toBeUndefined()
    expect(parseErrorResponse({ status: 429, headers: revoked(), body: '{"retry_after":3}' })).toEqual({
      status: 429,
      kind: 'rate_limited',
      retry_after_s: 3
    })
    expect(retryDecision({ method: 'GET', status: 503, headers: revoked(), attempt: 1, random: 0.5 })).toEqual({
      retry: true,
      delay_ms: 500
    })
  })

  it('is malformed server input to a facade, never an exception', () => {
    expect(emptyIndex(revoked())).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: 'Internal server error: request.headers: headers cannot be read' },
      reasons: [{ rule: 'server.input', detail: 'malformed server input at request.headers' }]
    })
    expect(Request.is({ headers: revoked() })).toBe(false)
  })
})

describe('types: what Node and Fetch hand a server type-checks where headers come in', () => {
  // Checked by `tsc --noEmit` (test/ is in tsconfig): each assignment would fail to compile if the
  // library's Headers type refused what Node or Fetch give.
  const node: IncomingHttpHeaders = { authorization: 'Bearer key-1', 'company-id': 'c-1', 'set-cookie': ['a=1'] }
  const fetchHeaders: globalThis.Headers = new globalThis.Headers({ authorization: 'Bearer key-1', 'company-id': 'c-1' })
  const fromNode: LibraryHeaders = node
  const fromFetch: LibraryHeaders = fetchHeaders
  const distinct: LibraryHeaders = { authorization: ['Bearer key-1'] } satisfies NodeJS.Dict<Array<string>>

  it('passes Node and Fetch headers to the facades as typed', () => {
    const context = (headers: IncomingHttpHeaders | globalThis.Headers): IndexContext => ({
      request: { headers, query: '' },
      session: session('member'),
      endpoint: endpoints.bankTransactions,
      records: [],
      request_id: 'req-1'
    })
    expect([respondIndex(context(node)).status, respondIndex(context(fetchHeaders)).status]).toEqual([200, 200])
    expect([headerOf(fromNode, 'company-id'), headerOf(fromFetch, 'company-id'), headerOf(distinct, 'Authorization')]).toEqual([
      'c-1',
      'c-1',
      'Bearer key-1'
    ])
  })
})
