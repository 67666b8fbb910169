/**
 * `budget-rules decisions show|list|export` and `budget-rules replay` as a user runs them: over
 * the records a reference server kept in its PGlite directory (the server closed, one process at
 * a time), over a running server's GET /v1/decisions, and over an export; in-process through
 * `run`, and once as a child process.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DecisionRecord } from '../../src/decisions'
import { serve } from '../../src/server/main'
import { run } from '../../src/cli/program'
import { call } from '../server/harness'
import { runCli, spawnCli } from './run'

const NOW = new Date('2026-11-23T15:00:00Z')
const admin = { key: 'demo-admin', company: 'c-acme' }
const manager = { key: 'demo-manager', company: 'c-acme' }

let dir: string
const ids: Record<string, string> = {}

/** The second after NOW of the server's clock: the test moves it on between requests. */
let second = 0

/** Serves the data directory while `work` runs. */
const served = async <T>(work: (url: string) => Promise<T>): Promise<T> => {
  const server = await serve({ dataDir: dir, clock: () => new Date(NOW.getTime() + 1000 * second) })
  try {
    return await work(server.url)
  } finally {
    await server.close()
  }
}

/** A reply's request id; the clock moves on a second. */
const id = (got: { headers: Headers }) => {
  second++
  return got.headers.get('x-request-id') ?? ''
}

const keyId = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'budget-rules-decisions-'))
  await served(async (url) => {
    ids.renamed = id(
      await call(url, '/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { name: 'Trips' } } })
    )
    ids.refused = id(
      await call(url, '/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { recurrence_unit: 'week' } } })
    )
    const topUp = { ...admin, method: 'POST', body: { amount_cents: 500 }, headers: { 'Idempotency-Key': 'k-1' } }
    ids.topUp = id(await call(url, '/v1/budgets/b-travel/top_up', topUp))
    ids.again = id(await call(url, '/v1/budgets/b-travel/top_up', topUp))
    ids.page = id(await call(url, '/v1/banking/bank_transactions?_end=3', admin))
  })
}, 120_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

const env = () => ({ DATA_DIR: dir })

describe('budget-rules decisions, over the database', () => {
  it('show: the record in words, each rule with what it means', async () => {
    const ran = await runCli(['decisions', 'show', ids.refused as string], env())
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    expect(ran.stdout.split('\n').slice(0, 7)).toEqual([
      `request  ${ids.refused} at 2026-11-23T15:00:01.000000Z (budget.update, budget-rules 0.4.0)`,
      `who      u-manager, key ${keyId('demo-manager')}, company c-acme`,
      'asked    PATCH /v1/budgets/b-travel',
      '         {"budget":{"recurrence_unit":"week"}}',
      'replied  403 Forbidden',
      '         {"error_code":"budgets/cannot_change_recurrence","message":"Only an admin or a user with budgets_manage can change the recurrence"}',
      'rules    auth.bearer                   Authorization is `Bearer <key>` (scheme in any case, non-empty key) and the key resolved to a user.'
    ])
    expect(ran.stdout).toContain(
      '\n         budget.permission.recurrence  Only full budget rights may change recurrence_unit, recurrence_every or base_amount_cents.\n'
    )
    expect(ran.stdout).toContain('changes  none\nmasked   case.request.headers.authorization\n')
  })

  it('show of a change: before and after; of a replayed reply: the request it replays', async () => {
    const renamed = await runCli(['decisions', 'show', ids.renamed as string], env())
    expect(renamed.stdout).toContain('changes  name: "Travel" -> "Trips"\n')
    const again = await runCli(['decisions', 'show', ids.again as string], env())
    expect(again.stdout).toContain(`replays  the reply to ${ids.topUp} (Idempotency-Key k-1)\n`)
    expect(again.stdout).toContain('rules    none\n')
  })

  it('show --json: the record as kept', async () => {
    const ran = await runCli(['decisions', 'show', '--json', ids.topUp as string], env())
    const record = JSON.parse(ran.stdout) as unknown
    expect(DecisionRecord.is(record)).toBe(true)
    expect(record).toMatchObject({
      request_id: ids.topUp,
      endpoint: 'budget.top_up',
      idempotency_key: 'k-1',
      changes: [{ field: 'balance_cents', before: 420_000, after: 420_500 }]
    })
    expect(ran.stdout).not.toContain('demo-admin')
  })

  it('show of a request it has no record of: one line, exit 1', async () => {
    const ran = await runCli(['decisions', 'show', 'req-none'], env())
    expect([ran.code, ran.stdout, ran.stderr]).toEqual([
      1,
      '',
      `error: no record of request "req-none" in the database in ${dir}\n`
    ])
  })

  it('list: a line each, oldest first, filtered', async () => {
    const all = await runCli(['decisions', 'list'], env())
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('  ')[1])
    ).toEqual([ids.renamed, ids.refused, ids.topUp, ids.again, ids.page])
    const refused = await runCli(['decisions', 'list', '--status', '403', '--resource', 'b-travel'], env())
    expect(refused.stdout).toBe(
      `2026-11-23T15:00:01.000000Z  ${ids.refused}  budget.update  403  u-manager  b-travel  budget.permission.recurrence\n`
    )
    const first = await runCli(['decisions', 'list', '--limit', '1', '--since', '2026-11-23T15:00:02Z'], env())
    expect(first.stdout.split('  ')[1]).toBe(ids.topUp)
    const byAdmin = await runCli(['decisions', 'list', '--actor', 'u-admin', '--endpoint', 'index.bank_transactions'], env())
    expect(
      byAdmin.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('  ')[1])
    ).toEqual([ids.page])
  })

  it('export: NDJSON, one record a line, to a file or standard output', async () => {
    const out = join(dir, 'export.ndjson')
    const ran = await runCli(['decisions', 'export', '--out', out], env())
    expect([ran.code, ran.stdout]).toEqual([0, ''])
    const lines = readFileSync(out, 'utf8').trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { request_id: string }).request_id)).toEqual([
      ids.renamed,
      ids.refused,
      ids.topUp,
      ids.again,
      ids.page
    ])
    const printed = await runCli(['decisions', 'export', '--endpoint', 'budget.update'], env())
    expect(printed.stdout.trim().split('\n')).toEqual(lines.slice(0, 2))
  })

  it('a directory without records, and options outside their types: one line, exit 1 or 2', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'budget-rules-empty-'))
    try {
      const none = await runCli(['decisions', 'list'], { DATA_DIR: empty })
      expect([none.code, none.stderr]).toEqual([
        1,
        `error: the database in ${empty} keeps no decision records: start budget-rules serve on it first\n`
      ])
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
    expect((await runCli(['decisions', 'list', '--status', '4xx'], env())).stderr).toBe(
      'error: --status is "4xx", not an HTTP status from 100 to 599\n'
    )
    expect((await runCli(['decisions', 'list', '--url', 'http://127.0.0.1:1'], env())).stderr).toBe(
      'error: --url, --token and --company go together: the server, an admin key and the company\n'
    )
    expect((await runCli(['decisions', 'show'], env())).code).toBe(2)
  })
})

describe('budget-rules decisions --file', () => {
  it('show and list read a file of records as they read the database', async () => {
    const out = join(dir, 'export.ndjson')
    for (const args of [
      ['show', ids.topUp ?? ''],
      ['show', ids.refused ?? '', '--json'],
      ['list'],
      ['list', '--endpoint', 'budget.update'],
      ['list', '--status', '403'],
      ['list', '--resource', 'b-travel', '--limit', '2'],
      ['list', '--actor', 'u-admin'],
      ['list', '--since', '2026-11-23T15:00:03Z']
    ]) {
      const fromFile = await runCli(['decisions', ...args, '--file', out], env())
      const fromDatabase = await runCli(['decisions', ...args], env())
      expect(fromFile, args.join(' ')).toEqual(fromDatabase)
      expect(fromFile.stdout.length, args.join(' ')).toBeGreaterThan(0)
    }
  })

  it('shows the later of two records of one request, and names the file of a request it lacks', async () => {
    const out = join(dir, 'twice.ndjson')
    const [first] = readFileSync(join(dir, 'export.ndjson'), 'utf8').trim().split('\n') as [string]
    const record = JSON.parse(first) as DecisionRecord
    writeFileSync(out, `${first}\n\n${JSON.stringify({ ...record, path: '/v1/budgets/again' })}\n`)
    const shown = await runCli(['decisions', 'show', record.request_id, '--json', '--file', out], env())
    expect((JSON.parse(shown.stdout) as DecisionRecord).path).toBe('/v1/budgets/again')
    expect(await runCli(['decisions', 'show', 'req-none', '--file', out], env())).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: no record of request "req-none" in ${out}\n`
    })
    expect((await runCli(['decisions', 'list', '--file', out, '--url', 'http://127.0.0.1:1'], env())).stderr).toBe(
      'error: --file reads records from a file: it goes without --url, --token and --company\n'
    )
  })
})

describe('budget-rules serve --decide', () => {
  it('serves the decision service until a signal, its records in the file given, which replay and show read', async () => {
    const records = join(dir, 'decided.ndjson')
    let stop: (signal: string) => void = () => undefined
    const printed: Array<string> = []
    const exited = run(['serve', '--decide', '--records', records], {
      out: (text) => {
        printed.push(text)
      },
      err: (text) => {
        printed.push(text)
      },
      env: { PORT: '0', LOG_LEVEL: 'silent', DECIDE_TOKEN: 't' },
      signal: () =>
        new Promise((resolve) => {
          stop = resolve
        })
    })
    for (let i = 0; i < 200 && printed.length === 0; i++) await new Promise((r) => setTimeout(r, 20))
    const url = /listening on (http:\/\/\S+)/.exec(printed.join(''))?.[1] ?? ''
    expect(printed).toEqual([`budget-rules decision service listening on ${url}\n`])
    const answer = (await (
      await fetch(`${url}/v1/decide`, {
        method: 'POST',
        headers: { Authorization: 'Bearer t' },
        body: readFileSync(new URL('../../examples/case-top-up.json', import.meta.url), 'utf8')
      })
    ).json()) as { status: number; record: DecisionRecord }
    expect(answer.status).toBe(200)
    stop('SIGTERM')
    expect(await exited).toBe(0)
    expect(printed.at(-1)).toBe('SIGTERM: closing\n')
    expect(await runCli(['replay', '--file', records], env())).toEqual({
      code: 0,
      stdout: '1 replayed, 1 same, 0 differ, 0 not replayable\n',
      stderr: ''
    })
    const shown = await runCli(['decisions', 'show', answer.record.request_id, '--json', '--file', records], env())
    expect(JSON.parse(shown.stdout)).toEqual(answer.record)
  })

  it('refuses --records without --decide, --conformance with it, and a port in use', async () => {
    expect((await runCli(['serve', '--records', 'x.ndjson'], {})).stderr).toBe(
      'error: --records is for --decide: the reference server keeps its records in its database\n'
    )
    expect((await runCli(['serve', '--decide', '--conformance'], {})).stderr).toBe(
      'error: --conformance is for the reference server: the decision service keeps no data\n'
    )
    expect((await runCli(['serve', '--decide', '--records', join(dir, 'no', 'such', 'dir.ndjson')], { PORT: '0' })).stderr).toBe(
      `error: cannot write records to ${join(dir, 'no', 'such', 'dir.ndjson')}: ENOENT\n`
    )
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      expect((await runCli(['serve', '--decide'], { PORT: String(port) })).stderr).toBe(
        `error: cannot serve on port ${port}: it is in use (set PORT to another port)\n`
      )
    } finally {
      taken.close()
    }
  })
})

describe('budget-rules replay', () => {
  it('over the database: every record decided again the same but the page and the replayed reply', async () => {
    const ran = await runCli(['replay'], env())
    expect([ran.code, ran.stdout]).toEqual([0, '5 replayed, 3 same, 0 differ, 2 not replayable\n'])
  })

  it('over an export with a reply that is not what the library decides: the difference, its request id, exit 1', async () => {
    const out = join(dir, 'tampered.ndjson')
    const records = readFileSync(join(dir, 'export.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DecisionRecord)
    const tampered = records.map((r) =>
      r.request_id === ids.refused ? { ...r, status: 200, reply: { ...r.reply, status: 200 } } : r
    )
    writeFileSync(out, `${tampered.map((r) => JSON.stringify(r)).join('\n')}\n`)
    const ran = await runCli(['replay', '--file', out], env())
    expect(ran.code).toBe(1)
    expect(ran.stdout).toContain(`${ids.refused} differs (- recorded, + decided now):\n`)
    expect(ran.stdout).toContain('  -   "status": 200,\n  +   "status": 403,\n')
    expect(ran.stdout.endsWith('5 replayed, 2 same, 1 differ, 2 not replayable\n')).toBe(true)
    const only = await runCli(['replay', '--file', out, '--endpoint', 'budget.top_up', '--since', '2026-11-23T15:00:03Z'], env())
    expect([only.code, only.stdout]).toEqual([0, '1 replayed, 0 same, 0 differ, 1 not replayable\n'])
  })

  it('a line that is no record stops it, naming the line', async () => {
    const out = join(dir, 'broken.ndjson')
    writeFileSync(out, `${readFileSync(join(dir, 'export.ndjson'), 'utf8')}{"request_id":"r"}\n`)
    expect((await runCli(['replay', '--file', out], env())).stderr).toBe(`error: ${out} line 6 is not a decision record\n`)
    writeFileSync(out, 'not json\n')
    expect((await runCli(['replay', '--file', out], env())).stderr).toBe(`error: ${out} line 1 is not JSON\n`)
    expect((await runCli(['replay', '--file', join(dir, 'none.ndjson')], env())).stderr).toBe(
      `error: cannot read ${join(dir, 'none.ndjson')}: no such file or directory\n`
    )
  })
})

describe('budget-rules decisions and replay, over a running server', () => {
  it("read GET /v1/decisions with an admin's key, and refuse without one", async () => {
    await served(async (url) => {
      const api = ['--url', url, '--token', 'demo-admin', '--company', 'c-acme']
      const shown = await runCli(['decisions', 'show', '--json', ids.renamed as string, ...api], {})
      expect(JSON.parse(shown.stdout)).toEqual(
        JSON.parse((await runCli(['decisions', 'show', '--json', ids.renamed as string], env())).stdout)
      )
      const listed = await runCli(['decisions', 'list', '--status', '403', ...api], {})
      expect(listed.stdout.split('  ')[1]).toBe(ids.refused)
      const replayed = await runCli(['replay', '--endpoint', 'budget.update', ...api], {})
      expect([replayed.code, replayed.stdout]).toEqual([0, '2 replayed, 2 same, 0 differ, 0 not replayable\n'])
      const member = await runCli(['decisions', 'list', '--url', url, '--token', 'demo-member', '--company', 'c-acme'], {})
      expect([member.code, member.stderr]).toEqual([1, `error: ${url}/v1/decisions answered 401: Unauthorized (401)\n`])
      const gone = await runCli(['decisions', 'show', 'x', '--url', 'http://127.0.0.1:9', '--token', 't', '--company', 'c'], {})
      expect(gone.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9\/v1\/decisions: /)
    })
  })

  it('as a user runs it: the bin, in a process of its own', async () => {
    // DATABASE_URL, set for the server tests, would name another database.
    const ran = await spawnCli(['decisions', 'show', ids.topUp as string], dir, { DATA_DIR: dir, DATABASE_URL: '' })
    expect([ran.code, ran.stdout.split('\n')[2]]).toEqual([0, 'asked    POST /v1/budgets/b-travel/top_up'])
  })
})
