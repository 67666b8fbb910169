/**
 * The query a facade takes (`request.query`: the raw query string, without its `?`), read from
 * what a framework gives a server: a URL, as a `URL` or written whole (Hono's `c.req.url`, a
 * fetch `Request`'s `url`), its `URLSearchParams`, `URL.search` with its `?`, or a request target
 * such as Node's `req.url` (`/v1/budgets?_start=0`). A `?` left in the query would be read as
 * part of the first key: a 400 blamed on the client (`?_start is not a field`) for the server's
 * slip (R-106).
 *
 * @since 0.5.0
 */

/**
 * Where a query can be read from: a URL (a `URL`, or text with its scheme), its search
 * parameters, a query string with or without its leading `?`, or a request target (a path
 * starting with `/`, its query after the first `?`).
 *
 * @example
 * rawQuery(new URLSearchParams({ _start: '0' })) //=> '_start=0'
 *
 * @category model
 * @since 0.5.0
 */
export type QuerySource = URL | URLSearchParams | string

import { typeError } from '../json/describe'

/** A URL written whole, with its scheme: `http://...`, as Hono's `c.req.url` and a `Request`'s `url` are. */
const ABSOLUTE = /^[A-Za-z][A-Za-z\d+.-]*:\/\//

const fromString = (s: string): string => {
  // A request target's query follows its first `?`; a URL's too, up to its fragment; a query
  // string loses one leading `?`.
  if (s.startsWith('/')) {
    const at = s.indexOf('?')
    return at === -1 ? '' : s.slice(at + 1)
  }
  if (ABSOLUTE.test(s)) {
    const hash = s.indexOf('#')
    const url = hash === -1 ? s : s.slice(0, hash)
    const at = url.indexOf('?')
    return at === -1 ? '' : url.slice(at + 1)
  }
  return s.startsWith('?') ? s.slice(1) : s
}

/**
 * The raw query string of `source`, without its `?`: what a facade takes as `request.query`.
 * A URL's fragment is no part of it; `URLSearchParams` are written as forms write them.
 *
 * @example
 * import { respondIndex, endpoints } from 'budget-rules'
 *
 * rawQuery('?_start=0&_end=1') //=> '_start=0&_end=1'
 * rawQuery(new URL('https://api.example/v1/bank-transactions?_start=0&_end=1#top')) //=> '_start=0&_end=1'
 * rawQuery('/v1/bank-transactions?_start=0&_end=1') //=> '_start=0&_end=1'
 * rawQuery('/v1/bank-transactions') //=> ''
 * // Hono's c.req.url: the whole URL, as text
 * rawQuery('http://127.0.0.1:3000/v1/bank-transactions?_start=0&_end=1#top') //=> '_start=0&_end=1'
 * // URL.search passed as it is: the page from 0, not a 400
 * const query = rawQuery(new URL('https://api.example/v1/bank-transactions?_start=0&_end=1').search)
 * respondIndex({ request: { headers, query }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-1' }).body
 * //=> [records[0]]
 *
 * @category utils
 * @since 0.5.0
 */
export const rawQuery = (source: QuerySource): string => {
  if (typeof source === 'string') return fromString(source)
  if (source instanceof URL) return fromString(source.search)
  if (source instanceof URLSearchParams) return source.toString()
  throw typeError('rawQuery', 'source', source, 'a URL, URLSearchParams or a query string')
}
