/**
 * An index query, decoded whole: the window, the sort and the filters, or the one problem that
 * answers it. Every 400 comes before the 416 (contract section 8).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodePageRequest(endpoints.bankTransactions, '_start=0&_end=50&status=pending').result
 * //=> right({ window: { start: 0, end: 50 }, sort: { field: 'created_at', order: 'asc' },
 * //           filters: [{ field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$eq', values: ['pending'] }],
 * //           filterParameters: [['status', 'pending']] })
 *
 * @since 0.1.0
 */
import { either as E, function as fn } from 'fp-ts'
import { chain, check, type Trail } from '../decision/trail'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import type { Endpoint } from './endpoint'
import { decodeFilter, type Filter } from './filter'
import type { QueryParameter } from '../http/query-string'
import { decodeQuery } from './query'
import { checkWindowSize, decodeWindow, type PageWindow, pageParameters, type Sort } from './window'

/**
 * An index query decoded: its window, sort and filters.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodePageRequest(endpoints.bankTransactions, '_order=desc').result
 * //=> right({ window: { start: 0, end: 25 }, sort: { field: 'created_at', order: 'desc' }, filters: [], filterParameters: [] })
 *
 * @category model
 * @since 0.1.0
 */
export interface PageRequest {
  readonly window: PageWindow
  readonly sort: Sort
  readonly filters: ReadonlyArray<Filter>
  /** The filter parameters as sent, for cursors that keep them. */
  readonly filterParameters: ReadonlyArray<QueryParameter>
}

const isPageParameter = (key: string): boolean => (pageParameters as ReadonlyArray<string>).includes(key)

/**
 * The page request of a raw query string for `endpoint`, or its 400 (the first malformed
 * parameter) or 416 (a window over 2000 records, after every 400).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // a 400 comes before the 416
 * decodePageRequest(endpoints.bankTransactions, '_start=0&_end=5000&status=paid').result
 * //=> left({ _tag: 'BadRequest', rule: 'page.filter', detail: 'status must be one of authorized, pending' })
 *
 * @category rules
 * @since 0.1.0
 */
export const decodePageRequest = (endpoint: Endpoint, query: string): Trail<PageRequest> =>
  fn.pipe(
    check(
      'page.query',
      (ps) => `${ps.length} parameters`,
      E.chain((ps: ReadonlyArray<QueryParameter>) => {
        const unknown = ps.find(([key]) => key.startsWith('_') && !isPageParameter(key))
        return unknown === undefined
          ? E.right(ps)
          : E.left<Problem>(problem.badRequest('page.query', `${unknown[0]} is not a parameter of ${endpoint.path}`))
      })(decodeQuery(query))
    ),
    chain((ps) =>
      fn.pipe(
        check(
          'page.window',
          ({ window, sort }) => `[${window.start}, ${window.end}) by ${sort.field} ${sort.order}`,
          decodeWindow(endpoint, new Map(ps.filter(([key]) => isPageParameter(key))))
        ),
        chain(({ window, sort }) => {
          const filterParameters = ps.filter(([key]) => !isPageParameter(key))
          return fn.pipe(
            check(
              'page.filter',
              (fs) => (fs.length === 0 ? 'no filters' : fs.map((f) => `${f.field} ${f.op}`).join(', ')),
              E.traverseArray(([key, value]: QueryParameter) => decodeFilter(endpoint, key, value))(filterParameters)
            ),
            chain((filters) =>
              check('page.size', () => `${window.end - window.start} records at most`, E.map(
                (w: PageWindow): PageRequest => ({ window: w, sort, filters, filterParameters })
              )(checkWindowSize(window)))
            )
          )
        })
      )
    )
  )
