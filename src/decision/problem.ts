/**
 * Why a request is refused, as data. Each problem carries the id of the rule that refused it
 * and a detail for the server's log; `reply/reply.ts` alone turns a problem into a status and
 * a body.
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * problem.conflict('budget.status.closed', 'The budget is closed')
 * //=> { _tag: 'Conflict', rule: 'budget.status.closed', message: 'The budget is closed', detail: 'The budget is closed' }
 *
 * @since 0.1.0
 */
import type { RuleId } from './rules'
import { describeValue } from '../json/describe'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface Refusal<Tag extends string> {
  readonly _tag: Tag
  readonly rule: RuleId
  /** For the server's log and `reasons`; never sent where the spec wants an empty or fixed body. */
  readonly detail: string
}

/** A refusal whose body carries a message for the client, kept apart from the detail for the log. */
interface Messaged<Tag extends string> extends Refusal<Tag> {
  /** What the client reads in the body's `message`. */
  readonly message: string
}

/**
 * 401, empty body.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(unauthenticated('auth.bearer', 'no Authorization header')) //=> { status: 401, body: null }
 */
export type Unauthenticated = Refusal<'Unauthenticated'>
/**
 * 401, `{error: "email_not_verified", message}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(emailNotVerified('auth.email_verified', 'user u-1 has not verified their email'))
 * //=> { status: 401, body: { error: 'email_not_verified', message: 'Email address not verified' } }
 */
export type EmailNotVerified = Refusal<'EmailNotVerified'>
/**
 * 401, `{message: "Unauthorized (401)"}`: an action-level guard.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(guardRejected('money.permission', 'user u-7 may not move money')) //=> { status: 401, body: { message: 'Unauthorized (401)' } }
 */
export type GuardRejected = Refusal<'GuardRejected'>
/**
 * 404, `{error: "not_found", message}`, the same bytes whatever the cause.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(notFound('budget.scope', 'budget b-1 belongs to another company'))
 * //=> { status: 404, body: { error: 'not_found', message: 'Not found' } }
 */
export type NotFound = Refusal<'NotFound'>
/**
 * 400, `{error: "bad_request", message: detail}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(badRequest('money.body', 'amount_cents is required'))
 * //=> { status: 400, body: { error: 'bad_request', message: 'amount_cents is required' } }
 */
export type BadRequest = Messaged<'BadRequest'>
/**
 * 412, `{message}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(preconditionFailed('budget.body.wrapper', 'no "budget" key in the body'))
 * //=> { status: 412, body: { message: 'The request body must hold the budget under the key "budget"' } }
 */
export type PreconditionFailed = Refusal<'PreconditionFailed'>
/**
 * 403, `{error_code, message}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(forbidden('role.owner', 'roles/owner_required', 'Only an owner can assign the owner role'))
 * //=> { status: 403, body: { error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role' } }
 */
export interface Forbidden extends Messaged<'Forbidden'> {
  readonly error_code: string
}
/**
 * 403, empty body: an action-level guard denied without saying why.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(denied('service.guard', 'the guard denied')) //=> { status: 403, body: null }
 */
export type Denied = Refusal<'Denied'>
/**
 * 409, `{error: "conflict", message: detail}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(conflict('money.status', 'The budget is closing'))
 * //=> { status: 409, body: { error: 'conflict', message: 'The budget is closing' } }
 */
export type Conflict = Messaged<'Conflict'>
/**
 * 422, `{errors: {field: [text, ...]}}`, every invalid field.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(invalid('budget.validation', [{ field: 'name', messages: ["can't be blank"] }]))
 * //=> { status: 422, body: { errors: { name: ["can't be blank"] } } }
 */
export interface Invalid extends Refusal<'Invalid'> {
  readonly errors: ReadonlyArray<FieldError>
}
/**
 * 416, `{message: "Requested page size <N> exceeds maximum of 2000"}`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(rangeNotSatisfiable('page.size', 5000, 2000))
 * //=> { status: 416, body: { message: 'Requested page size 5000 exceeds maximum of 2000' } }
 */
export interface RangeNotSatisfiable extends Refusal<'RangeNotSatisfiable'> {
  readonly size: number
  readonly maximum: number
}
/**
 * 429, `{error: "rate_limit_exceeded", message, retry_after}` and a Retry-After header.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(rateLimited('service.rate_limit', 5))
 * //=> { status: 429, body: { error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 5 }, headers: { 'Retry-After': '5' } }
 */
export interface RateLimited extends Refusal<'RateLimited'> {
  readonly retry_after_s: number
}
/**
 * 500, `{error: "internal_error", message}`: `message` names what the server passed wrong (the
 * field, the value and the shape expected, R-106) when the server's input is at fault, else it
 * is `Internal server error`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(internalError('server.unexpected', 'a getter threw'))
 * //=> { status: 500, body: { error: 'internal_error', message: 'Internal server error' } }
 * statusAndBody(serverMistake('server.input', 'malformed server input at today', 'today is 20261122, not a date (YYYY-MM-DD)'))
 * //=> { status: 500, body: { error: 'internal_error', message: 'Internal server error: today is 20261122, not a date (YYYY-MM-DD)' } }
 */
export interface InternalError extends Refusal<'InternalError'> {
  /** What the 500 tells the server's developer: the field, value and shape at fault. */
  readonly mistake?: string
}
/**
 * 502, 503 or 504, `{error: "upstream_unavailable", message}`: a banking partner or card issuer failed.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(upstream('service.upstream', 503, 'the card issuer timed out'))
 * //=> { status: 503, body: { error: 'upstream_unavailable', message: 'A banking partner is temporarily unavailable; retry with backoff' } }
 */
export interface Upstream extends Refusal<'Upstream'> {
  readonly status: 502 | 503 | 504
}

/**
 * One invalid field of a 422 and what is wrong with it, in the service's words.
 *
 * @example
 * invalid('budget.validation', [{ field: 'name', messages: ["can't be blank"] }]).errors //=> [{ field: 'name', messages: ["can't be blank"] }]
 *
 * @category model
 * @since 0.1.0
 */
export interface FieldError {
  readonly field: string
  readonly messages: ReadonlyArray<string>
}

/**
 * Why a request is refused: one case per reply the spec names, told apart by `_tag`.
 *
 * @example
 * import { statusAndBody } from 'budget-rules/rules'
 *
 * statusAndBody(notFound('auth.membership', 'user u-1 is not a member of company c-2')).status //=> 404
 *
 * @category model
 * @since 0.1.0
 */
export type Problem =
  | Unauthenticated
  | EmailNotVerified
  | GuardRejected
  | NotFound
  | BadRequest
  | PreconditionFailed
  | Forbidden
  | Denied
  | Conflict
  | Invalid
  | RangeNotSatisfiable
  | RateLimited
  | InternalError
  | Upstream

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const refusal =
  <Tag extends Problem['_tag']>(tag: Tag) =>
  (rule: RuleId, detail: string): Refusal<Tag> => ({ _tag: tag, rule, detail })

/** The constructor of a refusal with a client message; the log's detail is the message unless given. */
const messaged =
  <Tag extends 'BadRequest' | 'Conflict'>(tag: Tag) =>
  (rule: RuleId, message: string, detail: string = message): Messaged<Tag> => ({ _tag: tag, rule, message, detail })

/**
 * A {@link Unauthenticated} problem.
 *
 * @example
 * unauthenticated('auth.bearer', 'no Authorization header') //=> { _tag: 'Unauthenticated', rule: 'auth.bearer', detail: 'no Authorization header' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const unauthenticated = /*#__PURE__*/ refusal('Unauthenticated')
/**
 * An {@link EmailNotVerified} problem.
 *
 * @example
 * emailNotVerified('auth.email_verified', 'not verified') //=> { _tag: 'EmailNotVerified', rule: 'auth.email_verified', detail: 'not verified' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const emailNotVerified = /*#__PURE__*/ refusal('EmailNotVerified')
/**
 * A {@link GuardRejected} problem.
 *
 * @example
 * guardRejected('money.permission', 'a member') //=> { _tag: 'GuardRejected', rule: 'money.permission', detail: 'a member' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const guardRejected = /*#__PURE__*/ refusal('GuardRejected')
/**
 * A {@link NotFound} problem.
 *
 * @example
 * notFound('budget.scope', 'no budget with that id') //=> { _tag: 'NotFound', rule: 'budget.scope', detail: 'no budget with that id' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const notFound = /*#__PURE__*/ refusal('NotFound')
/**
 * A {@link BadRequest} problem; its detail is the message the client reads.
 *
 * @example
 * badRequest('money.body', 'amount_cents is required') //=> { _tag: 'BadRequest', rule: 'money.body', message: 'amount_cents is required', detail: 'amount_cents is required' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const badRequest = /*#__PURE__*/ messaged('BadRequest')
/**
 * A {@link PreconditionFailed} problem.
 *
 * @example
 * preconditionFailed('budget.body.wrapper', 'no body') //=> { _tag: 'PreconditionFailed', rule: 'budget.body.wrapper', detail: 'no body' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const preconditionFailed = /*#__PURE__*/ refusal('PreconditionFailed')
/**
 * A {@link Conflict} problem; its detail is the message the client reads.
 *
 * @example
 * conflict('transaction.authorize', 'The transaction is already authorized')
 * //=> { _tag: 'Conflict', rule: 'transaction.authorize', message: 'The transaction is already authorized', detail: 'The transaction is already authorized' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const conflict = /*#__PURE__*/ messaged('Conflict')
/**
 * An {@link InternalError} problem.
 *
 * @example
 * internalError('server.input', 'today is not a date') //=> { _tag: 'InternalError', rule: 'server.input', detail: 'today is not a date' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const internalError = /*#__PURE__*/ refusal('InternalError')
/**
 * An {@link InternalError} the server's own input caused: `detail` for the log, as
 * {@link internalError}'s, and `mistake`, the field, value and shape expected, which the 500's
 * message names so that the developer who wrote the server reads it where they look first.
 *
 * @example
 * serverMistake('page.records', 'record 0 has no valid created_at', 'records[0].created_at is a Date, not an instant as text')
 * //=> { _tag: 'InternalError', rule: 'page.records', detail: 'record 0 has no valid created_at', mistake: 'records[0].created_at is a Date, not an instant as text' }
 *
 * @category constructors
 * @since 0.5.0
 */
export const serverMistake = (rule: RuleId, detail: string, mistake: string): InternalError => ({
  _tag: 'InternalError',
  rule,
  detail,
  mistake
})
/**
 * A {@link Denied} problem.
 *
 * @example
 * denied('service.guard', 'denied') //=> { _tag: 'Denied', rule: 'service.guard', detail: 'denied' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const denied = /*#__PURE__*/ refusal('Denied')

/**
 * A 429 whose Retry-After is `retry_after_s`: a whole number of seconds from 0 to
 * `Number.MAX_SAFE_INTEGER`, the only values delta-seconds can spell. Any other value is a
 * `TypeError` naming it: rounding 1.5 or -3 would send a wait the caller did not choose.
 *
 * @example
 * rateLimited('service.rate_limit', 5) //=> { _tag: 'RateLimited', rule: 'service.rate_limit', detail: 'retry after 5 s', retry_after_s: 5 }
 * rateLimited('service.rate_limit', 1.5)
 * //=> throws TypeError('problem.rateLimited: retry_after_s must be a whole number of seconds from 0 to 9007199254740991, not 1.5')
 *
 * @category constructors
 * @since 0.1.0
 */
export const rateLimited = (rule: RuleId, retry_after_s: number): RateLimited => {
  const seconds: unknown = retry_after_s
  if (!Number.isSafeInteger(seconds) || (seconds as number) < 0) {
    throw new TypeError(
      `problem.rateLimited: retry_after_s must be a whole number of seconds from 0 to ${Number.MAX_SAFE_INTEGER}, not ${describeValue(seconds)}`
    )
  }
  // + 0 turns -0 into 0.
  const whole = (seconds as number) + 0
  return { _tag: 'RateLimited', rule, detail: `retry after ${whole} s`, retry_after_s: whole }
}

/**
 * An {@link Upstream} problem: a banking partner or card issuer answered `status` or not at all.
 *
 * @example
 * upstream('service.upstream', 504, 'timeout') //=> { _tag: 'Upstream', rule: 'service.upstream', detail: 'timeout', status: 504 }
 *
 * @category constructors
 * @since 0.1.0
 */
export const upstream = (rule: RuleId, status: 502 | 503 | 504, detail: string): Upstream => ({
  _tag: 'Upstream',
  rule,
  detail,
  status
})

/**
 * A {@link Forbidden} problem; its detail is the message the client reads.
 *
 * @example
 * forbidden('role.owner', 'roles/owner_required', 'Only an owner can assign the owner role')
 * //=> { _tag: 'Forbidden', rule: 'role.owner', error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role', detail: 'Only an owner can assign the owner role' }
 *
 * @category constructors
 * @since 0.1.0
 */
export const forbidden = (rule: RuleId, error_code: string, message: string, detail: string = message): Forbidden => ({
  _tag: 'Forbidden',
  rule,
  error_code,
  message,
  detail
})

/**
 * An {@link Invalid} problem naming every invalid field; its detail lists them for the log.
 *
 * @example
 * invalid('budget.validation', [{ field: 'name', messages: ["can't be blank"] }, { field: 'ends_on', messages: ['must be after 2026-11-22'] }]).detail
 * //=> "name: can't be blank; ends_on: must be after 2026-11-22"
 *
 * @category constructors
 * @since 0.1.0
 */
export const invalid = (rule: RuleId, errors: ReadonlyArray<FieldError>): Invalid => ({
  _tag: 'Invalid',
  rule,
  detail: errors.map((e) => `${e.field}: ${e.messages.join(', ')}`).join('; '),
  errors
})

/**
 * A {@link RangeNotSatisfiable} problem: a window of `size` records, over `maximum`.
 *
 * @example
 * rangeNotSatisfiable('page.size', 5000, 2000)
 * //=> { _tag: 'RangeNotSatisfiable', rule: 'page.size', detail: 'a window of 5000 records, over the maximum of 2000', size: 5000, maximum: 2000 }
 *
 * @category constructors
 * @since 0.1.0
 */
export const rangeNotSatisfiable = (rule: RuleId, size: number, maximum: number): RangeNotSatisfiable => ({
  _tag: 'RangeNotSatisfiable',
  rule,
  detail: `a window of ${size} records, over the maximum of ${maximum}`,
  size,
  maximum
})
