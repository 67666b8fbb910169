/**
 * Why a request is refused, as data. Each problem carries the id of the rule that refused it
 * and a detail for the server's log; `reply/reply.ts` alone turns a problem into a status and
 * a body.
 *
 * @example
 * import { problem } from 'budget-rules'
 *
 * problem.conflict('budget.status.closed', 'The budget is closed')
 * //=> { _tag: 'Conflict', rule: 'budget.status.closed', detail: 'The budget is closed' }
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

/** 401, empty body. */
export type Unauthenticated = Refusal<'Unauthenticated'>
/** 401, `{error: "email_not_verified", message}`. */
export type EmailNotVerified = Refusal<'EmailNotVerified'>
/** 401, `{message: "Unauthorized (401)"}`: an action-level guard. */
export type GuardRejected = Refusal<'GuardRejected'>
/** 404, `{error: "not_found", message}`, the same bytes whatever the cause. */
export type NotFound = Refusal<'NotFound'>
/** 400, `{error: "bad_request", message: detail}`. */
export type BadRequest = Refusal<'BadRequest'>
/** 412, `{message}`. */
export type PreconditionFailed = Refusal<'PreconditionFailed'>
/** 403, `{error_code, message}`. */
export interface Forbidden extends Refusal<'Forbidden'> {
  readonly error_code: string
}
/** 403, empty body: an action-level guard denied without saying why. */
export type Denied = Refusal<'Denied'>
/** 409, `{error: "conflict", message: detail}`. */
export type Conflict = Refusal<'Conflict'>
/** 422, `{errors: {field: [text, ...]}}`, every invalid field. */
export interface Invalid extends Refusal<'Invalid'> {
  readonly errors: ReadonlyArray<FieldError>
}
/** 416, `{message: "Requested page size <N> exceeds maximum of 2000"}`. */
export interface RangeNotSatisfiable extends Refusal<'RangeNotSatisfiable'> {
  readonly size: number
  readonly maximum: number
}
/** 429, `{error: "rate_limit_exceeded", message, retry_after}` and a Retry-After header. */
export interface RateLimited extends Refusal<'RateLimited'> {
  readonly retry_after_s: number
}
/** 500, `{error: "internal_error", message}`. */
export type InternalError = Refusal<'InternalError'>
/** 502, 503 or 504, `{error: "upstream_unavailable", message}`: a banking partner or card issuer failed. */
export interface Upstream extends Refusal<'Upstream'> {
  readonly status: 502 | 503 | 504
}

/**
 * @category model
 * @since 0.1.0
 */
export interface FieldError {
  readonly field: string
  readonly messages: ReadonlyArray<string>
}

/**
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

/**
 * @category constructors
 * @since 0.1.0
 */
export const unauthenticated = /*#__PURE__*/ refusal('Unauthenticated')
/**
 * @category constructors
 * @since 0.1.0
 */
export const emailNotVerified = /*#__PURE__*/ refusal('EmailNotVerified')
/**
 * @category constructors
 * @since 0.1.0
 */
export const guardRejected = /*#__PURE__*/ refusal('GuardRejected')
/**
 * @category constructors
 * @since 0.1.0
 */
export const notFound = /*#__PURE__*/ refusal('NotFound')
/**
 * @category constructors
 * @since 0.1.0
 */
export const badRequest = /*#__PURE__*/ refusal('BadRequest')
/**
 * @category constructors
 * @since 0.1.0
 */
export const preconditionFailed = /*#__PURE__*/ refusal('PreconditionFailed')
/**
 * @category constructors
 * @since 0.1.0
 */
export const conflict = /*#__PURE__*/ refusal('Conflict')
/**
 * @category constructors
 * @since 0.1.0
 */
export const internalError = /*#__PURE__*/ refusal('InternalError')
/**
 * @category constructors
 * @since 0.1.0
 */
export const denied = /*#__PURE__*/ refusal('Denied')

/**
 * A 429 whose Retry-After is `retry_after_s`: a whole number of seconds from 0 to
 * `Number.MAX_SAFE_INTEGER`, the only values delta-seconds can spell. Any other value is a
 * `TypeError` naming it: rounding 1.5 or -3 would send a wait the caller did not choose.
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
 * @category constructors
 * @since 0.1.0
 */
export const forbidden = (rule: RuleId, error_code: string, detail: string): Forbidden => ({
  _tag: 'Forbidden',
  rule,
  error_code,
  detail
})

/**
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
