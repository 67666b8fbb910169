/**
 * Query strings as HTML forms write them (`application/x-www-form-urlencoded`): a list of key and
 * value strings, percent-encoded as UTF-8. Encoding never throws.
 *
 * @example
 * encodeQuery([['_start', '0'], ['amount[$gte]', '10']]) //=> '_start=0&amount%5B%24gte%5D=10'
 * encodeQuery([['name', 'a\uD800']]) //=> 'name=a%EF%BF%BD'
 *
 * @since 0.1.0
 */

/**
 * One `key=value` of a query string, decoded.
 *
 * @example
 * encodeQuery([['status', 'pending'], ['_order', 'desc']]) //=> 'status=pending&_order=desc'
 *
 * @category model
 * @since 0.1.0
 */
export type QueryParameter = readonly [key: string, value: string]

/** A UTF-16 surrogate without its other half: no character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * `s` with each lone surrogate written as U+FFFD, as `URLSearchParams` writes it.
 *
 * @example
 * wellFormed('a\uD800b') //=> 'a\uFFFDb'
 *
 * @category utils
 * @since 0.1.0
 */
export const wellFormed = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD')

/**
 * The query string of `parameters`, each key and value percent-encoded: the inverse of
 * `decodeQuery` (paging/query.ts), `decodeQuery(encodeQuery(ps)) = right(ps)` for keys that are distinct and
 * text without lone surrogates. It never throws: a lone surrogate is written as U+FFFD.
 *
 * @example
 * encodeQuery([['_start', '0'], ['amount[$gte]', '10']]) //=> '_start=0&amount%5B%24gte%5D=10'
 *
 * @category utils
 * @since 0.1.0
 */
export const encodeQuery = (parameters: ReadonlyArray<QueryParameter>): string =>
  parameters.map(([key, value]) => `${encodeURIComponent(wellFormed(key))}=${encodeURIComponent(wellFormed(value))}`).join('&')
