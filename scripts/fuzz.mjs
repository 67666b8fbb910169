// The full fuzz (issue 9): every entry point of src/index.ts, FUZZ_RUNS runs each (10,000 unless
// set), then a table of runs per second and failures from the JSON each test writes to
// reports/fuzz/. Extra arguments go to vitest (e.g. `-t respondIndex`). FUZZ_SEED replays a run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'

const dir = process.env.FUZZ_REPORT ?? 'reports/fuzz'
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '10000', FUZZ_REPORT: dir }
console.log(`== fuzz: FUZZ_RUNS=${env.FUZZ_RUNS}${env.FUZZ_SEED === undefined ? '' : `, FUZZ_SEED=${env.FUZZ_SEED}`}`)
const run = spawnSync('npx', ['vitest', 'run', 'test/fuzz', ...process.argv.slice(2)], { stdio: 'inherit', env })

const results = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name))
  : []
const rows = results.map((r) => [
  r.name,
  r.kind,
  String(r.stats.runs),
  (r.ms / 1000).toFixed(1),
  r.ms > 0 ? String(Math.round((r.stats.runs * 1000) / r.ms)) : '-',
  r.stats.runs > 0 ? `${Math.round((100 * r.stats.deep) / r.stats.runs)}%` : '-',
  (r.stats.maxMs ?? 0).toFixed(0),
  String(r.failures.length)
])
const head = ['entry point', 'kind', 'runs', 'seconds', 'runs/s', 'deep', 'slowest ms', 'failures']
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`)
for (const row of rows) console.log(line(row))
const failing = results.filter((r) => r.failures.length > 0)
console.log(
  `\n${results.length} entry points, ${results.reduce((n, r) => n + r.stats.runs, 0)} runs, ` +
    `${failing.length} with failures (${results.reduce((n, r) => n + r.failures.length, 0)} distinct); details in ${dir}/`
)
process.exit(run.status ?? 1)
