/**
 * A raw query string decoded as an HTML form (`+` is a space, `%XX` escapes are UTF-8), with
 * the limits of contract section 8: at most 100 parameters, no key twice. Nothing is nested or
 * merged into objects: the result is a list of key and value strings, so `__proto__` is just a
 * key like any other.
 *
 * @example
 * decodeQuery('_start=0&status%5B%24in%5D=%5B%22pending%22%5D')
 * //=> right([['_start', '0'], ['status[$in]', '["pending"]']])
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import type { QueryParameter } from '../http/query-string'
import { isWellFormedText } from '../json/well-formed'
import { holdsNul } from '../json/value'

/**
 * The most parameters a query may hold.
 *
 * @example
 * decodeQuery(Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, i) => `k${i}=1`).join('&'))
 * //=> left({ _tag: 'BadRequest', rule: 'page.query', message: 'The query has 101 parameters, more than 100', detail: 'The query has 101 parameters, more than 100' })
 *
 * @category constants
 * @since 0.1.0
 */
export const MAX_QUERY_PARAMETERS = 100

/**
 * The 400 of a query holding U+0000 (ADR 0013): once form-decoded (rule `page.query`), or inside
 * a `$in` / `$nin` list once its JSON is read (`page.filter`). No store compares with such text.
 *
 * @example
 * nulInQuery('page.filter')
 * //=> { _tag: 'BadRequest', rule: 'page.filter', message: 'The query holds a NUL character', detail: 'The query holds a NUL character' }
 *
 * @category utils
 * @since 0.2.0
 */
export const nulInQuery = (rule: 'page.query' | 'page.filter'): Problem =>
  problem.badRequest(rule, 'The query holds a NUL character')

/**
 * The 400 of a query holding a lone surrogate: once form-decoded (rule `page.query`), or
 * inside a `$in` / `$nin` list once its JSON is read (`page.filter`). Such text can be neither
 * compared nor encoded again.
 *
 * @example
 * loneSurrogateInQuery('page.query')
 * //=> { _tag: 'BadRequest', rule: 'page.query', message: 'The query holds a lone surrogate', detail: 'The query holds a lone surrogate' }
 *
 * @category utils
 * @since 0.2.0
 */
export const loneSurrogateInQuery = (rule: 'page.query' | 'page.filter'): Problem =>
  problem.badRequest(rule, 'The query holds a lone surrogate')

/** A component decoded, or `null` when an escape is malformed. */
const decodeComponent = (s: string): string | null => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return null
  }
}

/**
 * The parameters of `query` in order, or the 400 problem of a malformed one (a bad `%` escape,
 * a lone surrogate, a NUL character, a repeated key, more than 100 parameters). Empty segments
 * (`a=1&&b=2`) are skipped; a segment without `=` has the value `""`.
 *
 * @example
 * decodeQuery('name=Caf%C3%A9+Central&&x') //=> right([['name', 'Café Central'], ['x', '']])
 * decodeQuery('id=a%00') //=> left({ _tag: 'BadRequest', rule: 'page.query', message: 'The query holds a NUL character', detail: 'The query holds a NUL character' })
 * decodeQuery('a=1&a=2') //=> left({ _tag: 'BadRequest', rule: 'page.query', message: 'The parameter a is repeated', detail: 'The parameter a is repeated' })
 *
 * @category utils
 * @since 0.1.0
 */
export const decodeQuery = (query: string): E.Either<Problem, ReadonlyArray<QueryParameter>> => {
  const segments = query === '' ? [] : query.split('&').filter((s) => s !== '')
  if (segments.length > MAX_QUERY_PARAMETERS)
    return E.left(
      problem.badRequest('page.query', `The query has ${segments.length} parameters, more than ${MAX_QUERY_PARAMETERS}`)
    )
  const seen = new Set<string>()
  const parameters: Array<QueryParameter> = []
  for (const segment of segments) {
    const eq = segment.indexOf('=')
    const key = decodeComponent(eq < 0 ? segment : segment.slice(0, eq))
    const value = decodeComponent(eq < 0 ? '' : segment.slice(eq + 1))
    if (key === null || value === null) return E.left(problem.badRequest('page.query', 'The query has a malformed % escape'))
    // A literal lone surrogate passes decodeURIComponent but can be neither compared nor encoded.
    if (!isWellFormedText(key) || !isWellFormedText(value)) return E.left(loneSurrogateInQuery('page.query'))
    // No store can compare with text holding U+0000, nor keep it in a cursor (ADR 0013).
    if (holdsNul(key) || holdsNul(value)) return E.left(nulInQuery('page.query'))
    if (seen.has(key)) return E.left(problem.badRequest('page.query', `The parameter ${key} is repeated`))
    seen.add(key)
    parameters.push([key, value])
  }
  return E.right(parameters)
}
