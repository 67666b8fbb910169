/**
 * Stoplight Prism as a validating proxy in front of a running server: the document of
 * `budget-rules/openapi` (with the server's URL) written to a temp file, `prism proxy` started on
 * a free loopback port, and the `sl-violations` header of each reply read. Prism forwards every
 * request and reply unchanged (`--errors=false`) and says what broke the document: the request
 * side (a request a test means to be invalid) or the response side (a defect of the document or
 * of the server).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from '../free-port'
import { openApiDocument } from '../../src/openapi'

/** One violation Prism reports. */
export interface Violation {
  readonly location: ReadonlyArray<string>
  readonly severity: string
  readonly code?: string | number
  readonly message: string
}

/** A running proxy: its URL, and how to stop it. */
export interface Prism {
  readonly url: string
  readonly close: () => Promise<void>
}

const require = createRequire(import.meta.url)
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js')

const ended = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else
      child.once('exit', () => {
        resolve()
      })
  })

/**
 * Starts `prism proxy` in front of `upstream`, checking `served` (the API's document by default); resolves once it answers. Its output is kept to
 * say why, should it stop or not answer within a minute.
 */
export const startPrism = async (
  upstream: string,
  served: unknown = openApiDocument({ serverUrl: upstream })
): Promise<Prism> => {
  const dir = mkdtempSync(join(tmpdir(), 'prism-'))
  const document = join(dir, 'openapi.json')
  writeFileSync(document, JSON.stringify(served))
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      PRISM,
      'proxy',
      document,
      upstream,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--errors=false',
      '--cors=false',
      '-v',
      'error'
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  const url = `http://127.0.0.1:${port}`
  const close = async () => {
    child.kill('SIGTERM')
    await ended(child)
    rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism proxy exited with ${child.exitCode}: ${output}`)
    try {
      // Any reply will do: the route is outside the document, and Prism forwards it.
      await fetch(`${url}/openapi.json`)
      return { url, close }
    } catch {
      if (Date.now() > deadline) {
        await close()
        throw new Error(`prism proxy did not answer within a minute: ${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

/** The violations Prism found in one exchange, read from its `sl-violations` header. */
export const violationsOf = (headers: Headers): ReadonlyArray<Violation> => {
  const header = headers.get('sl-violations')
  if (header === null) return []
  // Past a length, Prism writes "Too many violations! " and a list cut short: kept whole as one.
  try {
    return JSON.parse(header) as ReadonlyArray<Violation>
  } catch {
    return [
      { location: [header.includes('"location":["response"') ? 'response' : 'request'], severity: 'Error', message: header }
    ]
  }
}

/** The violations of the response side: each is a defect of the document or of the server. */
export const responseViolations = (headers: Headers): ReadonlyArray<Violation> =>
  violationsOf(headers).filter((v) => v.location[0] === 'response')
