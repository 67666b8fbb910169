/**
 * Cerbos's policy decision point for `npm run bench:decide` (R-132): the `cerbos` binary of
 * `@cerbos/cerbos-linux-x64`, installed on first use into bench/.cerbos/ (ignored by git, never
 * an npm dependency: the binary is about 96 MB), started on free loopback ports with
 * bench/decide/cerbos/config.yaml and the policies beside it, and asked over HTTP
 * (`POST /api/check/resources`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { BenchCase } from './cases'
import { freePort } from './servers'

/** The version the bench is written and measured against, exactly. */
export const CERBOS_VERSION = '0.55.0'
const PACKAGE = `@cerbos/cerbos-linux-x64@${CERBOS_VERSION}`
const DIR = fileURLToPath(new URL('../.cerbos/', import.meta.url))
const BINARY = `${DIR}cerbos`
const CONFIG_DIR = fileURLToPath(new URL('./cerbos/', import.meta.url))

const installedVersion = (): string | null => {
  if (!existsSync(BINARY)) return null
  try {
    return execFileSync(BINARY, ['--version'], { encoding: 'utf8' }).split('\n')[0]?.trim() ?? null
  } catch {
    return null
  }
}

/**
 * The path of the `cerbos` binary, installed first when missing or of another version: the npm
 * package packed with `npm pack` (the registry's ordinary client) and its one file extracted.
 */
export const installCerbos = (log: (line: string) => void): string => {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `bench:decide runs Cerbos from ${PACKAGE}, for Linux on x64 only (this is ${process.platform} ${process.arch})`
    )
  const found = installedVersion()
  if (found === CERBOS_VERSION) return BINARY
  log(`installing Cerbos: npm pack ${PACKAGE} into bench/.cerbos/${found === null ? '' : ` (found ${found})`}`)
  mkdirSync(DIR, { recursive: true })
  const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', DIR], { encoding: 'utf8' }).trim()
  execFileSync('tar', ['xzf', `${DIR}${tarball}`, '-C', DIR, 'package/cerbos-linux-x64'])
  renameSync(`${DIR}package/cerbos-linux-x64`, BINARY)
  chmodSync(BINARY, 0o755)
  rmSync(`${DIR}package`, { recursive: true, force: true })
  rmSync(`${DIR}${tarball}`, { force: true })
  const installed = installedVersion()
  if (installed !== CERBOS_VERSION) throw new Error(`bench/.cerbos/cerbos says it is ${String(installed)}, not ${CERBOS_VERSION}`)
  return BINARY
}

/** A running PDP: its HTTP base URL, and how to stop it. */
export interface Cerbos {
  readonly url: string
  readonly process: ChildProcess
  readonly close: () => Promise<void>
}

/** Starts `cerbos server` on free loopback ports; resolves once its health check answers. */
export const startCerbos = async (binary: string): Promise<Cerbos> => {
  const [http, grpc] = [await freePort(), await freePort()]
  const child = spawn(
    binary,
    [
      'server',
      '--config=config.yaml',
      '--log-level=error',
      `--set=server.httpListenAddr=127.0.0.1:${http}`,
      `--set=server.grpcListenAddr=127.0.0.1:${grpc}`
    ],
    // The config names its policies' folder relative to itself.
    { cwd: CONFIG_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CERBOS_NO_TELEMETRY: '1' } }
  )
  // Its log is kept, not printed: when a load ends, autocannon drops the requests still under
  // way, and Cerbos logs each as an error ("context canceled"). The last of it is shown if
  // Cerbos stops on its own.
  let logged = ''
  const keep = (chunk: Buffer) => {
    logged = (logged + chunk.toString()).slice(-4000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let stopping = false
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`cerbos server exited with ${String(code ?? signal)}; its last lines:\n${logged}`)
  })
  const url = `http://127.0.0.1:${http}`
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve()
    })
  })
  const close = async () => {
    stopping = true
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  for (let tries = 0; tries < 200; tries++) {
    if (child.exitCode !== null) throw new Error(`cerbos server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/_cerbos/health`)).ok) return { url, process: child, close }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await close()
  throw new Error('cerbos server did not answer its health check in 20 s')
}

const principalOf = (c: BenchCase) => ({
  id: c.principal.id,
  roles: [c.principal.role],
  attr: { permissions: [...c.principal.permissions], company_id: c.principal.company_id }
})

const resourceOf = (c: BenchCase) => ({
  actions: [...c.fields],
  resource: { kind: 'budget', id: c.resource.id, attr: { ...c.resource } }
})

/**
 * The body of `POST /api/check/resources` for cases one principal asks (Cerbos's API batches
 * resources, each with its actions, for one principal): each case a resource whose actions are
 * the fields its PATCH changes.
 */
export const cerbosRequest = (cases: ReadonlyArray<BenchCase>, requestId: string): string => {
  const first = cases[0]
  if (first === undefined) throw new Error('a Cerbos request asks at least one question')
  const principal = JSON.stringify(principalOf(first))
  if (cases.some((c) => JSON.stringify(principalOf(c)) !== principal)) throw new Error('a Cerbos request has one principal')
  return JSON.stringify({ requestId, principal: principalOf(first), resources: cases.map(resourceOf) })
}

interface CheckResourcesReply {
  readonly results?: ReadonlyArray<{ readonly actions?: Readonly<Record<string, string>> }>
}

/**
 * Cerbos's answers, in the order asked: a case is allowed when every field its PATCH changes
 * (every action of its resource) is `EFFECT_ALLOW`.
 */
export const cerbosAllows = (reply: unknown, cases: ReadonlyArray<BenchCase>): ReadonlyArray<boolean> => {
  const results = (reply as CheckResourcesReply).results ?? []
  if (results.length !== cases.length) throw new Error(`Cerbos answered ${results.length} resources of ${cases.length}`)
  return cases.map((c, i) => c.fields.every((f) => results[i]?.actions?.[f] === 'EFFECT_ALLOW'))
}
