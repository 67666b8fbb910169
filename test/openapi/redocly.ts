/** Redocly's CLI over a document written to a temp file: its verdict with the recommended rules. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const REDOCLY = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js')

/** Redocly's verdict on a document: its totals and the problems it found. */
export const lint = (document: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'redocly-'))
  try {
    const file = join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(document))
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--format=json'], {
      encoding: 'utf8',
      // No telemetry and no update check: this machine reaches no network.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }
    })
    const json = run.stdout.slice(run.stdout.indexOf('{'))
    const report = JSON.parse(json) as {
      totals: Record<string, number>
      problems: ReadonlyArray<{ ruleId: string; message: string }>
    }
    return { status: run.status, totals: report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message}`) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
