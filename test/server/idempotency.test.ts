/**
 * How long an Idempotency-Key is remembered: IDEMPOTENCY_TTL_HOURS (24 by default). Within
 * it, the same key replays the first reply and moves nothing; past it, the key is forgotten and its
 * reuse is a new request; the purge every instance runs removes what has expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { purgeExpired } from '../../src/store/store'
import { call, seeded, stores } from './harness'

const T0 = Date.parse('2026-11-23T15:00:00Z')
const HOUR = 3_600_000

describe.each(stores)('Idempotency-Key expiry on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  let server: Served
  let now = T0

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    server = await listen(db, { clock: () => new Date(now), rateLimitPerMinute: 1_000_000, idempotencyTtlHours: 24 })
  }, 60_000)

  afterAll(async () => {
    await server.close()
    await drop()
  }, 30_000)

  const topUp = (key: string) =>
    call(server.url, '/v1/budgets/b-travel/top_up', {
      key: 'demo-admin',
      company: 'c-acme',
      method: 'POST',
      body: { amount_cents: 500 },
      headers: { 'Idempotency-Key': key }
    })
  const balance = async () =>
    (await db.query<{ balance_cents: number }>("SELECT balance_cents FROM budgets WHERE id = 'b-travel'"))[0]
      ?.balance_cents as number

  it('replays within the time to live, and is a new request past it', async () => {
    const start = await balance()
    expect((await topUp('ttl-1')).status).toBe(200)
    now = T0 + 23 * HOUR + 59 * 60_000
    const replayed = await topUp('ttl-1')
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([200, 'true'])
    expect(await balance()).toBe(start + 500)
    now = T0 + 24 * HOUR + 1
    const again = await topUp('ttl-1')
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, null])
    expect(await balance()).toBe(start + 1000)
  })

  it('the purge removes the keys older than the time to live, and only those', async () => {
    now = T0 + 100 * HOUR
    expect((await topUp('ttl-fresh')).status).toBe(200)
    const removed = await purgeExpired(db, new Date(now).toISOString(), new Date(now - 24 * HOUR).toISOString())
    expect(removed).toBe(1) // ttl-1 as claimed again at T0 + 24 h
    expect(await db.query("SELECT idempotency_key FROM idempotency_keys WHERE idempotency_key LIKE 'ttl-%'")).toEqual([
      { idempotency_key: 'ttl-fresh' }
    ])
  })
})
