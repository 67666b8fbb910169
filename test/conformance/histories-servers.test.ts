/**
 * checkHistories against real servers. On PGlite (one process, its transactions one at a
 * time) the reference passes. On PostgreSQL (the server of DATABASE_URL, a fresh database, or a
 * cluster of the test's own): three `budget-rules serve --conformance` processes on one
 * database pass with one of them killed (SIGKILL) during the run, its operations then unknown
 * or refused; and the two planted defects only concurrency shows are caught, a lost update (a
 * withdrawal without its row lock) and a key applied twice (checked, then inserted, with no
 * unique key), while the single-request kit and the sequences pass both.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkConformance, checkHistories, checkSequences, formatHistory, httpSender } from '../../src/conformance'
import { type Cluster, postgresUnavailable, startCluster } from '../server/cluster'
import { postgres, type Store, stores } from '../server/harness'
import { type Instance, startInstance, stopInstance } from '../server/instance'
import { type Planted, startPlanted } from './planted-servers'

describe('checkHistories against the reference server on PGlite', () => {
  it('passes: 8 clients, every reply explained, the retries replayed', async () => {
    const server = await startPlanted(null)
    try {
      const result = await checkHistories({ urls: [server.url], operations: 80, seed: 20261130 })
      if (!result.ok) throw new Error(formatHistory(result))
      expect(result.stats).toMatchObject({ unknown: 0, refused: 0 })
      expect(result.stats.operations).toBeGreaterThan(80)
      expect(result.stats.replayed).toBe(result.stats.retries)
      expect(result.stats.replayed).toBeGreaterThan(5)
    } finally {
      await server.close()
    }
  }, 60_000)
})

const serverStore = stores.find((s) => s.name === 'PostgreSQL')
const skipped = serverStore === undefined ? postgresUnavailable : null
if (skipped !== null) console.log(`the histories over PostgreSQL do not run here: no DATABASE_URL, and ${skipped}`)

describe.skipIf(skipped !== null)('checkHistories on PostgreSQL', () => {
  let cluster: Cluster | null = null
  let store: Store
  const drops: Array<() => Promise<void>> = []

  /** A fresh database on the server: its URL. */
  const database = async (): Promise<string> => {
    const place = await store.place()
    drops.push(place.drop)
    return place.options.databaseUrl as string
  }

  beforeAll(async () => {
    if (serverStore === undefined) cluster = await startCluster()
    store = serverStore ?? postgres((cluster as Cluster).url)
  }, 120_000)

  afterAll(async () => {
    for (const drop of drops) await drop()
    await cluster?.destroy()
  }, 60_000)

  it('three instances, one killed during the run: linearizable, its operations unknown or refused, settled by their keys', async () => {
    const url = await database()
    const instances: Array<Instance> = await Promise.all([0, 1, 2].map(() => startInstance(url, {}, ['--conformance'])))
    const watch = new pg.Pool({ connectionString: url, max: 1 })
    try {
      const operations = 240
      const running = checkHistories({ urls: instances.map((i) => i.url), operations, seed: 20261130 })
      // Killed once a third of the keys are kept.
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        const { rows } = await watch.query<{ n: string }>('SELECT count(*) AS n FROM idempotency_keys')
        if (Number(rows[0]?.n) >= operations / 3) break
      }
      const victim = instances[0] as Instance
      const exited = new Promise((resolve) => victim.child.once('exit', resolve))
      victim.child.kill('SIGKILL')
      await exited
      const result = await running
      if (!result.ok) throw new Error(formatHistory(result))
      expect(result.stats.refused).toBeGreaterThan(0)
      // Sent to the dead instance and answered by another, with their keys.
      expect(result.history.operations.filter((o) => o.retry_of !== null && o.url !== victim.url).length).toBeGreaterThan(0)
      expect(result.history.operations.filter((o) => o.url === victim.url && o.reply !== null).length).toBeGreaterThan(0)
    } finally {
      await watch.end()
      await Promise.all(instances.map(stopInstance))
    }
  }, 120_000)

  describe('planted defects only concurrency shows', () => {
    const started: Array<Planted> = []
    afterAll(async () => {
      await Promise.all(started.map((s) => s.close()))
    })

    it('lost-update: a withdrawal without its row lock; caught, cut to one round', async () => {
      const server = await startPlanted('lost-update', await database())
      started.push(server)
      const result = await checkHistories({ urls: [server.url], operations: 200, seed: 1 })
      if (result.verdict !== 'not linearizable') throw new Error(`not caught: ${formatHistory(result)}`)
      expect(['no order', 'money not conserved']).toContain(result.check)
      expect(result.witness.length).toBeLessThan(60)
      expect(result.witness).toContain(result.stuck)
      expect(formatHistory(result)).toMatch(/no order explains #\d+ \(client \d+\)/)
      // One request at a time cannot show it.
      expect(await checkConformance({ send: httpSender(server.url), numRuns: 100, seed: 1 })).toStrictEqual({
        ok: true,
        runs: 100
      })
      expect(await checkSequences({ url: server.url, numRuns: 20, seed: 1 })).toMatchObject({ ok: true, runs: 20 })
    }, 120_000)

    it('key-race: a key checked, then inserted, without its unique key; two instances, caught as a key applied twice', async () => {
      const url = await database()
      const servers = [await startPlanted('key-race', url), await startPlanted('key-race', url)]
      started.push(...servers)
      const result = await checkHistories({ urls: servers.map((s) => s.url), operations: 200, seed: 1 })
      if (result.verdict !== 'not linearizable') throw new Error(`not caught: ${formatHistory(result)}`)
      expect(result.check).toBe('key applied twice')
      const [first, second] = result.witness.map((id) => result.history.operations[id])
      expect(first?.key).toBe(second?.key)
      expect([first?.reply?.replayed, second?.reply?.replayed]).toEqual([false, false])
      const url0 = (servers[0] as Planted).url
      expect(await checkConformance({ send: httpSender(url0), numRuns: 100, seed: 1 })).toStrictEqual({ ok: true, runs: 100 })
      expect(await checkSequences({ url: url0, numRuns: 20, seed: 1 })).toMatchObject({ ok: true, runs: 20 })
    }, 120_000)
  })
})
