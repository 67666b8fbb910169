/**
 * How a server's reply is compared with the library's: status, body, and the headers the
 * contract fixes.
 *
 * @since 0.2.0
 */
import type { ConformanceEndpoint } from '../arbitraries/scenario'
import { compareInstants, parseInstant } from '../calendar/instant'
import { headerOf } from '../http/headers'
import { endpoints } from '../paging/endpoint'
import type { ExpectedReply } from './expected'
import type { SequenceEndpoint } from './model'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A reply as the server under test gave it: `headers` a plain object (names in any case) or a
 * Fetch `Headers`, `body` the text (empty for none) or the JSON value already parsed.
 *
 * @example
 * import { compareReplies } from 'budget-rules/conformance'
 *
 * const expected = { status: 401, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [] }
 * compareReplies('budget.update', expected, { status: 401, headers: { 'x-request-id': 'abc' }, body: '' }) //=> []
 *
 * @category model
 * @since 0.2.0
 */
export interface ReceivedReply {
  readonly status: number
  readonly headers:
    | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
    | {
        /** A header's value by name, as Fetch's `Headers.get` reads it (null when absent). */
        get(name: string): string | null
      }
  readonly body: unknown
}

/**
 * One way the server's reply differs from the library's: the status, a header, or the body.
 *
 * @example
 * import { compareReplies } from 'budget-rules/conformance'
 *
 * const expected = { status: 404, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [] }
 * compareReplies('budget.update', expected, { status: 403, headers: { 'X-Request-Id': 'r' }, body: '' })
 * //=> [{ part: 'status', expected: 404, actual: 403 }]
 *
 * @category model
 * @since 0.2.0
 */
export interface Difference {
  readonly part: 'status' | 'header' | 'body'
  /** The header's name, for a header. */
  readonly name?: string
  readonly expected: unknown
  readonly actual: unknown
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The headers compared by value (absent on both sides agrees). */
const VALUE_HEADERS = ['Content-Range', 'X-Total-Count', 'Retry-After'] as const

/**
 * The body as a JSON value: text is parsed (empty text is null, text that is not JSON stays
 * text), anything else is taken as already parsed.
 *
 * @example
 * import { bodyValue } from 'budget-rules/conformance'
 *
 * bodyValue('') //=> null
 * bodyValue('{"a":1}') //=> { a: 1 }
 * bodyValue('<html>') //=> '<html>'
 *
 * @category utils
 * @since 0.2.0
 */
export const bodyValue = (body: unknown): unknown => {
  if (body === undefined || body === null) return null
  if (typeof body !== 'string') return body
  if (body === '') return null
  try {
    return JSON.parse(body) as unknown
  } catch {
    return body
  }
}

/** A Content-Type reduced to what is compared: the media type and the charset, lower case. */
const mediaType = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined
  const [type = '', ...params] = value.split(';').map((p) => p.trim().toLowerCase())
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '')
  return charset === undefined ? type : `${type}; charset=${charset}`
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/** JSON values equal: same types, same array order, same keys in any order. */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
  if (isObject(a)) {
    if (!isObject(b)) return false
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
  }
  return Object.is(a, b) || (a === 0 && b === 0)
}

/** Two instants written any way the contract allows, read as the same moment. */
const sameInstant = (a: unknown, b: unknown): boolean => {
  if (typeof a !== 'string' || typeof b !== 'string') return sameJson(a, b)
  const x = parseInstant(a)
  const y = parseInstant(b)
  return x !== null && y !== null ? compareInstants(x, y) === 0 : a === b
}

/** Index records compared field by field, instant-typed fields as instants. */
const samePage = (expected: unknown, actual: unknown): boolean => {
  if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) return sameJson(expected, actual)
  const fields = endpoints.bankTransactions.fields
  return expected.every((e, i) => {
    const a: unknown = actual[i]
    if (!isObject(e) || !isObject(a)) return sameJson(e, a)
    const keys = Object.keys(e)
    return (
      keys.length === Object.keys(a).length &&
      keys.every((k) => Object.hasOwn(a, k) && (fields[k]?.type === 'instant' ? sameInstant(e[k], a[k]) : sameJson(e[k], a[k])))
    )
  })
}

// -------------------------------------------------------------------------------------
// comparing
// -------------------------------------------------------------------------------------

/**
 * Where the server's reply differs from the library's, in the order status, headers, body;
 * empty when they agree. Compared: the status; Content-Range, X-Total-Count and Retry-After by
 * value (names in any case; absent on both sides agrees); Content-Type by media type and charset,
 * case-insensitively, when the library's reply has a body; X-Request-Id by presence; the body
 * as JSON (text is parsed), an index page record by record with instant fields as instants (the
 * same moment in any spelling: a database answers in its own).
 *
 * @example
 * import { compareReplies } from 'budget-rules/conformance'
 *
 * const expected = { status: 200, headers: { 'X-Request-Id': 'r', 'Content-Type': 'application/json; charset=utf-8',
 *   'Content-Range': '0-0/1', 'X-Total-Count': '1' }, body: [{ id: 'tx-1', created_at: '2026-11-22T10:00:00Z' }], reasons: [] }
 * compareReplies('index.bank_transactions', expected, { status: 200, body: '[{"id":"tx-1","created_at":"2026-11-22T07:00:00.000-03:00"}]',
 *   headers: { 'x-request-id': 'q', 'content-type': 'application/json;charset=UTF-8', 'content-range': '0-0/1', 'x-total-count': '1' } })
 * //=> []
 *
 * @category utils
 * @since 0.2.0
 */
export const compareReplies = (
  endpoint: ConformanceEndpoint | SequenceEndpoint,
  expected: ExpectedReply,
  actual: ReceivedReply
): ReadonlyArray<Difference> => {
  const differences: Array<Difference> = []
  if (expected.status !== actual.status) differences.push({ part: 'status', expected: expected.status, actual: actual.status })
  const want = (name: string) => headerOf(expected.headers, name)
  const got = (name: string) => headerOf(actual.headers, name)
  for (const name of VALUE_HEADERS)
    if (want(name) !== got(name))
      differences.push({ part: 'header', name, expected: want(name) ?? null, actual: got(name) ?? null })
  if (want('Content-Type') !== undefined && mediaType(want('Content-Type')) !== mediaType(got('Content-Type')))
    differences.push({
      part: 'header',
      name: 'Content-Type',
      expected: want('Content-Type'),
      actual: got('Content-Type') ?? null
    })
  if ((want('X-Request-Id') === undefined) !== (got('X-Request-Id') === undefined))
    differences.push({
      part: 'header',
      name: 'X-Request-Id',
      expected: want('X-Request-Id') === undefined ? 'absent' : 'present',
      actual: got('X-Request-Id') === undefined ? 'absent' : 'present'
    })
  const body = bodyValue(actual.body)
  const same =
    endpoint === 'index.bank_transactions' && expected.status === 200
      ? samePage(expected.body, body)
      : sameJson(expected.body, body)
  if (!same) differences.push({ part: 'body', expected: expected.body, actual: body })
  return differences
}
