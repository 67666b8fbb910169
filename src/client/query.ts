/**
 * Building index queries from a client: the window, the order in the endpoint's own case, the
 * sort field and filters, encoded as a form; and a live feed that follows a growing collection
 * by `created_at` (spec section 4, rules 2 and 3).
 *
 * Law (round trip): `decodePageRequest(endpoint, buildQuery(endpoint, q))` decodes to the window,
 * sort and filters of `q`.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * buildQuery(endpoints.bankTransactions, {
 *   window: { start: 0, end: 100 },
 *   order: 'desc',
 *   filters: [{ field: 'status', op: '$in', value: ['pending'] }, { field: 'amount', op: '$gte', value: 1000 }]
 * })
 * //=> '_start=0&_end=100&_order=desc&status%5B%24in%5D=%5B%22pending%22%5D&amount%5B%24gte%5D=1000'
 *
 * @since 0.1.0
 */
import { compareInstants, parseInstant } from '../calendar/instant'
import { type Endpoint, spellOrder } from '../paging/endpoint'
import type { Operator } from '../paging/filter'
import { encodeQuery, type QueryParameter } from '../http/query-string'
import type { Order, PageWindow } from '../paging/window'
import { isCount } from '../json/value'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A filter as a client writes it: one value, or a list for `$in` and `$nin`.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * buildQuery(endpoints.companies, { filters: [{ field: 'name', op: '$eq', value: 'Acme' }] }) //=> 'name=Acme'
 *
 * @category model
 * @since 0.1.0
 */
export interface FilterSpec {
  readonly field: string
  readonly op: Operator
  readonly value: number | string | ReadonlyArray<number | string>
}

/**
 * What an index query asks for: a window, an order, a sort field and filters, each optional.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * buildQuery(endpoints.bankTransactions, { field: 'amount', order: 'asc' }) //=> '_order=asc&_field=amount'
 *
 * @category model
 * @since 0.1.0
 */
export interface QuerySpec {
  readonly window?: PageWindow
  readonly order?: Order
  readonly field?: string
  readonly filters?: ReadonlyArray<FilterSpec>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const isScalar = (u: unknown): u is number | string => typeof u === 'string' || (typeof u === 'number' && Number.isFinite(u))
const isOperator = (u: unknown): u is Operator =>
  u === '$eq' || u === '$ne' || u === '$gt' || u === '$gte' || u === '$lt' || u === '$lte' || u === '$in' || u === '$nin'

/** The parameter of a filter, or none when it is not a filter (a client function never throws). */
const filterParameter = (f: unknown): ReadonlyArray<QueryParameter> => {
  if (typeof f !== 'object' || f === null) return []
  const { field, op, value } = f as { readonly field?: unknown; readonly op?: unknown; readonly value?: unknown }
  if (typeof field !== 'string' || !isOperator(op)) return []
  const text = Array.isArray(value)
    ? (value as ReadonlyArray<unknown>).every(isScalar)
      ? JSON.stringify(value)
      : undefined
    : isScalar(value)
      ? String(value)
      : undefined
  return text === undefined ? [] : [[op === '$eq' ? field : `${field}[${op}]`, text]]
}

/** The parameters of `spec`, each part that is not of its type left out. */
const parametersOf = (endpoint: unknown, spec: unknown): ReadonlyArray<QueryParameter> => {
  if (typeof spec !== 'object' || spec === null) return []
  const { window, order, field, filters } = spec as { readonly [K in keyof QuerySpec]?: unknown }
  const parameters: Array<QueryParameter> = []
  if (typeof window === 'object' && window !== null) {
    const { start, end } = window as { readonly start?: unknown; readonly end?: unknown }
    if (isCount(start) && isCount(end)) parameters.push(['_start', String(start)], ['_end', String(end)])
  }
  if (order === 'asc' || order === 'desc')
    parameters.push([
      '_order',
      spellOrder(typeof endpoint === 'object' && endpoint !== null ? (endpoint as Endpoint) : { orderCase: 'lower' }, order)
    ])
  if (typeof field === 'string') parameters.push(['_field', field])
  if (Array.isArray(filters)) for (const f of filters as ReadonlyArray<unknown>) parameters.push(...filterParameter(f))
  return parameters
}

/**
 * The query string (without `?`) of `spec` for `endpoint`; parameters left out take the
 * service's defaults. Never throws: a part of `spec` that is not of its type (a window of
 * non-integers, an unknown operator, a value that is not a string or a finite number) is left
 * out, and an object that throws when read gives `''`.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * buildQuery(endpoints.bankTransactions, {}) //=> ''
 * buildQuery(endpoints.bankTransactions, { window: { start: 100, end: 200 } }) //=> '_start=100&_end=200'
 *
 * @category client
 * @since 0.1.0
 */
export const buildQuery = (endpoint: Endpoint, spec: QuerySpec): string => {
  try {
    return encodeQuery(parametersOf(endpoint, spec))
  } catch {
    // A getter or proxy in what was given threw: nothing of it can be trusted.
    return ''
  }
}

// -------------------------------------------------------------------------------------
// live feed
// -------------------------------------------------------------------------------------

/**
 * Where a live feed stands: every record created before `after` has been seen, and the first
 * `seen_at_after` of those created at `after` (in id order). `after: null` is the start.
 *
 * @example
 * nextLiveCursor(liveFeedStart, [{ created_at: '2026-11-22T09:00:00Z' }, { created_at: '2026-11-22T10:00:00Z' }])
 * //=> { after: '2026-11-22T10:00:00Z', seen_at_after: 1 }
 *
 * @category model
 * @since 0.1.0
 */
export interface LiveCursor {
  readonly after: string | null
  readonly seen_at_after: number
}

/**
 * Where a live feed starts: nothing seen yet.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * liveFeedQuery(endpoints.bankTransactions, liveFeedStart, 100) //=> '_start=0&_end=100&_order=asc&_field=created_at'
 *
 * @category constants
 * @since 0.1.0
 */
export const liveFeedStart: LiveCursor = { after: null, seen_at_after: 0 }

/**
 * The query of the next page of a live feed: oldest first, from the cursor on. Records that
 * share the last timestamp seen are counted rather than skipped (`created_at[$gte]` with an
 * offset into them), so a page that ends among equal timestamps loses none (ADR 0043). Never
 * throws: a cursor that is not one reads as the start, a size that is not a whole number above 0
 * as 25.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * liveFeedQuery(endpoints.bankTransactions, { after: '2026-11-22T10:00:00Z', seen_at_after: 2 }, 100)
 * //=> '_start=2&_end=102&_order=asc&_field=created_at&created_at%5B%24gte%5D=2026-11-22T10%3A00%3A00Z'
 *
 * @category client
 * @since 0.1.0
 */
export const liveFeedQuery = (endpoint: Endpoint, cursor: LiveCursor, size: number): string => {
  const { after, seen_at_after } = readCursor(cursor)
  const count = isCount(size) && size > 0 ? size : DEFAULT_FEED_PAGE
  return buildQuery(endpoint, {
    window: { start: seen_at_after, end: seen_at_after + count },
    order: 'asc',
    field: 'created_at',
    filters: after === null ? [] : [{ field: 'created_at', op: '$gte', value: after }]
  })
}

/** The page size of a live feed asked for with a size that is not a whole number above 0. */
const DEFAULT_FEED_PAGE = 25

/** A cursor as given and its fields, read once. */
interface ReadCursor {
  readonly given: LiveCursor
  readonly after: string | null
  readonly seen_at_after: number
}

const START: ReadCursor = { given: liveFeedStart, after: null, seen_at_after: 0 }

/** A cursor and its fields, or the start when it is not a live cursor (client functions never throw). */
const readCursor = (cursor: unknown): ReadCursor => {
  try {
    if (typeof cursor !== 'object' || cursor === null) return START
    const { after, seen_at_after } = cursor as { readonly after?: unknown; readonly seen_at_after?: unknown }
    return (after === null || typeof after === 'string') && isCount(seen_at_after)
      ? { given: cursor as LiveCursor, after, seen_at_after }
      : START
  } catch {
    return START
  }
}

/** Whether two `created_at` values name one moment: as instants when both are, else as text. */
const sameMoment = (a: unknown, b: unknown): boolean => {
  if (typeof a !== 'string' || typeof b !== 'string') return false
  if (a === b) return true
  const x = parseInstant(a)
  const y = parseInstant(b)
  return x !== null && y !== null && compareInstants(x, y) === 0
}

/**
 * The cursor after a page of the live feed, taken from its last record (records are
 * `{ created_at }` objects as the endpoint returns them, oldest first). Instants are compared as
 * moments, as the endpoint compares them: `...10:00:00Z`, `...10:00:00.000Z` and
 * `...07:00:00-03:00` are one. Never throws: a page it cannot read leaves the cursor as it was,
 * and a cursor that is not one reads as the start.
 *
 * Law: walking a collection with `liveFeedQuery` and `nextLiveCursor`, any page size from 1,
 * sees every record exactly once and ends on an empty page.
 *
 * @example
 * nextLiveCursor(liveFeedStart, [{ created_at: '2026-11-22T10:00:00Z' }, { created_at: '2026-11-22T07:00:00-03:00' }])
 * //=> { after: '2026-11-22T07:00:00-03:00', seen_at_after: 2 }
 *
 * @category client
 * @since 0.1.0
 */
export const nextLiveCursor = (given: LiveCursor, page: ReadonlyArray<{ readonly created_at: string }>): LiveCursor => {
  const cursor = readCursor(given)
  try {
    if (!Array.isArray(page) || page.length === 0) return cursor.given
    const times: Array<unknown> = page.map((record: unknown) =>
      typeof record === 'object' && record !== null ? (record as { readonly created_at?: unknown }).created_at : undefined
    )
    const last = times[times.length - 1]
    if (typeof last !== 'string') return cursor.given
    let sameAsLast = 0
    for (let i = times.length - 1; i >= 0 && sameMoment(times[i], last); i--) sameAsLast++
    const whole = sameAsLast === times.length && sameMoment(last, cursor.after)
    return { after: last, seen_at_after: whole ? cursor.seen_at_after + sameAsLast : sameAsLast }
  } catch {
    return cursor.given
  }
}
