import { describe, expect, it } from 'vitest'
import { parseErrorResponse, retryAfterSeconds } from '../api'

// and the error table of spec section 6, at the edges of what a reply may hold:
// each expected value is the whole parsed problem, written out.
describe('parseErrorResponse at the edges', () => {
  it('reads a body already parsed into an object as the text would be read', () => {
    expect(
      parseErrorResponse({ status: 400, body: { error: 'bad_request', message: 'The body is not valid JSON' } })
    ).toStrictEqual({
      status: 400,
      kind: 'bad_request',
      code: 'bad_request',
      message: 'The body is not valid JSON'
    })
  })

  it.each<[string, unknown]>([
    ['a number', 5],
    ['JSON null as text', 'null'],
    ['a JSON string as text', '"Not found"'],
    ['a JSON array as text', '[{"error":"not_found"}]']
  ])('reads no problem fields from a body that is not an object: %s', (_, body) => {
    expect(parseErrorResponse({ status: 404, body })).toStrictEqual({ status: 404, kind: 'not_found' })
  })

  it.each<[string, unknown]>([
    ['a fraction', 404.5],
    ['NaN', Number.NaN],
    ['a numeric string', '404']
  ])('reads a status that is not a whole number (%s) as 0, unexpected', (_, status) => {
    expect(parseErrorResponse({ status, headers: {}, body: '' })).toStrictEqual({ status: 0, kind: 'unexpected' })
  })

  it.each<[string, unknown, number | undefined]>([
    ['0 seconds', 0, 0],
    ['12 seconds', 12, 12],
    ['a negative number', -1, undefined],
    ['a fraction', 1.5, undefined],
    ['a numeric string', '5', undefined],
    ['a number past the safe integers', 2 ** 53, undefined]
  ])('takes retry_after from the body only as whole seconds from 0: %s', (_, retry_after, seconds) => {
    const body = JSON.stringify({ error: 'rate_limited', message: 'Slow down', retry_after })
    expect(parseErrorResponse({ status: 429, headers: {}, body })).toStrictEqual({
      status: 429,
      kind: 'rate_limited',
      code: 'rate_limited',
      message: 'Slow down',
      ...(seconds === undefined ? {} : { retry_after_s: seconds })
    })
  })

  it('has no request_id key at all when the reply has no X-Request-Id', () => {
    const parsed = parseErrorResponse({ status: 500, headers: { 'content-type': 'application/json' }, body: '' })
    expect(Object.keys(parsed)).toEqual(['status', 'kind'])
  })
})

describe('retryAfterSeconds at the edges', () => {
  it('reads text that is neither delta-seconds nor an HTTP-date as nothing, even with a clock', () => {
    expect([retryAfterSeconds('soon', 784111770), retryAfterSeconds('-5', 784111770), retryAfterSeconds('', 0)]).toEqual([
      undefined,
      undefined,
      undefined
    ])
  })
})
