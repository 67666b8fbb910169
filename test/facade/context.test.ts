import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { StoredObject } from '../../src/facade/context'
import { respondIndex, respondServiceRefusal } from '../../src/index'

/** The one reason of a 500 for malformed server input. */
const reasonsOf = (context: unknown): unknown => respondIndex(context as never).reasons

describe('StoredObject: what a server may hand as a stored record', () => {
  it('takes objects and functions, not null nor primitives', () => {
    const f = (): number => 0
    expect([{}, new Map(), f].map((u) => [StoredObject.is(u), either.isRight(StoredObject.decode(u))])).toEqual([
      [true, true],
      [true, true],
      [true, true]
    ])
    expect([null, undefined, 'x', 0].map((u) => [StoredObject.is(u), either.isRight(StoredObject.decode(u))])).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [false, false]
    ])
  })
})

// Contract preamble: malformed server input is a 500 whose reason names where it is malformed.
describe('a malformed context, as a facade reports it', () => {
  it('names the first five malformed paths, joined by commas, list indexes left out', () => {
    // Six paths are malformed: request.headers (header "12", an index-like key, is a number),
    // request.query, session.user, session.memberships, endpoint, records.
    expect(reasonsOf({ request_id: 'r', session: {}, request: { headers: { '12': 5 }, query: 5 } })).toEqual([
      {
        rule: 'server.input',
        detail: 'malformed server input at request.headers, request.query, session.user, session.memberships, endpoint'
      }
    ])
  })

  it('keeps a key that only starts with digits', () => {
    expect(reasonsOf({ request_id: 'r', session: {}, request: { headers: { '1x': 5 } }, records: [] })).toEqual([
      {
        rule: 'server.input',
        detail: 'malformed server input at request.headers.1x, session.user, session.memberships, endpoint'
      }
    ])
  })

  it('echoes a request id only from an object: a function holding one is no context', () => {
    const context = Object.assign(() => 0, { request_id: 'req-f', refusal: { kind: 'denied' } })
    const reply = respondServiceRefusal(context as never)
    expect([reply.status, reply.headers['X-Request-Id'], reply.reasons]).toEqual([
      500,
      '',
      [{ rule: 'server.input', detail: 'malformed server input at ' }]
    ])
  })
})
