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
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import { getterOf, type Headers, type HeadersLike, type HeaderValue, isHeaderValue } from './headers'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/** Checks headers in place: the very object given on success; the first bad header on failure. */
const validateHeaders = (u: unknown, c: t.Context): t.Validation<Headers> => {
  try {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, 'headers must be an object')
    if (getterOf(u) !== undefined) return t.success(u as HeadersLike)
    for (const k of Object.keys(u)) {
      let v: unknown
      try {
        v = (u as Record<string, unknown>)[k]
      } catch {
        return t.failure(u, t.appendContext(c, k, t.unknown, undefined), `header ${k} cannot be read`)
      }
      if (!isHeaderValue(v))
        return t.failure(v, t.appendContext(c, k, t.unknown, v), `header ${k} is not a string or a list of strings`)
    }
    return t.success(u as Readonly<Record<string, HeaderValue>>)
  } catch {
    // A proxy that will not say what it is or list its keys.
    return t.failure(u, c, 'headers cannot be read')
  }
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
  (u): u is Headers => E.isRight(validateHeaders(u, [])),
  (u, c) => validateHeaders(u, c),
  t.identity
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
export const Request = /*#__PURE__*/ t.intersection(
  [
    t.type({ headers: HeadersCodec }),
    // `undefined` spelled out too, so a server may pass `body: rawBody` typed `string | undefined`.
    t.partial({ query: t.union([t.string, t.undefined]), body: t.union([t.string, t.undefined]) })
  ],
  'Request'
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
