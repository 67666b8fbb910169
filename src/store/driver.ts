/**
 * What the database drivers (./pglite.ts, ./postgres.ts) share with the rest of the store: the
 * one database interface they implement and how both read `bigint` and `date`. A leaf: the
 * drivers import it, and ./database.ts, which opens one of them, imports the drivers, so that no
 * two modules of the store import each other.
 *
 * @since 0.4.0
 */
import type { Ownership } from './owner'

/** A row as the drivers return it: column name to value. */
export type Row = Readonly<Record<string, unknown>>

/** What runs a statement: the database itself, or the open transaction. */
export interface Queryable {
  /** The rows of one parameterised statement (values only as parameters, never concatenated). */
  readonly query: <R extends Row = Row>(text: string, values?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<R>>
}

/** An open transaction: its statements, and whole scripts of them (a migration, run as written). */
export interface Transaction extends Queryable {
  /** Runs a script of several statements, as the driver's own simple query does: no parameters. */
  readonly exec: (script: string) => Promise<void>
}

/**
 * A PostgreSQL database. `transaction` runs `work` in one transaction: committed when it
 * resolves, rolled back when it rejects (the rejection is passed on).
 */
export interface Database extends Queryable {
  readonly driver: 'pglite' | 'pg'
  /** PGlite's directory, owned by this process while the database is open; none in memory or on a server. */
  readonly ownership?: Ownership
  readonly transaction: <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>
  /** Waits for the transactions under way, then closes (PGlite checkpoints its files). */
  readonly close: () => Promise<void>
  /** The connections open, those idle, and the requests waiting for one (what /metrics shows). */
  readonly stats: () => { readonly total: number; readonly idle: number; readonly waiting: number }
}

/**
 * How long a PostgreSQL server's statement may run, wait for a lock, or a transaction stay idle
 * in milliseconds: past them the statement is cancelled, and the request is a 503.
 */
export interface Timeouts {
  readonly statementMs: number
  readonly lockMs: number
  readonly idleInTransactionMs: number
}

/** A few seconds each: a request is answered within them, never held open. */
export const DEFAULT_TIMEOUTS: Timeouts = { statementMs: 5_000, lockMs: 2_000, idleInTransactionMs: 10_000 }

/**
 * Where the data lives: a PostgreSQL server's URL (with its timeouts, {@link DEFAULT_TIMEOUTS}
 * unless given), or else PGlite's directory (memory when absent), one connection in this process,
 * which no other session can hold a lock against.
 */
export interface DatabaseOptions {
  readonly databaseUrl?: string | undefined
  readonly dataDir?: string | undefined
  readonly timeouts?: Timeouts | undefined
  /** What PGlite's lock file says the process opening its directory is; `serve` by default. */
  readonly command?: string | undefined
}

/** How both drivers read `bigint` (every amount is a safe integer) and `date` (its own text). */
export const INT8 = 20
export const DATE = 1082
export const asNumber = (text: string): number => Number(text)
export const asText = (text: string): string => text
