/**
 * One owner for the embedded database, as a user meets it: the built CLI
 * (`node dist/cli.js`, as `npm start` runs it; `npm test` builds it first) in real processes on
 * one PGlite directory, stopped by real signals. Before the lock, a second `serve` on the
 * directory answered as well and lost one of two acknowledged top-ups; `decisions list` beside a
 * running server died with `Aborted()` and could leave the directory unopenable.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../cli/run'

const CLI = join(ROOT, 'dist/cli.js')
const LISTENING = /budget-rules server listening on (http:\/\/127\.0\.0\.1:\d+)\n/
const admin = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' }
/** b-travel's balance in the demo data. */
const SEEDED_BALANCE = 420_000

const workspace = mkdtempSync(join(tmpdir(), 'budget-rules-owner-'))
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true })
}, 60_000)

// The rate limit out of the way: the clients send as fast as the server answers.
const env = (dataDir: string) => ({
  ...process.env,
  PORT: '0',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '1000000'
})

interface Running {
  readonly child: ChildProcess
  readonly url: string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/** `budget-rules serve` on `dataDir`, once it says where it listens. */
const startServe = (dataDir: string): Promise<Running> => {
  const child = spawn(process.execPath, [CLI, 'serve'], { cwd: workspace, env: env(dataDir), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const url = LISTENING.exec(out)?.[1]
      if (url !== undefined) resolve({ child, url, stderr: () => err, exited })
    })
    void exited.then((code) => {
      reject(new Error(`serve exited ${String(code)} before listening: ${out}${err}`))
    })
  })
}

/** A CLI command run to its end. */
const cli = (args: ReadonlyArray<string>, dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: workspace, env: env(dataDir), encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 28 },
      (e, stdout, stderr) => {
        resolve({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : -1, stdout, stderr })
      }
    )
  })

const stop = async (server: Running): Promise<number | null> => {
  server.child.kill('SIGTERM')
  return server.exited
}

interface TopUp {
  readonly key: string
  readonly status: number | null
  readonly requestId: string | null
  readonly body: unknown
}

const topUp = async (url: string, key: string): Promise<TopUp> => {
  try {
    const reply = await fetch(`${url}/v1/budgets/b-travel/top_up`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ amount_cents: 100 })
    })
    return { key, status: reply.status, requestId: reply.headers.get('x-request-id'), body: await reply.json() }
  } catch {
    // No reply: the connection was lost (the server killed); the top-up may or may not have committed.
    return { key, status: null, requestId: null, body: null }
  }
}

/** A client's pause between two top-ups: a steady load, not a flood of thousands of records to check. */
const PAUSE_MS = 50

/** `clients` clients sending top-ups one after another until `until` resolves; every top-up sent. */
const load = async (
  url: string,
  clients: number,
  until: Promise<unknown>,
  tag: string,
  onAcknowledged: (n: number) => void = () => undefined
): Promise<ReadonlyArray<TopUp>> => {
  let done = false
  void until.finally(() => (done = true))
  const sent: Array<TopUp> = []
  let acknowledged = 0
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; !done; i++) {
        const reply = await topUp(url, `${tag}-${c}-${i}`)
        sent.push(reply)
        if (reply.status === 200) onAcknowledged(++acknowledged)
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
      }
    })
  )
  return sent
}

const balance = async (url: string): Promise<number> => {
  const reply = await fetch(`${url}/v1/budgets/b-travel`, { headers: admin })
  return ((await reply.json()) as { balance_cents: number }).balance_cents
}

/** A directory the server made and seeded once, copied for each test: a new database takes seconds to make. */
const TEMPLATE = join(workspace, 'template')
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build first (npm test does)`)
  expect(await stop(await startServe(TEMPLATE))).toBe(0)
}, 120_000)

/** A copy of the template under `name`. */
const seededDir = (name: string): string => {
  const dir = join(workspace, name)
  cpSync(TEMPLATE, dir, { recursive: true })
  return dir
}

/** The lock file's owner. */
const lockOf = (dataDir: string): unknown => JSON.parse(readFileSync(join(dataDir, 'owner.lock'), 'utf8'))

const INSTANT = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z'

describe('one owner for a PGlite directory (R-113), in real processes', () => {
  it('a second serve on the directory exits 1 naming the first; the first keeps serving; the data is one', async () => {
    const dataDir = seededDir('two-serves')
    const first = await startServe(dataDir)
    try {
      const lock = lockOf(dataDir) as { started_at: string }
      expect(lock.started_at).toMatch(new RegExp(`^${INSTANT}$`))
      expect(lock).toEqual({
        pid: first.child.pid,
        started_at: lock.started_at,
        command: 'serve',
        url: first.url,
        socket: join(dataDir, 'owner.sock')
      })
      expect(await cli(['serve'], dataDir)).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: the data directory ${dataDir} is in use by budget-rules serve (pid ${String(first.child.pid)}, ${first.url}, since ${lock.started_at}): stop it first, or set DATA_DIR to another directory\n`
      })
      const a = await topUp(first.url, 'two-serves-a')
      const b = await topUp(first.url, 'two-serves-b')
      expect([a.status, b.status]).toEqual([200, 200])
      expect(await balance(first.url)).toBe(SEEDED_BALANCE + 200)
    } finally {
      expect(await stop(first)).toBe(0)
    }
    expect(existsSync(join(dataDir, 'owner.lock'))).toBe(false)
    expect(existsSync(join(dataDir, 'owner.sock'))).toBe(false)
    const again = await startServe(dataDir)
    try {
      expect(await balance(again.url)).toBe(SEEDED_BALANCE + 200)
    } finally {
      expect(await stop(again)).toBe(0)
    }
  }, 180_000)

  it('decisions list and show, 20 times each beside 4 clients topping up: every run answers; after SIGTERM and a restart every acknowledged top-up and its record are there', async () => {
    const dataDir = seededDir('reads-beside-writes')
    const server = await startServe(dataDir)
    let sent: ReadonlyArray<TopUp> = []
    const runs: Array<{ kind: string; code: number; stdout: string; stderr: string; id?: string }> = []
    try {
      const first = await topUp(server.url, 'reads-first')
      expect(first.status).toBe(200)
      const reads = (async () => {
        for (let i = 0; i < 20; i++) {
          runs.push({ kind: 'list', ...(await cli(['decisions', 'list', '--resource', 'b-travel'], dataDir)) })
          const id = first.requestId as string
          runs.push({ kind: 'show', id, ...(await cli(['decisions', 'show', id, '--json'], dataDir)) })
        }
      })()
      sent = [first, ...(await load(server.url, 4, reads, 'reads'))]
      await reads
      expect(server.stderr()).toBe('')
    } finally {
      expect(await stop(server)).toBe(0)
    }
    expect(runs).toHaveLength(40)
    for (const run of runs) {
      expect({ kind: run.kind, code: run.code, stderr: run.stderr }).toEqual({ kind: run.kind, code: 0, stderr: '' })
      if (run.kind === 'show')
        expect(JSON.parse(run.stdout)).toMatchObject({ request_id: run.id, endpoint: 'budget.top_up', status: 200 })
      else expect(run.stdout).toMatch(/ budget\.top_up {2}200 {2}u-admin {2}b-travel /)
    }
    // Every top-up was answered, and each kept: the balance, and one record each (read with no server, the directory owned for the read).
    expect(sent.length).toBeGreaterThan(4)
    expect(sent.filter((t) => t.status !== 200)).toEqual([])
    const restarted = await startServe(dataDir)
    try {
      expect(await balance(restarted.url)).toBe(SEEDED_BALANCE + 100 * sent.length)
    } finally {
      expect(await stop(restarted)).toBe(0)
    }
    const exported = await cli(['decisions', 'export', '--resource', 'b-travel'], dataDir)
    expect({ code: exported.code, stderr: exported.stderr }).toEqual({ code: 0, stderr: '' })
    const records = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { request_id: string; endpoint: string; status: number })
      .filter((r) => r.endpoint === 'budget.top_up' && r.status === 200)
    expect(records.map((r) => r.request_id).sort()).toEqual(sent.map((t) => t.requestId).sort())
  }, 300_000)

  it("SIGKILL mid-load, then serve again: the dead owner's lock is taken over, and every acknowledged top-up is kept exactly once", async () => {
    const dataDir = seededDir('killed')
    const server = await startServe(dataDir)
    // Killed once 40 top-ups are acknowledged, with more under way.
    let kill!: () => void
    const killed = new Promise<void>((resolve) => (kill = resolve)).then(() => server.child.kill('SIGKILL'))
    const sent = await load(server.url, 4, killed, 'killed', (acknowledged) => {
      if (acknowledged === 40) kill()
    })
    expect(await server.exited).toBe(null)
    const acknowledged = sent.filter((t) => t.status === 200)
    expect(acknowledged.length).toBeGreaterThanOrEqual(40)
    expect(sent.filter((t) => t.status !== 200 && t.status !== null)).toEqual([])
    // The dead owner's lock file is still there, naming it.
    expect(lockOf(dataDir)).toMatchObject({ pid: server.child.pid, command: 'serve' })

    const restarted = await startServe(dataDir)
    try {
      expect(lockOf(dataDir)).toMatchObject({ pid: restarted.child.pid, command: 'serve', url: restarted.url })
      const kept = await balance(restarted.url)
      expect(kept).toBeGreaterThanOrEqual(SEEDED_BALANCE + 100 * acknowledged.length)
      expect(kept).toBeLessThanOrEqual(SEEDED_BALANCE + 100 * sent.length)
      // Every top-up sent again with its key: the acknowledged ones are replayed with their first
      // reply, none applied twice, and the ones whose reply was lost applied at most once.
      const again = await Promise.all(sent.map((t) => topUp(restarted.url, t.key)))
      expect(again.filter((t) => t.status !== 200)).toEqual([])
      for (const [i, t] of sent.entries()) if (t.status === 200) expect(again[i]?.body).toEqual(t.body)
      expect(await balance(restarted.url)).toBe(SEEDED_BALANCE + 100 * sent.length)
    } finally {
      expect(await stop(restarted)).toBe(0)
    }
  }, 180_000)

  it('a damaged or foreign directory: one line naming it, what happened and what to do, exit 1', async () => {
    const damaged = (name: string, file: string) => {
      const dir = seededDir(name)
      truncateSync(join(dir, file), 0)
      return dir
    }
    const opening = (dir: string) =>
      `error: cannot open the database in ${dir}: PostgreSQL stopped on its files (damaged, or written by another program or version); restore the directory from a copy, or move it away to start a new database\n`
    for (const dir of [damaged('no-control', 'global/pg_control'), damaged('empty-catalog', 'base/5/1259')]) {
      expect(await cli(['serve'], dir)).toEqual({ code: 1, stdout: '', stderr: opening(dir) })
      expect(await cli(['decisions', 'list'], dir)).toEqual({ code: 1, stdout: '', stderr: opening(dir) })
      // Refused, the directory is nobody's.
      expect(existsSync(join(dir, 'owner.lock'))).toBe(false)
    }
    const foreign = join(workspace, 'foreign')
    mkdirSync(join(foreign, 'src'), { recursive: true })
    writeFileSync(join(foreign, 'README.md'), '# another program\n')
    writeFileSync(join(foreign, 'src', 'main.c'), 'int main(void) { return 0; }\n')
    expect(await cli(['serve'], foreign)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot open the database in ${foreign}: the directory holds files that are not a database (no PG_VERSION); set DATA_DIR to an empty or new directory\n`
    })
    expect(existsSync(join(foreign, 'PG_VERSION'))).toBe(false)
  }, 180_000)
})
