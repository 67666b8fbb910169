/**
 * Whether and when a client retries a failed request (spec sections 7 and 8, contract sections 9
 * and 11): on 429 it waits Retry-After (1 s when absent or unreadable) unless that is past
 * `max_retry_after_s`; on 500, 502, 503 and 504 it backs off exponentially with full jitter,
 * `floor(random * min(8000, 500 * 2^attempt))` ms, for idempotent methods only, spelled exactly
 * as RFC 9110 does (`get` is not `GET`); a 503 that carries a readable Retry-After waits that
 * instead, under the same cap as 429; at most 5 retries in all. A POST (top_up, withdraw) is
 * retried only on 429, where the server did not act, so money never moves twice. No delay
 * exceeds 2^31 - 1 ms, the longest `setTimeout` holds: a longer wait is not retried.
 *
 * Laws, for every input:
 * - `delay_ms` is a whole number of ms within `[0, 2^31 - 1]`: within `[0, 8000]` for a backoff
 *   and within `[0, max_retry_after_s * 1000]` for a Retry-After wait;
 * - for a fixed `random`, the backoff never shrinks as `attempt` grows;
 * - a POST gets `{ retry: true }` only on 429, and a method outside GET, HEAD, OPTIONS, PUT,
 *   PATCH and DELETE (in that case) never on 5xx;
 * - `attempt >= 5` never retries.
 *
 * @example
 * retryDecision({ method: 'GET', status: 503, headers: {}, attempt: 2, random: 0.5 }) //=> { retry: true, delay_ms: 1000 }
 * retryDecision({ method: 'GET', status: 503, headers: { 'Retry-After': '7' }, attempt: 2, random: 0.5 }) //=> { retry: true, delay_ms: 7000 }
 * retryDecision({ method: 'POST', status: 503, headers: {}, attempt: 0, random: 0.5 }) //=> { retry: false }
 * retryDecision({ method: 'get', status: 503, headers: {}, attempt: 0, random: 0.5 }) //=> { retry: false }
 *
 * @since 0.1.0
 */
import { parseInstant } from '../calendar/instant'
import { parseHttpDate } from '../http/date'
import { anyHeader, retryAfterSeconds } from './error'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Not to retry, or to retry after `delay_ms` milliseconds.
 *
 * @example
 * retryDecision({ method: 'GET', status: 429, headers: { 'Retry-After': '3600' }, attempt: 0, random: 0.5 }) //=> { retry: false }
 *
 * @category model
 * @since 0.1.0
 */
export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly delay_ms: number }

/**
 * A failed request as the client saw it: its method, the reply's status and headers, and the
 * retries already made.
 *
 * @example
 * retryDecision({ method: 'POST', status: 429, headers: { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT' },
 *   attempt: 0, random: 0.5, now: '2026-11-22T10:00:00Z' })
 * //=> { retry: true, delay_ms: 5000 }
 *
 * @category model
 * @since 0.1.0
 */
export interface RetryInput {
  /** The request's method, exactly as sent: `GET`, not `get`. */
  readonly method: string
  readonly status: number
  /** The reply's headers: a plain object (values a string or a list) or a Fetch `Headers`. */
  readonly headers?: unknown
  /** Retries already made: 0 after the first failure. */
  readonly attempt: number
  /** A number in [0, 1), drawn by the caller. */
  readonly random: number
  /** The client's clock as an ISO-8601 instant, to measure a Retry-After date from. */
  readonly now?: string
  /** The longest Retry-After (429, 503) worth waiting, in seconds; 60 when absent. */
  readonly max_retry_after_s?: number
}

/**
 * The numbers of the retry policy: at most 5 retries, backoff from 500 ms up to 8 s, 1 s when
 * a 429 has no readable Retry-After, waits up to 60 s unless the caller says otherwise.
 *
 * @example
 * retryPolicy.maxRetries //=> 5
 * retryDecision({ method: 'GET', status: 503, headers: {}, attempt: retryPolicy.maxRetries, random: 0.5 }) //=> { retry: false }
 *
 * @category constants
 * @since 0.1.0
 */
export const retryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  defaultRetryAfterS: 1,
  defaultMaxRetryAfterS: 60,
  /** 2^31 - 1: `setTimeout` fires at once for any longer delay. */
  maxTimerMs: 2_147_483_647,
  idempotentMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']
} as const

const NO: RetryDecision = { retry: false }

const finiteOr = (n: unknown, fallback: number): number => (typeof n === 'number' && Number.isFinite(n) ? n : fallback)

// -------------------------------------------------------------------------------------
// client
// -------------------------------------------------------------------------------------

/**
 * The retry decision for a failed request. Never throws: an unreadable `random` counts as 0,
 * an unreadable `attempt` as the last one allowed, a method that is not a string as unknown.
 *
 * @example
 * // full jitter: floor(random * min(8000, 500 * 2^attempt)) ms
 * retryDecision({ method: 'GET', status: 502, headers: {}, attempt: 4, random: 0.999 }) //=> { retry: true, delay_ms: 7992 }
 * retryDecision({ method: 'POST', status: 502, headers: {}, attempt: 0, random: 0.5 }) //=> { retry: false }
 *
 * @category client
 * @since 0.1.0
 */
export const retryDecision = (input: RetryInput): RetryDecision => {
  try {
    const attempt = Math.floor(finiteOr(input.attempt, retryPolicy.maxRetries))
    if (attempt < 0 || attempt >= retryPolicy.maxRetries) return NO
    const status = input.status
    // Seconds the reply asks to wait, or undefined when it asks nothing readable.
    const retryAfter = (): number | undefined => {
      const now = typeof input.now === 'string' ? parseInstant(input.now)?.seconds : undefined
      const date = anyHeader(input.headers, 'date')
      const from = now ?? (date === undefined ? undefined : (parseHttpDate(date) ?? undefined))
      return retryAfterSeconds(anyHeader(input.headers, 'retry-after'), from)
    }
    // A wait past the caller's cap, or longer than a timer holds, is not worth a retry (clamping
    // would retry before the server said it is ready).
    const wait = (seconds: number): RetryDecision => {
      const max = Math.max(0, finiteOr(input.max_retry_after_s, retryPolicy.defaultMaxRetryAfterS))
      return seconds > max || seconds * 1000 > retryPolicy.maxTimerMs ? NO : { retry: true, delay_ms: seconds * 1000 }
    }
    if (status === 429) return wait(retryAfter() ?? retryPolicy.defaultRetryAfterS)
    const transient = status === 500 || status === 502 || status === 503 || status === 504
    // RFC 9110 section 9.1: methods are case-sensitive, so `get` is an unknown method.
    const method: unknown = input.method
    if (!transient || typeof method !== 'string' || !(retryPolicy.idempotentMethods as ReadonlyArray<string>).includes(method))
      return NO
    const asked = status === 503 ? retryAfter() : undefined
    if (asked !== undefined) return wait(asked)
    const random = Math.min(Math.max(finiteOr(input.random, 0), 0), 1 - Number.EPSILON)
    const cap = Math.min(retryPolicy.maxDelayMs, retryPolicy.baseDelayMs * 2 ** attempt)
    return { retry: true, delay_ms: Math.floor(random * cap) }
  } catch {
    return NO
  }
}
