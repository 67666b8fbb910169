/**
 * The replies a server gives on its own account, before or instead of any endpoint's rules
 * (spec section 7, contract section 9): its rate limiter tripped (429 with Retry-After), a banking
 * partner failed (502, 503 or 504), or an action-level guard of its own denied without a body
 * (403, empty). The library writes them so that they have the same shapes, headers and `reasons`
 * as every other reply.
 *
 * Rules applied: `service.rate_limit`, `service.upstream`, `service.guard`.
 *
 * @example
 * import { respondServiceRefusal } from 'budget-rules'
 *
 * respondServiceRefusal({ refusal: { kind: 'rate_limited', retry_after_s: 30 }, request_id: 'req-1' })
 * //=> { status: 429,
 * //     headers: { 'Retry-After': '30', 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 30 },
 * //     reasons: [{ rule: 'service.rate_limit', detail: 'retry after 30 s' }] }
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import * as problem from '../decision/problem'
import { problemReply, type ProblemReply } from '../reply/reply'
import { respondWith } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface WholeSecondsBrand {
  readonly WholeSeconds: unique symbol
}

/** A whole number of seconds from 0: all that a Retry-After can say. */
const WholeSeconds = /*#__PURE__*/ t.brand(
  t.number,
  (n): n is t.Branded<number, WholeSecondsBrand> => Number.isSafeInteger(n) && n >= 0,
  'WholeSeconds'
)

const Refusal = /*#__PURE__*/ t.union([
  /*#__PURE__*/ t.type({ kind: /*#__PURE__*/ t.literal('rate_limited'), retry_after_s: WholeSeconds }),
  /*#__PURE__*/ t.type({
    kind: /*#__PURE__*/ t.literal('upstream'),
    status: /*#__PURE__*/ t.union([/*#__PURE__*/ t.literal(502), /*#__PURE__*/ t.literal(503), /*#__PURE__*/ t.literal(504)])
  }),
  /*#__PURE__*/ t.type({ kind: /*#__PURE__*/ t.literal('denied') })
])

const ServiceRefusalContext = /*#__PURE__*/ t.type({ refusal: Refusal, request_id: t.string }, 'ServiceRefusalContext')

/**
 * What the server refuses on its own account, and the request id to echo.
 *
 * @example
 * const c: ServiceRefusalContext = { refusal: { kind: 'upstream', status: 503 }, request_id: 'req-1' }
 * respondServiceRefusal(c).status //=> 503
 *
 * @category model
 * @since 0.1.0
 */
export interface ServiceRefusalContext {
  readonly refusal:
    | { readonly kind: 'rate_limited'; readonly retry_after_s: number }
    | { readonly kind: 'upstream'; readonly status: 502 | 503 | 504 }
    | { readonly kind: 'denied' }
  readonly request_id: string
}

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * The reply to a request the server refuses on its own account. Never throws: a refusal that is
 * not one of the three (a `retry_after_s` that is not whole seconds, say) is a 500.
 *
 * @example
 * respondServiceRefusal({ refusal: { kind: 'denied' }, request_id: 'req-1' })
 * //=> { status: 403, headers: { 'X-Request-Id': 'req-1' }, body: null,
 * //     reasons: [{ rule: 'service.guard', detail: 'denied by a guard of the server' }] }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondServiceRefusal: (context: ServiceRefusalContext) => ProblemReply = /*#__PURE__*/ respondWith(
  ServiceRefusalContext,
  (c): ProblemReply => {
    const r = c.refusal
    const p =
      r.kind === 'rate_limited'
        ? problem.rateLimited('service.rate_limit', r.retry_after_s)
        : r.kind === 'upstream'
          ? problem.upstream('service.upstream', r.status, `a banking partner failed (${r.status})`)
          : problem.denied('service.guard', 'denied by a guard of the server')
    return problemReply(c.request_id, [{ rule: p.rule, detail: p.detail }])(p)
  }
)
