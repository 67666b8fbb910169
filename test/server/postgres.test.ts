/**
 * The reference server on a PostgreSQL server, through its `pg` pool. Always: a server that
 * cannot be reached makes `serve` reject. When DATABASE_URL names one: a connection the server
 * cuts while it is idle is replaced, not a crash of the process; `close()` resolves only once
 * every connection has ended, so that the database can be dropped at once.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { listen, serve } from '../../src/server/main'
import { openDatabase } from '../../src/store/database'
import { call, seeded, stores } from './harness'

const admin = { key: 'demo-admin', company: 'c-acme' }

/** The TCP sockets this process holds open. */
const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length

const onServer = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** The server's sessions on the database `name`, other than the one asking. */
const sessions = async (client: pg.Client, name: string): Promise<number> =>
  (
    await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name]
    )
  ).rows[0]?.n ?? -1

const servers = stores.filter((s) => s.name === 'PostgreSQL')
const serverUrl = process.env.DATABASE_URL ?? ''

describe.each(servers)('the pool on $name', (store) => {
  it('a connection the server cuts while idle is replaced: the next request is served', async () => {
    const { database, drop } = await seeded(store)
    const served = await listen(database, { clock: () => new Date('2026-11-23T15:00:00Z') })
    try {
      expect((await call(served.url, '/v1/companies', admin)).status).toBe(200)
      const name = (await database.query<{ name: string }>('SELECT current_database() AS name'))[0]?.name ?? ''
      await onServer(serverUrl, async (client) => {
        const cut = await client.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name]
        )
        expect(cut.rowCount).toBeGreaterThanOrEqual(1)
        // the cut sessions end, and their FATAL message reaches the idle connections
        while ((await sessions(client, name)) > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      })
      const again = await call(served.url, '/v1/companies', admin)
      expect([again.status, again.body]).toEqual([
        200,
        {
          data: [
            {
              id: 'c-acme',
              name: 'Acme SpA',
              created_at: '2025-01-01T12:00:00.000000Z',
              updated_at: '2025-01-01T12:00:00.000000Z'
            }
          ],
          cursors: { previous: null, next: null }
        }
      ])
    } finally {
      await served.close()
      await drop()
    }
  }, 60_000)

  it('close() resolves once every connection has ended: no socket is left open', async () => {
    const before = sockets()
    const place = await store.place()
    try {
      const database = await openDatabase(place.options)
      // several connections at once, so that the pool opens more than one
      await Promise.all(Array.from({ length: 6 }, () => database.query('SELECT pg_sleep(0.05)')))
      expect(sockets()).toBeGreaterThan(before)
      await database.close()
      expect(sockets()).toBe(before)
    } finally {
      await place.drop()
    }
  }, 60_000)
})

describe('serve on a PostgreSQL server that cannot be reached', () => {
  it('rejects with the connection error', async () => {
    // port 1 on the loopback: nothing listens there
    await expect(serve({ databaseUrl: 'postgres://postgres@127.0.0.1:1/budgets' })).rejects.toThrow(/ECONNREFUSED/)
  })
})
