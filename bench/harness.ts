/**
 * The runner's parts (bench/main.ts): answers compared before anything is timed, contenders
 * timed side by side in one tinybench Bench per case, and the results as ratios from that run.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { Bench } from 'tinybench'
import type { Case } from './case'

/**
 * Structural equality of plain data: primitives by `Object.is`, arrays element by element,
 * objects by their own enumerable keys in any order. Anything else (a Date, a Map) is compared
 * as an object of its enumerable keys, which a suite's `answer` should not hand over.
 */
export const deepEqual = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  const rb = b as Readonly<Record<string, unknown>>
  const ra = a as Readonly<Record<string, unknown>>
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]))
}

/** Where two contenders of a case answer differently. */
export interface Difference {
  readonly title: string
  readonly first: string
  readonly other: string
  readonly expected: unknown
  readonly got: unknown
}

/** The first case whose contenders do not all give the first one's answer, or null. */
export const firstDifference = async (cases: ReadonlyArray<Case>): Promise<Difference | null> => {
  for (const c of cases) {
    const [first, ...rest] = c.contenders
    if (first === undefined) throw new Error(`${c.suite}: ${c.title} has no contender`)
    const expected: unknown = await (first.answer ?? first.run)()
    for (const other of rest) {
      const got: unknown = await (other.answer ?? other.run)()
      if (!deepEqual(expected, got))
        return { title: `${c.suite}: ${c.title}`, first: first.name, other: other.name, expected, got }
    }
  }
  return null
}

/** Every contender's answer equals the first's, or the run stops with both printed (exit 1). */
export const checkAnswers = async (cases: ReadonlyArray<Case>): Promise<void> => {
  const d = await firstDifference(cases)
  if (d === null) return
  console.error(`\n${d.title}: answers differ\n${d.first}:`)
  console.error(JSON.stringify(d.expected, null, 2))
  console.error(`${d.other}:`)
  console.error(JSON.stringify(d.got, null, 2))
  process.exit(1)
}

export interface Row {
  readonly name: string
  readonly kind: 'library' | 'baseline' | 'peer'
  readonly mean_us: number
  readonly p50_us?: number
  readonly rme_pct: number
  readonly samples: number
  /** This contender's mean over the library's. */
  readonly vs_library: number
}

/** A goal as measured: the library's mean over the goal's contender's. */
export interface GoalResult {
  readonly against: string
  readonly atMost: number
  readonly ratio: number
  readonly met: boolean
}

export interface CaseResult {
  readonly suite: string
  readonly title: string
  readonly rows: ReadonlyArray<Row>
  /** The case's goals, when it has any. */
  readonly goals?: ReadonlyArray<GoalResult>
  /** Every goal of the case met. */
  readonly goal_met?: boolean
}

/**
 * A time-based case: each contender for 500 ms after 100 ms of warmup, and at least 5 calls
 * (tinybench's default minimum of 64 would hold a 300 ms call of rrule for 20 s).
 */
const TIME = 500
const WARMUP = 100
const MIN_CALLS = 5

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/**
 * The CPU time this process has used, in ms: the clock of every case, so that other processes
 * on a shared machine (which may take the CPU away for half a call) do not count in a call's
 * time. The kernel's clock costs about a microsecond, so the cases of microseconds time their
 * calls in batches ({@link inBatches}).
 */
const cpuNow = (): number => {
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

/** How long a batch of calls of a microseconds case lasts, about: the kernel's clock is a thousandth of it. */
const BATCH_MS = 2

/**
 * `run` called `calls` times in a row, timed together in CPU time; the sample is the mean of the
 * batch (a Promise's calls are awaited one after the other).
 */
const inBatches = (run: () => unknown, calls: number) => (): unknown => {
  const from = cpuNow()
  const result = (duration: number) => ({ overriddenDuration: duration / calls, overriddenIterationCost: duration })
  const first = run()
  if (first instanceof Promise)
    return (async () => {
      await first
      for (let i = 1; i < calls; i++) await run()
      return result(cpuNow() - from)
    })()
  for (let i = 1; i < calls; i++) run()
  return result(cpuNow() - from)
}

/** How many calls of `run` fit in `ms` of CPU time (at most a million). */
const callsIn = async (run: () => unknown, ms: number): Promise<number> => {
  const from = cpuNow()
  let calls = 0
  while (calls < 1_000_000 && cpuNow() - from < ms) {
    await run()
    calls++
  }
  return calls
}

/**
 * How many calls of `run` make a batch of about {@link BATCH_MS} (1 for a call of a millisecond or
 * more): the most of three counts, after as long again of warm calls. Counted on the first,
 * cold calls (compiled as they run, or cut short by a collection), a batch came out a call or two
 * long, and each sample then held the clock's own microsecond.
 */
const batchSize = async (run: () => unknown): Promise<number> => {
  await callsIn(run, BATCH_MS)
  const counts = [await callsIn(run, BATCH_MS), await callsIn(run, BATCH_MS), await callsIn(run, BATCH_MS)]
  return Math.max(1, ...counts)
}

/** One case timed: its contenders in one Bench, one after the other, in the order given. */
export const timeCase = async (c: Case): Promise<CaseResult> => {
  const bench =
    c.iterations === undefined
      ? new Bench({ time: TIME, warmupTime: WARMUP, iterations: MIN_CALLS, warmupIterations: 1, now: cpuNow })
      : new Bench({ time: 0, iterations: c.iterations, warmupTime: 0, warmupIterations: 1, now: cpuNow })
  for (const contender of c.contenders)
    bench.add(
      contender.name,
      c.iterations === undefined ? inBatches(contender.run, await batchSize(contender.run)) : contender.run
    )
  await bench.run()
  const measured = bench.tasks.map((task) => {
    const r = task.result
    if (r.state !== 'completed') throw new Error(`${c.title}: ${task.name} ${r.state}`)
    return {
      name: task.name,
      mean: r.latency.mean * 1000,
      p50: r.latency.p50 * 1000,
      rme: r.latency.rme,
      n: r.latency.samplesCount
    }
  })
  const meanOf = (name: string) => measured.find((m) => m.name === name)?.mean ?? Number.NaN
  const library = c.contenders.find((x) => x.kind === 'library')
  const libraryMean = library === undefined ? Number.NaN : meanOf(library.name)
  const rows = c.contenders.map((contender, i): Row => {
    const m = measured[i]
    if (m === undefined) throw new Error(`${c.title}: ${contender.name} not timed`)
    return {
      name: contender.name,
      kind: contender.kind,
      mean_us: round(m.mean, 3),
      ...(Number.isFinite(m.p50) ? { p50_us: round(m.p50, 3) } : {}),
      rme_pct: round(m.rme, 2),
      samples: m.n,
      vs_library: round(m.mean / libraryMean, 3)
    }
  })
  if (c.goals === undefined || c.goals.length === 0) return { suite: c.suite, title: c.title, rows }
  const goals = c.goals.map((g): GoalResult => {
    const ratio = libraryMean / meanOf(g.against)
    return { against: g.against, atMost: g.atMost, ratio: round(ratio, 3), met: ratio <= g.atMost }
  })
  return { suite: c.suite, title: c.title, rows, goals, goal_met: goals.every((g) => g.met) }
}

const microseconds = (us: number): string =>
  us >= 1_000_000 ? `${(us / 1_000_000).toFixed(2)} s` : us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(2)} µs`

const goalText = (r: CaseResult): string =>
  r.goals === undefined
    ? 'no goal'
    : r.goals.map((g) => `goal ≤ ${g.atMost}× ${g.against}: ${g.ratio.toFixed(2)}× ${g.met ? 'met' : 'NOT met'}`).join('; ')

/** The case as a console table, printed as soon as it is timed. */
export const printCase = (r: CaseResult): void => {
  console.log(`\n${r.suite}: ${r.title} (${goalText(r)})`)
  console.table(
    r.rows.map((row) => ({
      contender: row.name,
      kind: row.kind,
      mean: microseconds(row.mean_us),
      '± %': row.rme_pct.toFixed(1),
      samples: row.samples,
      '× library': row.vs_library.toFixed(2)
    }))
  )
}

export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly node: string
  readonly platform: string
}

/** The machine the run is on, as results.json and the docs name it. */
export const machine = (): Machine => {
  const all = cpus()
  return { cpu: all[0]?.model.trim() ?? 'unknown', cores: all.length, node: process.version, platform: process.platform }
}

export interface Results {
  readonly command: string
  readonly date: string
  readonly machine: Machine
  readonly cases: ReadonlyArray<CaseResult>
}

const OPEN = '<!-- bench: written by bench/main.ts -->'
const CLOSE = '<!-- /bench -->'

const cell = (s: string) => s.replaceAll('|', '\\|')

/** The docs section: one table per suite, each case's contenders as rows. */
export const docsSection = (results: Results): string => {
  const m = results.machine
  const lines = [
    OPEN,
    `Mean time per call ± its relative margin of error (tinybench 6.2.3; the contenders of a case side by side in one run, their answers checked equal first; all in the CPU time the process used, the collector on the same thread, so that other processes on the machine do not count; a case over a million records times a fixed number of calls after one warmup, the others batches of calls of about 2 ms for 500 ms each after 100 ms). ${m.cores} × ${m.cpu}, Node ${m.node}, ${m.platform}, ${results.date.slice(0, 10)}. Command: \`${results.command}\`; every figure in \`bench/results.json\`.`
  ]
  const suites = [...new Set(results.cases.map((c) => c.suite))]
  for (const suite of suites) {
    lines.push('', `### ${suite}`, '', '| case | contender | mean | × budget-rules | goal |', '| --- | --- | --- | --- | --- |')
    for (const c of results.cases.filter((x) => x.suite === suite))
      c.rows.forEach((row, i) =>
        lines.push(
          `| ${i === 0 ? cell(c.title) : ''} | ${cell(row.name)} | ${microseconds(row.mean_us)} ± ${row.rme_pct.toFixed(0)}% | ${row.vs_library.toFixed(2)} | ${i === 0 ? cell(goalText(c)) : ''} |`
        )
      )
  }
  lines.push(CLOSE)
  return lines.join('\n')
}

const SUMMARY_OPEN = '<!-- bench-summary: written by bench/main.ts -->'
const SUMMARY_CLOSE = '<!-- /bench-summary -->'

const range = (xs: ReadonlyArray<number>, show: (x: number) => string): string => {
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  return lo === hi ? show(lo) : `${show(lo)} to ${show(hi)}`
}

/**
 * The summary's lines (docs/performance.md, "In brief"): per suite, the library's time, each other contender's time as a multiple
 * of it, and how many goals were met; the same run as the docs' tables.
 */
export const readmeSection = (results: Results): string => {
  const m = results.machine
  const lines = [
    SUMMARY_OPEN,
    `The latest run (\`${results.command}\`, ${m.cores} × ${m.cpu}, Node ${m.node}, ${results.date.slice(0, 10)}):`,
    ''
  ]
  for (const suite of [...new Set(results.cases.map((c) => c.suite))]) {
    const cases = results.cases.filter((c) => c.suite === suite)
    const library = cases.flatMap((c) => c.rows.filter((r) => r.kind === 'library').slice(0, 1))
    const others = [...new Set(cases.flatMap((c) => c.rows.filter((r) => r.kind !== 'library').map((r) => r.name)))]
    const goals = cases.flatMap((c) => c.goals ?? [])
    const parts = others.map((name) => {
      const ratios = cases.flatMap((c) => c.rows.filter((r) => r.name === name).map((r) => r.vs_library))
      return `${name} ${range(ratios, (x) => x.toFixed(2))}×`
    })
    lines.push(
      `- **${suite}** (${cases.length} cases${goals.length > 0 ? `, goals met: ${goals.filter((g) => g.met).length} of ${goals.length}` : ''}): budget-rules ${range(
        library.map((r) => r.mean_us),
        microseconds
      )}; the others' time as a multiple of it: ${parts.join('; ')}.`
    )
  }
  lines.push(SUMMARY_CLOSE)
  return lines.join('\n')
}

/** Replaces the section between `open` and `close` in `path`. */
const replaceSection = (path: string, open: string, close: string, section: string): void => {
  const text = readFileSync(path, 'utf8')
  const from = text.indexOf(open)
  const to = text.indexOf(close)
  if (from < 0 || to < from) throw new Error(`${path}: no ${open} ... ${close} section`)
  writeFileSync(path, text.slice(0, from) + section + text.slice(to + close.length))
}

/** Replaces the section between the markers in `path` (docs/performance.md). */
export const writeDocs = (path: string, section: string): void => {
  replaceSection(path, OPEN, CLOSE, section)
}

/** Replaces the summary between its markers in `path` (docs/performance.md, under "In brief"). */
export const writeReadme = (path: string, section: string): void => {
  replaceSection(path, SUMMARY_OPEN, SUMMARY_CLOSE, section)
}
