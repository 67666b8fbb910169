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
 * respondIndex({ request: { headers, query: '_start=0&_end=2&_order=desc' }, session,
 *   endpoint: endpoints.bankTransactions, records, request_id: 'req-1' })
 * //=> { status: 200, headers: { 'X-Total-Count': '120', 'Content-Range': '0-1/120', ... }, body: [newest, next], reasons }
 *
 * @since 0.1.0
 */
import { either as E, function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, identify, Session } from '../auth/session'
import { chain, check, pass, type Trail } from '../decision/trail'
import { Request } from '../http/request'
import type { Endpoint } from '../paging/endpoint'
import { pageHeaders } from '../paging/headers'
import { decodePageRequest, type PageRequest } from '../paging/request'
import { selectPage } from '../paging/select'
import { encodeQuery } from '../paging/query'
import { type PageWindow, spellOrder } from '../paging/window'
import type { Reply } from '../reply/reply'
import { respondWith, settle } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

const FieldTypeCodec = t.union([
  t.type({ type: t.keyof({ integer: null, instant: null, id: null, string: null }) }),
  t.type({ type: t.literal('enum'), values: t.array(t.string) })
])

/**
 * The codec of an {@link Endpoint}, for the facade's own check of what the server passes.
 *
 * @category codecs
 * @since 0.1.0
 */
export const EndpointCodec = /*#__PURE__*/ t.type({
  path: t.string,
  fields: t.record(t.string, FieldTypeCodec),
  sortable: t.array(t.string),
  defaultField: t.string,
  orderCase: t.keyof({ lower: null, upper: null }),
  envelope: t.keyof({ bare: null, 'data-cursors': null }),
  requiresCompany: t.boolean
})

/**
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
 * The reply to GET on an index endpoint. Never throws.
 *
 * @category facades
 * @since 0.1.0
 */
export const respondIndex: (context: IndexContext) => Reply = /*#__PURE__*/ respondWith(IndexContext, (c): Reply => {
  const endpoint: Endpoint = c.endpoint
  const authenticated: Trail<unknown> = endpoint.requiresCompany
    ? authenticate(c.request, c.session)
    : identify(c.request, c.session)
  const trail: Trail<{ readonly body: unknown; readonly headers: Record<string, string> }> = fn.pipe(
    authenticated,
    chain(() => decodePageRequest(endpoint, c.request.query ?? '')),
    chain((request) =>
      fn.pipe(
        check('page.records', ({ total }) => `${c.records.length} records, ${total} match`, selectPage(endpoint, c.records, request.filters, request.sort, request.window)),
        chain(({ page, total }) =>
          fn.pipe(
            pass('page.slice', `${page.length} records from ${request.window.start}`, null),
            chain(() =>
              check(
                'page.headers',
                (r) => `Content-Range ${r.headers['Content-Range'] ?? ''}`,
                E.map((headers: Record<string, string>) => ({
                  headers,
                  body: endpoint.envelope === 'bare' ? page : envelope(endpoint, request, page, total)
                }))(pageHeaders(request.window, page.length, total))
              )
            )
          )
        )
      )
    )
  )
  return settle(c.request_id, trail, (page) => page)
})
