/**
 * Reading any reply as a typed problem, the way a client must (spec section 7): branch on the
 * status first, then read `message` and `error` (or `error_code`) when present, parse
 * defensively because some 401 and 403 bodies are empty and proxies answer with HTML, and keep
 * X-Request-Id for the log.
 *
 * Laws:
 * - total: for every status, headers and body, `parseErrorResponse` returns and never throws;
 * - round trip: for every problem `p` the library replies with, parsing that reply (its body
 *   sent as JSON text) gives the kind of its status, and the code and message of its body.
 *
 * @example
 * parseErrorResponse({ status: 429, headers: { 'retry-after': '7', 'X-Request-Id': 'r-1' },
 *   body: '{"error":"rate_limit_exceeded","message":"Too many requests","retry_after":5}' })
 * //=> { status: 429, kind: 'rate_limited', code: 'rate_limit_exceeded', message: 'Too many requests',
 * //     request_id: 'r-1', retry_after_s: 7 }
 *
 * @since 0.1.0
 */
import { parseHttpDate } from '../http/date'
import { type Headers, headerOf } from '../http/headers'
import { hasOwn, isJsonObject, ownValue } from '../json/value'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a status means to a client, by the spec's table of statuses.
 *
 * @example
 * kindOf(412) //=> 'precondition_failed'
 *
 * @category model
 * @since 0.1.0
 */
export type ProblemKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'range_not_satisfiable'
  | 'validation'
  | 'rate_limited'
  | 'server_error'
  | 'upstream'
  | 'unexpected'

/**
 * What a client knows of a reply.
 *
 * @example
 * parseErrorResponse({ status: 422, headers: new Headers({ 'X-Request-Id': 'r-2' }), body: '{"errors":{"name":["can\'t be blank"]}}' })
 * //=> { status: 422, kind: 'validation', field_errors: { name: ["can't be blank"] }, request_id: 'r-2' }
 *
 * @category model
 * @since 0.1.0
 */
export interface ParsedProblem {
  readonly status: number
  readonly kind: ProblemKind
  readonly code?: string
  readonly message?: string
  readonly field_errors?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly request_id?: string
  readonly retry_after_s?: number
}

/**
 * Headers as clients meet them: a Fetch `Headers` object (anything with `get`), or a
 * plain object with names in any case and values that are a value, a list of values (repeated
 * headers), or nothing.
 *
 * @example
 * anyHeader(new Headers({ 'Retry-After': '7' }), 'retry-after') //=> '7'
 * anyHeader({ 'retry-after': ['7', '7'] }, 'Retry-After') //=> '7'
 *
 * @category model
 * @since 0.1.0
 */
export type AnyHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined | null>>

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const KINDS: Readonly<Record<number, ProblemKind>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'precondition_failed',
  416: 'range_not_satisfiable',
  422: 'validation',
  429: 'rate_limited',
  500: 'server_error',
  502: 'upstream',
  503: 'upstream',
  504: 'upstream'
}

/**
 * The kind of problem a status means (anything not in the spec's table is `unexpected`).
 *
 * @example
 * kindOf(404) //=> 'not_found'
 * kindOf(418) //=> 'unexpected'
 *
 * @category utils
 * @since 0.1.0
 */
export const kindOf = (status: number): ProblemKind =>
  hasOwn(KINDS, String(status)) ? (KINDS[status] ?? 'unexpected') : 'unexpected'

/**
 * The value of header `name` in any case, trimmed, from a plain object or a Fetch `Headers`;
 * repeated values that disagree count as absent.
 *
 * @example
 * anyHeader({ 'x-request-id': ' r-1 ' }, 'X-Request-Id') //=> 'r-1'
 * anyHeader({ 'X-Request-Id': 'r-1', 'x-request-id': 'r-2' }, 'x-request-id') //=> undefined
 *
 * @category utils
 * @since 0.1.0
 */
export const anyHeader = (headers: unknown, name: string): string | undefined => headerOf(headers, name, (v) => v.trim())

/** The JSON object of a body, or `null`: only text that opens like an object is parsed. */
const bodyObject = (body: unknown): Record<string, unknown> | null => {
  if (isJsonObject(body)) return body
  if (typeof body !== 'string' || !body.trimStart().startsWith('{')) return null
  try {
    // Text that opens with `{` (past JSON's whitespace, a subset of trimStart's) is an object or no JSON.
    return JSON.parse(body) as Record<string, unknown>
  } catch {
    return null
  }
}

const stringField = (o: Record<string, unknown>, key: string): string | undefined => {
  const v = ownValue(o, key)
  return typeof v === 'string' ? v : undefined
}

const fieldErrors = (o: Record<string, unknown>): Record<string, ReadonlyArray<string>> | undefined => {
  const errors = ownValue(o, 'errors')
  if (!isJsonObject(errors)) return undefined
  return Object.fromEntries(
    Object.keys(errors).map((field) => {
      const v = errors[field]
      const texts = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []
      return [field, texts]
    })
  )
}

const DELTA_SECONDS = /^\d+$/

/**
 * Seconds to wait from a Retry-After value: delta-seconds (an absurdly long one reads as
 * `Number.MAX_SAFE_INTEGER`, still too long to wait), or an HTTP-date measured from `now`
 * (seconds since the epoch); `undefined` when unreadable or when a date has nothing to be
 * measured from.
 *
 * @example
 * retryAfterSeconds('7', undefined) //=> 7
 * retryAfterSeconds('Sun, 06 Nov 1994 08:49:37 GMT', 784111770) //=> 7
 * retryAfterSeconds('Sun, 06 Nov 1994 08:49:37 GMT', undefined) //=> undefined
 *
 * @category utils
 * @since 0.1.0
 */
export const retryAfterSeconds = (value: string | undefined, now: number | undefined): number | undefined => {
  if (value === undefined) return undefined
  if (DELTA_SECONDS.test(value)) return Math.min(Number(value), Number.MAX_SAFE_INTEGER)
  const at = parseHttpDate(value)
  return at === null || now === undefined ? undefined : Math.max(0, at - now)
}

/**
 * The typed problem of any reply. Never throws.
 *
 * @example
 * parseErrorResponse({ status: 502, headers: {}, body: '<html>Bad gateway</html>' }) //=> { status: 502, kind: 'upstream' }
 *
 * @category client
 * @since 0.1.0
 */
export const parseErrorResponse = (reply: {
  readonly status: unknown
  readonly headers?: unknown
  readonly body?: unknown
}): ParsedProblem => {
  try {
    const status = typeof reply.status === 'number' && Number.isInteger(reply.status) ? reply.status : 0
    const headers = reply.headers
    const o = bodyObject(reply.body)
    const code = o === null ? undefined : (stringField(o, 'error_code') ?? stringField(o, 'error'))
    const message = o === null ? undefined : stringField(o, 'message')
    const errors = o === null ? undefined : fieldErrors(o)
    const request_id = anyHeader(headers, 'x-request-id')
    const date = anyHeader(headers, 'date')
    const fromHeader = retryAfterSeconds(
      anyHeader(headers, 'retry-after'),
      date === undefined ? undefined : (parseHttpDate(date) ?? undefined)
    )
    const retryAfter = o === null ? undefined : ownValue(o, 'retry_after')
    const fromBody =
      typeof retryAfter === 'number' && Number.isSafeInteger(retryAfter) && retryAfter >= 0 ? retryAfter : undefined
    const retry_after_s = fromHeader ?? fromBody
    return {
      status,
      kind: kindOf(status),
      ...(code === undefined ? {} : { code }),
      ...(message === undefined ? {} : { message }),
      ...(errors === undefined ? {} : { field_errors: errors }),
      ...(request_id === undefined ? {} : { request_id }),
      ...(retry_after_s === undefined ? {} : { retry_after_s })
    }
  } catch {
    // A hostile object (a throwing getter or proxy) as the reply itself.
    return { status: 0, kind: 'unexpected' }
  }
}
