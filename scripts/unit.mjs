// Runs the vitest suite once per time zone (results must never depend on TZ), writing each run's
// JSON report to reports/ for .ci/run's summary. Besides UTC: America/Santiago (DST at midnight),
// and the two zones that skipped a whole day, Pacific/Kiritimati (1994-12-31) and Pacific/Apia
// (2011-12-30), where an oracle reading local time would be wrong.
//
// ADR 0129: the whole suite runs under UTC, with coverage. Under the other zones it runs but for
// the tests that drive the outside: servers over sockets, the CLI's processes, the conformance
// kit's servers, Prism and the OpenAPI client, the embedding examples. Outside the core, the code
// reads the clock only as an instant (eslint.config.js forbids local time in every file but the
// admin console's "today"), so the date logic those tests reach is the core's, which every zone
// tests directly; the browsers, where a page could read local time, run in every zone.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { relative } from 'node:path'

export const ZONES = ['UTC', 'America/Santiago', 'Pacific/Kiritimati', 'Pacific/Apia']

/** The tests that run under UTC only (ADR 0129). */
export const UTC_ONLY = [
  'test/**/*.processes.test.ts',
  'test/server/!(today|raw-body).test.ts',
  'test/cli/!(decision-text).test.ts',
  'test/conformance/{histories-servers,http,linearizable,model-server,sequences,tenants}.test.ts',
  'test/openapi/{client,prism,tools}.test.ts',
  'test/react-admin/server.test.ts',
  'test/embedding/!(readme).test.ts',
  'test/decision-service/*.test.ts',
  'test/{consumer,docs-blocks,examples,examples-in-docs}.test.ts'
]

rmSync('reports', { recursive: true, force: true })
mkdirSync('reports', { recursive: true })
let ok = true
const lines = []
for (const tz of ZONES) {
  const out = `reports/vitest-${tz.replace('/', '_')}.json`
  console.log(`\n== vitest under TZ=${tz}`)
  // Coverage (vitest.config.ts: thresholds over src/) once, on the UTC run; coverage/ holds it.
  const coverage = tz === 'UTC' ? ['--coverage'] : []
  const outside = tz === 'UTC' ? [] : UTC_ONLY.flatMap((glob) => ['--exclude', glob])
  // Every core: on 2, vitest's default (one less than the cores) would run one file at a time.
  const workers = `--maxWorkers=${availableParallelism()}`
  const run = spawnSync(
    'npx',
    ['vitest', 'run', workers, ...coverage, ...outside, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
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
