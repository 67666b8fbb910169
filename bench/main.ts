/**
 * `npm run bench` (the library's part): each suite's cases, their contenders' answers checked
 * equal before any of them is timed, then each case timed side by side; writes bench/results.json
 * and the section of docs/performance.md between its markers. Run: npx tsx --expose-gc
 * --single-threaded-gc bench/main.ts
 */
import { writeFileSync } from 'node:fs'
import type { Case } from './case'
import { cases as decision } from './decision.bench'
import {
  checkAnswers,
  docsSection,
  machine,
  printCase,
  readmeSection,
  type Results,
  timeCase,
  writeDocs,
  writeReadme
} from './harness'
import { cases as index } from './index.bench'
import { cases as periods } from './period.bench'
import { cases as query } from './query.bench'
import { cases as worst } from './worst.bench'

/**
 * The suites in the order they are timed: the cases of microseconds first, before a million
 * records are built. Each suite's cases are built, checked and timed before the next is built,
 * and the heap is collected before each case (`--expose-gc`): every case is timed in the CPU
 * time of the process, which would otherwise count the collector's threads marking what an
 * earlier suite built. `--single-threaded-gc` keeps the collector on the thread that runs the
 * calls, so that a contender's time holds its own collections once, as a wall clock would.
 */
const suites: ReadonlyArray<() => Promise<ReadonlyArray<Case>>> = [decision, periods, query, index, worst]
/** The order of the suites in the docs' tables and summary. */
const shown = ['decision', 'index', 'worst shapes', 'periods', 'query']

const started = performance.now()
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) console.log('(no --expose-gc: the heap is not collected between cases)')

const timed = []
for (const suite of suites) {
  const cases = await suite()
  console.log(`${cases.length} cases built (${seconds()})`)
  await checkAnswers(cases)
  console.log(`every contender gives the first one's answer (${seconds()})`)
  for (const c of cases) {
    collect?.()
    const result = await timeCase(c)
    printCase(result)
    console.log(`(${seconds()})`)
    timed.push(result)
  }
}
timed.sort((a, b) => shown.indexOf(a.suite) - shown.indexOf(b.suite))

const results: Results = {
  command: 'npm run bench',
  date: new Date().toISOString(),
  machine: machine(),
  cases: timed
}
writeFileSync(new URL('results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
writeDocs(new URL('../docs/performance.md', import.meta.url).pathname, docsSection(results))
writeReadme(new URL('../docs/performance.md', import.meta.url).pathname, readmeSection(results))
const missed = timed.flatMap((r) =>
  (r.goals ?? []).filter((g) => !g.met).map((g) => `${r.suite}: ${r.title}: ${g.ratio}× ${g.against} (goal ≤ ${g.atMost}×)`)
)
console.log(
  `\nbench/results.json, docs/performance.md and its summary written; goals not met: ${missed.length === 0 ? 'none' : `\n  ${missed.join('\n  ')}`}`
)
