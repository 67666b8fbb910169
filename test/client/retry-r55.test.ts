/**
 * R-55: methods compared exactly, a 503's Retry-After honoured, no delay past what a timer holds,
 * and a 429 built by the library always carrying whole seconds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseErrorResponse, problem, problemReply, type RetryDecision, retryDecision } from '../api'
import { runs } from '../runs'
import { thrown } from '../thrown'

/** The longest delay `setTimeout` holds: 2^31 - 1 ms (about 24.8 days). */
const TIMER_MAX_MS = 2_147_483_647
const NO: RetryDecision = { retry: false }
const base = { headers: {}, attempt: 1, random: 0.5 }

describe('retryDecision: methods are compared exactly (RFC 9110)', () => {
  const statuses = [500, 502, 503, 504]

  it.each(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'])('retries %s on every 5xx of the table', (method) => {
    // floor(0.5 * min(8000, 500 * 2^1)) = 500
    expect(statuses.map((status) => retryDecision({ ...base, method, status }))).toEqual(
      Array(4).fill({ retry: true, delay_ms: 500 })
    )
  })

  it.each([
    'get',
    'Get',
    'delete',
    'patch',
    'head',
    'POST',
    'post',
    'CONNECT',
    'TRACE',
    'PURGE',
    'PROPFIND',
    '',
    ' GET',
    'GET ',
    'GET\n'
  ])('never retries %j on 5xx', (method) => {
    expect(statuses.map((status) => retryDecision({ ...base, method, status }))).toEqual(Array(4).fill(NO))
  })

  it.each(['get', 'POST', 'PURGE', ''])('still retries %j on 429, where the server did not act', (method) => {
    expect(retryDecision({ ...base, method, status: 429 })).toEqual({ retry: true, delay_ms: 1000 })
  })
})

describe('retryDecision: a 503 with Retry-After waits Retry-After', () => {
  it.each<[string, Record<string, string>, { now?: string; max_retry_after_s?: number }, RetryDecision]>([
    ['delta-seconds', { 'Retry-After': '7' }, {}, { retry: true, delay_ms: 7000 }],
    ['zero seconds', { 'retry-after': '0' }, {}, { retry: true, delay_ms: 0 }],
    ['the cap exactly', { 'Retry-After': '60' }, {}, { retry: true, delay_ms: 60_000 }],
    ['past the cap', { 'Retry-After': '61' }, {}, NO],
    [
      'past the default cap, under a raised one',
      { 'Retry-After': '61' },
      { max_retry_after_s: 120 },
      { retry: true, delay_ms: 61_000 }
    ],
    ['past a lowered cap', { 'Retry-After': '7' }, { max_retry_after_s: 5 }, NO],
    ['digits too many to be exact', { 'Retry-After': '99999999999999999999' }, {}, NO],
    [
      'an HTTP-date measured from now',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:12 GMT' },
      { now: '2026-11-22T10:00:00Z' },
      { retry: true, delay_ms: 12_000 }
    ],
    [
      'an HTTP-date measured from the Date header',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT', Date: 'Sun, 22 Nov 2026 10:00:00 GMT' },
      {},
      { retry: true, delay_ms: 5000 }
    ],
    [
      'an HTTP-date already past',
      { 'Retry-After': 'Sun, 22 Nov 2026 09:00:00 GMT' },
      { now: '2026-11-22T10:00:00Z' },
      { retry: true, delay_ms: 0 }
    ],
    ['an HTTP-date past the cap', { 'Retry-After': 'Sun, 22 Nov 2026 10:01:01 GMT' }, { now: '2026-11-22T10:00:00Z' }, NO],
    // Nothing readable to wait: the 5xx backoff, floor(0.5 * min(8000, 500 * 2^1)) = 500.
    ['an unreadable value (backoff)', { 'Retry-After': 'later' }, {}, { retry: true, delay_ms: 500 }],
    ['a negative value (backoff)', { 'Retry-After': '-5' }, {}, { retry: true, delay_ms: 500 }],
    [
      'an HTTP-date with nothing to measure from (backoff)',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT' },
      {},
      { retry: true, delay_ms: 500 }
    ],
    [
      'an HTTP-date and an unreadable Date header (backoff)',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT', Date: 'yesterday' },
      {},
      { retry: true, delay_ms: 500 }
    ],
    [
      'an HTTP-date and an unreadable now, measured from the Date header',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT', Date: 'Sun, 22 Nov 2026 10:00:00 GMT' },
      { now: 'soon' },
      { retry: true, delay_ms: 5000 }
    ]
  ])('GET 503 with %s', (_, headers, extra, expected) => {
    expect(retryDecision({ ...base, method: 'GET', status: 503, headers, ...extra })).toEqual(expected)
  })

  it('reads it from a Fetch Headers object too', () => {
    expect(retryDecision({ ...base, method: 'PUT', status: 503, headers: new Headers({ 'Retry-After': '9' }) })).toEqual({
      retry: true,
      delay_ms: 9000
    })
  })

  it('never retries a POST on 503, Retry-After or not, so money never moves twice', () => {
    expect(retryDecision({ ...base, method: 'POST', status: 503, headers: { 'Retry-After': '1' } })).toEqual(NO)
  })

  it('keeps the backoff on 500, 502 and 504 (Retry-After is a 503 and 429 header)', () => {
    for (const status of [500, 502, 504]) {
      expect(retryDecision({ ...base, method: 'GET', status, headers: { 'Retry-After': '7' } })).toEqual({
        retry: true,
        delay_ms: 500
      })
    }
  })

  it('still stops after 5 retries', () => {
    expect(retryDecision({ ...base, method: 'GET', status: 503, headers: { 'Retry-After': '1' }, attempt: 5 })).toEqual(NO)
  })
})

describe('retryDecision: no delay exceeds 2^31 - 1 ms (what setTimeout holds)', () => {
  const huge = { max_retry_after_s: 1e9 }

  it.each<[number, string, RetryDecision]>([
    [429, '2147483', { retry: true, delay_ms: 2_147_483_000 }],
    [429, '2147484', NO],
    [503, '2147483', { retry: true, delay_ms: 2_147_483_000 }],
    [503, '2147484', NO]
  ])('a %i with Retry-After %s under a cap of 1e9 s', (status, value, expected) => {
    expect(retryDecision({ ...base, ...huge, method: 'GET', status, headers: { 'Retry-After': value } })).toEqual(expected)
  })

  it('refuses an HTTP-date further than a timer holds', () => {
    // 2026-11-22T10:00:00Z + 2,147,484 s (24 d 20:31:24) = 2026-12-17T06:31:24Z
    const headers = { 'Retry-After': 'Thu, 17 Dec 2026 06:31:24 GMT' }
    expect(retryDecision({ ...base, ...huge, method: 'GET', status: 429, headers, now: '2026-11-22T10:00:00Z' })).toEqual(NO)
    const sooner = { 'Retry-After': 'Thu, 17 Dec 2026 06:31:23 GMT' }
    expect(retryDecision({ ...base, ...huge, method: 'GET', status: 429, headers: sooner, now: '2026-11-22T10:00:00Z' })).toEqual(
      {
        retry: true,
        delay_ms: 2_147_483_000
      }
    )
  })

  it('gives a whole number of ms within [0, 2^31 - 1] for any cap and Retry-After near the limit', () => {
    const counts = { within: 0, beyond: 0 }
    // By construction half the waits fit a timer (up to 2,147,483 s) and half do not, and the
    // cap never refuses first: only the timer limit decides.
    const seconds = fc.tuple(fc.boolean(), fc.nat({ max: 1000 })).map(([fits, k]) => (fits ? 2_147_483 - k : 2_147_484 + k))
    const cap = fc.oneof(fc.constantFrom(Number.MAX_VALUE, 1e9), fc.integer({ min: 2_148_484, max: 1e12 }))
    fc.assert(
      fc.property(fc.constantFrom(429, 503), seconds, cap, (status, s, max) => {
        const d = retryDecision({ ...base, method: 'GET', status, headers: { 'Retry-After': String(s) }, max_retry_after_s: max })
        if (s <= 2_147_483) {
          expect(d).toEqual({ retry: true, delay_ms: s * 1000 })
          expect(Number.isSafeInteger(s * 1000) && s * 1000 <= TIMER_MAX_MS).toBe(true)
          counts.within++
        } else {
          expect(d).toEqual(NO)
          counts.beyond++
        }
      }),
      { numRuns: runs(500) }
    )
    const total = counts.within + counts.beyond
    expect([counts.within / total >= 0.4, counts.beyond / total >= 0.4]).toEqual([true, true])
  })
})

describe('retryDecision against a plain model of R-52, R-53 and R-55', () => {
  /** The decision as the contract words it, step by step. */
  const model = (i: {
    method: string
    status: number
    retryAfter: string | undefined
    attempt: number
    random: number
    max: number | undefined
  }): RetryDecision => {
    if (i.attempt < 0 || i.attempt >= 5) return NO
    const cap = i.max ?? 60
    // A field value's surrounding white space is not part of it (RFC 9110 section 5.5).
    const value = i.retryAfter?.trim()
    const seconds = value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined
    const wait = (s: number): RetryDecision => (s <= cap && s * 1000 <= TIMER_MAX_MS ? { retry: true, delay_ms: s * 1000 } : NO)
    if (i.status === 429) return wait(seconds ?? 1)
    const idempotent = { GET: true, HEAD: true, OPTIONS: true, PUT: true, PATCH: true, DELETE: true }
    if (!(i.status === 500 || i.status === 502 || i.status === 503 || i.status === 504) || !Object.hasOwn(idempotent, i.method))
      return NO
    if (i.status === 503 && seconds !== undefined) return wait(seconds)
    const ceiling = [500, 1000, 2000, 4000, 8000][i.attempt] ?? 0
    return { retry: true, delay_ms: Math.floor(i.random * ceiling) }
  }

  it('agrees with the model, and retries in most runs', () => {
    let retried = 0
    let tried = 0
    const input = fc.record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE') },
        { weight: 2, arbitrary: fc.constantFrom('POST', 'get', 'Delete', 'CONNECT', 'TRACE', '') },
        { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }
      ),
      status: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(429, 500, 502, 503, 504) },
        { weight: 1, arbitrary: fc.integer({ min: 100, max: 599 }) }
      ),
      retryAfter: fc.option(
        fc.oneof(
          fc.nat({ max: 120 }).map(String),
          fc.constantFrom('2147483', '2147484', '99999999999', '-1', '1.5', 'soon', ' 7')
        )
      ),
      attempt: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 0, max: 4 }) },
        { weight: 1, arbitrary: fc.constantFrom(-1, 5, 6) }
      ),
      random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      // Absent (60) in half the runs; a cap of 0 now and then, which refuses every wait but 0.
      max: fc.option(
        fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 30, max: 120 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1e9) }),
        { freq: 2 }
      )
    })
    fc.assert(
      fc.property(input, (i) => {
        tried++
        const headers = i.retryAfter === null ? {} : { 'Retry-After': i.retryAfter }
        const d = retryDecision({
          method: i.method,
          status: i.status,
          headers,
          attempt: i.attempt,
          random: i.random,
          ...(i.max === null ? {} : { max_retry_after_s: i.max })
        })
        const expected = model({ ...i, retryAfter: i.retryAfter ?? undefined, max: i.max ?? undefined })
        expect(d).toEqual(expected)
        if (d.retry) retried++
      }),
      { numRuns: runs(1000) }
    )
    // About 58% of runs retry (1,000 runs: 5 standard deviations above half); at least half must.
    expect(retried / tried).toBeGreaterThanOrEqual(0.5)
  })
})

describe('problem.rateLimited: a 429 carries whole seconds >= 0 (R-55, R-19)', () => {
  it.each<[number, string]>([
    [1.5, '1.5'],
    [-3, '-3'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
    [2 ** 53, '9007199254740992'],
    [1e21, '1e+21'],
    [-0.5, '-0.5'],
    [Number.MIN_VALUE, '5e-324']
  ])('refuses %s seconds with a TypeError naming it', (seconds, shown) => {
    const e = thrown(() => problem.rateLimited('service.rate_limit', seconds))
    expect([e instanceof TypeError, (e as Error).message]).toEqual([
      true,
      `problem.rateLimited: retry_after_s must be a whole number of seconds from 0 to ${Number.MAX_SAFE_INTEGER}, not ${shown}`
    ])
  })

  it.each<[unknown, string]>([
    ['7', '"7"'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{ valueOf: () => 7 }, 'an object'],
    [7n, '7n']
  ])('refuses %s, which is not a number at all', (seconds, shown) => {
    const e = thrown(() => problem.rateLimited('service.rate_limit', seconds as never))
    expect([e instanceof TypeError, (e as Error).message]).toEqual([
      true,
      `problem.rateLimited: retry_after_s must be a whole number of seconds from 0 to ${Number.MAX_SAFE_INTEGER}, not ${shown}`
    ])
  })

  it('replies 429 with the Retry-After header, retry_after and the message', () => {
    expect(problemReply('req-1', [])(problem.rateLimited('service.rate_limit', 7))).toEqual({
      status: 429,
      headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '7' },
      body: { error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 7 },
      reasons: []
    })
    expect(problem.rateLimited('service.rate_limit', 0)).toEqual({
      _tag: 'RateLimited',
      rule: 'service.rate_limit',
      detail: 'retry after 0 s',
      retry_after_s: 0
    })
  })

  it('reads -0 as 0', () => {
    const p = problem.rateLimited('service.rate_limit', -0)
    expect([Object.is(p.retry_after_s, 0), problemReply('req-1', [])(p).headers['Retry-After']]).toEqual([true, '0'])
  })

  it('writes every accepted value as delta-seconds that read back as the same number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat({ max: 3600 }), fc.maxSafeNat()), (seconds) => {
        const r = problemReply('req-1', [])(problem.rateLimited('service.rate_limit', seconds))
        const header = r.headers['Retry-After'] ?? ''
        expect([
          /^[0-9]+$/.test(header),
          Number(header),
          parseErrorResponse({ ...r, body: JSON.stringify(r.body) }).retry_after_s
        ]).toEqual([true, seconds, seconds])
      })
    )
  })

  it('refuses every number that is not whole, or is negative', () => {
    // Every value generated is outside by construction, so every run reaches the assertion.
    const notWhole = fc.oneof(
      fc.tuple(fc.nat({ max: 1e6 }), fc.double({ min: 0.001, max: 0.999, noNaN: true })).map(([n, f]) => n + f),
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
      fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 1e300)
    )
    fc.assert(
      fc.property(notWhole, (seconds) => {
        const e = thrown(() => problem.rateLimited('service.rate_limit', seconds))
        expect([e instanceof TypeError, (e as Error).message.endsWith(`, not ${String(seconds)}`)]).toEqual([true, true])
      })
    )
  })
})
