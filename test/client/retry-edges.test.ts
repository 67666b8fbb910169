import { describe, expect, it } from 'vitest'
import { retryDecision } from '../api'

// full jitter, floor(random * min(8000, 500 * 2^attempt)) ms, on an idempotent method's 5xx.
describe('retryDecision at the edges of its inputs', () => {
  it('keeps the delay under the cap when random is 1 (random is read in [0, 1))', () => {
    expect(retryDecision({ method: 'GET', status: 502, headers: {}, attempt: 0, random: 1 })).toEqual({
      retry: true,
      delay_ms: 499
    })
  })

  it.each<[string, number]>([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY]
  ])('reads an attempt of %s as the last one allowed: no retry', (_, attempt) => {
    expect(retryDecision({ method: 'GET', status: 502, headers: {}, attempt, random: 0.5 })).toEqual({ retry: false })
  })
})
