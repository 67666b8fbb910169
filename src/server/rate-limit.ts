/**
 * The per-key rate limit: at most `perMinute` requests in each window of 60 seconds that starts
 * with a key's first request. Kept in the database (`rate_limits`, one atomic upsert a request),
 * so that any number of instances on one PostgreSQL admit `perMinute` a key together.
 *
 * @since 0.2.0
 */
import type { Queryable } from '../store/database'
import { countRequest } from '../store/store'

const WINDOW_MS = 60_000

/** A rate limiter: `admit` one request of a key. */
export interface RateLimiter {
  /** Null when the request may go on, else the whole seconds (at least 1) until the key's window ends. */
  readonly admit: (key: string) => Promise<number | null>
}

/**
 * A limiter over a database and a clock.
 *
 * Used as `const { admit } = rateLimiter(db, 600, () => new Date())`, then
 * `await admit('key ' + hash)`: null, or the seconds to wait.
 */
export const rateLimiter = (db: Queryable, perMinute: number, clock: () => Date): RateLimiter => ({
  admit: async (key) => {
    const now = clock()
    const { count, window_ms } = await countRequest(db, key, now.toISOString())
    return count <= perMinute ? null : Math.max(1, Math.ceil((window_ms + WINDOW_MS - now.getTime()) / 1000))
  }
})
