/**
 * Whether and when a client retries a failed request (spec sections 7 and 8, contract section
 * 9): on 429 it waits Retry-After (1 s when absent or unreadable) unless that is past
 * `max_retry_after_s`; on 500, 502, 503 and 504 it backs off exponentially with full jitter,
 * `floor(random * min(8000, 500 * 2^attempt))` ms, for idempotent methods only; at most 5 retries
 * in all. A POST (top_up, withdraw) is retried only on 429, where the server did not act, so
 * money never moves twice.
 *
 * Laws, for every input:
 * - `delay_ms` is within `[0, 8000]` for 5xx and within `[0, max_retry_after_s * 1000]` for 429;
 * - for a fixed `random`, the 5xx delay never shrinks as `attempt` grows;
 * - a POST gets `{ retry: true }` only on 429;
 * - `attempt >= 5` never retries.
 *
 * @example
 * retryDecision({ method: 'GET', status: 503, headers: {}, attempt: 2, random: 0.5 }) //=> { retry: true, delay_ms: 1000 }
 * retryDecision({ method: 'POST', status: 503, headers: {}, attempt: 0, random: 0.5 }) //=> { retry: false }
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
 * @category model
 * @since 0.1.0
 */
export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly delay_ms: number }

/**
 * @category model
 * @since 0.1.0
 */
export interface RetryInput {
  readonly method: string
  readonly status: number
  readonly headers?: unknown
  /** Retries already made: 0 after the first failure. */
  readonly attempt: number
  /** A number in [0, 1), drawn by the caller. */
  readonly random: number
  /** The client's clock as an ISO-8601 instant, to measure a Retry-After date from. */
  readonly now?: string
  readonly max_retry_after_s?: number
}

/**
 * @category constants
 * @since 0.1.0
 */
export const retryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  defaultRetryAfterS: 1,
  defaultMaxRetryAfterS: 60,
  idempotentMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']
} as const

const NO: RetryDecision = { retry: false }

const finiteOr = (n: unknown, fallback: number): number => (typeof n === 'number' && Number.isFinite(n) ? n : fallback)

// -------------------------------------------------------------------------------------
// client
// -------------------------------------------------------------------------------------

/**
 * The retry decision for a failed request. Never throws: an unreadable `random` counts as 0,
 * an unreadable `attempt` as the last one allowed.
 *
 * @category client
 * @since 0.1.0
 */
export const retryDecision = (input: RetryInput): RetryDecision => {
  try {
    const attempt = Math.floor(finiteOr(input.attempt, retryPolicy.maxRetries))
    if (attempt < 0 || attempt >= retryPolicy.maxRetries) return NO
    const method = typeof input.method === 'string' ? input.method.toUpperCase() : ''
    if (input.status === 429) {
      const max = Math.max(0, finiteOr(input.max_retry_after_s, retryPolicy.defaultMaxRetryAfterS))
      const now = typeof input.now === 'string' ? parseInstant(input.now)?.seconds : undefined
      const date = anyHeader(input.headers, 'date')
      const from = now ?? (date === undefined ? undefined : (parseHttpDate(date) ?? undefined))
      const wait = retryAfterSeconds(anyHeader(input.headers, 'retry-after'), from) ?? retryPolicy.defaultRetryAfterS
      return wait > max ? NO : { retry: true, delay_ms: wait * 1000 }
    }
    const transient = input.status === 500 || input.status === 502 || input.status === 503 || input.status === 504
    if (!transient || !(retryPolicy.idempotentMethods as ReadonlyArray<string>).includes(method)) return NO
    const random = Math.min(Math.max(finiteOr(input.random, 0), 0), 1 - Number.EPSILON)
    const cap = Math.min(retryPolicy.maxDelayMs, retryPolicy.baseDelayMs * 2 ** attempt)
    return { retry: true, delay_ms: Math.floor(random * cap) }
  } catch {
    return NO
  }
}
