/**
 * Starting and stopping the reference server: open the database (PGlite under `dataDir`, or the
 * PostgreSQL server of `databaseUrl`), run the migrations, seed the demo data when it is empty,
 * and listen. `close()` stops taking connections, lets the requests under way finish, then
 * closes the database. Reads no environment: the CLI (`budget-rules serve`) passes it in.
 *
 * @since 0.2.0
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve as listenOn } from '@hono/node-server'
import type { DestinationStream } from 'pino'
import { type Database, openDatabase, type Timeouts } from '../store/database'
import { purgeDecisions } from '../store/decisions'
import { migrate } from '../store/migrations'
import { seedWhenEmpty } from '../store/seed'
import { purgeExpired } from '../store/store'
import { buildApp } from './app'
import { requestLogger } from './log'
import { serveOwnerSocket } from './owner-socket'
import type { LogLevel } from './log-level'

/** What {@link serve} takes; every field has a default. */
export interface ServeOptions {
  /** The port to listen on; 0 (the default) takes a free one. */
  readonly port?: number
  /** The address to listen on; 127.0.0.1 by default. */
  readonly host?: string
  /** PGlite's data directory; in memory when absent (and unused when `databaseUrl` is set). */
  readonly dataDir?: string
  /** A PostgreSQL server's URL (`postgres://user@host:port/db`): used instead of PGlite. */
  readonly databaseUrl?: string
  /** The server's clock; the system's by default. */
  readonly clock?: () => Date
  /** Requests a minute per API key, across every instance on the database; 600 by default. */
  readonly rateLimitPerMinute?: number
  /** Hours an Idempotency-Key is remembered; 24 by default. Older keys are purged. */
  readonly idempotencyTtlHours?: number
  /**
   * Test mode: the conformance hook (PUT /__conformance/state, ./conformance.ts), which lets
   * anyone reaching the server set its data and every request's session. False by default.
   */
  readonly conformance?: boolean
  /** The least severe level logged; `silent` (the default here; `budget-rules serve` says `info`) for none. */
  readonly logLevel?: LogLevel
  /** Where the log lines go; standard output by default. */
  readonly logDestination?: DestinationStream
  /** Whether decisions are recorded; true by default. */
  readonly decisionLog?: boolean
  /** Days a decision record is kept; 30 by default. Older records are purged. */
  readonly decisionLogDays?: number
  /** The bearer token `/metrics` asks for; none by default. */
  readonly metricsToken?: string
  /** Whether the client's address is X-Forwarded-For's first hop (behind a proxy that sets it); false by default. */
  readonly trustProxy?: boolean
  /** A PostgreSQL server's statement, lock and idle-in-transaction timeouts; DEFAULT_TIMEOUTS by default. */
  readonly timeouts?: Timeouts
}

/** A server listening. */
export interface Served {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string
  /** Stops taking connections, waits for the requests under way, then closes the database. */
  readonly close: () => Promise<void>
}

/** The largest request body read: 64 KiB. */
export const BODY_LIMIT_BYTES = 65_536
/** Requests a minute per API key unless told otherwise. */
export const DEFAULT_RATE_LIMIT = 600
/** How long `close` waits for requests under way before it cuts their connections, by default. */
export const DRAIN_MS = 10_000
/** Hours an Idempotency-Key is remembered unless told otherwise. */
export const DEFAULT_IDEMPOTENCY_TTL_HOURS = 24
/** How often each instance purges what has expired (idempotency keys, rate-limit windows, decision records). */
export const PURGE_EVERY_MS = 60_000
/** Days a decision record is kept unless told otherwise. */
export const DEFAULT_DECISION_LOG_DAYS = 30

/**
 * Listens with the app over a database already migrated and seeded; `close` closes the database
 * too when `ownsDatabase`. What {@link serve} does once the database is ready, and what tests use
 * to serve a database they hold (to look at its rows, or to make a statement fail).
 */
export const listen = (
  database: Database,
  options: Omit<ServeOptions, 'dataDir' | 'databaseUrl' | 'timeouts'> & {
    readonly ownsDatabase?: boolean
    readonly report?: (error: unknown, requestId: string) => void
    /** How long `close` lets requests under way run; DRAIN_MS by default. */
    readonly drainMs?: number
  } = {}
): Promise<Served> => {
  const host = options.host ?? '127.0.0.1'
  const clock = options.clock ?? (() => new Date())
  const logger = requestLogger(options.logLevel ?? 'silent', options.logDestination)
  const app = buildApp({
    database,
    clock,
    rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT,
    idempotencyTtlHours: options.idempotencyTtlHours ?? DEFAULT_IDEMPOTENCY_TTL_HOURS,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    conformance: options.conformance ?? false,
    logger,
    decisionLog: options.decisionLog ?? true,
    metricsToken: options.metricsToken,
    trustProxy: options.trustProxy ?? false,
    report:
      options.report ??
      ((error, requestId) => {
        logger.error({ request_id: requestId, err: error }, 'unexpected error')
      })
  })
  // Any instance may purge, any number of times; a failure (the database away) waits for the next.
  const ttlMs = (options.idempotencyTtlHours ?? DEFAULT_IDEMPOTENCY_TTL_HOURS) * 3_600_000
  const keptMs = (options.decisionLogDays ?? DEFAULT_DECISION_LOG_DAYS) * 86_400_000
  const purge = (): Promise<number> =>
    purgeExpired(database, clock().toISOString(), new Date(clock().getTime() - ttlMs).toISOString())
      .then(async (keys) => keys + (await purgeDecisions(database, new Date(clock().getTime() - keptMs).toISOString())))
      .catch(() => 0)
  const purging = setInterval(() => void purge(), PURGE_EVERY_MS)
  purging.unref()
  return new Promise((resolve, reject) => {
    const server = listenOn({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, (info: AddressInfo) => {
      server.off('error', reject)
      const close = async (): Promise<void> => {
        clearInterval(purging)
        await new Promise<void>((done) => {
          // Idle keep-alive connections are closed now, busy ones as soon as their reply is out;
          // past drainMs, whatever is left is cut.
          const sweep = setInterval(server.closeIdleConnections.bind(server), 50)
          const cut = setTimeout(server.closeAllConnections.bind(server), options.drainMs ?? DRAIN_MS)
          server.close(() => {
            clearInterval(sweep)
            clearTimeout(cut)
            done()
          })
        })
        if (options.ownsDatabase === true) await database.close()
        logger.flush()
      }
      const url = new URL('http://localhost')
      url.hostname = host
      url.port = String(info.port)
      resolve({ url: url.origin, close })
    }) as Server
    server.once('error', reject)
  })
}

/**
 * Opens the database, migrates it, seeds the demo data when it is empty, and listens.
 *
 * Used as `const { url, close } = await serve({ dataDir: '.data' })`; `budget-rules serve` (the
 * CLI) passes PORT, DATA_DIR and DATABASE_URL, and calls `close` on SIGTERM.
 */
export const serve = async (options: ServeOptions = {}): Promise<Served> => {
  const database = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, timeouts: options.timeouts })
  let served: Served | undefined
  try {
    await migrate(database)
    await seedWhenEmpty(database)
    served = await listen(database, { ...options, ownsDatabase: true })
    const { ownership } = database
    if (ownership === undefined) return served
    // The directory's own: other processes read its records through the server.
    const door = await serveOwnerSocket(database, ownership.dir)
    ownership.announce({ url: served.url, socket: door.socket })
    const { url, close } = served
    return {
      url,
      close: async () => {
        await door.close()
        await close()
      }
    }
  } catch (e) {
    await (served === undefined ? database.close() : served.close())
    throw e
  }
}
