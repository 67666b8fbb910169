import { describe, expect, it } from 'vitest'
import { rateLimiter } from '../../src/server/rate-limit'

describe('rateLimiter', () => {
  it('admits perMinute requests of a key in the minute from its first, then says how long to wait', () => {
    let now = Date.UTC(2026, 10, 23, 12)
    const { admit } = rateLimiter(2, () => new Date(now))
    expect([admit('a'), admit('a'), admit('a'), admit('b')]).toEqual([null, null, 60, null])
    now += 59_001
    expect(admit('a')).toBe(1)
    now += 999
    expect([admit('a'), admit('a'), admit('a')]).toEqual([null, null, 60])
  })

  it('forgets the keys whose window is over once it holds more than 10,000', () => {
    let now = Date.UTC(2026, 10, 23, 12)
    const limiter = rateLimiter(1, () => new Date(now))
    for (let i = 0; i <= 10_000; i++) limiter.admit(`key ${i}`)
    expect(limiter.tracked()).toBe(10_001)
    now += 30_000
    limiter.admit('fresh')
    // every window is 30 s old: none is dropped yet
    expect(limiter.tracked()).toBe(10_002)
    now += 30_000
    limiter.admit('key 0')
    expect(limiter.tracked()).toBe(2)
    // 'fresh' still in its window, 'key 0' in a new one
    expect([limiter.admit('fresh'), limiter.admit('key 0')]).toEqual([30, 60])
  })
})
