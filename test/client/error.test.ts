import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseErrorResponse, parseHttpDate, type Problem, problem, problemReply } from '../api'

/** A reply as it travels: the body as JSON text, or empty. */
const wire = (p: Problem) => {
  const r = problemReply('req-9', [])(p)
  return { status: r.status, headers: r.headers, body: r.body === null ? '' : JSON.stringify(r.body) }
}

describe('parseErrorResponse: every row of the error table, both directions', () => {
  it.each<[string, Problem, object]>([
    [
      '400 bad_request',
      problem.badRequest('budget.body.type', 'The body is not valid JSON'),
      { kind: 'bad_request', code: 'bad_request', message: 'The body is not valid JSON' }
    ],
    ['401 empty body', problem.unauthenticated('auth.bearer', 'no key'), { kind: 'unauthorized' }],
    [
      '401 Unauthorized (401)',
      problem.guardRejected('budget.permission.update', 'x'),
      { kind: 'unauthorized', message: 'Unauthorized (401)' }
    ],
    [
      '401 email_not_verified',
      problem.emailNotVerified('auth.email_verified', 'x'),
      { kind: 'unauthorized', code: 'email_not_verified', message: 'Email address not verified' }
    ],
    ['403 empty body', problem.denied('service.guard', 'x'), { kind: 'forbidden' }],
    [
      '403 JSON with error_code',
      problem.forbidden('role.owner', 'roles/owner_required', 'Only an owner can assign the owner role'),
      { kind: 'forbidden', code: 'roles/owner_required', message: 'Only an owner can assign the owner role' }
    ],
    ['404 not_found', problem.notFound('budget.scope', 'x'), { kind: 'not_found', code: 'not_found', message: 'Not found' }],
    [
      '409 conflict',
      problem.conflict('transaction.authorize', 'The transaction is already authorized'),
      { kind: 'conflict', code: 'conflict', message: 'The transaction is already authorized' }
    ],
    [
      '412 budget update',
      problem.preconditionFailed('budget.body.wrapper', 'x'),
      { kind: 'precondition_failed', message: 'The request body must hold the budget under the key "budget"' }
    ],
    [
      '416 page size',
      problem.rangeNotSatisfiable('page.size', 2500, 2000),
      { kind: 'range_not_satisfiable', message: 'Requested page size 2500 exceeds maximum of 2000' }
    ],
    [
      '422 unprocessable_entity',
      problem.invalid('budget.validation', [
        { field: 'name', messages: ["can't be blank"] },
        { field: '__proto__', messages: ['is not a field of a budget'] }
      ]),
      {
        kind: 'validation',
        field_errors: JSON.parse('{"name":["can\'t be blank"],"__proto__":["is not a field of a budget"]}') as object
      }
    ],
    [
      '429 rate_limit_exceeded',
      problem.rateLimited('service.rate_limit', 7),
      { kind: 'rate_limited', code: 'rate_limit_exceeded', message: 'Too many requests', retry_after_s: 7 }
    ],
    [
      '500 internal_error',
      problem.internalError('server.input', 'x'),
      { kind: 'server_error', code: 'internal_error', message: 'Internal server error' }
    ],
    ['502 upstream', problem.upstream('service.upstream', 502, 'x'), { kind: 'upstream', code: 'upstream_unavailable' }],
    ['503 upstream', problem.upstream('service.upstream', 503, 'x'), { kind: 'upstream', code: 'upstream_unavailable' }],
    ['504 upstream', problem.upstream('service.upstream', 504, 'x'), { kind: 'upstream', code: 'upstream_unavailable' }]
  ])('%s', (_, p, expected) => {
    const sent = wire(p)
    const parsed = parseErrorResponse(sent)
    expect(parsed).toMatchObject({ status: sent.status, request_id: 'req-9', ...expected })
    if (!('code' in expected)) expect(parsed.code).toBeUndefined()
  })
})

describe('parseErrorResponse: defensive reading', () => {
  it.each([
    ['an empty body', ''],
    ['white space', ' \n\t '],
    ['HTML from a proxy', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['truncated JSON', '{"error":"internal_err'],
    ['a JSON array', '[{"error":"x"}]'],
    ['a JSON string', '"error"'],
    ['null', null],
    ['no body at all', undefined]
  ])('reads %s as a status and nothing more', (_, body) => {
    expect(parseErrorResponse({ status: 502, headers: {}, body })).toEqual({ status: 502, kind: 'upstream' })
  })

  it("reads an object body after JSON's white space, and none after other white space JSON refuses", () => {
    const json = '{"error":"conflict","message":"The recipient is already enrolled"}'
    const read = { status: 409, kind: 'conflict', code: 'conflict', message: 'The recipient is already enrolled' }
    expect(parseErrorResponse({ status: 409, headers: {}, body: ` \r\n\t${json}` })).toEqual(read)
    expect(parseErrorResponse({ status: 409, headers: {}, body: `\u00a0${json}` })).toEqual({ status: 409, kind: 'conflict' })
    expect(parseErrorResponse({ status: 409, headers: {}, body: `\ufeff${json}` })).toEqual({ status: 409, kind: 'conflict' })
  })

  it('reads a body of several MB', () => {
    const body = JSON.stringify({ error: 'bad_request', message: 'x'.repeat(5_000_000) })
    expect(parseErrorResponse({ status: 400, headers: {}, body }).code).toBe('bad_request')
  })

  it('reads headers in any case and repeated, and drops disagreeing repeats', () => {
    expect(parseErrorResponse({ status: 500, headers: { 'x-REQUEST-id': ['r-1', 'r-1'] }, body: '' }).request_id).toBe('r-1')
    expect(
      parseErrorResponse({ status: 500, headers: { 'X-Request-Id': 'r-1', 'x-request-id': 'r-2' }, body: '' }).request_id
    ).toBeUndefined()
  })

  it('reads a field error given as one string, and keeps a field whose errors are of the wrong type with none', () => {
    expect(
      parseErrorResponse({ status: 422, body: '{"errors":{"name":"can\'t be blank","age":5,"rut":["is invalid",7]}}' })
    ).toEqual({
      status: 422,
      kind: 'validation',
      field_errors: { name: ["can't be blank"], age: [], rut: ['is invalid'] }
    })
  })

  it('prefers error_code to error, and ignores fields of the wrong type', () => {
    expect(parseErrorResponse({ status: 403, body: '{"error_code":"bank_keys/kyc_incomplete","error":"forbidden"}' }).code).toBe(
      'bank_keys/kyc_incomplete'
    )
    expect(parseErrorResponse({ status: 403, body: '{"error":5,"message":["x"]}' })).toEqual({ status: 403, kind: 'forbidden' })
  })

  it('lets a Retry-After header win over retry_after, and reads an HTTP-date against the Date header', () => {
    expect(parseErrorResponse({ status: 429, headers: { 'Retry-After': '3' }, body: '{"retry_after":9}' }).retry_after_s).toBe(3)
    expect(parseErrorResponse({ status: 429, headers: { 'Retry-After': 'soon' }, body: '{"retry_after":9}' }).retry_after_s).toBe(
      9
    )
    const headers = { 'Retry-After': 'Sun, 22 Nov 2026 10:00:30 GMT', Date: 'Sun, 22 Nov 2026 10:00:00 GMT' }
    expect(parseErrorResponse({ status: 429, headers, body: '' }).retry_after_s).toBe(30)
  })

  it('calls statuses outside the table unexpected', () => {
    expect([200, 301, 418, 501, 505, -1].map((status) => parseErrorResponse({ status }).kind)).toEqual(
      Array(6).fill('unexpected')
    )
  })

  it('never throws on any status, headers and body', () => {
    const headers = fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.constantFrom('Retry-After', 'retry-after', 'X-Request-Id', 'Date', '__proto__', 'constructor'),
        fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(null))
      )
    )
    const body = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.json(),
      fc.json().map((j) => j.slice(0, Math.floor(j.length / 2)))
    )
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.anything()), headers, body, (status, h, b) => {
        const parsed = parseErrorResponse({ status, headers: h, body: b })
        expect(typeof parsed.kind).toBe('string')
      }),
      { numRuns: 3000 }
    )
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom')
        }
      }
    )
    expect(parseErrorResponse(hostile as never)).toEqual({ status: 0, kind: 'unexpected' })
  })
})

describe('parseHttpDate', () => {
  it('reads the three forms of RFC 9110', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(784111777)
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(784111777)
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(784111777)
    expect([parseHttpDate('tomorrow'), parseHttpDate('Sun, 31 Feb 2026 00:00:00 GMT')]).toEqual([null, null])
  })

  it('agrees with toUTCString for every second from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (s) => {
        expect(parseHttpDate(new Date(s * 1000).toUTCString())).toBe(s)
      })
    )
  })
})
