/**
 * Decision records measured (R-121, R-122; issue 27's goals):
 *
 * - replay: 20,000 recorded update decisions (the conformance kit's update scenarios, recorded
 *   by `decisionRecord`) decided again and compared, by `replay` beside a plain reading a user
 *   would write (the facade called on the case, the replies compared as JSON text), answers
 *   checked equal first; then `budget-rules replay --file` over the same records as an NDJSON
 *   export, the whole command (process start included). Goal: 20,000 a second.
 * - show: `budget-rules decisions show REQUEST_ID` as a whole command on a database of 1,000,000
 *   records (PGlite under a temporary DATA_DIR, or the PostgreSQL of DATABASE_URL in a database of
 *   its own). Goal: under 1 s.
 *
 * Writes bench/decisions-results.json and the section of docs/performance.md between its
 * markers. Run: `npm run bench:decisions` (builds first; BENCH_RECORDS=1000000 records for show).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import pg from 'pg'
import { scenario } from '../src/arbitraries'
import type { DecisionRecord } from '../src/decisions'
import { openDatabase } from '../src/store/database'
import { insertDecision } from '../src/store/decisions'
import { migrate } from '../src/store/migrations'
import { decisions, root } from './library'

const { decisionRecord, replay } = decisions
const { respondBudgetUpdate } = root

const RECORDS = 20_000
const SHOWN_OF = Number(process.env.BENCH_RECORDS ?? '1000000')
const CLI = new URL('../dist/cli.js', import.meta.url).pathname
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const log = (line: string) => {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

// -------------------------------------------------------------------------------------
// the records: update decisions of every kind (refusals and successes)
// -------------------------------------------------------------------------------------

const records: Array<DecisionRecord> = []
for (const s of fc.sample(scenario({ endpoints: ['budget.update'] }), { numRuns: RECORDS, seed: 20261127 })) {
  const context = {
    request: { headers: s.request.headers, body: s.request.body },
    session: s.state.session,
    budget: s.state.budget,
    today: s.state.today,
    request_id: `req-${records.length}`,
    company_member_ids: s.state.company_member_ids
  }
  const made = decisionRecord('budget.update', context, respondBudgetUpdate(context), {
    at: '2026-11-27T12:00:00.000000Z',
    key_id: '0a1b2c3d4e5f6071',
    method: 'PATCH',
    path: s.request.path
  })
  if (made._tag === 'Right') records.push(made.right)
}
log(`${records.length} update decisions recorded`)

/** What a user would write: the facade on the case, the replies compared as JSON text. */
const plainReplay = (r: DecisionRecord): boolean => {
  const context = { ...(r.case as Record<string, unknown>) }
  delete context.endpoint
  const now = respondBudgetUpdate(context as never)
  return (
    now.status === r.reply.status &&
    JSON.stringify(now.body) === JSON.stringify(r.reply.body) &&
    JSON.stringify(now.headers) === JSON.stringify(r.reply.headers) &&
    JSON.stringify(now.reasons.map((x) => x.rule)) === JSON.stringify(r.rules)
  )
}
const libraryReplay = (r: DecisionRecord): boolean => {
  const found = replay(r)
  return found.replayable && found.same
}

// Equal answers first: both find every record the same.
const answers = [records.map(libraryReplay), records.map(plainReplay)]
if (JSON.stringify(answers[0]) !== JSON.stringify(answers[1]) || answers[0]?.some((same) => !same))
  throw new Error('replay and the plain reading disagree, or a record replays otherwise')
const statuses = new Map<number, number>()
for (const r of records) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
log(`both replay every record the same; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`)

const rate = (decide: (r: DecisionRecord) => boolean): number => {
  const runs: Array<number> = []
  for (let i = 0; i < 7; i++) {
    const started = performance.now()
    for (const r of records) decide(r)
    runs.push(records.length / ((performance.now() - started) / 1000))
  }
  return Math.round(median(runs))
}
const library = rate(libraryReplay)
const plain = rate(plainReplay)
log(`replay: ${library} a second; the plain reading: ${plain} a second`)

const dir = mkdtempSync(join(tmpdir(), 'budget-rules-decisions-bench-'))
const file = join(dir, 'export.ndjson')
writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`)
const commandRuns: Array<number> = []
for (let i = 0; i < 5; i++) {
  const started = performance.now()
  const out = execFileSync(process.execPath, [CLI, 'replay', '--file', file], { encoding: 'utf8' })
  commandRuns.push(performance.now() - started)
  if (!out.endsWith(`${records.length} replayed, ${records.length} same, 0 differ, 0 not replayable\n`))
    throw new Error(`budget-rules replay printed: ${out.slice(-200)}`)
}
const command = Math.round(records.length / (median(commandRuns) / 1000))
log(`budget-rules replay --file: ${command} a second (median of 5 whole commands, ${Math.round(median(commandRuns))} ms)`)

// -------------------------------------------------------------------------------------
// decisions show on a database of a million records
// -------------------------------------------------------------------------------------

const url = process.env.DATABASE_URL
const showDb = url === undefined || url === '' ? 'PGlite' : 'PostgreSQL'
let env: Record<string, string>
let dropDatabase = (): Promise<void> => Promise.resolve()
if (url === undefined || url === '') env = { DATA_DIR: join(dir, 'data') }
else {
  const name = `budget_rules_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const own = new URL(url)
  own.pathname = `/${name}`
  env = { DATABASE_URL: own.toString() }
  dropDatabase = async () => {
    const again = new pg.Client({ connectionString: url })
    await again.connect()
    await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await again.end()
  }
}
const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL })
await migrate(db)
const template = records.find((r) => r.status === 200) as DecisionRecord
await insertDecision(db, template)
const seeding = performance.now()
for (let from = 1; from < SHOWN_OF; from += 100_000) {
  // Copies of one update's record, each its own request id and instant, a company's traffic.
  await db.query(
    `INSERT INTO decisions (id, at, company_id, actor_id, key_id, endpoint, method, path, resource_id, idempotency_key,
       replay_of, status, rules, "case", reply, changes, masked, erased, library_version)
     SELECT 'req-' || lpad(n::text, 7, '0'), at + n * interval '1 second', company_id, actor_id, key_id, endpoint, method, path,
       resource_id, idempotency_key, replay_of, status, rules, "case", reply, changes, masked, erased, library_version
       FROM decisions, generate_series($1::int, $2::int) AS n WHERE id = $3`,
    [from, Math.min(from + 100_000, SHOWN_OF) - 1, template.request_id]
  )
  log(`${Math.min(from + 100_000, SHOWN_OF)} of ${SHOWN_OF} records (${((performance.now() - seeding) / 1000).toFixed(0)} s)`)
}
await db.query('ANALYZE decisions')
await db.close()
const shown = 'req-0777777'
const showRuns: Array<number> = []
for (let i = 0; i < 5; i++) {
  const started = performance.now()
  const out = execFileSync(process.execPath, [CLI, 'decisions', 'show', SHOWN_OF > 777_777 ? shown : template.request_id], {
    encoding: 'utf8',
    env: { ...process.env, ...env }
  })
  showRuns.push(performance.now() - started)
  if (!out.startsWith('request  ')) throw new Error(`decisions show printed: ${out.slice(0, 200)}`)
}
const show = Math.round(median(showRuns))
log(`budget-rules decisions show on ${SHOWN_OF} records (${showDb}): ${show} ms (median of 5 whole commands)`)
await dropDatabase()
rmSync(dir, { recursive: true, force: true })

// -------------------------------------------------------------------------------------
// results
// -------------------------------------------------------------------------------------

const results = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  date: new Date().toISOString(),
  replay: { records: records.length, statuses: Object.fromEntries([...statuses].sort()), library, plain, command },
  show: { records: SHOWN_OF, database: showDb, median_ms: show, runs_ms: showRuns.map(Math.round) }
}
writeFileSync(new URL('decisions-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
const section = [
  '<!-- decisions: written by bench/decisions.bench.ts -->',
  `Decision records (\`npm run bench:decisions\`, ${results.date.slice(0, 10)}; ${results.machine}):`,
  '',
  '| measure | figure | goal |',
  '| --- | --- | --- |',
  `| \`replay\`, ${records.length} recorded update decisions (in process) | ${library} a second (a plain reading: ${plain}) | 20,000 a second |`,
  `| \`budget-rules replay --file\`, the same as an export, whole command | ${command} a second | 20,000 a second |`,
  `| \`budget-rules decisions show\` on ${SHOWN_OF} records (${showDb}), whole command | ${show} ms | under 1,000 ms |`,
  '<!-- /decisions -->'
].join('\n')
const doc = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8')
writeFileSync(
  new URL('../docs/performance.md', import.meta.url),
  /<!-- decisions:[\s\S]*<!-- \/decisions -->/.test(doc)
    ? doc.replace(/<!-- decisions:[\s\S]*<!-- \/decisions -->/, section)
    : `${doc.trimEnd()}\n\n## Decision records\n\n${section}\n`
)
console.log(section)
