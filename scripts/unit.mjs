// Runs the vitest suite once per time zone (results must never depend on TZ), writing each run's
// JSON report to reports/ for .ci/run's summary. Besides UTC: America/Santiago (DST at midnight),
// and the two zones that skipped a whole day, Pacific/Kiritimati (1994-12-31) and Pacific/Apia
// (2011-12-30), where an oracle reading local time would be wrong.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { relative } from 'node:path'

export const ZONES = ['UTC', 'America/Santiago', 'Pacific/Kiritimati', 'Pacific/Apia']

rmSync('reports', { recursive: true, force: true })
mkdirSync('reports', { recursive: true })
let ok = true
const lines = []
for (const tz of ZONES) {
  const out = `reports/vitest-${tz.replace('/', '_')}.json`
  console.log(`\n== vitest under TZ=${tz}`)
  // Coverage (vitest.config.ts: thresholds over src/) once, on the UTC run; coverage/ holds it.
  const coverage = tz === 'UTC' ? ['--coverage'] : []
  // The tests of whole processes (*.processes.test.ts: servers started, signalled and killed)
  // read no date: they run once, under UTC, for the minutes they take.
  const processes = tz === 'UTC' ? [] : ['--exclude', 'test/**/*.processes.test.ts']
  const run = spawnSync(
    'npx',
    ['vitest', 'run', ...coverage, ...processes, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      stdio: 'inherit',
      // The fuzz inside the suite starts from a fixed seed, so that CI's verdict is the code's;
      // `npm run fuzz` explores from a new seed each time (and prints it to replay).
      env: { FUZZ_SEED: '20261123', ...process.env, TZ: tz }
    }
  )
  let report = null
  try {
    report = JSON.parse(readFileSync(out, 'utf8'))
  } catch {
    report = null
  }
  if (run.status !== 0 || report === null || !report.success) ok = false
  lines.push(
    report === null
      ? `TZ=${tz}: no report`
      : `TZ=${tz}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`
  )
  // The failed tests by name, so that a log cut to its tail still says which one failed.
  for (const file of report?.testResults ?? [])
    for (const test of file.assertionResults)
      if (test.status === 'failed') lines.push(`  failed: ${relative('.', file.name)} > ${test.fullName}`)
}
console.log(`\n${lines.join('\n')}`)
process.exit(ok ? 0 : 1)
