/**
 * `npm run conformance`: the conformance kit against the reference server over real HTTP.
 * Starts the server in this process with its conformance hook on (PGlite in memory, migrated,
 * without the demo data: every scenario brings its own) on a free loopback port, runs at least
 * 1,000 scenarios (CONFORMANCE_RUNS, default 1000; seed CONFORMANCE_SEED, default fixed so that
 * runs compare), and prints the scenarios per second, the disagreement if there is one, and
 * `N scenarios, N disagreements` last. Exits 1 on a disagreement.
 */
import { performance } from 'node:perf_hooks'
import { summaryLine } from '../src/cli/conformance'
import { checkConformance, formatDisagreement, httpSender } from '../src/conformance'
import { listen } from '../src/server/main'
import { openDatabase } from '../src/store/database'
import { migrate } from '../src/store/migrations'

const DEFAULT_SEED = 20261123
const DEFAULT_RUNS = 1000

/** A whole number from the environment, or the default when it is unset. */
const integerFrom = (name: string, fallback: number, min: number): number => {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const n = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= min)) throw new Error(`${name} is ${JSON.stringify(value)}, not an integer from ${min}`)
  return n
}

const seed = integerFrom('CONFORMANCE_SEED', DEFAULT_SEED, -(2 ** 31))
const numRuns = integerFrom('CONFORMANCE_RUNS', DEFAULT_RUNS, DEFAULT_RUNS)

const database = await openDatabase({})
await migrate(database)
const server = await listen(database, { conformance: true, ownsDatabase: true })
try {
  console.log(`reference server (conformance hook on) at ${server.url}; seed ${seed}`)
  const started = performance.now()
  const result = await checkConformance({ send: httpSender(server.url), numRuns, seed })
  const seconds = (performance.now() - started) / 1000
  console.log(`${(result.runs / seconds).toFixed(1)} scenarios per second over HTTP (${seconds.toFixed(1)} s)`)
  if (!result.ok) console.log(formatDisagreement(result).replace(/\n*$/, ''))
  console.log(summaryLine(result.runs, result.ok ? 0 : 1))
  process.exitCode = result.ok ? 0 : 1
} finally {
  await server.close()
}
