/**
 * No request waits without bound, on a PostgreSQL server (DATABASE_URL's, or one of the
 * test's own): a budget's row locked by another session, from psql, makes a PATCH of it a 503
 * with Retry-After within the lock timeout and a second, never a request held open; once the
 * lock is let go the next PATCH succeeds, and the pool serves on. A transaction whose connection
 * dies under it, its rollback failing, leaves no dead connection in the pool.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import { type Database, openDatabase } from '../../src/store/database'
import { migrate } from '../../src/store/migrations'
import { seedWhenEmpty } from '../../src/store/seed'
import { type Cluster, postgresUnavailable, startCluster } from './cluster'
import { call, postgres } from './harness'

const manager = { key: 'demo-manager', company: 'c-acme' }
const url = process.env.DATABASE_URL
const unavailable = url === undefined || url === '' ? postgresUnavailable : null
if (unavailable !== null) console.log(`the PostgreSQL timeout tests do not run here: no DATABASE_URL, and ${unavailable}`)

/** A psql session reading statements from its standard input, as a person at a terminal would type them. */
const psql = (databaseUrl: string) => {
  const child: ChildProcessWithoutNullStreams = spawn('psql', [databaseUrl, '-X', '-q', '-v', 'ON_ERROR_STOP=1'], {
    stdio: 'pipe'
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return {
    /** Sends a line, and waits until the output holds `until`. */
    send: async (line: string, until: string) => {
      child.stdin.write(`${line}\n`)
      for (let i = 0; i < 200 && !out.includes(until); i++) await new Promise((r) => setTimeout(r, 25))
      if (!out.includes(until)) throw new Error(`psql did not answer ${until}: ${out}`)
    },
    end: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve()
        })
        child.stdin.end('\\q\n')
      })
  }
}

describe.skipIf(unavailable !== null)('timeouts of a PostgreSQL server (R-111)', () => {
  let cluster: Cluster | null = null
  let databaseUrl: string
  let drop: () => Promise<void> = () => Promise.resolve()
  let db: Database
  let server: Served

  beforeAll(async () => {
    if (url !== undefined && url !== '') {
      const place = await postgres(url).place()
      databaseUrl = place.options.databaseUrl as string
      drop = place.drop
    } else {
      cluster = await startCluster()
      databaseUrl = cluster.url
    }
    db = await openDatabase({ databaseUrl, timeouts: { statementMs: 5_000, lockMs: 1_000, idleInTransactionMs: 10_000 } })
    await migrate(db)
    await seedWhenEmpty(db)
    server = await listen(db, { rateLimitPerMinute: 1_000_000 })
  }, 120_000)

  afterAll(async () => {
    await server.close()
    await db.close()
    await drop()
    await cluster?.destroy()
  }, 60_000)

  const rename = (name: string) =>
    call(server.url, '/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { name } } })

  it('a row locked from psql: 503 with Retry-After within the lock timeout and a second; then 200 once it is let go', async () => {
    const session = psql(databaseUrl)
    try {
      await session.send("BEGIN; SELECT id FROM budgets WHERE id = 'b-travel' FOR UPDATE;", 'b-travel')
      const began = Date.now()
      const held = await rename('Held')
      const took = Date.now() - began
      expect([held.status, held.body, held.headers.get('retry-after')]).toEqual([
        503,
        { error: 'service_unavailable', message: 'The database is busy; retry after Retry-After seconds' },
        '1'
      ])
      expect(took).toBeLessThan(1_000 + 1_000)
      await session.send("COMMIT; SELECT 'let go';", 'let go')
    } finally {
      await session.end()
    }
    const after = await rename('Travel after the lock')
    expect([after.status, (after.body as { name: string }).name]).toEqual([200, 'Travel after the lock'])
    // The pool serves on: every request of a burst is answered.
    const burst = await Promise.all(Array.from({ length: 20 }, () => call(server.url, '/v1/budgets/b-travel', manager)))
    expect(burst.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200))
  }, 30_000)

  it('a transaction whose connection dies under it rejects, and the pool serves on with none of it', async () => {
    const failed = db.transaction(async (tx) => {
      const [me] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      // Another connection ends this one; its next statement, and then its rollback, fail.
      await db.query('SELECT pg_terminate_backend($1)', [me?.pid])
      await tx.query('SELECT 1')
    })
    await expect(failed).rejects.toThrow()
    for (let i = 0; i < 15; i++) expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }])
  }, 30_000)
})
