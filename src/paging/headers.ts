/**
 * The headers of a page (spec section 4, contract section 8): `X-Total-Count`, `Content-Range`
 * without a unit prefix (an asterisk for the range of an empty page) and `Access-Control-Expose-Headers` so
 * that browsers can read them. A page longer than its window, or past the total, is an error:
 * the server never truncates silently.
 *
 * @example
 * pageHeaders({ start: 0, end: 25 }, 25, 120)
 * //=> right({ 'X-Total-Count': '120', 'Content-Range': '0-24/120', 'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import type { PageWindow } from './window'

/**
 * The page headers of a window that returned `count` of `total` records, or the 500 of a page
 * that does not fit its window or the total.
 *
 * @example
 * pageHeaders({ start: 0, end: 25 }, 0, 0)
 * //=> right({ 'X-Total-Count': '0', 'Content-Range': '*\/0', 'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count' })
 * pageHeaders({ start: 0, end: 25 }, 26, 120)
 * //=> left({ _tag: 'InternalError', rule: 'page.headers', detail: 'a page of 26 records for a window of 25' })
 *
 * @category utils
 * @since 0.1.0
 */
export const pageHeaders = (window: PageWindow, count: number, total: number): E.Either<Problem, Record<string, string>> => {
  const size = window.end - window.start
  if (count > size) return E.left(problem.internalError('page.headers', `a page of ${count} records for a window of ${size}`))
  if (count > 0 && window.start + count > total)
    return E.left(problem.internalError('page.headers', `records ${window.start}-${window.start + count - 1} of only ${total}`))
  return E.right({
    'X-Total-Count': String(total),
    'Content-Range': count === 0 ? `*/${total}` : `${window.start}-${window.start + count - 1}/${total}`,
    'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count'
  })
}
