/**
 * The rate limit: at most `perMinute` requests in each window of 60 seconds that starts
 * with a name's first request, the name being the key's when it names a stored key, else the
 * client's address. Kept in the database (`rate_limits`, one atomic upsert a request, in the
 * statement that finds the key's session), so that any number of instances on one PostgreSQL
 * admit `perMinute` a name together.
 *
 * @since 0.2.0
 */
import type { Session } from '../index'
import type { Queryable } from '../store/database'
import { admitRequest } from '../store/store'

const WINDOW_MS = 60_000

/** What admitting a request found: the key's session, the key's hash when stored, and the verdict. */
export interface Admission {
  readonly session: Session
  /** The key's SHA-256 when it names a stored key (its session has a user), else null. */
  readonly keySha256: string | null
  /** Null when the request may go on, else the whole seconds (at least 1) until its window ends. */
  readonly retryAfter: number | null
}

/** A rate limiter: `admit` one request, by its key's SHA-256 (if any) and its client's address. */
export interface RateLimiter {
  readonly admit: (keySha256: string | undefined, address: string) => Promise<Admission>
}

/**
 * A limiter over a database and a clock.
 *
 * Used as `const { admit } = rateLimiter(db, 600, () => new Date())`, then
 * `await admit(hash, '127.0.0.1')`: the session, and null or the seconds to wait.
 */
export const rateLimiter = (db: Queryable, perMinute: number, clock: () => Date): RateLimiter => ({
  admit: async (keySha256, address) => {
    const now = clock()
    const { session, count, window_ms } = await admitRequest(
      db,
      keySha256,
      { keyName: `key ${keySha256 ?? ''}`, addressName: `address ${address}` },
      now.toISOString()
    )
    return {
      session,
      keySha256: session.user === null ? null : (keySha256 ?? null),
      retryAfter: count <= perMinute ? null : Math.max(1, Math.ceil((window_ms + WINDOW_MS - now.getTime()) / 1000))
    }
  }
})
