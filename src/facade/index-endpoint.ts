/**
 * Any index endpoint over an in-memory collection: authentication (company-id where the
 * endpoint needs it), the query (400), the window size (416), filters, a stable sort, the window,
 * the page headers and the body (contract section 8). The records given are already scoped to
 * the company by the server.
 *
 * Rules consulted, in order: the authentication rules, `page.query`, `page.window`,
 * `page.filter`, `page.size`, `page.records`, `page.slice`, `page.headers`.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // records: three bank transactions, tx-1 to tx-3, oldest first
 * const { reasons, ...reply } = respondIndex({ request: { headers, query: '_start=0&_end=2&_order=desc' }, session,
 *   endpoint: endpoints.bankTransactions, records, request_id: 'req-1' })
 * reply
 * //=> { status: 200,
 * //     headers: { 'X-Total-Count': '3', 'Content-Range': '0-1/3', 'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
 * //                'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: [records[2], records[1]] }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'page.query', 'page.window',
 * //    'page.filter', 'page.size', 'page.records', 'page.slice', 'page.headers']
 *
 * @since 0.1.0
 */
import { either as E, function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, identify, type Scope, Session } from '../auth/session'
import { hasFullBudgetRights } from '../budget/permissions'
import * as problem from '../decision/problem'
import { bind, chain, check, fail, map, pass, tap, type Trail } from '../decision/trail'
import { isCount } from '../json/value'
import { Request } from '../http/request'
import { type DecisionEndpoint, decisionEndpoints } from '../decision/endpoints'
import { type Endpoint, type FieldType, spellOrder } from '../paging/endpoint'
import { pageHeaders } from '../paging/headers'
import { decodePageRequest, type PageRequest } from '../paging/request'
import { plainPage, selectPage } from '../paging/select'
import { encodeQuery } from '../http/query-string'
import type { PageWindow } from '../paging/window'
import { problemReply, type Reply, type ReplyOf } from '../reply/reply'
import { checkOnly, guarded, respondWith, settle } from './context'
import { readableDecisions } from './decision-readers'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

const FieldTypeCodec = /*#__PURE__*/ t.intersection([
  t.union([
    t.type({ type: t.keyof({ integer: null, instant: null, id: null, string: null, json: null }) }),
    t.type({ type: t.literal('enum'), values: t.array(t.string) })
  ]),
  t.partial({ nullable: t.boolean })
])

/**
 * The codec of an {@link Endpoint}, for the facade's own check of what the server passes.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * EndpointCodec.is(endpoints.companies) //=> true
 * EndpointCodec.is({ ...endpoints.companies, orderCase: 'mixed' }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const EndpointCodec = /*#__PURE__*/ t.intersection([
  t.type({
    path: t.string,
    fields: t.record(t.string, FieldTypeCodec),
    sortable: t.array(t.string),
    defaultField: t.string,
    orderCase: t.keyof({ lower: null, upper: null }),
    envelope: t.keyof({ bare: null, 'data-cursors': null }),
    requiresCompany: t.boolean
  }),
  t.partial({ readableBy: t.keyof({ members: null, full_rights: null, by_decision_endpoint: null }) })
])

/**
 * The check of what a server hands {@link respondIndex}: a malformed one is a 500.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * IndexContext.is({ request: { headers }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-1' }) //=> true
 *
 * @category codecs
 * @since 0.1.0
 */
export const IndexContext = /*#__PURE__*/ t.type({
  request: Request,
  session: Session,
  endpoint: EndpointCodec,
  records: t.UnknownArray,
  request_id: t.string
})

/**
 * What the server hands {@link respondIndex}: the request as received, the session, the
 * endpoint's description and its records, already scoped to the company.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // GET /v1/companies needs no company-id and answers {data, cursors}
 * respondIndex({ request: { headers: { Authorization: 'Bearer k' }, query: '' }, session, endpoint: endpoints.companies,
 *   records: [{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }], request_id: 'req-1' }).body
 * //=> { data: [{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }],
 * //     cursors: { previous: null, next: null } }
 *
 * @category model
 * @since 0.1.0
 */
export interface IndexContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly endpoint: Endpoint
  readonly records: ReadonlyArray<unknown>
  readonly request_id: string
}

/**
 * The reply of an index endpoint: on a 200, the bare array of records, or GET /v1/companies'
 * `{data, cursors}` (ADR 0042), with the page headers.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const reply = respondIndex({ request: { headers, query: '_start=2&_end=4' }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-1' })
 * reply.status === 200 && reply.headers['Content-Range'] //=> '2-2/3'
 * reply.body //=> [records[2]]
 *
 * @category model
 * @since 0.1.0
 */
export type IndexReply = Reply<
  ReplyOf<
    200,
    | ReadonlyArray<unknown>
    | {
        readonly data: ReadonlyArray<unknown>
        readonly cursors: { readonly previous: string | null; readonly next: string | null }
      }
  >
>

// -------------------------------------------------------------------------------------
// cursors
// -------------------------------------------------------------------------------------

/** A query string for another window, keeping the order, field and filters of this one. */
const cursorQuery = (request: PageRequest, endpoint: Endpoint, window: PageWindow): string =>
  encodeQuery([
    ['_start', String(window.start)],
    ['_end', String(window.end)],
    ['_order', spellOrder(endpoint, request.sort.order)],
    ['_field', request.sort.field],
    ...request.filterParameters
  ])

/**
 * The `{data, cursors}` body of GET /v1/companies (ADR 0042): each cursor is the query string
 * of the previous or next window, or null when there is none.
 */
const envelope = (endpoint: Endpoint, request: PageRequest, page: ReadonlyArray<unknown>, total: number) => {
  const { start, end } = request.window
  const size = end - start
  return {
    data: page,
    cursors: {
      previous: start > 0 && size > 0 ? cursorQuery(request, endpoint, { start: Math.max(0, start - size), end: start }) : null,
      next: size > 0 && end < total ? cursorQuery(request, endpoint, { start: end, end: end + size }) : null
    }
  }
}

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * Authentication (company-id where the endpoint needs it), the caller's rights where the
 * endpoint is read only with full rights, then the query: the page request, narrowed to the
 * records the caller may read where the endpoint serves decision records.
 */
export const decideRequest = (c: IndexQueryContext): Trail<PageRequest> => {
  const endpoint: Endpoint = c.endpoint
  const query = c.request.query ?? ''
  if (!endpoint.requiresCompany)
    return fn.pipe(
      identify(c.request, c.session),
      chain(() => decodePageRequest(endpoint, query))
    )
  const scoped = authenticate(c.request, c.session)
  if (endpoint.readableBy === undefined || endpoint.readableBy === 'members')
    return fn.pipe(
      scoped,
      chain(() => decodePageRequest(endpoint, query))
    )
  const byEndpoint = endpoint.readableBy === 'by_decision_endpoint'
  return fn.pipe(
    scoped,
    chain(({ caller }) => readerWithFullRights(caller, byEndpoint ? readableDecisions(caller) : decisionEndpoints)),
    chain((readable) =>
      fn.pipe(
        decodePageRequest(endpoint, query),
        map((request) => (readable.length === decisionEndpoints.length ? request : narrowed(request, readable)))
      )
    )
  )
}

/**
 * R-121: an endpoint read only with full rights refuses anyone else as a guard does (401); the
 * rule names which decisions' records the caller may read (R-125) when it is not all of them
 * (an endpoint of other records is read whole: all of them).
 */
const readerWithFullRights = (
  caller: Scope['caller'],
  readable: ReadonlyArray<DecisionEndpoint>
): Trail<ReadonlyArray<DecisionEndpoint>> =>
  hasFullBudgetRights(caller)
    ? pass(
        'page.permission',
        readable.length === decisionEndpoints.length
          ? `${caller.role} may read`
          : `${caller.role} may read the records of ${readable.join(', ')}`,
        readable
      )
    : fail(problem.guardRejected('page.permission', `user ${caller.user_id} has no full rights`))

/** The type of a record's `endpoint`: a decision's name. */
const DECISION_ENDPOINT: FieldType = { type: 'enum', values: decisionEndpoints }

/** the page request over only the records of the decisions the caller may read. */
const narrowed = (request: PageRequest, readable: ReadonlyArray<DecisionEndpoint>): PageRequest => ({
  ...request,
  filters: [...request.filters, { field: 'endpoint', type: DECISION_ENDPOINT, op: '$in', values: readable }]
})

/** A page and the count of every record that matches. */
export interface Found {
  readonly page: ReadonlyArray<unknown>
  readonly total: number
}

/** The reply to a page found, with the page headers: the last steps of contract section 8. */
export const pageReply = (
  c: IndexQueryContext,
  trail: Trail<{ readonly request: PageRequest; readonly selected: Found }>
): IndexReply => {
  const endpoint: Endpoint = c.endpoint
  const replied = fn.pipe(
    trail,
    tap(({ request, selected }) => pass('page.slice', `${selected.page.length} records from ${request.window.start}`, null)),
    bind('headers', ({ request, selected }) =>
      check(
        'page.headers',
        (headers) => `Content-Range ${headers['Content-Range'] ?? ''}`,
        pageHeaders(request.window, selected.page.length, selected.total)
      )
    ),
    map(({ request, selected: { page, total }, headers }) => ({
      headers,
      body: endpoint.envelope === 'bare' ? page : envelope(endpoint, request, page, total)
    }))
  )
  return settle(c.request_id, replied, (page) => page)
}

/**
 * The reply to GET on an index endpoint. Never throws.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * respondIndex({ request: { headers, query: '_start=0&_end=5000' }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-1' }).body
 * //=> { message: 'Requested page size 5000 exceeds maximum of 2000' }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondIndex: (context: IndexContext) => IndexReply = /*#__PURE__*/ respondWith(
  checkOnly(IndexContext),
  (c): IndexReply =>
    // The steps, in the order of contract section 8, each a rule of its own.
    pageReply(
      c,
      fn.pipe(
        decideRequest(c),
        map((request) => ({ request })),
        bind('selected', ({ request }) =>
          check(
            'page.records',
            ({ total }) => `${c.records.length} records, ${total} match`,
            selectPage(c.endpoint, c.records, request.filters, request.sort, request.window)
          )
        )
      )
    )
)

// -------------------------------------------------------------------------------------
// a page found by the server's database
// -------------------------------------------------------------------------------------

/**
 * What a server hands {@link planIndex}: an index request, without the records, for a server
 * that asks its database for one page (`budget-rules/sql` writes the query).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * planIndex({ request: { headers, query: '_end=2' }, session, endpoint: endpoints.bankTransactions, request_id: 'req-1' })._tag //=> 'Page'
 *
 * @category model
 * @since 0.2.0
 */
export type IndexQueryContext = Omit<IndexContext, 'records'>

const IndexQueryContext = /*#__PURE__*/ t.type({
  request: Request,
  session: Session,
  endpoint: EndpointCodec,
  request_id: t.string
})

/**
 * What {@link planIndex} decides: a reply already (401, 404, 400, 416, 500), or the page request
 * the server's database is to answer.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const plan = planIndex({ request: { headers, query: '_end=2&status=pending' }, session, endpoint: endpoints.bankTransactions, request_id: 'req-1' })
 * plan._tag === 'Page' && plan.request.window //=> { start: 0, end: 2 }
 *
 * @category model
 * @since 0.2.0
 */
export type IndexPlan =
  { readonly _tag: 'Reply'; readonly reply: IndexReply } | { readonly _tag: 'Page'; readonly request: PageRequest }

/**
 * The first half of an index request answered by a database: authentication and the query
 * decoded, as {@link respondIndex} does them. A `Page` plan holds the window, filters and sort
 * to query; hand the rows and the count found to {@link respondIndexPage}. Never throws.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const plan = planIndex({ request: { headers, query: '_start=0&_end=5000' }, session, endpoint: endpoints.bankTransactions, request_id: 'req-1' })
 * plan._tag === 'Reply' && plan.reply.status //=> 416
 *
 * @category facades
 * @since 0.2.0
 */
export const planIndex: (context: IndexQueryContext) => IndexPlan = /*#__PURE__*/ guarded(
  checkOnly(IndexQueryContext),
  (c): IndexPlan => {
    const trail = decideRequest(c)
    return E.isRight(trail.result)
      ? { _tag: 'Page', request: trail.result.right }
      : { _tag: 'Reply', reply: problemReply(c.request_id, trail.reasons)(trail.result.left) }
  },
  (reply): IndexPlan => ({ _tag: 'Reply', reply })
)

/**
 * What a server hands {@link respondIndexPage}: the request again, the rows its database
 * returned for the plan's window, in order, and the count of every matching row.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const rows = [records[0], records[1]]
 * respondIndexPage({ request: { headers, query: '_end=2' }, session, endpoint: endpoints.bankTransactions, request_id: 'req-1', page: rows, total: 3 }).status
 * //=> 200
 *
 * @category model
 * @since 0.2.0
 */
export interface IndexPageContext extends IndexQueryContext {
  readonly page: ReadonlyArray<unknown>
  readonly total: number
}

const IndexPageContext = /*#__PURE__*/ t.intersection([
  IndexQueryContext,
  t.type({ page: t.UnknownArray, total: t.refinement(t.number, isCount, 'count') })
])

/**
 * Whether `length` rows are exactly the window's part of `total`: every row of the window that
 * exists, no more, no fewer. Anything else is the server's mistake (its two queries saw two
 * states of the table, say).
 */
const fitsWindow = (window: PageWindow, length: number, total: number): boolean =>
  length === Math.max(0, Math.min(window.end, total) - window.start)

/**
 * The second half of an index request answered by a database: the page headers and body of the
 * rows found, as {@link respondIndex} would reply over the whole collection. The request is
 * decided again (the facade keeps nothing between calls), and a page that is not exactly the
 * window's part of `total` rows is a 500. Never throws.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const { reasons, ...reply } = respondIndexPage({ request: { headers, query: '_start=1&_end=3' }, session,
 *   endpoint: endpoints.bankTransactions, request_id: 'req-1', page: [records[1], records[2]], total: 3 })
 * reply.headers['Content-Range'] //=> '1-2/3'
 * reasons.map((r) => r.rule).slice(-3) //=> ['page.records', 'page.slice', 'page.headers']
 *
 * @category facades
 * @since 0.2.0
 */
export const respondIndexPage: (context: IndexPageContext) => IndexReply = /*#__PURE__*/ respondWith(
  IndexPageContext,
  (c): IndexReply =>
    pageReply(
      c,
      fn.pipe(
        decideRequest(c),
        map((request) => ({ request })),
        bind('selected', ({ request }) =>
          check<Found>(
            'page.records',
            ({ total }) => `${total} match, ${c.page.length} found by the database`,
            fitsWindow(request.window, c.page.length, c.total)
              ? E.map((page: ReadonlyArray<unknown>) => ({ page, total: c.total }))(plainPage(c.endpoint, c.page))
              : E.left(
                  problem.serverMistake(
                    'server.input',
                    `a page of ${c.page.length} rows of ${c.total} does not fit the window [${request.window.start}, ${request.window.end})`,
                    `page holds ${c.page.length} rows and total is ${c.total}, not a page of the window [${request.window.start}, ${request.window.end}) of that many`
                  )
                )
          )
        )
      )
    )
)
