/**
 * The rate limit kept in the database: windows of 60 seconds per key, counted by one
 * atomic upsert, so that limiters on one database (several instances) admit `perMinute` together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import { type RateLimiter, rateLimiter } from '../../src/server/rate-limit'
import { keyHash } from '../../src/store/keys'
import type { Database } from '../../src/store/database'
import { purgeExpired } from '../../src/store/store'
import { call, seeded, stores } from './harness'

describe.each(stores)('rateLimiter on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
  }, 60_000)
  afterAll(async () => {
    await drop()
  }, 30_000)

  /** The verdict of one request without a key, from `address`. */
  const from = (limiter: RateLimiter, address: string) => limiter.admit(undefined, address).then((a) => a.retryAfter)

  it('admits perMinute requests of an address in the minute from its first, then says how long to wait', async () => {
    let now = Date.UTC(2026, 10, 23, 12)
    const limiter = rateLimiter(db, 2, () => new Date(now))
    expect([await from(limiter, 'a'), await from(limiter, 'a'), await from(limiter, 'a'), await from(limiter, 'b')]).toEqual([
      null,
      null,
      60,
      null
    ])
    now += 59_001
    expect(await from(limiter, 'a')).toBe(1)
    now += 999
    expect([await from(limiter, 'a'), await from(limiter, 'a'), await from(limiter, 'a')]).toEqual([null, null, 60])
  })

  it('finds a stored key’s session in the same statement and counts the key, not the address; an unknown key as the address', async () => {
    const now = Date.UTC(2026, 10, 23, 13)
    const limiter = rateLimiter(db, 1, () => new Date(now))
    const admin = keyHash('demo-admin')
    const first = await limiter.admit(admin, 'shared-address')
    expect(first).toEqual({
      session: {
        user: { id: 'u-admin', email_verified: true },
        memberships: { 'c-acme': { role: 'admin', permissions: [] } }
      },
      keySha256: admin,
      retryAfter: null
    })
    // The address has not been counted: a request without a key from it is its first.
    expect(await from(limiter, 'shared-address')).toBe(null)
    expect((await limiter.admit(admin, 'another-address')).retryAfter).toBe(60)
    expect(await limiter.admit(keyHash('made-up'), 'shared-address')).toEqual({
      session: { user: null, memberships: {} },
      keySha256: null,
      retryAfter: 60
    })
    expect(
      await db.query(`SELECT key, count FROM rate_limits WHERE key IN ($1, $2, $3) ORDER BY key`, [
        `key ${admin}`,
        'address shared-address',
        `key ${keyHash('made-up')}`
      ])
    ).toEqual([
      { key: 'address shared-address', count: 2 },
      { key: `key ${admin}`, count: 2 }
    ])
  })

  it('shares its windows with every limiter on the database: two instances admit perMinute together', async () => {
    const now = Date.UTC(2026, 10, 24, 12)
    const one = rateLimiter(db, 5, () => new Date(now))
    const two = rateLimiter(db, 5, () => new Date(now + 500))
    const verdicts = await Promise.all(Array.from({ length: 12 }, (_, i) => from(i % 2 === 0 ? one : two, 'shared')))
    expect(verdicts.filter((v) => v === null)).toHaveLength(5)
  })

  it('starts a window again for a clock more than a minute behind it', async () => {
    const now = Date.UTC(2026, 10, 25, 12)
    const ahead = rateLimiter(db, 1, () => new Date(now))
    const behind = rateLimiter(db, 1, () => new Date(now - 61_000))
    expect([await from(ahead, 'skew'), await from(ahead, 'skew')]).toEqual([null, 60])
    expect(await from(behind, 'skew')).toBe(null)
  })

  it('purges the windows that have ended', async () => {
    const now = Date.UTC(2026, 10, 26, 12)
    await from(
      rateLimiter(db, 1, () => new Date(now)),
      'old'
    )
    const later = new Date(now + 60_000).toISOString()
    await purgeExpired(db, later, '1970-01-01T00:00:00Z')
    expect(await db.query("SELECT key FROM rate_limits WHERE key IN ('address old', 'address a')")).toEqual([])
  })
})

/**
 * R-112, over a real socket: a key the store knows is counted as itself; made-up keys, a
 * malformed header and none at all as the client's address, so that guessing keys is limited as
 * one wrong key is, and leaves no row per guess; the pages and documents are not counted.
 */
describe.each(stores)('limits before trust on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  const servers: Array<Served> = []
  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
  }, 60_000)
  afterAll(async () => {
    for (const s of servers) await s.close()
    await drop()
  }, 30_000)

  const serverAt = async (minute: number, more: Parameters<typeof listen>[1] = {}) => {
    const s = await listen(db, { clock: () => new Date(Date.UTC(2026, 10, 27, 9, minute)), rateLimitPerMinute: 3, ...more })
    servers.push(s)
    return s
  }
  const rows = async () => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limits'))[0]?.n)

  it('six made-up keys from one address are limited as one wrong key is, and make no row of their own', async () => {
    const s = await serverAt(0)
    const before = await rows()
    const made = await Promise.all(
      Array.from(
        { length: 6 },
        async (_, i) => (await call(s.url, '/v1/budgets/b-travel', { key: `guess-${i}`, company: 'c-acme' })).status
      )
    )
    expect(made.sort()).toEqual([401, 401, 401, 429, 429, 429])
    expect(await rows()).toBe(before + 1)
    const address = await db.query<{ key: string; count: number }>(
      "SELECT key, count FROM rate_limits WHERE key LIKE 'address %'"
    )
    expect(address).toEqual([{ key: 'address 127.0.0.1', count: 6 }])
  })

  it('a key the store knows is counted as itself, apart from the address', async () => {
    const s = await serverAt(2)
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await call(s.url, '/v1/budgets/b-travel', { key: 'demo-member', company: 'c-acme' })).status)
    // The address's count of the test before has ended with its minute: a wrong key is admitted again here.
    statuses.push((await call(s.url, '/v1/budgets/b-travel', { key: 'guess', company: 'c-acme' })).status)
    expect(statuses).toEqual([200, 200, 200, 429, 401])
  })

  it('behind a proxy (TRUST_PROXY=1), the address is X-Forwarded-For’s first hop', async () => {
    const s = await serverAt(4, { trustProxy: true })
    const socket = await db.query("SELECT count FROM rate_limits WHERE key = 'address 127.0.0.1'")
    const from = (ip: string) =>
      call(s.url, '/v1/companies', { key: 'nobody', headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1` } })
    const one = [await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')]
    const other = await from('198.51.100.2')
    expect([...one.map((g) => g.status), other.status]).toEqual([401, 401, 401, 429, 401])
    expect(
      await db.query("SELECT key, count FROM rate_limits WHERE key LIKE 'address %' AND key <> 'address 127.0.0.1' ORDER BY key")
    ).toEqual([
      { key: 'address 198.51.100.2', count: 1 },
      { key: 'address 203.0.113.7', count: 4 }
    ])
    expect(await db.query("SELECT count FROM rate_limits WHERE key = 'address 127.0.0.1'")).toEqual(socket)
  })

  it('100 page loads of /docs, /admin/, / and /openapi.json count nothing', async () => {
    const s = await serverAt(6)
    const before = await db.query('SELECT key, count FROM rate_limits ORDER BY key')
    const paths = ['/docs', '/admin/', '/', '/openapi.json']
    const statuses = new Set<number>()
    for (let i = 0; i < 100; i++) statuses.add((await fetch(`${s.url}${paths[i % 4] as string}`)).status)
    expect(await db.query('SELECT key, count FROM rate_limits ORDER BY key')).toEqual(before)
    expect([...statuses].every((st) => st !== 429)).toBe(true)
  })
})
