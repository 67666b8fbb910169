/**
 * Several reference-server instances on one PostgreSQL, as real processes
 * (`budget-rules serve`) on real sockets: started together on an empty database they migrate and
 * seed once; money moved through any of them adds up exactly, an Idempotency-Key sent to all at
 * once moves money once, an instance killed (SIGKILL) under load loses nothing once clients retry
 * their keys elsewhere; the rate limit is one limit across them. On the PostgreSQL server of
 * DATABASE_URL (a fresh database), or one of the test's own; only where neither can run is it
 * skipped, saying why.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoBudgets } from '../../src/store/seed'
import { type Cluster, postgresUnavailable, startCluster } from './cluster'
import { call, type Call, stores } from './harness'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const LISTENING = /budget-rules server listening on (http:\/\/127\.0\.0\.1:\d+)\n/
const admin = { key: 'demo-admin', company: 'c-acme' }

const serverStore = stores.find((s) => s.name === 'PostgreSQL')
const skipped = serverStore === undefined ? postgresUnavailable : null
if (skipped !== null) console.log(`the several-instances tests do not run here: no DATABASE_URL, and ${skipped}`)

/** One `budget-rules serve` process. */
interface Instance {
  readonly url: string
  readonly child: ChildProcess
}

/** Starts an instance on a free port over `databaseUrl`; resolves once it listens. */
const startInstance = (databaseUrl: string, env: Readonly<Record<string, string>> = {}): Promise<Instance> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), 'serve'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = LISTENING.exec(out)
      if (m !== null) resolve({ url: m[1] as string, child })
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => {
      reject(new Error(`the instance exited with ${code}: ${out}`))
    })
  })

const stop = async (instance: Instance): Promise<void> => {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return
  const exited = new Promise((resolve) => instance.child.once('exit', resolve))
  instance.child.kill('SIGTERM')
  await exited
}

describe.skipIf(skipped !== null)('several instances on one PostgreSQL', () => {
  let databaseUrl: string
  let drop: () => Promise<void> = () => Promise.resolve()
  let cluster: Cluster | null = null
  let instances: Array<Instance> = []
  let db: pg.Pool

  beforeAll(async () => {
    if (serverStore !== undefined) {
      const place = await serverStore.place()
      databaseUrl = place.options.databaseUrl as string
      drop = place.drop
    } else {
      cluster = await startCluster()
      databaseUrl = cluster.url
    }
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  }, 120_000)

  afterAll(async () => {
    await Promise.all(instances.map(stop))
    await db.end()
    await drop()
    await cluster?.destroy()
  }, 60_000)

  const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]?.n)
  const balance = async (id: string) =>
    Number((await db.query<{ b: string }>('SELECT balance_cents AS b FROM budgets WHERE id = $1', [id])).rows[0]?.b)
  const topUp = (instance: Instance, cents: number, key?: string): Promise<Awaited<ReturnType<typeof call>>> =>
    call(instance.url, '/v1/budgets/b-travel/top_up', {
      ...admin,
      method: 'POST',
      body: { amount_cents: cents },
      ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } })
    } satisfies Call)

  it('three started at once on an empty database run each migration once and seed once', async () => {
    instances = await Promise.all([0, 1, 2].map(() => startInstance(databaseUrl, { RATE_LIMIT_PER_MINUTE: '1000000' })))
    expect((await db.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 }
    ])
    expect(await count('SELECT count(*) AS n FROM budgets')).toBe(demoBudgets.length)
    expect(await count("SELECT count(*) AS n FROM companies WHERE id = 'c-acme'")).toBe(1)
    for (const instance of instances) expect((await call(instance.url, '/v1/companies', admin)).status).toBe(200)
  }, 120_000)

  it('top-ups spread over the instances, with keys and without, add up exactly; withdrawals never go below zero', async () => {
    const before = await balance('b-travel')
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) => topUp(instances[i % 3] as Instance, 1, i % 2 === 0 ? `spread-${i}` : undefined))
    )
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 150 }, () => 200))
    expect(await balance('b-travel')).toBe(before + 150)
    // Withdrawals of a third of the balance from every instance at once: at most three succeed.
    const third = Math.floor((before + 150) / 3)
    const withdrawals = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call((instances[i % 3] as Instance).url, '/v1/budgets/b-travel/withdraw', {
          ...admin,
          method: 'POST',
          body: { amount_cents: third }
        })
      )
    )
    const taken = withdrawals.filter((r) => r.status === 200).length
    expect(taken).toBe(3)
    expect(withdrawals.filter((r) => r.status !== 200).map((r) => r.status)).toEqual(Array.from({ length: 9 }, () => 422))
    expect(await balance('b-travel')).toBe(before + 150 - 3 * third)
  }, 60_000)

  it('one Idempotency-Key sent to all three at once moves the money once, the others replay it', async () => {
    const before = await balance('b-travel')
    for (let round = 0; round < 10; round++) {
      const replies = await Promise.all(instances.map((instance) => topUp(instance, 7, `all-at-once-${round}`)))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200])
      expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2)
      expect(new Set(replies.map((r) => r.text)).size).toBe(1)
    }
    expect(await balance('b-travel')).toBe(before + 70)
  }, 60_000)

  it('an instance killed under load loses nothing: clients retry their keys on another', async () => {
    const before = await balance('b-travel')
    const keys = Array.from({ length: 300 }, (_, i) => `killed-${i}`)
    let sent = 0
    const send = async (key: string, first: number): Promise<void> => {
      // Try the instances from `first` on until one answers 200; a dead one refuses or cuts the request.
      for (let attempt = 0; ; attempt++) {
        const instance = instances[(first + attempt) % 3] as Instance
        try {
          sent++
          const got = await topUp(instance, 1, key)
          if (got.status === 200) return
        } catch {
          // the connection was refused or cut: the request may or may not have committed
        }
      }
    }
    const load = Promise.all(keys.map((key, i) => send(key, i % 3)))
    await new Promise((resolve) => setTimeout(resolve, 150))
    const victim = instances[0] as Instance
    const exited = new Promise((resolve) => victim.child.once('exit', resolve))
    victim.child.kill('SIGKILL')
    await exited
    await load
    expect(sent).toBeGreaterThan(keys.length)
    expect(await balance('b-travel')).toBe(before + keys.length)
    expect(await count("SELECT count(*) AS n FROM idempotency_keys WHERE idempotency_key LIKE 'killed-%' AND status = 200")).toBe(
      keys.length
    )
    // Every money movement the database holds has its record, and no record claims one that is not there.
    const moved = (
      await db.query<{ idempotency_key: string; request_id: string }>(
        "SELECT idempotency_key, request_id FROM idempotency_keys WHERE idempotency_key LIKE 'killed-%' AND status = 200 ORDER BY 1"
      )
    ).rows
    const recorded = (
      await db.query<{
        idempotency_key: string
        request_id: string
        changes: ReadonlyArray<{ field: string; before: number; after: number }>
      }>(
        "SELECT idempotency_key, id AS request_id, changes FROM decisions WHERE idempotency_key LIKE 'killed-%' AND replay_of IS NULL AND status = 200 ORDER BY 1"
      )
    ).rows
    expect(recorded.map((r) => [r.idempotency_key, r.request_id])).toEqual(moved.map((m) => [m.idempotency_key, m.request_id]))
    const cents = recorded.flatMap((r) => r.changes.filter((c) => c.field === 'balance_cents').map((c) => c.after - c.before))
    expect([cents.length, cents.reduce((a, b) => a + b, 0)]).toEqual([keys.length, keys.length])
    // A fresh instance takes the dead one's place.
    instances[0] = await startInstance(databaseUrl, { RATE_LIMIT_PER_MINUTE: '1000000' })
  }, 120_000)

  it('RATE_LIMIT_PER_MINUTE=30 limits one key across three instances, and made-up keys as one address: 60 requests, 30 admitted', async () => {
    const limited = await Promise.all([0, 1, 2].map(() => startInstance(databaseUrl, { RATE_LIMIT_PER_MINUTE: '30' })))
    try {
      // demo-member's window, which the other instances never counted.
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, i) => call((limited[i % 3] as Instance).url, '/v1/companies', { key: 'demo-member' }))
      )
      expect(replies.filter((r) => r.status === 200)).toHaveLength(30)
      const refused = replies.filter((r) => r.status === 429)
      expect(refused).toHaveLength(30)
      for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      // 60 made-up keys from one address, over the three, are limited as one wrong key is, and leave no row of their own.
      await db.query("DELETE FROM rate_limits WHERE key LIKE 'address %'")
      const guesses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call((limited[i % 3] as Instance).url, '/v1/budgets/b-travel', { key: `guess-${i}`, company: 'c-acme' })
        )
      )
      expect([guesses.filter((r) => r.status === 401).length, guesses.filter((r) => r.status === 429).length]).toEqual([30, 30])
      expect((await db.query("SELECT key, count FROM rate_limits WHERE key LIKE 'address %'")).rows).toEqual([
        { key: 'address 127.0.0.1', count: 60 }
      ])
    } finally {
      await Promise.all(limited.map(stop))
    }
  }, 120_000)
})
