/**
 * The embedded PostgreSQL: PGlite, its files under a directory (or in memory).
 *
 * @since 0.2.0
 */
import { PGlite } from '@electric-sql/pglite'
import { asNumber, asText, type Database, DATE, INT8, type Queryable, type Row } from './driver'

/**
 * PGlite under `dataDir` (in memory when undefined). It is one connection, whose transactions
 * already run one at a time, in arrival order; `close` waits for the last one.
 */
export const openPGlite = async (dataDir: string | undefined): Promise<Database> => {
  const db = new PGlite({ ...(dataDir === undefined ? {} : { dataDir }), parsers: { [INT8]: asNumber, [DATE]: asText } })
  await db.waitReady
  await db.exec(`SET TIME ZONE 'UTC'`)
  const on =
    (q: { query: PGlite['query'] }): Queryable['query'] =>
    async <R extends Row>(text: string, values: ReadonlyArray<unknown> = []) =>
      (await q.query<R>(text, [...values])).rows
  let last = Promise.resolve()
  // Statements and transactions under way: the first holds the one connection, the others wait.
  let active = 0
  const counted = <T>(work: Promise<T>): Promise<T> => {
    active++
    return work.finally(() => {
      active--
    })
  }
  return {
    driver: 'pglite',
    query: (text, values) => counted(on(db)(text, values)),
    transaction: (work) => {
      const done = counted(
        db.transaction((tx) =>
          work({
            query: on(tx),
            exec: async (script) => {
              await tx.exec(script)
            }
          })
        )
      )
      last = done.then(
        () => undefined,
        () => undefined
      )
      return done
    },
    stats: () => ({ total: 1, idle: active === 0 ? 1 : 0, waiting: Math.max(0, active - 1) }),
    close: async () => {
      await last
      await db.close()
    }
  }
}
