/**
 * Running the `budget-rules` CLI in the tests: as a user runs it (a child process, `node --import
 * tsx src/cli/main.ts`, in a directory of its own), and in-process through `run` (the same
 * commands, so that they count for coverage), with what it printed and its exit code.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { run } from '../../src/cli/program'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const MAIN = join(ROOT, 'src/cli/main.ts')
// tsx's loader by its own path: `--import tsx` would look for tsx from the workspace directory.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A fresh directory holding copies of the example files the CLI is run on. */
export const workspace = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'budget-rules-cli-'))
  for (const f of ['budget-monthly.json', 'budget-cadence-change.json', 'case-manager-changes-manager.json', 'case-top-up.json'])
    copyFileSync(join(ROOT, 'examples', f), join(dir, f))
  return dir
}

/** The CLI as a child process in `cwd`, with `env` added to the environment. */
export const spawnCli = (args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}): Promise<Ran> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, MAIN, ...args],
      { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr })
      }
    )
  })

/** The CLI in this process: `run` with an `io` that records what it prints. */
export const runCli = async (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  signal: () => Promise<string> = () => new Promise(() => undefined)
): Promise<Ran> => {
  let stdout = ''
  let stderr = ''
  const code = await run(args, {
    out: (text) => {
      stdout += text
    },
    err: (text) => {
      stderr += text
    },
    env,
    signal
  })
  return { code, stdout, stderr }
}
