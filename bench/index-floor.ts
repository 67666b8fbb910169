/**
 * The parts of the index floor: what one pass over the million records costs before any
 * ordering, beside `respondIndex` and `filter` + `sort` + `slice`, on the four collections of
 * index.bench.ts, whose own contenders `one pass, instants read (the floor)` and `one pass, instants not read` also keep the page and count. The
 * library must read every record's `id` and `created_at` (and `status` when filtered) and check
 * them (a malformed record is a 500, R-18; instants are compared as the moments they name, R-46);
 * the status and fields passes below do less than that: they only load the fields and check
 * their type and length, so they bound from below what any validating reader pays; the instants
 * passes add the check and reading of each instant, by `parseInstant` alone or as the floor
 * reads them (`instantReader`: the minute remembered), with no selection. A
 * diagnostic, not part of `npm run bench`. Run (after `npx tsup`): npx tsx bench/index-floor.ts
 */
import { Bench } from 'tinybench'
import { root, rules } from './library'
import { byCreatedDesc, collections, contextOf, instantReader, PAGE, pending, type Transaction } from './index.bench'

const query = (filtered: boolean) => `_start=0&_end=${PAGE}&_order=desc${filtered ? '&status=pending' : ''}`

/** Loads `status` of every record: the baseline's own `filter` pass. */
const statusPass = (records: ReadonlyArray<Transaction>): number => {
  let n = 0
  for (const r of records) if (r.status === 'pending') n++
  return n
}

/** Loads `id`, `created_at` and `status` of every record and checks their type and length. */
const fieldsPass = (records: ReadonlyArray<Transaction>): number => {
  let n = 0
  for (const r of records) {
    const { id, created_at: at, status } = r
    if (typeof id !== 'string' || typeof at !== 'string' || at.length !== 24) return -1
    if (status === 'pending') n++
  }
  return n
}

/** The fields pass, with each instant checked and read by the library's own `parseInstant`. */
const parsedPass = (records: ReadonlyArray<Transaction>): number => {
  let n = 0
  for (const r of records) {
    const { id, created_at: at, status } = r
    if (typeof id !== 'string' || typeof at !== 'string' || rules.parseInstant(at) === null) return -1
    if (status === 'pending') n++
  }
  return n
}

/** The fields pass, with each instant checked and read as the floor does ({@link instantReader}). */
const instantsPass = (records: ReadonlyArray<Transaction>): number => {
  const isInstant = instantReader()
  let n = 0
  for (const r of records) {
    const { id, created_at: at, status } = r
    if (typeof id !== 'string' || typeof at !== 'string' || !isInstant(at)) return -1
    if (status === 'pending') n++
  }
  return n
}

const rows: Array<Record<string, string>> = []
for (const { title, records } of collections()) {
  for (const filtered of [false, true]) {
    const context = contextOf(records, query(filtered))
    const bench = new Bench({ iterations: 4, warmupIterations: 1, time: 0, warmupTime: 0 })
    bench
      .add('respondIndex', () => root.respondIndex(context))
      .add('filter + sort + slice', () => (filtered ? records.filter(pending) : [...records]).sort(byCreatedDesc).slice(0, PAGE))
      .add('status pass', () => statusPass(records))
      .add('fields pass', () => fieldsPass(records))
      .add('parseInstant pass', () => parsedPass(records))
      .add('instants pass', () => instantsPass(records))
    await bench.run()
    const ms = (i: number) => (bench.tasks[i]?.result as { latency: { mean: number } }).latency.mean
    rows.push({
      case: `${title}, ${filtered ? 'status=pending' : 'unfiltered'}`,
      'respondIndex (ms)': ms(0).toFixed(1),
      'filter + sort + slice (ms)': ms(1).toFixed(1),
      'goal, 0.2× (ms)': (ms(1) * 0.2).toFixed(1),
      'status pass (ms)': ms(2).toFixed(1),
      'fields pass (ms)': ms(3).toFixed(1),
      'parseInstant pass (ms)': ms(4).toFixed(1),
      'instants pass (ms)': ms(5).toFixed(1)
    })
  }
}
console.table(rows)
