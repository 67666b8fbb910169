/**
 * The embedded PostgreSQL: PGlite, its files under a directory (or in memory).
 *
 * A directory has one owner at a time (./owner.ts, R-113): the directory is claimed before it is
 * opened, and given back once closed. A failure of PGlite (its WebAssembly stops with a bare
 * `Aborted()`) is told in one line naming the directory, what happened and what to do.
 *
 * @since 0.2.0
 */
import { readdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { asNumber, asText, type Database, DATE, INT8, type Queryable, type Row } from './driver'
import { claimDirectory, DirectoryInUse, LOCK_FILE, type Ownership } from './owner'

/** The Unix socket through which the owner answers reads of its records, in the directory (the server's). */
export const SOCKET_FILE = 'owner.sock'

/** A failure of the embedded database, in one line: the directory, what happened, what to do. */
export class DatabaseDirectoryError extends Error {
  override readonly name = 'DatabaseDirectoryError'
}

/** Whether `err` is PGlite's WebAssembly stopping (`Aborted()`), after which the instance is gone. */
const isAbort = (err: unknown): boolean =>
  err instanceof Error && (err.name === 'RuntimeError' || err.message.startsWith('Aborted('))

/** What this module writes in a directory besides PGlite's files. */
const ours = (name: string): boolean => name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`) || name === SOCKET_FILE

/**
 * Refuses a directory another program wrote: PGlite would make its database among those files.
 * An empty directory is a new database; one with PG_VERSION is PGlite's (or PostgreSQL's).
 */
const checkDirectory = (dir: string): void => {
  const names = readdirSync(dir).filter((name) => !ours(name))
  if (names.length > 0 && !names.includes('PG_VERSION'))
    throw new DatabaseDirectoryError(
      `cannot open the database in ${dir}: the directory holds files that are not a database (no PG_VERSION); set DATA_DIR to an empty or new directory`
    )
}

/**
 * PGlite under `dataDir` (in memory when undefined), the directory claimed for `command` first.
 * It is one connection, whose transactions already run one at a time, in arrival order; `close`
 * waits for the last one, then gives the directory back.
 */
export const openPGlite = async (dataDir: string | undefined, command = 'serve'): Promise<Database> => {
  const where = dataDir === undefined ? 'the database in memory' : `the database in ${dataDir}`
  let ownership: Ownership | undefined
  let db: PGlite
  try {
    ownership = dataDir === undefined ? undefined : await claimDirectory(dataDir, command)
    if (dataDir !== undefined) checkDirectory(dataDir)
    db = new PGlite({ ...(dataDir === undefined ? {} : { dataDir }), parsers: { [INT8]: asNumber, [DATE]: asText } })
    await db.waitReady
    await db.exec(`SET TIME ZONE 'UTC'`)
  } catch (err) {
    await ownership?.release()
    if (err instanceof DirectoryInUse || err instanceof DatabaseDirectoryError) throw err
    throw new DatabaseDirectoryError(
      isAbort(err)
        ? `cannot open ${where}: PostgreSQL stopped on its files (damaged, or written by another program or version); restore the directory from a copy, or move it away to start a new database`
        : `cannot open ${where}: ${err instanceof Error ? err.message : String(err)}`
    )
  }
  /** A statement's failure, an abort told in one line: the instance is gone, the server must start again. */
  const told = (err: unknown): never => {
    throw isAbort(err)
      ? new DatabaseDirectoryError(
          `${where} stopped: PostgreSQL aborted; restart budget-rules (the committed data is kept), and if it stops again on start, restore the directory from a copy`
        )
      : err
  }
  const on =
    (q: { query: PGlite['query'] }): Queryable['query'] =>
    async <R extends Row>(text: string, values: ReadonlyArray<unknown> = []) =>
      (await q.query<R>(text, [...values]).catch(told)).rows
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
    ...(ownership === undefined ? {} : { ownership }),
    query: (text, values) => counted(on(db)(text, values)),
    transaction: (work) => {
      const done = counted(
        db
          .transaction((tx) =>
            work({
              query: on(tx),
              exec: async (script) => {
                await tx.exec(script).catch(told)
              }
            })
          )
          .catch(told)
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
      try {
        await db.close()
      } finally {
        await ownership?.release()
      }
    }
  }
}
