/**
 * The one database interface of the reference server: parameterised queries and transactions,
 * over PostgreSQL either embedded (PGlite, the default: data under a directory, or in memory) or
 * a server (`pg`, when a connection URL is given). The rest of the store speaks only to this.
 *
 * Both drivers read `bigint` as a number (every amount is a safe integer) and `date` as its
 * `YYYY-MM-DD` text, so rows come back alike whichever runs, and never depend on the process
 * time zone. Instants are formatted by the queries themselves (`to_char(... AT TIME ZONE 'UTC')`).
 *
 * Each driver is loaded only when it is used: both are optional peer dependencies.
 *
 * @since 0.2.0
 */

export {
  DEFAULT_TIMEOUTS,
  type Database,
  type DatabaseOptions,
  type Queryable,
  type Row,
  type Timeouts,
  type Transaction
} from './driver'
import { type Database, type DatabaseOptions, DEFAULT_TIMEOUTS } from './driver'

/**
 * Opens the database: a PostgreSQL server when `databaseUrl` is set, else PGlite under
 * `dataDir` (in memory when absent).
 *
 * Used as `const db = await openDatabase({ dataDir: '.data' })`, then `await db.query('SELECT 1')`.
 */
export const openDatabase = async (options: DatabaseOptions): Promise<Database> =>
  options.databaseUrl !== undefined && options.databaseUrl !== ''
    ? (await import('./postgres')).openPostgres(options.databaseUrl, options.timeouts ?? DEFAULT_TIMEOUTS)
    : (await import('./pglite')).openPGlite(options.dataDir, options.command)

/** Error codes of a lost or refused connection: the socket's, and PostgreSQL's classes 08 and 57P. */
const UNAVAILABLE_CODES = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTCONN|08\d{3}|57P0[123])$/
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|PGlite is closed/

/**
 * PostgreSQL's codes of a statement cancelled by a timeout of R-111: a lock not had in time
 * (55P03), a statement past its time (57014), a transaction left idle too long (25P03).
 */
const BUSY_CODES = /^(55P03|57014|25P03)$/

/**
 * Whether `error` is a statement the database cut short by a timeout: the request is a
 * 503 with Retry-After, as for a database away, not a 500.
 */
export const isDatabaseBusy = (error: unknown): boolean =>
  error !== null && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string'
    ? BUSY_CODES.test((error as { code: string }).code)
    : false

/**
 * Whether `error` says the database cannot be reached now (refused, dropped, shut down, closed),
 * as opposed to a statement that failed: the server answers the first with a 503 and Retry-After
 * the second with a 500.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (error === null || typeof error !== 'object') return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return (
    (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message))
  )
}
