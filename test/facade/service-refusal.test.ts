import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseErrorResponse, respondServiceRefusal } from '../api'
import { runs } from '../runs'

const JSON_HEADERS = { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' }

describe('respondServiceRefusal: what the server refuses on its own account', () => {
  it('is a 429 with Retry-After and retry_after when the rate limiter tripped (R-50, R-55)', () => {
    expect(respondServiceRefusal({ refusal: { kind: 'rate_limited', retry_after_s: 0 }, request_id: 'req-1' })).toStrictEqual({
      status: 429,
      headers: { 'Retry-After': '0', ...JSON_HEADERS },
      body: { error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 0 },
      reasons: [{ rule: 'service.rate_limit', detail: 'retry after 0 s' }]
    })
  })

  it.each([502, 503, 504] as const)('is a %i upstream_unavailable when a banking partner failed', (status) => {
    expect(respondServiceRefusal({ refusal: { kind: 'upstream', status }, request_id: 'req-1' })).toStrictEqual({
      status,
      headers: JSON_HEADERS,
      body: { error: 'upstream_unavailable', message: 'A banking partner is temporarily unavailable; retry with backoff' },
      reasons: [{ rule: 'service.upstream', detail: `a banking partner failed (${status})` }]
    })
  })

  it('is a 403 with an empty body when a guard of the server denied', () => {
    expect(respondServiceRefusal({ refusal: { kind: 'denied' }, request_id: 'req-1' })).toStrictEqual({
      status: 403,
      headers: { 'X-Request-Id': 'req-1' },
      body: null,
      reasons: [{ rule: 'service.guard', detail: 'denied by a guard of the server' }]
    })
  })

  it.each<[string, unknown, string]>([
    [
      'seconds that are not whole',
      { kind: 'rate_limited', retry_after_s: 1.5 },
      'Internal server error: refusal.retry_after_s is 1.5, not a whole number of seconds (0 or more)'
    ],
    [
      'negative seconds',
      { kind: 'rate_limited', retry_after_s: -3 },
      'Internal server error: refusal.retry_after_s is -3, not a whole number of seconds (0 or more)'
    ],
    [
      'NaN seconds',
      { kind: 'rate_limited', retry_after_s: Number.NaN },
      'Internal server error: refusal.retry_after_s is NaN, not a whole number of seconds (0 or more)'
    ],
    [
      'a 500 as upstream',
      { kind: 'upstream', status: 500 },
      'Internal server error: refusal.status is 500, not 502 or 503 or 504'
    ],
    // Each kind's shape, as the codec names them: no kind is the one the server meant.
    [
      'an unknown kind',
      { kind: 'teapot' },
      'Internal server error: refusal is an object, not ({ kind: "rate_limited", retry_after_s: WholeSeconds } | { kind: "upstream", status: (502 | 503 | 504) } | { kind: "denied" })'
    ],
    [
      'no refusal',
      undefined,
      'Internal server error: refusal is undefined, not ({ kind: "rate_limited", retry_after_s: WholeSeconds } | { kind: "upstream", status: (502 | 503 | 504) } | { kind: "denied" })'
    ]
  ])('is a 500 for %s: malformed server input, never an exception', (_, refusal, message) => {
    const r = respondServiceRefusal({ refusal, request_id: 'req-1' } as never)
    expect([r.status, r.body, r.reasons.map((x) => x.rule)]).toStrictEqual([
      500,
      { error: 'internal_error', message },
      ['server.input']
    ])
  })

  it('gives replies a client reads back as the kind it was built as', () => {
    let reached = 0
    fc.assert(
      fc.property(
        fc.oneof(
          fc.nat({ max: 86_400 }).map((retry_after_s) => ({ kind: 'rate_limited' as const, retry_after_s })),
          fc.constantFrom(502, 503, 504).map((status) => ({ kind: 'upstream' as const, status })),
          fc.constant({ kind: 'denied' as const })
        ),
        (refusal) => {
          const r = respondServiceRefusal({ refusal, request_id: 'req-7' })
          const read = parseErrorResponse({
            status: r.status,
            headers: r.headers,
            body: r.body === null ? '' : JSON.stringify(r.body)
          })
          const expected =
            refusal.kind === 'rate_limited'
              ? {
                  status: 429,
                  kind: 'rate_limited',
                  code: 'rate_limit_exceeded',
                  message: 'Too many requests',
                  request_id: 'req-7',
                  retry_after_s: refusal.retry_after_s
                }
              : refusal.kind === 'upstream'
                ? {
                    status: refusal.status,
                    kind: 'upstream',
                    code: 'upstream_unavailable',
                    message: 'A banking partner is temporarily unavailable; retry with backoff',
                    request_id: 'req-7'
                  }
                : { status: 403, kind: 'forbidden', request_id: 'req-7' }
          expect(read).toStrictEqual(expected)
          reached++
        }
      ),
      { numRuns: runs(200) }
    )
    expect(reached).toBe(runs(200))
  })
})
