/**
 * The embedded PostgreSQL: PGlite, its files under a directory (or in memory).
 *
 * @since 0.2.0
 */
import { PGlite } from '@electric-sql/pglite'
import { asNumber, asText, type Database, DATE, INT8, type Queryable, type Row } from './database'

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
  return {
    driver: 'pglite',
    query: on(db),
    transaction: (work) => {
      const done = db.transaction((tx) => work({ query: on(tx) }))
      last = done.then(
        () => undefined,
        () => undefined
      )
      return done
    },
    close: async () => {
      await last
      await db.close()
    }
  }
}
