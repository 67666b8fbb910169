/**
 * R-126 as issue 36 found it: a request whose body and path hold `\x1b[2J\x1b[H\x1b]0;owned\x07`
 * (clear the screen, cursor home, set the window title, ring the bell) and bidi and C1 controls,
 * kept by the reference server, is printed by `decisions show`, `list`, `export` and `replay`'s
 * diffs as visible `\u001b...` text; so is a case `decide` reads. Asserted on what is written:
 * in-process, and once as the bytes of a child process's standard output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DecisionRecord } from '../../src/decisions'
import { serve } from '../../src/server/main'
import { call } from '../server/harness'
import { runCli, spawnCli } from './run'

const ATTACK = '\x1b[2J\x1b[H\x1b]0;owned\x07'
/** The attack as it must show: each control as six visible characters. */
const SHOWN = '\\u001b[2J\\u001b[H\\u001b]0;owned\\u0007'
const manager = { key: 'demo-manager', company: 'c-acme' }

let dir: string
const ids: Record<string, string> = {}
const env = () => ({ DATA_DIR: dir })

/** Every byte a terminal obeys in a printout but its newlines: C0, DEL, C1 (UTF-8's C2 80..9F) and the bidi controls. */
const obeyedBytes = (text: string): Array<string> => {
  const bytes = Buffer.from(text, 'utf8')
  const found: Array<string> = []
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    const next = bytes[i + 1] ?? 0
    const third = bytes[i + 2] ?? 0
    if ((b < 0x20 && b !== 0x0a) || b === 0x7f) found.push(b.toString(16))
    if (b === 0xc2 && next >= 0x80 && next <= 0x9f) found.push(`c2 ${next.toString(16)}`)
    // U+202A..U+202E are E2 80 AA..AE; U+2066..U+2069 are E2 81 A6..A9.
    if (b === 0xe2 && ((next === 0x80 && third >= 0xaa && third <= 0xae) || (next === 0x81 && third >= 0xa6 && third <= 0xa9)))
      found.push(`e2 ${next.toString(16)} ${third.toString(16)}`)
  }
  return found
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'budget-rules-safe-to-print-'))
  const server = await serve({ dataDir: dir })
  try {
    // Raw controls in a JSON string: the body is no JSON, its 400 is kept with the body as sent.
    const body = await call(server.url, '/v1/budgets/b-travel', {
      ...manager,
      method: 'PATCH',
      body: `{"budget":{"name":"${ATTACK}"}}`
    })
    ids.body = body.headers.get('x-request-id') ?? ''
    // The path, percent-encoded on the wire, names the budget id the record keeps decoded.
    const path = await call(server.url, `/v1/budgets/${encodeURIComponent(`${ATTACK}\u202e`)}`, {
      ...manager,
      method: 'PATCH',
      body: { budget: { name: 'x\u2066\u0085' } }
    })
    ids.path = path.headers.get('x-request-id') ?? ''
    expect([body.status, path.status]).toEqual([400, 404])
  } finally {
    await server.close()
  }
}, 120_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('R-126: what a request carried, printed', () => {
  it('decisions show: the body as visible escapes, on its own line', async () => {
    const ran = await runCli(['decisions', 'show', ids.body as string], env())
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    expect(ran.stdout.split('\n').slice(2, 5)).toEqual([
      'asked    PATCH /v1/budgets/b-travel',
      `         {"budget":{"name":"${SHOWN}"}}`,
      'replied  400 Bad Request'
    ])
    expect(obeyedBytes(ran.stdout)).toEqual([])
  })

  it('decisions show of the hostile path: C1 and bidi controls escaped too', async () => {
    const ran = await runCli(['decisions', 'show', ids.path as string], env())
    expect(ran.stdout.split('\n').slice(2, 4)).toEqual([
      'asked    PATCH /v1/budgets/%1B%5B2J%1B%5BH%1B%5D0%3Bowned%07%E2%80%AE',
      '         {"budget":{"name":"x\\u2066\\u0085"}}'
    ])
    expect(obeyedBytes(ran.stdout)).toEqual([])
  })

  it('decisions show --json and export: the same JSON value, none of its controls raw', async () => {
    const shown = await runCli(['decisions', 'show', '--json', ids.path as string], env())
    expect(shown.stdout).toContain(`"resource_id": "${SHOWN}\\u202e",`)
    expect(shown.stdout).toContain('\\"name\\":\\"x\\u2066\\u0085\\"')
    expect(obeyedBytes(shown.stdout)).toEqual([])
    const exported = await runCli(['decisions', 'export'], env())
    expect(obeyedBytes(exported.stdout)).toEqual([])
    const records = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DecisionRecord)
    expect(records.map((r) => r.resource_id)).toEqual(['b-travel', `${ATTACK}\u202e`])
    expect((JSON.parse(shown.stdout) as DecisionRecord).case).toEqual(records[1]?.case)
    expect(records[0]?.case?.request).toEqual({
      headers: { authorization: expect.stringMatching(/^Bearer key:/) as unknown, 'company-id': 'c-acme' },
      body: `{"budget":{"name":"${ATTACK}"}}`
    })
  })

  it('decisions list: the hostile budget id as visible escapes, one line a record', async () => {
    const ran = await runCli(['decisions', 'list'], env())
    const lines = ran.stdout.split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]?.split('  ').slice(1)).toEqual([
      ids.path,
      'budget.update',
      '404',
      'u-manager',
      `${SHOWN}\\u202e`,
      'budget.scope'
    ])
    expect(obeyedBytes(ran.stdout)).toEqual([])
  })

  it("replay's diff: a recorded reply holding controls shows them escaped", async () => {
    const exported = await runCli(['decisions', 'export'], env())
    const tampered = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DecisionRecord)
      .map((r) => ({ ...r, reply: { ...r.reply, body: { error: 'bad_request', message: `${ATTACK}\u202eKO` } } }))
    const file = join(dir, 'tampered.ndjson')
    writeFileSync(file, `${tampered.map((r) => JSON.stringify(r)).join('\n')}\n`)
    const ran = await runCli(['replay', '--file', file], env())
    expect(ran.code).toBe(1)
    expect(ran.stdout).toContain(`  -     "message": "${SHOWN}\\u202eKO"\n`)
    expect(obeyedBytes(ran.stdout)).toEqual([])
  })

  it('decide: a case whose request holds controls prints them escaped, as text and as JSON', async () => {
    const file = join(dir, 'case.json')
    const record = JSON.parse(readFileSync(file.replace('case.json', 'tampered.ndjson'), 'utf8').split('\n')[1] ?? '') as {
      case: Record<string, unknown>
    }
    writeFileSync(file, JSON.stringify({ ...record.case, request_id: ATTACK }))
    const text = await runCli(['decide', file], env())
    expect(text.stdout.split('\n').slice(0, 2)).toEqual(['HTTP/1.1 404 Not Found', `X-Request-Id: ${SHOWN}`])
    expect(obeyedBytes(text.stdout)).toEqual([])
    const json = await runCli(['decide', '--json', file], env())
    expect(json.stdout).toContain(`"X-Request-Id": "${SHOWN}",`)
    expect(obeyedBytes(json.stdout)).toEqual([])
  })

  it('as a user runs it: the bytes a child process writes', async () => {
    const ran = await spawnCli(['decisions', 'show', ids.body as string], dir, { DATA_DIR: dir, DATABASE_URL: '' })
    expect([ran.code, ran.stdout.split('\n')[3]]).toEqual([0, `         {"budget":{"name":"${SHOWN}"}}`])
    expect(obeyedBytes(ran.stdout)).toEqual([])
  })

  it("an error line quoting a server's reply: one line, its controls escaped", async () => {
    const hostile = createServer((_, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ message: `${ATTACK}\nOK\u202e` }))
    })
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
      const ran = await runCli(['decisions', 'list', '--url', url, '--token', 't', '--company', 'c'], {})
      expect([ran.code, ran.stdout, ran.stderr]).toEqual([
        1,
        '',
        `error: ${url}/v1/decisions answered 401: ${SHOWN}\\u000aOK\\u202e\n`
      ])
    } finally {
      await new Promise((resolve) => hostile.close(resolve))
    }
  })
})
