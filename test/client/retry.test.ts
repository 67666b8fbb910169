import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { retryDecision } from '../api'

const base = { headers: {}, attempt: 0, random: 0.5 }

describe('retryDecision', () => {
  it.each([
    ['Retry-After in seconds', { 'Retry-After': '7' }, undefined, 7000],
    ['no Retry-After', {}, undefined, 1000],
    ['an unreadable Retry-After', { 'retry-after': 'later' }, undefined, 1000],
    ['a negative Retry-After', { 'retry-after': '-5' }, undefined, 1000],
    ['an HTTP-date measured from now', { 'Retry-After': 'Sun, 22 Nov 2026 10:00:12 GMT' }, '2026-11-22T10:00:00Z', 12000],
    [
      'an HTTP-date measured from the Date header',
      { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT', Date: 'Sun, 22 Nov 2026 10:00:00 GMT' },
      undefined,
      5000
    ],
    ['an HTTP-date already past', { 'Retry-After': 'Sun, 22 Nov 2026 09:00:00 GMT' }, '2026-11-22T10:00:00Z', 0],
    ['an HTTP-date with nothing to measure from', { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT' }, undefined, 1000]
  ])('waits on 429 for %s', (_, headers, now, delay) => {
    expect(retryDecision({ ...base, method: 'POST', status: 429, headers, ...(now === undefined ? {} : { now }) })).toEqual({
      retry: true,
      delay_ms: delay
    })
  })

  it('does not retry a 429 whose wait is past max_retry_after_s', () => {
    expect(retryDecision({ ...base, method: 'GET', status: 429, headers: { 'Retry-After': '61' } })).toEqual({ retry: false })
    expect(
      retryDecision({ ...base, method: 'GET', status: 429, headers: { 'Retry-After': '61' }, max_retry_after_s: 120 })
    ).toEqual({ retry: true, delay_ms: 61000 })
    expect(retryDecision({ ...base, method: 'GET', status: 429, headers: { 'Retry-After': '99999999999' } })).toEqual({
      retry: false
    })
  })

  it('backs off exponentially with full jitter on 5xx for idempotent methods', () => {
    const delays = [0, 1, 2, 3, 4].map((attempt) =>
      retryDecision({ method: 'GET', status: 503, headers: {}, attempt, random: 0.999 })
    )
    expect(delays).toEqual([499, 999, 1998, 3996, 7992].map((delay_ms) => ({ retry: true, delay_ms })))
    expect(retryDecision({ method: 'DELETE', status: 500, headers: {}, attempt: 0, random: 0 })).toEqual({
      retry: true,
      delay_ms: 0
    })
    // RFC 9110: methods are case-sensitive; `delete` is an unknown method, never retried on 5xx.
    expect(retryDecision({ method: 'delete', status: 500, headers: {}, attempt: 0, random: 0 })).toEqual({ retry: false })
  })

  it('never retries a POST on 5xx, so money never moves twice', () => {
    for (const status of [500, 502, 503, 504])
      expect(retryDecision({ ...base, method: 'POST', status })).toEqual({ retry: false })
  })

  it('stops after 5 retries, and never retries other statuses', () => {
    expect(retryDecision({ ...base, method: 'GET', status: 503, attempt: 5 })).toEqual({ retry: false })
    expect(retryDecision({ ...base, method: 'GET', status: 429, attempt: 5 })).toEqual({ retry: false })
    for (const status of [200, 400, 401, 403, 404, 409, 412, 416, 422, 501])
      expect(retryDecision({ ...base, method: 'GET', status })).toEqual({ retry: false })
  })

  const method = fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'get', 'post')
  const status = fc.oneof(fc.constantFrom(429, 500, 502, 503, 504), fc.integer({ min: 100, max: 599 }))
  const random = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
  const headers = fc.record({ 'Retry-After': fc.oneof(fc.nat({ max: 200 }).map(String), fc.string()) }, { requiredKeys: [] })

  it('keeps every delay within [0, cap]', () => {
    fc.assert(
      fc.property(method, status, headers, fc.integer({ min: -2, max: 8 }), random, (m, s, h, attempt, r) => {
        const d = retryDecision({ method: m, status: s, headers: h, attempt, random: r })
        if (!d.retry) return
        expect(d.delay_ms).toBeGreaterThanOrEqual(0)
        // A 429, and a 503 with readable delta-seconds, wait Retry-After; the rest back off.
        const waits = s === 429 || (s === 503 && /^[0-9]+$/.test((h['Retry-After'] ?? '').trim()))
        expect(d.delay_ms).toBeLessThanOrEqual(waits ? 60_000 : Math.min(8000, 500 * 2 ** attempt))
      })
    )
  })

  it('grows with the attempt until the cap, for a fixed random', () => {
    fc.assert(
      fc.property(fc.constantFrom(500, 502, 503, 504), random, fc.integer({ min: 0, max: 3 }), (s, r, attempt) => {
        const a = retryDecision({ method: 'GET', status: s, headers: {}, attempt, random: r })
        const b = retryDecision({ method: 'GET', status: s, headers: {}, attempt: attempt + 1, random: r })
        expect(a.retry && b.retry && b.delay_ms >= a.delay_ms).toBe(true)
      })
    )
  })

  it('is never positive for a POST except on 429', () => {
    fc.assert(
      fc.property(status, headers, fc.integer({ min: 0, max: 4 }), random, (s, h, attempt, r) => {
        const d = retryDecision({ method: 'POST', status: s, headers: h, attempt, random: r })
        if (s !== 429) expect(d).toEqual({ retry: false })
      })
    )
  })

  it('does not retry when the input itself throws on reading', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom')
        }
      }
    )
    expect(retryDecision(hostile as never)).toEqual({ retry: false })
  })

  it('never throws on junk', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (m, s, h, r) => {
        const d = retryDecision({ method: m, status: s, headers: h, attempt: r, random: r } as never)
        expect(typeof d.retry).toBe('boolean')
      })
    )
  })
})
