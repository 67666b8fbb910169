/**
 * The rate limit kept in the database: windows of 60 seconds per key, counted by one
 * atomic upsert, so that limiters on one database (several instances) admit `perMinute` together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateLimiter } from '../../src/server/rate-limit'
import type { Database } from '../../src/store/database'
import { purgeExpired } from '../../src/store/store'
import { seeded, stores } from './harness'

describe.each(stores)('rateLimiter on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
  }, 60_000)
  afterAll(async () => {
    await drop()
  }, 30_000)

  it('admits perMinute requests of a key in the minute from its first, then says how long to wait', async () => {
    let now = Date.UTC(2026, 10, 23, 12)
    const { admit } = rateLimiter(db, 2, () => new Date(now))
    expect([await admit('a'), await admit('a'), await admit('a'), await admit('b')]).toEqual([null, null, 60, null])
    now += 59_001
    expect(await admit('a')).toBe(1)
    now += 999
    expect([await admit('a'), await admit('a'), await admit('a')]).toEqual([null, null, 60])
  })

  it('shares its windows with every limiter on the database: two instances admit perMinute together', async () => {
    const now = Date.UTC(2026, 10, 24, 12)
    const one = rateLimiter(db, 5, () => new Date(now))
    const two = rateLimiter(db, 5, () => new Date(now + 500))
    const verdicts = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? one : two).admit('shared')))
    expect(verdicts.filter((v) => v === null)).toHaveLength(5)
  })

  it('starts a window again for a clock more than a minute behind it', async () => {
    const now = Date.UTC(2026, 10, 25, 12)
    const ahead = rateLimiter(db, 1, () => new Date(now))
    const behind = rateLimiter(db, 1, () => new Date(now - 61_000))
    expect([await ahead.admit('skew'), await ahead.admit('skew')]).toEqual([null, 60])
    expect(await behind.admit('skew')).toBe(null)
  })

  it('purges the windows that have ended', async () => {
    const now = Date.UTC(2026, 10, 26, 12)
    const { admit } = rateLimiter(db, 1, () => new Date(now))
    await admit('old')
    const later = new Date(now + 60_000).toISOString()
    await purgeExpired(db, later, '1970-01-01T00:00:00Z')
    expect(await db.query("SELECT key FROM rate_limits WHERE key IN ('old', 'a')")).toEqual([])
  })
})
