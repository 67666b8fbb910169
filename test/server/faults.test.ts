/**
 * Faults of the database under the reference server: while it is away, every request is
 * a 503 `{error: "service_unavailable", message}` with Retry-After within 10 s, answered within
 * seconds, never a 500 or a hang; once it is back, the same instance answers 200 again, having
 * reconnected by itself; a money operation commits with its idempotency record or not at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import { type Database, openDatabase } from '../../src/store/database'
import { migrate } from '../../src/store/migrations'
import { seedWhenEmpty } from '../../src/store/seed'
import { type Cluster, postgresUnavailable, startCluster } from './cluster'
import { call, UUID } from './harness'

const NOW = new Date('2026-11-23T15:00:00Z')
const admin = { key: 'demo-admin', company: 'c-acme' }
const unavailable = { error: 'service_unavailable', message: 'The database is unavailable; retry after Retry-After seconds' }

describe('PGlite closed under the server', () => {
  it('is a 503 with Retry-After on every route, not a 500', async () => {
    const db = await openDatabase({})
    await migrate(db)
    await seedWhenEmpty(db)
    const server = await listen(db, { clock: () => NOW })
    try {
      expect((await call(server.url, '/v1/companies', admin)).status).toBe(200)
      await db.close()
      for (const [method, path, body] of [
        ['GET', '/v1/companies', undefined],
        ['POST', '/v1/budgets/b-travel/top_up', { amount_cents: 1 }]
      ] as const) {
        const got = await call(server.url, path, { ...admin, method, body })
        expect([got.status, got.body, got.headers.get('retry-after')]).toEqual([503, unavailable, '5'])
        expect(got.headers.get('x-request-id')).toMatch(UUID)
      }
    } finally {
      await server.close()
    }
  }, 60_000)
})

if (postgresUnavailable !== null) console.log(`the PostgreSQL restart test does not run here: ${postgresUnavailable}`)

describe.skipIf(postgresUnavailable !== null)('a PostgreSQL server stopped and started again under the server', () => {
  let cluster: Cluster
  let db: Database
  let server: Served

  beforeAll(async () => {
    cluster = await startCluster()
    db = await openDatabase({ databaseUrl: cluster.url })
    await migrate(db)
    await seedWhenEmpty(db)
    server = await listen(db, { clock: () => NOW, rateLimitPerMinute: 1_000_000 })
  }, 120_000)

  afterAll(async () => {
    await server.close()
    await db.close()
    await cluster.destroy()
  }, 60_000)

  const topUp = (key: string) =>
    call(server.url, '/v1/budgets/b-travel/top_up', {
      ...admin,
      method: 'POST',
      body: { amount_cents: 100 },
      headers: { 'Idempotency-Key': key }
    })

  it('answers 503 with Retry-After while it is away, then 200 from the same instance, and moves each key’s money once', async () => {
    const before = (await call(server.url, '/v1/budgets/b-travel', admin)).body as { balance_cents: number }
    // Keys sent before, during and after the outage; each client retries its key until it gets a 200.
    const keys = Array.from({ length: 30 }, (_, i) => `outage-${i}`)
    const outcomes = new Map<string, Array<number>>()
    const send = async (key: string) => {
      const began = Date.now()
      const got = await topUp(key)
      expect(Date.now() - began, `${key} answered`).toBeLessThan(10_000)
      outcomes.set(key, [...(outcomes.get(key) ?? []), got.status])
      if (got.status === 503) {
        expect([got.body, got.headers.get('retry-after')]).toEqual([unavailable, '5'])
      } else expect(got.status).toBe(200)
      return got.status
    }
    for (const key of keys.slice(0, 10)) await send(key)
    await cluster.stop()
    const during = await Promise.all(keys.slice(10, 20).map(send))
    expect(during.every((s) => s === 503)).toBe(true)
    const read = await call(server.url, '/v1/banking/bank_transactions', admin)
    expect([read.status, read.body]).toEqual([503, unavailable])
    await cluster.start()
    // The same instance, not restarted: the pool opens new connections by itself.
    for (const key of keys.slice(10)) while ((await send(key)) !== 200);
    for (const key of keys.slice(0, 10)) expect(await send(key)).toBe(200) // a replay: moves nothing
    const after = (await call(server.url, '/v1/budgets/b-travel', admin)).body as { balance_cents: number }
    expect(after.balance_cents - before.balance_cents).toBe(100 * keys.length)
    expect(
      (await db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE idempotency_key LIKE $1', ['outage-%']))[0]
    ).toEqual({
      n: keys.length
    })
    // Every money movement the database holds has its record, and no record claims one that is not there.
    const moved = await db.query<{ idempotency_key: string; request_id: string }>(
      'SELECT idempotency_key, request_id FROM idempotency_keys WHERE idempotency_key LIKE $1 AND status = 200 ORDER BY 1',
      ['outage-%']
    )
    const recorded = await db.query<{
      idempotency_key: string
      request_id: string
      changes: ReadonlyArray<{ field: string; before: number; after: number }>
    }>(
      'SELECT idempotency_key, id AS request_id, changes FROM decisions WHERE idempotency_key LIKE $1 AND replay_of IS NULL AND status = 200 ORDER BY 1',
      ['outage-%']
    )
    expect(recorded.map((r) => [r.idempotency_key, r.request_id])).toEqual(moved.map((m) => [m.idempotency_key, m.request_id]))
    const cents = recorded.flatMap((r) => r.changes.filter((c) => c.field === 'balance_cents').map((c) => c.after - c.before))
    expect(cents.reduce((a, b) => a + b, 0)).toBe(after.balance_cents - before.balance_cents)
    // The replies replayed while the database was back name the request whose reply they are.
    const replays = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM decisions d JOIN idempotency_keys k ON k.request_id = d.replay_of WHERE d.idempotency_key LIKE $1',
      ['outage-%']
    )
    expect(replays[0]?.n).toBeGreaterThanOrEqual(10)
  }, 120_000)
})
