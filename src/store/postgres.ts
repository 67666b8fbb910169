/**
 * A PostgreSQL server, through a `pg` pool.
 *
 * @since 0.2.0
 */
import pg from 'pg'
import { asNumber, asText, type Database, DATE, INT8, type Queryable, type Row, type Timeouts } from './driver'

type Parser = (text: string) => unknown

/** `pg`'s parsers, but for bigint and date, read as PGlite reads them here. */
const typeParser = (oid: number, format?: 'text' | 'binary'): Parser =>
  oid === INT8
    ? asNumber
    : oid === DATE
      ? asText
      : (pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => Parser)(oid, format)

/**
 * A pool of 10 connections to the server of `connectionString`; each transaction holds one
 * connection from `BEGIN` to `COMMIT` or `ROLLBACK`. Every connection has the statement, lock and
 * idle-in-transaction `timeouts`. Rejects, pool closed, when the server cannot be reached.
 */
export const openPostgres = async (connectionString: string, timeouts: Timeouts): Promise<Database> => {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A server that does not answer is a 503 within seconds, never a request that hangs.
    connectionTimeoutMillis: 5_000,
    // Each connection reads instants in UTC, whatever the server's default; no statement, lock
    // wait or idle transaction of it lasts past its timeout.
    options: [
      '-c TimeZone=UTC',
      `-c statement_timeout=${timeouts.statementMs}`,
      `-c lock_timeout=${timeouts.lockMs}`,
      `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`
    ].join(' '),
    types: { getTypeParser: typeParser as typeof pg.types.getTypeParser }
  })
  // An idle connection the server ends (a restart, pg_terminate_backend) is already out of the
  // pool when this is emitted, and the next query opens another; unheard, the event would end
  // the process. A query under way on a failing connection is rejected on its own.
  pool.on('error', () => undefined)
  // pool.end() resolves once its connections are asked to end, not once they have: end() waits
  // for each, so that nothing of the pool is left when the database is dropped or the process
  // exits.
  const end = async (): Promise<void> => {
    let open = pool.totalCount
    const ended = new Promise<void>((resolve) => {
      if (open === 0) resolve()
      else
        pool.on('remove', () => {
          if (--open === 0) resolve()
        })
    })
    await pool.end()
    await ended
  }
  const on =
    (q: pg.Pool | pg.PoolClient): Queryable['query'] =>
    async <R extends Row>(text: string, values: ReadonlyArray<unknown> = []) =>
      (await q.query<R>(text, [...values])).rows
  try {
    await pool.query('SELECT 1')
  } catch (e) {
    await end()
    throw e
  }
  return {
    driver: 'pg',
    query: on(pool),
    transaction: async (work) => {
      const client = await pool.connect()
      // A connection whose rollback failed is in a state no one knows: it leaves the pool.
      let broken = false
      // A connection cut while checked out (the server ended it, the network dropped) says so as an
      // 'error' event the pool does not hear for it: unheard, it would end the process.
      const cut = (): void => {
        broken = true
      }
      client.on('error', cut)
      try {
        await client.query('BEGIN')
        const result = await work({
          query: on(client),
          exec: async (script) => {
            await client.query(script)
          }
        })
        await client.query('COMMIT')
        return result
      } catch (e) {
        // The error to pass on is the first, whatever the rollback does.
        await client.query('ROLLBACK').catch(() => {
          broken = true
        })
        throw e
      } finally {
        client.off('error', cut)
        client.release(broken)
      }
    },
    // Called once the HTTP server has closed: no transaction is under way.
    close: end,
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })
  }
}
