/**
 * Index endpoints (contract section 8): records, raw query strings valid and invalid, and the
 * error replies a client may be handed (section 9).
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import { dayNumber, fromDayNumber } from '../calendar/date'
import type { Endpoint, FieldType } from '../paging/endpoint'

// -------------------------------------------------------------------------------------
// instants
// -------------------------------------------------------------------------------------

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

const DAY_S = 86_400

/** `HH:MM:SS` of a second of the day. */
const clock = (s: number): string => `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`

/**
 * The instant `seconds` after 1970-01-01T00:00:00Z, spelt one way: `Z`, `.000Z`, `.5Z`-style
 * fractions of whole milliseconds, or at an offset (`-03:00`, `+05:30`: the same moment as local
 * time there).
 */
const spell = (seconds: number, millis: number, spelling: 'Z' | 'ms' | 'offset', offsetMinutes: number): string => {
  const local = spelling === 'offset' ? seconds + offsetMinutes * 60 : seconds
  const date = fromDayNumber(Math.floor(local / DAY_S)) as string
  const time = clock(((local % DAY_S) + DAY_S) % DAY_S)
  if (spelling === 'Z') return `${date}T${time}Z`
  if (spelling === 'ms') return `${date}T${time}.${pad(millis, 3)}Z`
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

const EPOCH_2020 = dayNumber(2020, 1, 1) * DAY_S
const EPOCH_2030 = dayNumber(2030, 1, 1) * DAY_S
/** Two moments of 2026-11-22, 10:00:00Z and 10:01:00Z, so that ties are common. */
const TIES = [dayNumber(2026, 11, 22) * DAY_S + 36_000, dayNumber(2026, 11, 22) * DAY_S + 36_060]

/**
 * An instant of 2020..2029 in one of the spellings a database or a client may use (whole
 * seconds or milliseconds, `Z` or an offset); equal moments in different spellings are common.
 */
export const instant: fc.Arbitrary<string> = fc
  .record({
    seconds: fc.oneof(fc.constantFrom(...TIES), fc.integer({ min: EPOCH_2020, max: EPOCH_2030 })),
    millis: fc.integer({ min: 0, max: 999 }),
    spelling: fc.constantFrom('Z' as const, 'ms' as const, 'offset' as const),
    offset: fc.integer({ min: -12 * 4, max: 14 * 4 }).map((q) => q * 15)
  })
  .map(({ seconds, millis, spelling, offset }) => spell(seconds, spelling === 'ms' ? millis : 0, spelling, offset))

// -------------------------------------------------------------------------------------
// records
// -------------------------------------------------------------------------------------

const valueOf = (type: FieldType): fc.Arbitrary<unknown> =>
  type.nullable === true ? fc.option(valueOfType(type), { nil: null, freq: 4 }) : valueOfType(type)

const valueOfType = (type: FieldType): fc.Arbitrary<unknown> => {
  switch (type.type) {
    case 'integer':
      return fc.oneof(fc.constantFrom(0, 800, 1200), fc.integer({ min: -1_000_000, max: 10_000_000 }))
    case 'instant':
      return instant
    case 'enum':
      return fc.constantFrom(...type.values)
    case 'id':
      return fc.integer({ min: 1, max: 999 }).map((n) => `tx-${pad(n, 3)}`)
    case 'string':
      return fc.stringMatching(/^[a-z]{1,12}$/)
    case 'json':
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/**
 * A record of the endpoint: one value for each of its fields, typed as the endpoint says
 * (integers small or tying, instants in several spellings, ids `tx-001`..`tx-999`, which sort
 * the same in any collation).
 *
 * @example
 * import { record } from 'budget-rules/arbitraries'
 * import { endpoints } from 'budget-rules'
 * import { sample } from 'fast-check'
 *
 * sample(record(endpoints.bankTransactions), { numRuns: 20, seed: 1 }).every((r) => ['authorized', 'pending'].includes(r.status))
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const record = (endpoint: Endpoint): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(Object.fromEntries(Object.entries(endpoint.fields).map(([name, type]) => [name, valueOf(type)])))

/** Up to `maxLength` records of the endpoint with distinct ids (a store's primary key). */
export const records = (endpoint: Endpoint, maxLength = 12): fc.Arbitrary<Array<Record<string, unknown>>> =>
  fc.uniqueArray(record(endpoint), { maxLength, selector: (r) => r.id })

// -------------------------------------------------------------------------------------
// queries
// -------------------------------------------------------------------------------------

type Parameter = readonly [key: string, value: string]

/** `encodeURIComponent`, or the text as is when it needs no escape (both spellings occur). */
const encode = (s: string, raw: boolean): string => (raw && /^[\w.:\-[\]$]*$/.test(s) ? s : encodeURIComponent(s))

const join = (parameters: ReadonlyArray<Parameter>, raw: boolean): string =>
  parameters.map(([k, v]) => `${encode(k, raw)}=${encode(v, raw)}`).join('&')

const window: fc.Arbitrary<ReadonlyArray<Parameter>> = fc.oneof(
  fc.constant<ReadonlyArray<Parameter>>([]),
  fc
    .record({
      start: fc.integer({ min: 0, max: 30 }),
      size: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constantFrom(2000, 2001, 5000))
    })
    .map(({ start, size }): ReadonlyArray<Parameter> => [
      ['_start', String(start)],
      ['_end', String(start + size)]
    ]),
  fc.integer({ min: 0, max: 30 }).map((end): ReadonlyArray<Parameter> => [['_end', String(end)]])
)

const filterValue = (type: FieldType): fc.Arbitrary<string> =>
  type.type === 'integer' ? fc.integer({ min: -1000, max: 5000 }).map(String) : valueOfType(type).map(String)

const ordered = (type: FieldType): boolean => type.type === 'integer' || type.type === 'instant'

/** A filter the endpoint accepts: `field=value`, `field[$op]=value`, `$in`/`$nin` lists. */
const filter = (endpoint: Endpoint): fc.Arbitrary<Parameter> =>
  fc.constantFrom(...Object.keys(endpoint.fields).filter((f) => endpoint.fields[f]?.type !== 'json')).chain((field) => {
    const type = endpoint.fields[field] as FieldType
    const ops = ['$eq', '$ne', ...(ordered(type) ? ['$gt', '$gte', '$lt', '$lte'] : [])]
    const value = filterValue(type)
    return fc.oneof(
      value.map((v): Parameter => [field, v]),
      fc.tuple(fc.constantFrom(...ops), value).map(([op, v]): Parameter => [`${field}[${op}]`, v]),
      fc
        .tuple(fc.constantFrom('$in', '$nin'), fc.array(value, { maxLength: 4 }))
        .map(([op, vs]): Parameter => [`${field}[${op}]`, JSON.stringify(type.type === 'integer' ? vs.map(Number) : vs)])
    )
  })

const validParameters = (endpoint: Endpoint): fc.Arbitrary<ReadonlyArray<Parameter>> =>
  fc
    .record({
      window,
      field: fc.option(fc.constantFrom(...endpoint.sortable), { nil: undefined }),
      order: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
      filters: fc.uniqueArray(filter(endpoint), { maxLength: 2, selector: ([k]) => k })
    })
    .map(({ window, field, order, filters }) => [
      ...window,
      ...(field === undefined ? [] : [['_field', field] as const]),
      ...(order === undefined ? [] : [['_order', endpoint.orderCase === 'upper' ? order.toUpperCase() : order] as const]),
      ...filters
    ])

/** Text that breaks one rule of section 8 (400), appended to a valid query. */
const invalidPart = (endpoint: Endpoint): fc.Arbitrary<string> => {
  const [field] = Object.keys(endpoint.fields)
  const otherCase = endpoint.orderCase === 'upper' ? 'desc' : 'DESC'
  return fc.constantFrom(
    '_start=-1&_end=5',
    '_start=abc',
    '_start=5&_end=2',
    '_start=1.5&_end=3',
    '_end=0x10',
    '_end=1&_end=2',
    `_order=${otherCase}`,
    '_field=nope',
    '_limit=10',
    'nope=1',
    `${field ?? 'id'}[$regex]=1`,
    '__proto__=1',
    'constructor[$eq]=1',
    'amount[$gt]=abc',
    'amount=1e3',
    'status[$gt]=pending',
    'status=unknown',
    'created_at[$gte]=2026-11-22',
    'created_at[$gte]=2026-11-22T10:00:00',
    'amount[$in]=1,2',
    `amount[$in]=${encodeURIComponent(JSON.stringify(Array.from({ length: 501 }, (_, i) => i)))}`,
    'id=%zz',
    'id=%',
    'id=%E0%A4%A',
    Array.from({ length: 101 }, (_, i) => `x${i}=1`).join('&')
  )
}

/**
 * A raw query string (without `?`) for the endpoint: in about three runs of four a valid one
 * (window `_start`/`_end` or `_end` alone, `_field`, `_order` in the endpoint's case, up to two
 * filters of every operator, `$in`/`$nin` lists, values escaped or not, the window sometimes
 * over 2000 records for a 416), otherwise one holding a part that breaks a rule of contract
 * section 8 (bad numbers, repeated or unknown parameters, the wrong case, wrong types, bad `%`
 * escapes, `__proto__`, 101 parameters, a 501-value list).
 *
 * @example
 * import { query } from 'budget-rules/arbitraries'
 * import { endpoints } from 'budget-rules'
 * import { sample } from 'fast-check'
 *
 * const queries = sample(query(endpoints.bankTransactions), { numRuns: 100, seed: 1 })
 * queries.some((q) => q.includes('_start=')) && queries.some((q) => q.includes('[$in]') || q.includes('%5B%24in%5D'))
 * //=> true
 * queries.some((q) => q.includes('_end=1&_end=2'))
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const query = (endpoint: Endpoint): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.tuple(validParameters(endpoint), fc.boolean()).map(([ps, raw]) => join(ps, raw)), weight: 3 },
    {
      arbitrary: fc
        .tuple(validParameters(endpoint), invalidPart(endpoint))
        .map(([ps, bad]) => [join(ps, false), bad].filter((p) => p !== '').join('&')),
      weight: 1
    }
  )

// -------------------------------------------------------------------------------------
// error replies
// -------------------------------------------------------------------------------------

const WEEKDAYS = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) of 2020..2029, as a Retry-After may carry. */
const httpDate = fc.integer({ min: EPOCH_2020, max: EPOCH_2030 }).map((s) => {
  const days = Math.floor(s / DAY_S)
  const [y, m, d] = (fromDayNumber(days) as string).split('-')
  return `${WEEKDAYS[days % 7] ?? 'Thu'}, ${d ?? '01'} ${MONTHS[Number(m) - 1] ?? 'Jan'} ${y ?? '2020'} ${clock(s % DAY_S)} GMT`
})

const messageBody = fc.oneof(
  fc.constantFrom(
    { error: 'bad_request', message: 'Bad request' },
    { error: 'not_found', message: 'Not found' },
    { error: 'email_not_verified', message: 'Email not verified' },
    { message: 'Unauthorized (401)' },
    { error_code: 'budgets/cannot_change_manager', message: 'Cannot change the manager' },
    { error: 'conflict', message: 'Conflict' },
    { message: 'Budget required' },
    { message: 'Requested page size 5000 exceeds maximum of 2000' },
    { errors: { name: ['is too long'], ends_on: ['must be after today'] } },
    { error: 'internal_error', message: 'Internal server error' }
  ),
  fc.record({ error: fc.string({ maxLength: 10 }), message: fc.string({ maxLength: 20 }) }, { requiredKeys: [] })
)

/**
 * A reply a client may be handed (`{ status, headers, body }`, body as text): the service's own
 * error bodies (every status of sections 4-9, 429 with `retry_after` and a Retry-After in
 * seconds or as an HTTP-date), gateways' replies (502-504, HTML), and garbage: empty, truncated
 * JSON, arrays, strings, numbers, a huge body; header names in any case, X-Request-Id or not.
 *
 * @example
 * import { errorReply } from 'budget-rules/arbitraries'
 * import { parseErrorResponse } from 'budget-rules'
 * import { sample } from 'fast-check'
 *
 * sample(errorReply(), { numRuns: 100, seed: 1 }).every((reply) => parseErrorResponse(reply).status === reply.status)
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const errorReply = (): fc.Arbitrary<{ status: number; headers: Record<string, string>; body: string }> =>
  fc
    .record({
      status: fc.oneof(
        fc.constantFrom(400, 401, 403, 404, 409, 412, 416, 422, 429, 500, 502, 503, 504),
        fc.integer({ min: 100, max: 599 })
      ),
      requestId: fc.option(fc.constantFrom('req-1', ''), { nil: undefined }),
      retryAfter: fc.option(fc.oneof(fc.nat({ max: 3600 }).map(String), httpDate, fc.constantFrom('soon', '-1', '1.5', '')), {
        nil: undefined
      }),
      nameCase: fc.constantFrom('canonical', 'lower', 'upper'),
      body: fc.oneof(
        { arbitrary: messageBody.map((b) => JSON.stringify(b)), weight: 4 },
        {
          arbitrary: fc
            .nat({ max: 3600 })
            .map((s) => JSON.stringify({ error: 'rate_limit_exceeded', message: 'Slow down', retry_after: s })),
          weight: 1
        },
        {
          arbitrary: fc.constantFrom(
            '',
            '<html><body>502 Bad Gateway</body></html>',
            '{"error":"bad_req',
            '[]',
            '[{"error":"x"}]',
            '"not found"',
            '42',
            'null',
            `{"message":"${'x'.repeat(100_000)}"}`
          ),
          weight: 2
        },
        { arbitrary: fc.string({ maxLength: 40 }), weight: 1 }
      )
    })
    .map(({ status, requestId, retryAfter, nameCase, body }) => {
      const name = (n: string) => (nameCase === 'lower' ? n.toLowerCase() : nameCase === 'upper' ? n.toUpperCase() : n)
      const headers: Record<string, string> = {}
      if (body !== '') headers[name('Content-Type')] = body.startsWith('<') ? 'text/html' : 'application/json; charset=utf-8'
      if (requestId !== undefined) headers[name('X-Request-Id')] = requestId
      if (retryAfter !== undefined) headers[name('Retry-After')] = retryAfter
      return { status, headers, body }
    })
