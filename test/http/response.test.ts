import { describe, expect, it } from 'vitest'
import { toResponse } from '../../src/http/response'

const JSON_TYPE = 'application/json; charset=utf-8'

describe('toResponse: a reply as a Web Response (R-106)', () => {
  it('gives the status, every header and the body as JSON text', async () => {
    const body = { errors: { name: ['can’t be blank'], amount_cents: ['must be greater than 0'] } }
    const response = toResponse({
      status: 422,
      headers: { 'X-Request-Id': 'req-7', 'Content-Type': JSON_TYPE, 'Retry-After': '3' },
      body,
      reasons: [{ rule: 'budget.validation', detail: 'name' }]
    })
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(422)
    expect([...response.headers]).toEqual([
      ['content-type', JSON_TYPE],
      ['retry-after', '3'],
      ['x-request-id', 'req-7']
    ])
    const text = await response.text()
    expect(text).toBe('{"errors":{"name":["can’t be blank"],"amount_cents":["must be greater than 0"]}}')
    expect(JSON.parse(text)).toEqual(body)
  })

  it('gives an empty body for a null body, whatever the status (a 204 takes no body at all)', async () => {
    for (const status of [204, 401, 403]) {
      const response = toResponse({ status, headers: { 'X-Request-Id': 'req-1' }, body: null, reasons: [] })
      expect([response.status, response.body, [...response.headers], await response.text()]).toEqual([
        status,
        null,
        [['x-request-id', 'req-1']],
        ''
      ])
    }
  })

  it('writes a bare array, a string and zero as JSON, never as an empty body', async () => {
    const texts = await Promise.all(
      [[], 'ok', 0, false].map((body) => toResponse({ status: 200, headers: {}, body, reasons: [] }).text())
    )
    expect(texts).toEqual(['[]', '"ok"', '0', 'false'])
  })

  it('throws a TypeError naming a reply it cannot send (R-19): no reply, a status outside HTTP’s, a header HTTP cannot carry, a body on a 204', () => {
    const replies: ReadonlyArray<unknown> = [
      null,
      undefined,
      'ok',
      { status: 200, body: null },
      { status: 200, headers: 'x-a: b', body: null },
      { status: 200, headers: {} },
      { status: 199, headers: {}, body: null },
      { status: 600, headers: {}, body: null },
      { status: 200.5, headers: {}, body: null },
      { status: 200, headers: null, body: null },
      // An array the Response would take as its header pairs: none here, so it was sent bare.
      { status: 200, headers: [], body: null },
      { status: 200, headers: { 'a b': 'c' }, body: null },
      { status: 200, headers: { a: 'line\nbreak' }, body: null },
      { status: 204, headers: {}, body: { a: 1 } },
      { status: 200, headers: {}, body: 1n }
    ]
    const thrown = replies.map((reply) => {
      try {
        toResponse(reply as never)
        return 'returned'
      } catch (e) {
        return [e instanceof TypeError, (e as Error).message]
      }
    })
    const expected = (value: string) => [
      true,
      `toResponse: reply is ${value}, not a reply: a status from 200 to 599, headers of HTTP names and values, a JSON body (null for 204, 205 and 304)`
    ]
    expect(thrown).toEqual([
      expected('null'),
      expected('undefined'),
      expected('"ok"'),
      ...replies.slice(3).map(() => expected('an object'))
    ])
  })

  it('takes every status from 200 to 599, the ends included', () => {
    expect([200, 599].map((status) => toResponse({ status, headers: {}, body: null }).status)).toEqual([200, 599])
  })
})
