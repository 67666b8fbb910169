/**
 * `npm run bench:conformance`: the conformance kit over sequences and histories,
 * against its goals (issue 30):
 *
 * - the history checker on histories of 1,000 and 10,000 operations from 8 clients (a simulated
 *   server, test/conformance/simulated.ts: linearizable by construction with 1% of the replies
 *   lost and sent again, and the same with a lost update planted halfway), each answer checked
 *   first against the one the history was built to have, then the check timed (the checker's own
 *   figures: the search's time, the configurations it explored; and the whole check, the witness
 *   of a failure included): under 5 s for 1,000, under 60 s for 10,000;
 * - a history of 1,000 operations from 8 clients recorded against the reference server on
 *   PGlite, and its check;
 * - 200 sequences of up to 30 requests against the reference server on PGlite: under 60 s.
 *
 * The figures go to bench/conformance-results.json and the section of docs/performance.md between
 * its markers, from this run only. Run: `npm run bench:conformance` (a few minutes).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { checkHistories, checkHistory, checkSequences } from '../src/conformance'
import { listen } from '../src/server/main'
import { openDatabase } from '../src/store/database'
import { migrate } from '../src/store/migrations'
import { simulate } from '../test/conformance/simulated'

const REPEATS = Number(process.env.BENCH_REPEATS ?? '3')

/** The median of the timings of `repeats` runs of `f`. */
const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

interface Row {
  readonly history: string
  readonly operations: number
  readonly verdict: string
  readonly search_ms: number
  readonly explored: number
  readonly check_ms: number
  readonly goal_ms: number
}

const rows: Array<Row> = []
for (const operations of [1000, 10_000])
  for (const planted of [false, true]) {
    const history = simulate({ operations, clients: 8, seed: 20261130, unknown: 0.01, ...(planted ? { lostUpdate: 0.5 } : {}) })
    const expected = planted ? 'not linearizable' : 'linearizable'
    // The answer first: the one the history was built to have.
    const first = checkHistory(history, { run_ms: 0 }, 120_000)
    if (first.verdict !== expected) throw new Error(`${operations} operations: ${first.verdict}, not ${expected}`)
    const timings: Array<{ check: number; search: number; explored: number }> = []
    for (let i = 0; i < REPEATS; i++) {
      const started = performance.now()
      const r = checkHistory(history, { run_ms: 0 }, 120_000)
      timings.push({ check: performance.now() - started, search: r.stats.search_ms, explored: r.stats.explored })
    }
    const row: Row = {
      history: planted ? 'a lost update planted halfway' : 'linearizable, 1% of replies lost and sent again',
      operations: history.operations.length,
      verdict: expected,
      search_ms: Math.round(median(timings.map((t) => t.search))),
      explored: timings[0]?.explored ?? 0,
      check_ms: Math.round(median(timings.map((t) => t.check))),
      goal_ms: operations === 1000 ? 5_000 : 60_000
    }
    console.log(row)
    rows.push(row)
  }

// The reference server on PGlite, in this process: a recorded history, and the sequences.
const database = await openDatabase({})
await migrate(database)
const server = await listen(database, { conformance: true, ownsDatabase: true })
let recorded: { operations: number; run_ms: number; search_ms: number; explored: number; verdict: string }
let sequences: { sequences: number; requests: number; ms: number; goal_ms: number }
try {
  const h = await checkHistories({ urls: [server.url], clients: 8, operations: 1000, seed: 20261130 })
  if (!h.ok) throw new Error(`the reference server's history: ${h.verdict}`)
  recorded = {
    operations: h.stats.operations,
    run_ms: Math.round(h.stats.run_ms),
    search_ms: Math.round(h.stats.search_ms),
    explored: h.stats.explored,
    verdict: h.verdict
  }
  console.log(recorded)
  const started = performance.now()
  const s = await checkSequences({ url: server.url, numRuns: 200, maxCommands: 30, seed: 20261130 })
  if (!s.ok) throw new Error(`the reference server disagrees over sequences (${s.kind})`)
  sequences = { sequences: s.runs, requests: s.requests, ms: Math.round(performance.now() - started), goal_ms: 60_000 }
  console.log(sequences)
} finally {
  await server.close()
}

// The load the run shared the machine with (other jobs), as the figures depend on it.
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'}, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1) ?? '?'}`
const date = new Date().toISOString().slice(0, 10)
writeFileSync(
  'bench/conformance-results.json',
  `${JSON.stringify({ date, machine, repeats: REPEATS, checker: rows, recorded, sequences }, null, 2)}\n`
)
const met = (ms: number, goal: number) => (ms < goal ? 'met' : '**missed**')
const section = [
  '<!-- conformance: written by bench/conformance.bench.ts -->',
  `The history checker (the median of ${REPEATS} runs of each check, after one whose answer is checked against the one the history was built to have) and the kit against the reference server on PGlite in memory; ${machine}, ${date}. Command: \`npm run bench:conformance\`; every figure in \`bench/conformance-results.json\`.`,
  '',
  '| history (8 clients) | operations | verdict | search ms | configurations | whole check ms | goal |',
  '| --- | ---: | --- | ---: | ---: | ---: | --- |',
  ...rows.map(
    (r) =>
      `| ${r.history} | ${r.operations} | ${r.verdict} | ${r.search_ms} | ${r.explored} | ${r.check_ms} | < ${r.goal_ms / 1000} s: ${met(r.check_ms, r.goal_ms)} |`
  ),
  `| recorded against the reference server (its run: ${(recorded.run_ms / 1000).toFixed(1)} s) | ${recorded.operations} | ${recorded.verdict} | ${recorded.search_ms} | ${recorded.explored} | | |`,
  '',
  `Sequences: ${sequences.sequences} sequences of up to 30 steps (${sequences.requests} requests) against the reference server in ${(sequences.ms / 1000).toFixed(1)} s (goal < 60 s: ${met(sequences.ms, sequences.goal_ms)}).`,
  '<!-- /conformance -->'
].join('\n')
const doc = readFileSync('docs/performance.md', 'utf8')
const marked = /<!-- conformance:[\s\S]*<!-- \/conformance -->/
writeFileSync('docs/performance.md', marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`)
console.log('bench/conformance-results.json and docs/performance.md written')
