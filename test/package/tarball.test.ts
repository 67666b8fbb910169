/**
 * The package as a user gets it (R-102): the tarball `npm pack` makes, installed into an empty
 * project with the optional peers the README names (from the local npm cache where it can), run
 * there as a user runs it: every entry point imported under ESM and CommonJS, `npx budget-rules
 * decide` and `periods` on the examples it ships, and `npx budget-rules serve` serving the pages
 * and the document from the installed package. Needs `npm run build` first (`npm test` builds).
 * Expected values come from the contract (section 5 row 9, section 6's month ends), not from the
 * library.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>
  peerDependencies: Record<string, string>
  devDependencies: Record<string, string>
}
/** The optional peers, which the README's "Install" section names; each at the version this repository pins. */
const PEERS = Object.keys(manifest.peerDependencies)
const INSTALL = /\n## Install\n([\s\S]*?)\n## /.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1] ?? ''

let project: string
let installed: string
let install: { code: number | null; out: string }

/** Runs `command` in `cwd`; resolves with its exit code and what it printed. */
const runIn = (cwd: string, command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
      }
    )
  })

/** Runs `command` in the user's project. */
const inProject = (command: string, args: ReadonlyArray<string>) => runIn(project, command, args)

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path).map((f) => join(name, f)) : [name]
  })

/** Resolves with what the child printed once `until` matches its stdout; rejects if it exits first. */
const printed = (child: ChildProcess, until: RegExp) =>
  new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (until.test(out)) resolve(out)
    })
    child.once('exit', (code) => {
      reject(new Error(`exited ${String(code)} before printing ${String(until)}: ${out}`))
    })
  })

describe('the packed package, installed into an empty project (R-102)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'budget-rules-user-'))
    const pack = await runIn(ROOT, 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', project])
    expect([pack.code, pack.stderr]).toEqual([0, ''])
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }]
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'a-user-of-budget-rules',
        version: '1.0.0',
        private: true,
        dependencies: {
          'budget-rules': `file:./${filename}`,
          ...Object.fromEntries(PEERS.map((peer) => [peer, manifest.devDependencies[peer] as string]))
        },
        // What the README's "Install" section tells a user of swagger-ui-dist to write.
        allowScripts: { '@scarf/scarf': false }
      })
    )
    const ran = await inProject('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts'])
    install = { code: ran.code, out: `${ran.stdout}${ran.stderr}` }
    installed = join(project, 'node_modules', 'budget-rules')
  }, 600_000)

  afterAll(() => {
    if ((project as string | undefined) !== undefined) rmSync(project, { recursive: true, force: true })
  })

  it('installs the peers the README names', () => {
    expect(PEERS.filter((peer) => !INSTALL.includes(`\`${peer}\``))).toEqual([])
    expect(PEERS).toHaveLength(9)
  })

  it('installs with no warning and runs no install script: @scarf/scarf’s telemetry never runs', () => {
    expect(install.code, install.out).toBe(0)
    expect(install.out.split('\n').filter((line) => /^npm (warn|WARN|ERR)/.test(line))).toEqual([])
    // --foreground-scripts prints `> package@version postinstall` before a script runs.
    expect(install.out.split('\n').filter((line) => /^> \S+@\S+ (preinstall|install|postinstall)$/.test(line))).toEqual([])
    expect(filesUnder(join(project, 'node_modules', '@scarf', 'scarf'))).toContain('report.js')
  })

  it('holds the built code, types and pages, the docs and examples, and no map, screenshot, test, source or report', () => {
    const files = filesUnder(installed)
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.cjs',
        'dist/index.d.ts',
        'dist/index.d.cts',
        'dist/cli.js',
        'dist/explorer/index.html',
        'dist/admin/main.js',
        'docs/rules.md',
        'docs/decisions/README.md',
        'examples/case-manager-changes-manager.json',
        'README.md',
        'LICENSE'
      ])
    )
    expect(files.filter((f) => /\.(map|png)$|^(src|test|mutation|coverage|reports)\/|metafile/.test(f))).toEqual([])
  })

  it('imports every entry point under ESM and CommonJS, with the same exports', async () => {
    const specifiers = Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => `budget-rules${key.slice(1)}`)
    expect(specifiers).toHaveLength(9)
    const esm = await inProject(process.execPath, [
      '--input-type=module',
      '-e',
      `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(await import(s)).sort(); console.log(JSON.stringify(out))`
    ])
    const cjs = await inProject(process.execPath, [
      '-e',
      `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(require(s)).sort(); console.log(JSON.stringify(out))`
    ])
    expect([esm.code, esm.stderr, cjs.code, cjs.stderr]).toEqual([0, '', 0, ''])
    const [byEsm, byCjs] = [esm, cjs].map((r) => JSON.parse(r.stdout) as Record<string, ReadonlyArray<string>>)
    expect(byCjs).toEqual(byEsm)
    // An export each entry point must have (contract sections 3, 13, 14; R-80).
    const expected: Record<string, string> = {
      'budget-rules': 'respondBudgetUpdate',
      'budget-rules/rules': 'decideUpdate',
      'budget-rules/client': 'parseErrorResponse',
      'budget-rules/sql': 'pageQuery',
      'budget-rules/arbitraries': 'scenario',
      'budget-rules/conformance': 'checkConformance',
      'budget-rules/openapi': 'openApiDocument',
      'budget-rules/react-admin': 'reactAdminDataProvider',
      'budget-rules/decisions': 'decisionRecord'
    }
    expect(Object.fromEntries(specifiers.map((s) => [s, byEsm?.[s]?.includes(expected[s] as string)]))).toEqual(
      Object.fromEntries(specifiers.map((s) => [s, true]))
    )
  })

  it.each([
    ['node10', { module: 'commonjs', moduleResolution: 'node10' }],
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }]
  ])(
    'type-checks every entry point and a StoredBudget built from plain values under moduleResolution %s (R-107, R-105)',
    async (name, options) => {
      const dir = join(project, `types-${name}`)
      mkdirSync(dir)
      // A user's file: every entry point's types, and the stored budget a server builds from a row.
      writeFileSync(
        join(dir, 'user.ts'),
        [
          `import { respondBudgetUpdate, type StoredBudget } from 'budget-rules'`,
          `import { permittedUpdateFields } from 'budget-rules'`,
          `import { decideUpdate } from 'budget-rules/rules'`,
          `import { parseErrorResponse } from 'budget-rules/client'`,
          `import { pageQuery } from 'budget-rules/sql'`,
          `import type { scenario } from 'budget-rules/arbitraries'`,
          `import type { checkConformance } from 'budget-rules/conformance'`,
          `import { openApiDocument } from 'budget-rules/openapi'`,
          `import type { reactAdminDataProvider } from 'budget-rules/react-admin'`,
          `import { decisionRecord } from 'budget-rules/decisions'`,
          `const row = { id: 'b-1', name: 'Travel', created_on: '2026-11-01', balance: 5000 }`,
          `export const budget: StoredBudget = { id: row.id, company_id: 'c-1', name: row.name, description: null, access: 'everyone', currency: 'CLP', mode: 'funded', manager_id: null, co_manager_id: null, status: 'open', created_on: row.created_on, ends_on: null, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null, period_starts_on: row.created_on, period_ends_on: null, period_amount_cents: null, balance_cents: row.balance }`,
          `export const used = [respondBudgetUpdate, permittedUpdateFields, decideUpdate, parseErrorResponse, pageQuery, openApiDocument, decisionRecord]`,
          `export type Used = [typeof scenario, typeof checkConformance, typeof reactAdminDataProvider]`,
          ''
        ].join('\n')
      )
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            ...options,
            strict: true,
            target: 'es2022',
            lib: ['es2022', 'dom'],
            noEmit: true,
            skipLibCheck: true,
            types: []
          },
          files: ['user.ts']
        })
      )
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
      const ran = await runIn(dir, process.execPath, [tsc, '-p', '.', '--pretty', 'false'])
      expect({ code: ran.code, errors: ran.stdout.split('\n').filter((line) => line !== '') }).toEqual({ code: 0, errors: [] })
    }
  )

  it('answers `npx budget-rules decide`: a manager changing manager_id is refused by row 9', async () => {
    const ran = await inProject('npx', [
      '--no',
      'budget-rules',
      'decide',
      '--json',
      'node_modules/budget-rules/examples/case-manager-changes-manager.json'
    ])
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    const reply = JSON.parse(ran.stdout) as { status: number; body: { error_code: string }; reasons: Array<{ rule: string }> }
    expect([reply.status, reply.body.error_code, reply.reasons.at(-1)?.rule]).toEqual([
      403,
      'budgets/cannot_change_manager',
      'budget.permission.manager'
    ])
  })

  it('answers `npx budget-rules periods`: the month ends after 2026-11-30 of a budget renewing monthly from 31 January', async () => {
    const ran = await inProject('npx', [
      '--no',
      'budget-rules',
      'periods',
      'node_modules/budget-rules/examples/budget-monthly.json',
      '--today',
      '2026-11-22',
      '--next',
      '3',
      '--json'
    ])
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    expect(JSON.parse(ran.stdout)).toEqual([
      { starts_on: '2026-11-30', ends_on: '2026-12-31', amount_cents: 50000 },
      { starts_on: '2026-12-31', ends_on: '2027-01-31', amount_cents: 50000 },
      { starts_on: '2027-01-31', ends_on: '2027-02-28', amount_cents: 50000 }
    ])
  })

  it('serves /, /docs, /admin/ and /openapi.json from the installed package with `npx budget-rules serve`, and closes on Ctrl-C', async () => {
    // A process group of its own, as a terminal gives a command: Ctrl-C signals npx and the server alike.
    const child = spawn('npx', ['--no', 'budget-rules', 'serve'], {
      cwd: project,
      env: { ...process.env, PORT: '0', DATA_DIR: join(project, 'data'), DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    const group = -(child.pid as number)
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => {
        resolve(String(code ?? signal))
      })
    )
    try {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(await printed(child, /listening on .*\n/))?.[1] as string
      const get = async (path: string) => {
        const reply = await fetch(`${url}${path}`)
        const text = await reply.text()
        return { path, status: reply.status, type: reply.headers.get('content-type'), text }
      }
      const pages = await Promise.all(['/', '/docs', '/admin/', '/openapi.json', '/admin/main.js'].map(get))
      expect(pages.map(({ path, status, type }) => ({ path, status, type }))).toEqual([
        { path: '/', status: 200, type: 'text/html; charset=utf-8' },
        { path: '/docs', status: 200, type: 'text/html; charset=utf-8' },
        { path: '/admin/', status: 200, type: 'text/html; charset=utf-8' },
        { path: '/openapi.json', status: 200, type: 'application/json; charset=utf-8' },
        { path: '/admin/main.js', status: 200, type: 'text/javascript; charset=utf-8' }
      ])
      // The pages as built into the installed package, byte for byte.
      expect(pages[0]?.text).toBe(readFileSync(join(installed, 'dist/explorer/index.html'), 'utf8'))
      expect(pages[2]?.text).toBe(readFileSync(join(installed, 'dist/admin/index.html'), 'utf8'))
      expect(pages[4]?.text).toBe(readFileSync(join(installed, 'dist/admin/main.js'), 'utf8'))
      expect(pages[1]?.text).toContain('/docs/swagger-ui-bundle.js')
      const doc = JSON.parse(pages[3]?.text ?? '') as { openapi: string; servers: Array<{ url: string }> }
      expect([doc.openapi, doc.servers[0]?.url]).toEqual(['3.1.0', url])
      // Swagger UI's script, from the swagger-ui-dist the project installed.
      const swagger = await fetch(`${url}/docs/swagger-ui-bundle.js`)
      expect([swagger.status, (await swagger.arrayBuffer()).byteLength]).toEqual([
        200,
        statSync(join(project, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js')).size
      ])
      const closing = printed(child, /SIGINT: closing\n/)
      process.kill(group, 'SIGINT')
      await closing
      // npx ends as its child did, or by the SIGINT it was sent too (npm re-raises it); the server
      // has closed: its port takes no connection.
      expect(['0', 'SIGINT']).toContain(await exited)
      expect(stderr).toBe('')
      await expect(fetch(`${url}/openapi.json`)).rejects.toThrow()
    } finally {
      try {
        process.kill(group, 'SIGKILL')
      } catch {
        // Every process of the group has exited.
      }
    }
  })

  it('decides a case with `npx budget-rules serve --decide`, and names a peer it lacks in one line', async () => {
    const child = spawn('npx', ['--no', 'budget-rules', 'serve', '--decide'], {
      cwd: project,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    const group = -(child.pid as number)
    try {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(await printed(child, /listening on .*\n/))?.[1] as string
      const reply = await fetch(`${url}/v1/decide`, {
        method: 'POST',
        body: readFileSync(join(installed, 'examples/case-manager-changes-manager.json'), 'utf8')
      })
      const answer = (await reply.json()) as { status: number; reasons: Array<{ rule: string }>; record: { status: number } }
      expect([reply.status, answer.status, answer.reasons.at(-1)?.rule, answer.record.status]).toEqual([
        200,
        403,
        'budget.permission.manager',
        403
      ])
      const closing = printed(child, /SIGINT: closing\n/)
      process.kill(group, 'SIGINT')
      await closing
    } finally {
      try {
        process.kill(group, 'SIGKILL')
      } catch {
        // Every process of the group has exited.
      }
    }
    // npm leaves optional peers out of an install: without prom-client, one line says what to install.
    const peer = join(project, 'node_modules/prom-client')
    renameSync(peer, `${peer}.away`)
    try {
      const ran = await inProject('npx', ['--no', 'budget-rules', 'serve', '--decide'])
      expect([ran.code, ran.stderr]).toEqual([
        1,
        'error: prom-client is not installed: this command needs pino, prom-client (npm install pino prom-client)\n'
      ])
    } finally {
      renameSync(`${peer}.away`, peer)
    }
  })
})
