/**
 * One owner for a PGlite directory, in this process: the claim and its lock file under
 * both interlocks, the owner's socket for the reads of its records, and the CLI reading through
 * it. The same in real processes, with signals: ./owner.processes.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve } from '../../src/server/main'
import { serveOwnerSocket } from '../../src/server/owner-socket'
import type { Database } from '../../src/store/database'
import { openDatabase } from '../../src/store/database'
import { claimDirectory, DirectoryInUse, type Interlock, LOCK_FILE, readOwner } from '../../src/store/owner'
import { runCli } from '../cli/run'

const workspace = mkdtempSync(join(tmpdir(), 'budget-rules-owner-'))
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true })
}, 60_000)
let dirs = 0
const freshDir = () => join(workspace, `d${++dirs}`)

/** A directory the server made and seeded once, copied where a test needs one: a new database takes seconds to make. */
const TEMPLATE = join(workspace, 'template')
beforeAll(async () => {
  await (await serve({ dataDir: TEMPLATE })).close()
}, 120_000)
const seededDir = (): string => {
  const dir = freshDir()
  cpSync(TEMPLATE, dir, { recursive: true })
  return dir
}

/** The pid of a process that has ended. */
const deadPid = (): number =>
  Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }))

/** The refusal of a claim that must be refused. */
const refusal = (claim: Promise<unknown>): Promise<DirectoryInUse> =>
  claim.then(
    () => {
      throw new Error('claimed a directory another owner holds')
    },
    (e: unknown) => e as DirectoryInUse
  )

const lockText = (dir: string) => readFileSync(join(dir, LOCK_FILE), 'utf8')

describe.each<Interlock>(['abstract-socket', 'lock-file'])('claimDirectory, interlock %s', (interlock) => {
  it('creates the directory (0700) and a lock file naming this process; a second claim is refused naming it; release gives it back', async () => {
    const dir = freshDir()
    const first = await claimDirectory(dir, 'serve', interlock)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600)
    const owner = first.owner()
    expect(owner).toEqual({ pid: process.pid, started_at: owner.started_at, command: 'serve', url: null, socket: null })
    expect(new Date(owner.started_at).toISOString()).toBe(owner.started_at)
    expect(JSON.parse(lockText(dir))).toEqual(owner)
    expect(first.tookOver).toBe(null)

    const refused = await refusal(claimDirectory(dir, 'decisions list', interlock))
    expect(refused).toBeInstanceOf(DirectoryInUse)
    expect(refused.owner).toEqual(owner)
    expect(refused.message).toBe(
      `the data directory ${dir} is in use by budget-rules serve (pid ${process.pid}, since ${owner.started_at}): stop it first, or set DATA_DIR to another directory`
    )

    first.announce({ url: 'http://127.0.0.1:3000', socket: '/run/owner.sock' })
    expect(readOwner(dir)).toEqual({ ...owner, url: 'http://127.0.0.1:3000', socket: '/run/owner.sock' })
    expect((await refusal(claimDirectory(dir, 'replay', interlock))).message).toBe(
      `the data directory ${dir} is in use by budget-rules serve (pid ${process.pid}, http://127.0.0.1:3000, since ${owner.started_at}): stop it first, or set DATA_DIR to another directory`
    )

    await first.release()
    await first.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const again = await claimDirectory(dir, 'replay', interlock)
    expect(again.owner().command).toBe('replay')
    expect(again.tookOver).toBe(null)
    await again.release()
  })

  it('takes over the lock file of an owner that is gone, and says whose it was', async () => {
    const dir = freshDir()
    mkdirSync(dir)
    const gone = {
      pid: deadPid(),
      started_at: '2026-11-28T09:00:00.000Z',
      command: 'serve',
      url: 'http://127.0.0.1:3000',
      socket: null
    }
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(gone))
    const claimed = await claimDirectory(dir, 'serve', interlock)
    expect(claimed.tookOver).toEqual(gone)
    expect(readOwner(dir)).toEqual(claimed.owner())
    await claimed.release()
  })

  it('takes over a lock file that is not one (no owner to name)', async () => {
    const dir = freshDir()
    mkdirSync(dir)
    writeFileSync(join(dir, LOCK_FILE), '{"pid": "me"}')
    const claimed = await claimDirectory(dir, 'serve', interlock)
    expect(claimed.tookOver).toBe(null)
    expect(readOwner(dir)).toEqual(claimed.owner())
    await claimed.release()
  })

  it('release leaves a lock file that is no longer its own', async () => {
    const dir = freshDir()
    const claimed = await claimDirectory(dir, 'serve', interlock)
    const other = { ...claimed.owner(), pid: claimed.owner().pid + 1 }
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(other))
    await claimed.release()
    expect(readOwner(dir)).toEqual(other)
  })
})

describe('claimDirectory, lock-file interlock', () => {
  it('refuses while the process its lock file names runs', async () => {
    const dir = freshDir()
    mkdirSync(dir)
    const live = { pid: process.ppid, started_at: '2026-11-28T09:00:00.000Z', command: 'serve', url: null, socket: null }
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(live))
    const refused = await refusal(claimDirectory(dir, 'replay', 'lock-file'))
    expect(refused.owner).toEqual(live)
  })
})

describe('claimDirectory, abstract-socket interlock', () => {
  it('an owner whose lock file is not there yet (or gone) is named as another process, after a wait', async () => {
    const dir = freshDir()
    const claimed = await claimDirectory(dir, 'serve', 'abstract-socket')
    rmSync(join(dir, LOCK_FILE))
    const refused = await refusal(claimDirectory(dir, 'replay', 'abstract-socket'))
    expect(refused.owner).toBe(null)
    expect(refused.message).toBe(
      `the data directory ${dir} is in use by another process: stop it first, or set DATA_DIR to another directory`
    )
    await claimed.release()
  })

  it('the interlock is the directory, whatever path names it', async () => {
    const dir = freshDir()
    const claimed = await claimDirectory(dir, 'serve', 'abstract-socket')
    const refused = await refusal(claimDirectory(`${dir}/../${dir.split('/').at(-1) ?? ''}`, 'replay', 'abstract-socket'))
    expect(refused).toBeInstanceOf(DirectoryInUse)
    await claimed.release()
  })
})

/** One GET (or another method) on a Unix socket: status and JSON body. */
const ask = (socketPath: string, path: string, method = 'GET'): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    request({ socketPath, path, method }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
      })
    })
      .on('error', reject)
      .end()
  })

describe("the owner's socket", () => {
  it('serves the reads of the records of the directory it owns, and the CLI reads through it as it would read the directory', async () => {
    const dataDir = seededDir()
    const server = await serve({ dataDir, clock: () => new Date('2026-11-23T15:00:00Z'), rateLimitPerMinute: 1000 })
    const socket = join(dataDir, 'owner.sock')
    const ids: Array<string> = []
    let listed: string
    let shown: string
    try {
      expect(readOwner(dataDir)).toMatchObject({ pid: process.pid, command: 'serve', url: server.url, socket })
      expect(statSync(socket).mode & 0o777).toBe(0o600)
      for (const amount of [100, 200, 300]) {
        const reply = await fetch(`${server.url}/v1/budgets/b-travel/top_up`, {
          method: 'POST',
          headers: { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme', 'Content-Type': 'application/json' },
          body: JSON.stringify({ amount_cents: amount })
        })
        expect(reply.status).toBe(200)
        ids.push(reply.headers.get('x-request-id') ?? '')
      }
      const [a, , c] = ids as [string, string, string]
      expect(await ask(socket, `/decisions/${a}`)).toMatchObject({ status: 200, body: { request_id: a, status: 200 } })
      expect(await ask(socket, '/decisions/no-such-request')).toEqual({ status: 404, body: { message: 'no such record' } })
      const list = await ask(
        socket,
        `/decisions?filter=${encodeURIComponent(JSON.stringify({ resource: 'b-travel', limit: 2 }))}`
      )
      // Oldest first; the three at one instant (the server's clock stands still), so by request id.
      const byId = [...ids].sort()
      expect({ status: list.status, ids: (list.body as Array<{ request_id: string }>).map((r) => r.request_id) }).toEqual({
        status: 200,
        ids: byId.slice(0, 2)
      })
      expect((await ask(socket, '/decisions')).status).toBe(200)
      for (const filter of ['not json', '[]', '{"limit":0}', '{"resource":1}', '{"after":{"at":"x"}}', '{"drop":"table"}'])
        expect(await ask(socket, `/decisions?filter=${encodeURIComponent(filter)}`)).toEqual({
          status: 400,
          body: { message: 'filter is not a decision filter' }
        })
      expect(await ask(socket, '/budgets')).toEqual({ status: 404, body: { message: 'no such read' } })
      expect(await ask(socket, `/decisions/${a}`, 'DELETE')).toEqual({ status: 405, body: { message: 'only GET' } })

      // The CLI, which would open the directory, reads through the server instead.
      const show = await runCli(['decisions', 'show', c, '--json'], { DATA_DIR: dataDir })
      expect({ code: show.code, stderr: show.stderr }).toEqual({ code: 0, stderr: '' })
      shown = show.stdout
      const all = await runCli(['decisions', 'list', '--resource', 'b-travel'], { DATA_DIR: dataDir })
      expect({ code: all.code, stderr: all.stderr }).toEqual({ code: 0, stderr: '' })
      listed = all.stdout
      expect(
        listed
          .trim()
          .split('\n')
          .map((line) => line.split('  ')[1])
      ).toEqual(byId)
      const missing = await runCli(['decisions', 'show', 'no-such-request'], { DATA_DIR: dataDir })
      expect(missing).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: no record of request "no-such-request" in the database in ${dataDir} (through the server that owns it)\n`
      })
    } finally {
      await server.close()
    }
    expect(existsSync(socket)).toBe(false)
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
    // With no owner, the CLI opens the directory itself, and reads the same.
    expect(await runCli(['decisions', 'show', ids[2] ?? '', '--json'], { DATA_DIR: dataDir })).toEqual({
      code: 0,
      stdout: shown,
      stderr: ''
    })
    expect(await runCli(['decisions', 'list', '--resource', 'b-travel'], { DATA_DIR: dataDir })).toEqual({
      code: 0,
      stdout: listed,
      stderr: ''
    })
  }, 120_000)

  it("a directory whose path is too long for a socket's address has its socket in a private folder", async () => {
    const dir = join(workspace, 'x'.repeat(120))
    mkdirSync(dir)
    const failing: Database = {
      driver: 'pglite',
      query: () => Promise.reject(new Error('the database in memory stopped')),
      transaction: () => Promise.reject(new Error('unused')),
      close: () => Promise.resolve(),
      stats: () => ({ total: 1, idle: 1, waiting: 0 })
    }
    const door = await serveOwnerSocket(failing, dir)
    expect(door.socket.startsWith(join(tmpdir(), 'budget-rules-'))).toBe(true)
    expect(door.socket.endsWith('/owner.sock')).toBe(true)
    expect(statSync(join(door.socket, '..')).mode & 0o777).toBe(0o700)
    // A read the database fails is a 503 naming why.
    expect(await ask(door.socket, '/decisions/r-1')).toEqual({ status: 503, body: { message: 'the database in memory stopped' } })
    await door.close()
    expect(existsSync(join(door.socket, '..'))).toBe(false)
  })
})

describe('the CLI beside an owner', () => {
  /** The directory owned by this process, its lock file naming `socket`. */
  const ownedWith = async (socket: string | null) => {
    const dir = freshDir()
    const claimed = await claimDirectory(dir, 'serve')
    // What a database's directory holds first; the owner holds the rest.
    writeFileSync(join(dir, 'PG_VERSION'), '18\n')
    claimed.announce({ url: null, socket })
    return { dir, claimed }
  }

  const fakeOwner = async (answer: (path: string) => readonly [number, string]): Promise<{ socket: string; server: Server }> => {
    const socket = join(mkdtempSync(join(tmpdir(), 'budget-rules-fake-')), 'owner.sock')
    const server = createServer((req, res) => {
      const [status, body] = answer(req.url ?? '')
      res.writeHead(status).end(body)
    })
    await new Promise<void>((done) => server.listen(socket, done))
    return { socket, server }
  }

  it('says, in one line, when the owner cannot be reached or answers what is not a record', async () => {
    const gone = await ownedWith('/nonexistent/owner.sock')
    const unreachable = await runCli(['decisions', 'show', 'r-1'], { DATA_DIR: gone.dir })
    expect(unreachable).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the database in ${gone.dir} through the server that owns it: connect ENOENT /nonexistent/owner.sock\n`
    })
    await gone.claimed.release()

    const fake = await fakeOwner((path) =>
      path.startsWith('/decisions/r-1')
        ? [200, 'not json']
        : path.startsWith('/decisions/r-2')
          ? [200, '{"id":1}']
          : path.startsWith('/decisions?')
            ? [200, '{"not":"a list"}']
            : [500, '{"message":"broken"}']
    )
    const owned = await ownedWith(fake.socket)
    try {
      const via = `the database in ${owned.dir} (through the server that owns it)`
      expect((await runCli(['decisions', 'show', 'r-1'], { DATA_DIR: owned.dir })).stderr).toBe(
        `error: cannot read the database in ${owned.dir} through the server that owns it: its answer is not JSON\n`
      )
      expect((await runCli(['decisions', 'show', 'r-2'], { DATA_DIR: owned.dir })).stderr).toBe(
        `error: ${via} answered an object, not a decision record\n`
      )
      expect((await runCli(['decisions', 'show', 'r-3'], { DATA_DIR: owned.dir })).stderr).toBe(
        `error: ${via} answered 500: broken\n`
      )
      expect((await runCli(['decisions', 'list'], { DATA_DIR: owned.dir })).stderr).toBe(
        `error: ${via} answered an object, not a list of records\n`
      )
    } finally {
      await owned.claimed.release()
      fake.server.close()
    }
  })

  it('a read of a directory that holds no database makes none there', async () => {
    const dir = freshDir()
    expect(await runCli(['decisions', 'list'], { DATA_DIR: dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: the database in ${dir} keeps no decision records: start budget-rules serve on it first\n`
    })
    expect(existsSync(dir)).toBe(false)
  })

  it('waits for an owner that serves no reads (another command reading) to finish, then opens the directory itself', async () => {
    const dataDir = seededDir()
    const db = await openDatabase({ dataDir, command: 'decisions export' })
    expect(readOwner(dataDir)).toMatchObject({ command: 'decisions export', socket: null })
    const listing = runCli(['decisions', 'list'], { DATA_DIR: dataDir })
    await new Promise((resolve) => setTimeout(resolve, 300))
    await db.close()
    expect(await listing).toEqual({ code: 0, stdout: '', stderr: '' })
  }, 60_000)
})
