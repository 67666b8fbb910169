/**
 * budget-rules/client: what a client of the service needs, without fp-ts or io-ts, so that a
 * browser bundle stays small: reading any error reply, deciding a retry, walking an index
 * endpoint page by page or as a live feed, and building its query.
 *
 * @example
 * import { endpoints, nextWindow, buildQuery } from 'budget-rules/client'
 *
 * buildQuery(endpoints.bankTransactions, { window: { start: 0, end: 100 }, order: 'desc' })
 * //=> '_start=0&_end=100&_order=desc'
 *
 * @since 0.1.0
 */
export { parseErrorResponse, type ParsedProblem, type ProblemKind, type AnyHeaders } from './client/error'
export { retryDecision, retryPolicy, type RetryDecision, type RetryInput } from './client/retry'
export { nextWindow } from './client/window'
export {
  buildQuery,
  liveFeedQuery,
  nextLiveCursor,
  liveFeedStart,
  type QuerySpec,
  type FilterSpec,
  type LiveCursor
} from './client/query'
export { endpoints, defineEndpoint, type Endpoint, type FieldType } from './paging/endpoint'
export type { PageWindow, Order } from './paging/window'
export type { Operator } from './paging/filter'
export type { Headers as HttpHeaders, HeaderValue, HeadersLike } from './http/headers'
