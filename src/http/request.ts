/**
 * A request as the server received it (contract section 2): its headers (read as
 * `./headers.ts` says), its raw query string and its raw body.
 *
 * @example
 * Request.is({ headers: { Authorization: 'Bearer k' }, body: '{}' }) //=> true
 * Request.is({ headers: { 'x-n': 1 } }) //=> false
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { missing, withGuard } from '../json/guard'
import { isJsonObject } from '../json/value'
import { getterOf, type Headers, isHeaderValue } from './headers'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/** Why headers are malformed: the value at fault, and the header it is (or was to be) read from. */
interface HeadersFault {
  readonly value: unknown
  readonly header?: { readonly key: string; readonly actual: unknown }
  readonly message: string
}

/** Checks headers in place, for both the decoder and the guard: null, or the first bad header. */
const headersFault = (u: unknown): HeadersFault | null => {
  try {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return { value: u, message: 'headers must be an object' }
    if (getterOf(u) !== undefined) return null
    for (const key of Object.keys(u)) {
      let value: unknown
      try {
        value = (u as Record<string, unknown>)[key]
      } catch {
        return { value: u, header: { key, actual: undefined }, message: `header ${key} cannot be read` }
      }
      if (!isHeaderValue(value))
        return { value, header: { key, actual: value }, message: `header ${key} is not a string or a list of strings` }
    }
    return null
  } catch {
    // A proxy that will not say what it is or list its keys.
    return { value: u, message: 'headers cannot be read' }
  }
}

const validateHeaders = (u: unknown, c: t.Context): t.Validation<Headers> => {
  const fault = headersFault(u)
  if (fault === null) return t.success(u as Headers)
  const { value, header, message } = fault
  return t.failure(value, header === undefined ? c : t.appendContext(c, header.key, t.unknown, header.actual), message)
}

/**
 * Headers as a server hands them to a facade: a Headers-like object, or a plain object whose
 * values are each a string, a list of strings or undefined (anything else is malformed server
 * input, a 500). Decoding returns the very object given.
 *
 * @example
 * HeadersCodec.is({ 'set-cookie': ['a=1', 'b=2'] }) //=> true
 * HeadersCodec.is(new Headers()) //=> true
 * HeadersCodec.is({ 'x-n': 1 }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const HeadersCodec = /*#__PURE__*/ new t.Type<Headers, Headers, unknown>(
  'Headers',
  (u): u is Headers => headersFault(u) === null,
  (u, c) => validateHeaders(u, c),
  t.identity
)

const requestCodec = /*#__PURE__*/ t.intersection(
  [
    t.type({ headers: HeadersCodec }),
    // `undefined` spelled out too, so a server may pass `body: rawBody` typed `string | undefined`.
    t.partial({ query: t.union([t.string, t.undefined]), body: t.union([t.string, t.undefined]) })
  ],
  'Request'
)

/**
 * The io-ts codec of a {@link Request}.
 *
 * @example
 * Request.is({ headers: {}, query: '_start=0' }) //=> true
 *
 * @category codecs
 * @since 0.1.0
 */
export const Request = /*#__PURE__*/ withGuard(
  requestCodec,
  // Written out for speed: the guard of `requestCodec`, read for read (test/json/guards.test.ts).
  (u): u is t.TypeOf<typeof requestCodec> => {
    if (!isJsonObject(u)) return false
    const headers = u.headers
    if (missing(u, 'headers', headers) || !HeadersCodec.is(headers)) return false
    const query = u.query
    if (query !== undefined && typeof query !== 'string') return false
    const body = u.body
    return body === undefined || typeof body === 'string'
  }
)

/**
 * A request as the server received it: headers as they came in, the raw query string
 * (without `?`) and the raw body text, each of the last two absent when there is none.
 *
 * @example
 * Request.is({ headers: { Authorization: 'Bearer k' }, body: '{}' }) //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type Request = t.TypeOf<typeof Request>
