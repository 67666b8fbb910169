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
import { bind, check, map, of, type Trail } from '../decision/trail'
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

/** The parameters, or the 400 of an `_`-parameter the endpoint does not take. */
const knownParameters =
  (endpoint: Endpoint) =>
  (ps: ReadonlyArray<QueryParameter>): E.Either<Problem, ReadonlyArray<QueryParameter>> => {
    const unknown = ps.find(([key]) => key.startsWith('_') && !isPageParameter(key))
    return unknown === undefined
      ? E.right(ps)
      : E.left(problem.badRequest('page.query', `${unknown[0]} is not a parameter of ${endpoint.path}`))
  }

/**
 * The page request of a raw query string for `endpoint`, or its 400 (the first malformed
 * parameter) or 416 (a window over 2000 records, after every 400).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // a 400 comes before the 416
 * decodePageRequest(endpoints.bankTransactions, '_start=0&_end=5000&status=paid').result
 * //=> left({ _tag: 'BadRequest', rule: 'page.filter', message: 'status must be one of authorized, pending', detail: 'status must be one of authorized, pending' })
 *
 * @category rules
 * @since 0.1.0
 */
export const decodePageRequest = (endpoint: Endpoint, query: string): Trail<PageRequest> =>
  fn.pipe(
    check('page.query', (ps) => `${ps.length} parameters`, E.chain(knownParameters(endpoint))(decodeQuery(query))),
    map((parameters) => ({ parameters })),
    bind('ordered', ({ parameters }) =>
      check(
        'page.window',
        ({ window, sort }) => `[${window.start}, ${window.end}) by ${sort.field} ${sort.order}`,
        decodeWindow(endpoint, new Map(parameters.filter(([key]) => isPageParameter(key))))
      )
    ),
    bind('filterParameters', ({ parameters }) => of(parameters.filter(([key]) => !isPageParameter(key)))),
    bind('filters', ({ filterParameters }) =>
      check(
        'page.filter',
        (fs) => (fs.length === 0 ? 'no filters' : fs.map((f) => `${f.field} ${f.op}`).join(', ')),
        E.traverseArray(([key, value]: QueryParameter) => decodeFilter(endpoint, key, value))(filterParameters)
      )
    ),
    // Every 400 above comes before the 416 (contract section 8).
    bind('window', ({ ordered }) =>
      check('page.size', (w) => `${w.end - w.start} records at most`, checkWindowSize(ordered.window))
    ),
    map(({ window, ordered: { sort }, filters, filterParameters }): PageRequest => ({ window, sort, filters, filterParameters }))
  )
