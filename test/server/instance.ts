/**
 * `budget-rules serve` as a real process on a free port, for the tests of several instances on
 * one PostgreSQL: started with its environment, stopped with SIGTERM (or killed by the test).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const LISTENING = /budget-rules server listening on (http:\/\/127\.0\.0\.1:\d+)\n/

/** One `budget-rules serve` process. */
export interface Instance {
  readonly url: string
  readonly child: ChildProcess
}

/** Starts an instance on a free port over `databaseUrl`, with `args` after `serve`; resolves once it listens. */
export const startInstance = (
  databaseUrl: string,
  env: Readonly<Record<string, string>> = {},
  args: ReadonlyArray<string> = []
): Promise<Instance> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), 'serve', ...args], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = LISTENING.exec(out)
      if (m !== null) resolve({ url: m[1] as string, child })
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => {
      reject(new Error(`the instance exited with ${code}: ${out}`))
    })
  })

/** Stops an instance with SIGTERM and waits for it; nothing to do when it is gone already. */
export const stopInstance = async (instance: Instance): Promise<void> => {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return
  const exited = new Promise((resolve) => instance.child.once('exit', resolve))
  instance.child.kill('SIGTERM')
  await exited
}
