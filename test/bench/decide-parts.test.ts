import type autocannon from 'autocannon'
import { describe, expect, it } from 'vitest'
import { cpuSeconds } from '../../bench/decide/cpu'
import { combine, type Run } from '../../bench/decide/load'
import { waitForQuiet } from '../../bench/decide/quiet'

// The parts of `npm run bench:decide` that turn what was measured into its figures: a
// sum taken wrong across two instances, or a wait that never waits, would flatter the service.

const run = (perSecond: number, latencies: ReadonlyArray<number>, bytes: number): Run => ({
  result: { requests: { average: perSecond, total: latencies.length }, errors: 0, non2xx: 0 } as unknown as autocannon.Result,
  latencies: Float64Array.from(latencies).sort(),
  bytes
})

describe('combine: several instances loaded at once as one figure', () => {
  it('sums the requests, counts decisions by the batch, and keeps the worse instance’s p50 and p99', () => {
    const fast = run(
      300,
      Array.from({ length: 100 }, (_, i) => 1 + i / 100),
      100 * 1000
    )
    const slow = run(
      200,
      Array.from({ length: 100 }, (_, i) => 2 + i / 10),
      100 * 3000
    )
    const f = combine([fast, slow], 10, 100)
    expect(f).toMatchObject({ instances: 2, connections: 10, requests_per_second: 500, decisions_per_second: 50_000 })
    expect(f.latency_p50_ms).toBe(6.9)
    expect(f.latency_p99_ms).toBe(11.8)
    expect(f.response_bytes).toBe(2000)
    expect(f.requests).toBe(200)
  })

  it('is the one run’s figure for one instance', () => {
    const f = combine([run(1000, [0.5, 0.6, 0.7, 5], 4 * 1700)], 10, 1)
    expect(f).toMatchObject({ instances: 1, requests_per_second: 1000, decisions_per_second: 1000, latency_p99_ms: 5 })
    expect(f.latency_p50_ms).toBe(0.6)
  })
})

describe('waitForQuiet: nothing timed on a busy machine, unless the wait gives up', () => {
  const slept: Array<number> = []
  const sleep = (ms: number) => {
    slept.push(ms)
    return Promise.resolve()
  }

  it('waits, a line every look, until the 1-minute load average falls below the bar', async () => {
    const seen = [
      [3, 4, 5],
      [2, 4, 5],
      [1.2, 3.9, 5]
    ]
    let look = 0
    const lines: Array<string> = []
    const quiet = await waitForQuiet({
      below: 1.5,
      maxMinutes: 15,
      every: 5,
      log: (line) => lines.push(line),
      loads: () => seen[Math.min(look++ >> 1, seen.length - 1)] as Array<number>,
      sleep
    })
    expect(quiet.gave_up).toBe(false)
    expect(quiet.load_at_start[0]).toBeLessThan(1.5)
    expect(quiet.waited_seconds).toBeGreaterThan(0)
    expect(lines.some((l) => l.startsWith('waiting for a quiet machine'))).toBe(true)
  })

  it('gives up after its minutes and says so', async () => {
    const lines: Array<string> = []
    const quiet = await waitForQuiet({
      below: 1.5,
      maxMinutes: 1,
      every: 5,
      log: (line) => lines.push(line),
      loads: () => [6, 5, 5],
      sleep
    })
    expect(quiet).toMatchObject({ gave_up: true, waited_seconds: 60, load_at_start: [6, 5, 5] })
    expect(lines.at(-1)).toMatch(/timing anyway/)
  })
})

describe('cpuSeconds: a process’s CPU time from /proc', () => {
  it.runIf(process.platform === 'linux')('grows as this process works', () => {
    const before = cpuSeconds(process.pid)
    const until = performance.now() + 50
    let spin = 0
    while (performance.now() < until) spin++
    expect(spin).toBeGreaterThan(0)
    expect(cpuSeconds(process.pid)).toBeGreaterThan(before)
  })
})
