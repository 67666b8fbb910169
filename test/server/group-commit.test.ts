/**
 * The records kept on their own (a read's, a refusal's that changed nothing) are written by a
 * group commit (ADR 0122): every reply's record is in `decisions` when the reply arrives, and
 * requests that come together share statements. Over a real socket, on each store.
 */
import autocannon from 'autocannon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { seeded, stores } from './harness'

const ADMIN = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' }
const PAGE = '/v1/banking/bank_transactions?_start=0&_end=5&_order=desc'

describe.each(stores)('records kept on their own, on $name', (store) => {
  let database: Database
  let drop: () => Promise<void>
  let inserts = 0
  let failing = false
  let server: Served
  beforeAll(async () => {
    ;({ database, drop } = await seeded(store))
    // The database as the server sees it: each INSERT into decisions counted, and refused on demand.
    const watched: Database = {
      ...database,
      query: (text, values) => {
        if (text.startsWith('INSERT INTO decisions')) {
          inserts++
          if (failing) return Promise.reject(new Error('the decisions table is away'))
        }
        return database.query(text, values)
      }
    }
    server = await listen(watched, { rateLimitPerMinute: 1_000_000 })
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await drop()
  }, 30_000)

  const recorded = async (ids: ReadonlyArray<string>) =>
    (
      await database.query<{ id: string; status: number }>('SELECT id, status FROM decisions WHERE id = ANY($1) ORDER BY id', [
        ids
      ])
    ).map((r) => [r.id, r.status])

  it('50 pages asked together: each reply’s record is kept when it arrives', async () => {
    inserts = 0
    const replies = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        // Every fifth a stranger's refusal, kept on its own too.
        const r = await fetch(server.url + PAGE, { headers: i % 5 === 0 ? { ...ADMIN, 'company-id': 'c-other' } : ADMIN })
        const id = r.headers.get('x-request-id') as string
        // Read at once, before any other reply can have flushed it.
        const kept = await recorded([id])
        await r.text()
        return { id, status: r.status, kept }
      })
    )
    expect(replies.map((r) => r.kept)).toEqual(replies.map((r) => [[r.id, r.status]]))
    expect(replies.map((r) => r.status).sort()).toEqual([...Array<number>(10).fill(404), ...Array<number>(40).fill(200)].sort())
    expect(inserts).toBeGreaterThan(0)
    expect(inserts).toBeLessThanOrEqual(50)
  })

  it('300 pages over 10 busy connections: every record kept, in fewer statements than replies', async () => {
    const [before] = await database.query<{ n: number }>('SELECT count(*)::float8 AS n FROM decisions')
    inserts = 0
    const run = await autocannon({ url: server.url + PAGE, headers: ADMIN, connections: 10, amount: 300 })
    const [after] = await database.query<{ n: number }>('SELECT count(*)::float8 AS n FROM decisions')
    expect([run.requests.total, run['2xx'], run.non2xx, run.errors]).toEqual([300, 300, 0, 0])
    expect((after?.n ?? 0) - (before?.n ?? 0)).toBe(300)
    expect(inserts).toBeGreaterThan(0)
    expect(inserts).toBeLessThan(300)
  })

  it('a statement that fails fails each request it held, and the next requests are served again', async () => {
    failing = true
    const refused = await Promise.all(Array.from({ length: 5 }, () => fetch(server.url + PAGE, { headers: ADMIN })))
    failing = false
    expect(refused.map((r) => r.status)).toEqual([500, 500, 500, 500, 500])
    const ids = refused.map((r) => r.headers.get('x-request-id') as string)
    expect(await recorded(ids)).toEqual([])
    const again = await fetch(server.url + PAGE, { headers: ADMIN })
    expect(again.status).toBe(200)
    expect(await recorded([again.headers.get('x-request-id') as string])).toEqual([[again.headers.get('x-request-id'), 200]])
  })
})
