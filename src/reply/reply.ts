/**
 * The one module that writes statuses, headers and error bodies. Everything else speaks in
 * {@link Problem}s; the facades hand them here.
 *
 * Laws:
 * - every reply has an `X-Request-Id` header equal to the request id given;
 * - `Content-Type` is present exactly when `body !== null`;
 * - two `NotFound` problems give replies equal in status, headers (but X-Request-Id) and body,
 *   whatever their rule or detail: existence is not leaked.
 *
 * @example
 * import { problemReply, problem } from 'budget-rules/rules'
 *
 * problemReply('req-1', [])(problem.notFound('auth.membership', 'no membership for c-2'))
 * //=> { status: 404, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { error: 'not_found', message: 'Not found' }, reasons: [] }
 *
 * @since 0.1.0
 */
import type { Reason } from '../decision/rules'
import type { Problem } from '../decision/problem'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A reply of one status with one body: what a server sends back, and why (contract section 2).
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * const reply = problemReply('req-1', [])(problem.notFound('budget.scope', 'no budget'))
 * // a ReplyOf<404, { error: 'not_found'; message: string }> once the status is known
 * reply.status === 404 && reply.body.error //=> 'not_found'
 *
 * @category model
 * @since 0.1.0
 */
export interface ReplyOf<S extends number, B> {
  readonly status: S
  /** Always `X-Request-Id`; `Content-Type` exactly when `body` is not `null`. */
  readonly headers: Readonly<Record<string, string>>
  /** A JSON value; `null` is an empty body. */
  readonly body: B
  /** The rules consulted, in order. For logs: never send them to the client. */
  readonly reasons: ReadonlyArray<Reason>
}

/**
 * Every error reply the library builds, by status (spec section 7, contract sections 4, 5, 9):
 * after `if (reply.status === 422)` the body is known to be the errors map, and so on.
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * const reply = problemReply('req-1', [])(problem.invalid('budget.validation', [{ field: 'name', messages: ["can't be blank"] }]))
 * reply.status === 422 && reply.body.errors //=> { name: ["can't be blank"] }
 *
 * @category model
 * @since 0.1.0
 */
export type ProblemReply =
  | ReplyOf<400, { readonly error: 'bad_request'; readonly message: string }>
  | ReplyOf<401, null | { readonly error: 'email_not_verified'; readonly message: string } | { readonly message: string }>
  | ReplyOf<403, null | { readonly error_code: string; readonly message: string }>
  | ReplyOf<404, { readonly error: 'not_found'; readonly message: string }>
  | ReplyOf<409, { readonly error: 'conflict'; readonly message: string }>
  | ReplyOf<412, { readonly message: string }>
  | ReplyOf<416, { readonly message: string }>
  | ReplyOf<422, { readonly errors: Readonly<Record<string, ReadonlyArray<string>>> }>
  | ReplyOf<429, { readonly error: 'rate_limit_exceeded'; readonly message: string; readonly retry_after: number }>
  | ReplyOf<500, { readonly error: 'internal_error'; readonly message: string }>
  | ReplyOf<502 | 503 | 504, { readonly error: 'upstream_unavailable'; readonly message: string }>

/**
 * A facade's reply: its success (`Ok`, a {@link ReplyOf} a status in the 2xx range, with what
 * to persist) or one of the {@link ProblemReply}s, discriminated by `status`.
 *
 * @example
 * import { respondBudgetUpdate } from 'budget-rules'
 *
 * const reply = respondBudgetUpdate({ request: { headers, body: '{"budget":{"name":"Travel"}}' }, session, budget, today: '2026-11-22', request_id: 'req-1' })
 * // after the status check, `reply.budget` is there: no cast
 * reply.status === 200 && reply.budget.name //=> 'Travel'
 *
 * @category model
 * @since 0.1.0
 */
export type Reply<Ok extends ReplyOf<number, unknown> = ReplyOf<200, unknown>> = Ok | ProblemReply

/**
 * Any reply, of any status: what the generic steps of a facade handle.
 *
 * @example
 * reply(204, 'req-1', [], null).status //=> 204
 */
export type AnyReply = ReplyOf<number, unknown>

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The media type of every body.
 *
 * @example
 * JSON_CONTENT_TYPE //=> 'application/json; charset=utf-8'
 *
 * @category constants
 * @since 0.1.0
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * The fixed texts of the fixed bodies.
 *
 * @example
 * messages.guardRejected //=> 'Unauthorized (401)'
 *
 * @category constants
 * @since 0.1.0
 */
export const messages = {
  emailNotVerified: 'Email address not verified',
  guardRejected: 'Unauthorized (401)',
  notFound: 'Not found',
  preconditionFailed: 'The request body must hold the budget under the key "budget"',
  rateLimited: 'Too many requests',
  internalError: 'Internal server error',
  upstream: 'A banking partner is temporarily unavailable; retry with backoff'
} as const

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const headersFor = (requestId: string, body: unknown, extra: Readonly<Record<string, string>>): Record<string, string> =>
  body === null
    ? { ...extra, 'X-Request-Id': requestId }
    : { ...extra, 'X-Request-Id': requestId, 'Content-Type': JSON_CONTENT_TYPE }

/**
 * A reply with a body (or an empty one when `body` is `null`), and any further headers (the
 * page headers of an index reply).
 *
 * @example
 * reply(204, 'req-1', [], null) //=> { status: 204, headers: { 'X-Request-Id': 'req-1' }, body: null, reasons: [] }
 *
 * @category constructors
 * @since 0.1.0
 */
export const reply = <S extends number, B>(
  status: S,
  requestId: string,
  reasons: ReadonlyArray<Reason>,
  body: B,
  headers: Readonly<Record<string, string>> = {}
): ReplyOf<S, B> => ({
  status,
  headers: headersFor(requestId, body, headers),
  body,
  reasons
})

/** Keys built with `Object.fromEntries` are own data properties, so `__proto__` stays a plain key. */
const errorsMap = (p: Extract<Problem, { _tag: 'Invalid' }>): Record<string, ReadonlyArray<string>> =>
  Object.fromEntries(p.errors.map((e) => [e.field, e.messages]))

/**
 * The status of each kind of problem (spec section 7): the one place a status is written. The
 * rules catalogue names kinds; the statuses it documents come from here.
 *
 * @example
 * statuses.Unauthenticated //=> [401]
 * statuses.Upstream //=> [502, 503, 504]
 *
 * @category constants
 * @since 0.1.0
 */
export const statuses: { readonly [K in Problem['_tag']]: ReadonlyArray<number> } = {
  BadRequest: [400],
  Unauthenticated: [401],
  EmailNotVerified: [401],
  GuardRejected: [401],
  Forbidden: [403],
  Denied: [403],
  NotFound: [404],
  Conflict: [409],
  PreconditionFailed: [412],
  RangeNotSatisfiable: [416],
  Invalid: [422],
  RateLimited: [429],
  InternalError: [500],
  Upstream: [502, 503, 504]
}

/**
 * The status and body of a problem (spec section 7, contract sections 4, 5, 9).
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * statusAndBody(problem.guardRejected('budget.permission.update', 'user u-2 has no budget rights'))
 * //=> { status: 401, body: { message: 'Unauthorized (401)' } }
 *
 * @category destructors
 * @since 0.1.0
 */
export const statusAndBody = (
  p: Problem
): { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> } => {
  const status = p._tag === 'Upstream' ? p.status : (statuses[p._tag][0] as number)
  switch (p._tag) {
    case 'Unauthenticated':
    case 'Denied':
      return { status, body: null }
    case 'EmailNotVerified':
      return { status, body: { error: 'email_not_verified', message: messages.emailNotVerified } }
    case 'GuardRejected':
      return { status, body: { message: messages.guardRejected } }
    case 'NotFound':
      return { status, body: { error: 'not_found', message: messages.notFound } }
    case 'BadRequest':
      return { status, body: { error: 'bad_request', message: p.message } }
    case 'PreconditionFailed':
      return { status, body: { message: messages.preconditionFailed } }
    case 'Forbidden':
      return { status, body: { error_code: p.error_code, message: p.message } }
    case 'Conflict':
      return { status, body: { error: 'conflict', message: p.message } }
    case 'Invalid':
      return { status, body: { errors: errorsMap(p) } }
    case 'RangeNotSatisfiable':
      return { status, body: { message: `Requested page size ${p.size} exceeds maximum of ${p.maximum}` } }
    case 'RateLimited':
      return {
        status,
        body: { error: 'rate_limit_exceeded', message: messages.rateLimited, retry_after: p.retry_after_s },
        headers: { 'Retry-After': String(p.retry_after_s) }
      }
    case 'InternalError':
      return {
        status,
        body: {
          error: 'internal_error',
          message: p.mistake === undefined ? messages.internalError : `${messages.internalError}: ${p.mistake}`
        }
      }
    case 'Upstream':
      return { status, body: { error: 'upstream_unavailable', message: messages.upstream } }
  }
}

/**
 * The reply to a problem, with the rules consulted up to and including the one that refused.
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * problemReply('req-1', [{ rule: 'service.rate_limit', detail: 'retry after 5 s' }])(problem.rateLimited('service.rate_limit', 5))
 * //=> { status: 429, headers: { 'Retry-After': '5', 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 5 },
 * //     reasons: [{ rule: 'service.rate_limit', detail: 'retry after 5 s' }] }
 *
 * @category constructors
 * @since 0.1.0
 */
export const problemReply =
  (requestId: string, reasons: ReadonlyArray<Reason>) =>
  (p: Problem): ProblemReply => {
    const { status, body, headers } = statusAndBody(p)
    // statusAndBody pairs each status with its body, as ProblemReply lists them.
    return reply(status, requestId, reasons, body, headers) as ProblemReply
  }
