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
import { toWellFormedText } from '../json/well-formed'

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
  parameters
    .map(([key, value]) => `${encodeURIComponent(toWellFormedText(key))}=${encodeURIComponent(toWellFormedText(value))}`)
    .join('&')
