/**
 * A client generated from the OpenAPI document by tools written elsewhere:
 * openapi-typescript turns the running reference server's GET /openapi.json into types,
 * examples/openapi-client/client.mts uses them with openapi-fetch, TypeScript compiles it strict
 * under `nodenext`, and it walks the bank transactions and updates a budget against the server
 * over a loopback socket. A request the document does not allow does not compile.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { seeded, stores } from '../server/harness'

const require = createRequire(import.meta.url)
const EXAMPLE = fileURLToPath(new URL('../../examples/openapi-client/', import.meta.url))
const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))
const OPENAPI_TYPESCRIPT = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js')
const TSC = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')

/** Runs node with `args` in `cwd`; asynchronously, since the server it talks to runs in this process. */
const run = (args: ReadonlyArray<string>, cwd: string): Promise<{ status: number | null; out: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (status) => {
      resolve({ status, out })
    })
  })

describe('a client generated from the document', () => {
  let database: Database
  let drop: () => Promise<void>
  let server: Served
  let dir: string

  beforeAll(async () => {
    ;({ database, drop } = await seeded(stores[0] as (typeof stores)[number]))
    server = await listen(database, { clock: () => new Date('2026-11-23T15:00:00Z'), rateLimitPerMinute: 1_000_000 })
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'))
    cpSync(EXAMPLE, dir, { recursive: true })
    symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir')
    const generated = await run([OPENAPI_TYPESCRIPT, `${server.url}/openapi.json`, '-o', 'api.d.ts'], dir)
    if (generated.status !== 0) throw new Error(`openapi-typescript failed: ${generated.out}`)
  }, 120_000)

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    await server.close()
    await drop()
  }, 30_000)

  it('is written with no cast and no non-null assertion', () => {
    const source = readFileSync(join(EXAMPLE, 'client.mts'), 'utf8')
    // `x as T`, an angle-bracket cast `<T>x` (not a type argument: `createClient<paths>(`), `x!.`
    expect(source).not.toMatch(/\bas [A-Za-z{[]|(?<![\w$])<[A-Za-z]+>|[\w)\]]!\./)
  })

  it('compiles strict under nodenext, walks every transaction once and renames a budget; a blank name is the typed 422', async () => {
    const compiled = await run([TSC, '-p', '.'], dir)
    expect(compiled).toEqual({ status: 0, out: '' })
    const ran = await run([join(dir, 'out', 'client.mjs'), server.url, 'demo-admin', 'c-acme'], dir)
    expect(ran.status).toBe(0)
    const stored = (await database.query<{ balance_cents: number }>("SELECT balance_cents FROM budgets WHERE id = 'b-travel'"))[0]
    const transactions = (
      await database.query<{ n: number }>("SELECT count(*)::int AS n FROM bank_transactions WHERE company_id = 'c-acme'")
    )[0]
    expect(JSON.parse(ran.out)).toEqual({
      pages: Math.floor((transactions?.n ?? 0) / 500) + 1,
      total: transactions?.n,
      distinct: transactions?.n,
      renamed: { status: 200, name: 'Travel and lodging', balance_cents: stored?.balance_cents },
      refused: { status: 422, errors: { name: ["can't be blank"] } }
    })
    expect(transactions?.n).toBe(5000)
  }, 120_000)

  it('does not compile a request the document does not allow', async () => {
    writeFileSync(
      join(dir, 'wrong.mts'),
      [
        "import createClient from 'openapi-fetch'",
        "import type { paths } from './api.js'",
        "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' })",
        "const header = { 'company-id': 'c-acme' }",
        "await client.PATCH('/v1/budgets/{id}', { params: { header, path: { id: 'b-1' } }, body: { budget: { recurrence_every: 'two' } } })",
        "await client.GET('/v1/banking/bank_transactions', { params: { header, query: { _order: 'DESC' } } })",
        "await client.POST('/v1/budgets/{id}/top_up', { params: { header, path: { id: 'b-1' } }, body: { cents: 1 } })",
        ''
      ].join('\n')
    )
    writeFileSync(
      join(dir, 'tsconfig.wrong.json'),
      JSON.stringify({ extends: './tsconfig.json', files: ['wrong.mts', 'api.d.ts'], compilerOptions: { noEmit: true } })
    )
    const compiled = await run([TSC, '-p', 'tsconfig.wrong.json'], dir)
    expect(compiled.status).toBe(2)
    const lines = compiled.out.split('\n').filter((l) => l.startsWith('wrong.mts'))
    expect(lines.map((l) => /^wrong\.mts\((\d+),/.exec(l)?.[1])).toEqual(['5', '6', '7'])
  }, 60_000)
})
