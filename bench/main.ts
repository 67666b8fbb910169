/**
 * `npm run bench` (the library's part): every suite's cases, their contenders' answers checked
 * equal before anything is timed, then each case timed side by side; writes bench/results.json
 * and the section of docs/performance.md between its markers. Run: npx tsx bench/main.ts
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

const suites: ReadonlyArray<() => Promise<ReadonlyArray<Case>>> = [decision, index, worst, periods, query]

const started = performance.now()
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`
const all = (await Promise.all(suites.map((suite) => suite()))).flat()
console.log(`${all.length} cases built (${seconds()})`)
await checkAnswers(all)
console.log(`every contender gives the first one's answer (${seconds()})`)

const timed = []
for (const c of all) {
  const result = await timeCase(c)
  printCase(result)
  console.log(`(${seconds()})`)
  timed.push(result)
}

const results: Results = {
  command: 'npm run bench',
  date: new Date().toISOString(),
  machine: machine(),
  cases: timed
}
writeFileSync(new URL('results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
writeDocs(new URL('../docs/performance.md', import.meta.url).pathname, docsSection(results))
writeReadme(new URL('../README.md', import.meta.url).pathname, readmeSection(results))
const missed = timed.flatMap((r) =>
  (r.goals ?? []).filter((g) => !g.met).map((g) => `${r.suite}: ${r.title}: ${g.ratio}× ${g.against} (goal ≤ ${g.atMost}×)`)
)
console.log(
  `\nbench/results.json, docs/performance.md and the README's summary written; goals not met: ${missed.length === 0 ? 'none' : `\n  ${missed.join('\n  ')}`}`
)
