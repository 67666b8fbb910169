/**
 * The per-key rate limit: at most `perMinute` requests in each window of 60 seconds that starts
 * with a key's first request. In memory, per process: the reference server is one process.
 *
 * @since 0.2.0
 */

const WINDOW_MS = 60_000
/** Past this many keys, windows that have ended are dropped, so the map stays small. */
const PRUNE_ABOVE = 10_000

/** A rate limiter: `admit` one request of a key; `tracked`, the keys it holds a window for. */
export interface RateLimiter {
  /** Null when the request may go on, else the whole seconds (at least 1) until the key's window ends. */
  readonly admit: (key: string) => number | null
  readonly tracked: () => number
}

/**
 * A limiter over a clock.
 *
 * @example
 * const { admit } = rateLimiter(1, () => new Date('2026-11-23T12:00:00Z'))
 * admit('k') //=> null
 * admit('k') //=> 60
 */
export const rateLimiter = (perMinute: number, clock: () => Date): RateLimiter => {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    admit: (key) => {
      const now = clock().getTime()
      if (windows.size > PRUNE_ABOVE) for (const [k, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(k)
      let window = windows.get(key)
      if (window === undefined || now - window.start >= WINDOW_MS) {
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      window.count++
      return window.count <= perMinute ? null : Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000))
    },
    tracked: () => windows.size
  }
}
