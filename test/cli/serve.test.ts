import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/program'
import { ROOT, runCli } from './run'

const LISTENING = /^budget-rules server listening on (http:\/\/127\.0\.0\.1:\d+)\n$/

/** The companies the demo admin sees: the server is up and its database seeded. */
const companies = async (url: string) => {
  const reply = await fetch(`${url}/v1/companies`, { headers: { Authorization: 'Bearer demo-admin' } })
  return { status: reply.status, ids: ((await reply.json()) as { data: Array<{ id: string }> }).data.map((c) => c.id) }
}

/** Resolves with what the child printed once `until` matches its stdout. */
const printed = (child: ChildProcess, until: RegExp) =>
  new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (until.test(out)) resolve(out)
    })
    child.once('exit', (code) => {
      reject(new Error(`exited ${String(code)} before printing: ${out}`))
    })
  })

// One data directory for both: the spawned server seeds it, the in-process one opens it again.
const workspace = mkdtempSync(join(tmpdir(), 'budget-rules-serve-'))
const dataDir = join(workspace, 'data')
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true })
})

describe('budget-rules serve', () => {
  it('serves on PORT with its data under DATA_DIR, prints the URL, and on SIGTERM closes and exits 0', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
    const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/cli/main.ts'), 'serve'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    try {
      const url = LISTENING.exec(await printed(child, LISTENING))?.[1] as string
      expect(await companies(url)).toEqual({ status: 200, ids: ['c-acme'] })
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      const out = printed(child, /SIGTERM: closing\n$/)
      child.kill('SIGTERM')
      await out
      expect(await exited).toBe(0)
      expect(stderr).toBe('')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 60_000)

  it('in-process: the same command, stopped by the signal its io gives', async () => {
    let out = ''
    let stop: (signal: string) => void = () => undefined
    let listening: (url: string) => void = () => undefined
    const url = new Promise<string>((resolve) => (listening = resolve))
    const code = run(['serve'], {
      out: (text) => {
        out += text
        const m = LISTENING.exec(text)
        if (m !== null) listening(m[1] as string)
      },
      err: (text) => {
        out += text
      },
      env: { PORT: '0', DATA_DIR: dataDir },
      signal: () => new Promise((resolve) => (stop = resolve))
    })
    const served = await url
    expect(await companies(served)).toEqual({ status: 200, ids: ['c-acme'] })
    stop('SIGINT')
    expect(await code).toBe(0)
    expect(out).toBe(`budget-rules server listening on ${served}\nSIGINT: closing\n`)
  }, 60_000)

  it('names a port in use, in one line, and exits 1', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      expect(await runCli(['serve'], { PORT: String(port), DATA_DIR: dataDir })).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: cannot serve on port ${port}: it is in use (set PORT to another port)\n`
      })
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  }, 60_000)
})
