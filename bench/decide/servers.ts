/**
 * The servers under test of `npm run bench:decide`, each a process of its own on plain
 * `node`, running built code:
 *
 * - the decision service as a user runs it: `node dist/cli.js serve --decide` (dist/ as
 *   `npm run build` writes it, built first),
 *   with its default log level (`info`: a JSON line a request) and its standard output, where
 *   the log goes, sent to /dev/null: the log's cost is paid as a user pays it, its lines kept by
 *   nobody. Its port is picked free beforehand (PORT), as the line that names it goes to
 *   /dev/null too, and it is ready once `GET /healthz` answers;
 * - the floor (bench/decide/floor-process.ts), bundled by esbuild through tsup with the very
 *   options of dist/cli.js (tsup.config.ts's `cli`: fp-ts and io-ts bundled from their ES
 *   modules, node20) into a folder of the system's temporary directory: `eslint .` reads every
 *   .js file under the repository, ignored by git or not.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'
import { cli } from '../../tsup.config'
import type { FloorKind } from './floor'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The bin the service runs from. */
export const CLI = join(ROOT, 'dist', 'cli.js')

/** Where the floor's bundle is written, and removed from once the run ends. */
export const FLOOR_DIR = join(tmpdir(), 'budget-rules-bench-decide')
const FLOOR_BUNDLE = join(FLOOR_DIR, 'floor.mjs')

/** The log level the service is measured at: its default. */
export const SERVICE_LOG_LEVEL = 'info'

/**
 * Builds dist/ from the sources as they are (`node scripts/build.mjs`, what `npm run build` runs):
 * the bin the service runs from and the library timed in process, both. `--changed` would be
 * quicker, but it rebuilds the bin alone, and the library timed could be older than its sources.
 */
export const buildDist = (): void => {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`node scripts/build.mjs exited with ${String(built.status ?? built.signal)}`)
}

/** Bundles the floor's process as dist/cli.js is bundled; resolves to the bundle's path. */
export const buildFloor = async (): Promise<string> => {
  rmSync(FLOOR_DIR, { recursive: true, force: true })
  await build({
    ...cli,
    config: false,
    silent: true,
    entry: { floor: join(ROOT, 'bench/decide/floor-process.ts') },
    outDir: FLOOR_DIR,
    // Outside any package.json of type module: .mjs says ESM.
    outExtension: () => ({ js: '.mjs' })
  })
  return FLOOR_BUNDLE
}

/** Removes the floor's bundle. */
export const removeFloor = (): void => {
  rmSync(FLOOR_DIR, { recursive: true, force: true })
}

/** A port of the loopback free now (the kernel's pick), for a process that is told its port. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port'))
        else resolve(address.port)
      })
    })
  })

/** A server under test, listening. */
export interface Running {
  readonly url: string
  readonly child: ChildProcess
  /** SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
  readonly stop: () => Promise<void>
}

const stopper = (child: ChildProcess) => async (): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  const late = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(late)
}

/**
 * Starts the floor's bundle, answering with `kind` (bench/decide/floor.ts); resolves once it
 * prints its URL. `nodeArgs` go before it (`--cpu-prof`).
 */
export const startFloorProcess = (
  bundle: string,
  nodeArgs: ReadonlyArray<string> = [],
  kind: FloorKind = 'reply'
): Promise<Running> =>
  new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env }
    delete env.NODE_OPTIONS
    const child = spawn(process.execPath, [...nodeArgs, bundle, kind], {
      env,
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /listening on (http:\/\/\S+)\n/.exec(out)
      if (m !== null) resolve({ url: m[1] as string, child, stop: stopper(child) })
    })
    child.once('exit', (code, signal) => {
      reject(new Error(`the floor exited with ${String(code ?? signal)}`))
    })
  })

/**
 * Starts `node dist/cli.js serve --decide` on a free port of the loopback, its log at `logLevel`
 * (`info`, its default, unless told) to /dev/null, no token; resolves once `GET /healthz`
 * answers. `nodeArgs` go before the bin.
 */
export const startServiceProcess = async (
  nodeArgs: ReadonlyArray<string> = [],
  logLevel: string = SERVICE_LOG_LEVEL
): Promise<Running> => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: logLevel }
  delete env.DECIDE_TOKEN
  delete env.METRICS_TOKEN
  delete env.NODE_OPTIONS
  const devNull = openSync('/dev/null', 'w')
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--decide'], { env, stdio: ['ignore', devNull, 'inherit'] })
  closeSync(devNull)
  const url = `http://127.0.0.1:${port}`
  for (let tries = 0; tries < 200; tries++) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`budget-rules serve --decide exited with ${String(child.exitCode ?? child.signalCode)}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child, stop: stopper(child) }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await stopper(child)()
  throw new Error('budget-rules serve --decide did not answer GET /healthz in 10 s')
}
