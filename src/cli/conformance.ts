/**
 * `budget-rules conformance --url URL [--runs N] [--seed S]`: checks a live server against the
 * library (R-91). The server must have the conformance hook on (`budget-rules serve
 * --conformance` for the reference server; docs/server.md describes the hook for others): each
 * scenario is seeded with `PUT URL/__conformance/state`, then sent, and the reply compared with
 * the library's. Prints the disagreement found, if any, then `N scenarios, N disagreements`;
 * exits 0 when there is none, 1 otherwise.
 *
 * `--sequences` checks sequences of requests instead (R-92; `--runs` sequences of at most
 * `--commands` steps), and `--concurrency N --url A --url B ...` concurrent histories of N
 * clients over one or several instances sharing a database (R-93; `--operations` in all).
 * `--endpoints a,b` checks only the endpoints a partial server has (R-95).
 *
 * @example
 * parseRuns('250') //=> 250
 *
 * @since 0.3.0
 */
import type { Command } from 'commander'
import { endpointsOf, type KitEndpoint } from '../conformance/endpoints'
import { describeValue } from '../json/describe'
import { CliError } from './input'
import type { Io } from './io'

/**
 * A command that has printed its outcome and fails: the CLI exits 1 and prints nothing more.
 *
 * @example
 * new CommandFailed('1 disagreement').message //=> '1 disagreement'
 *
 * @since 0.3.0
 */
export class CommandFailed extends Error {
  override readonly name = 'CommandFailed'
}

/** The most scenarios one run may ask for. */
const MAX_RUNS = 1_000_000

/**
 * The `--url` option: an http or https URL, without a trailing slash.
 *
 * @example
 * parseUrl('http://127.0.0.1:3000/') //=> 'http://127.0.0.1:3000'
 * (() => { try { return parseUrl('localhost:3000') } catch (e) { return String(e) } })()
 * //=> 'CliError: --url is "localhost:3000", not an http or https URL'
 *
 * @since 0.3.0
 */
export const parseUrl = (value: string): string => {
  let url: URL | null
  try {
    url = new URL(value)
  } catch {
    url = null
  }
  if (url === null || !(url.protocol === 'http:' || url.protocol === 'https:'))
    throw new CliError(`--url is ${describeValue(value)}, not an http or https URL`)
  return url.href.replace(/\/+$/, '')
}

/**
 * The `--runs` option: how many scenarios, a whole number from 1 to 1,000,000.
 *
 * @example
 * (() => { try { return parseRuns('0') } catch (e) { return String(e) } })()
 * //=> 'CliError: --runs is "0", not a whole number from 1 to 1000000'
 *
 * @since 0.3.0
 */
export const parseRuns = (value: string): number => {
  const n = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= 1 && n <= MAX_RUNS))
    throw new CliError(`--runs is ${describeValue(value)}, not a whole number from 1 to ${MAX_RUNS}`)
  return n
}

/**
 * The `--seed` option: fast-check's seed, a 32-bit integer (the one a disagreement reports).
 *
 * @example
 * parseSeed('-42') //=> -42
 * (() => { try { return parseSeed('1.5') } catch (e) { return String(e) } })()
 * //=> 'CliError: --seed is "1.5", not an integer from -2147483648 to 2147483647'
 *
 * @since 0.3.0
 */
export const parseSeed = (value: string): number => {
  const n = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= -(2 ** 31) && n < 2 ** 31))
    throw new CliError(`--seed is ${describeValue(value)}, not an integer from ${-(2 ** 31)} to ${2 ** 31 - 1}`)
  return n
}

/**
 * A whole number option from `min` to `max`.
 *
 * @example
 * parseCount('--concurrency', '8', 1, 64) //=> 8
 * (() => { try { return parseCount('--concurrency', '65', 1, 64) } catch (e) { return String(e) } })()
 * //=> 'CliError: --concurrency is "65", not a whole number from 1 to 64'
 *
 * @since 0.4.0
 */
export const parseCount = (option: string, value: string, min: number, max: number): number => {
  const n = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= min && n <= max))
    throw new CliError(`${option} is ${describeValue(value)}, not a whole number from ${min} to ${max}`)
  return n
}

/**
 * The line the command ends with: how many scenarios (or sequences) ran, how many disagreed,
 * and how many got no reply, when one did.
 *
 * @example
 * summaryLine(1000, 0) //=> '1000 scenarios, 0 disagreements'
 * summaryLine(37, 0, 'sequences', 1) //=> '37 sequences, 0 disagreements, 1 without a reply'
 *
 * @since 0.3.0
 */
export const summaryLine = (runs: number, disagreements: number, what = 'scenarios', unanswered = 0): string =>
  `${runs} ${what}, ${disagreements} disagreements${unanswered > 0 ? `, ${unanswered} without a reply` : ''}`

/**
 * Whether the server at `url` takes a seeding: a CliError saying what to do when it is not
 * reachable or has no hook, before a single scenario is run.
 */
const checkHook = async (url: string): Promise<void> => {
  const empty = {
    state: { today: '2026-01-01', session: { user: null, memberships: {} }, budget: null, company_member_ids: [], records: [] },
    company_id: null
  }
  let status: number
  try {
    const reply = await fetch(`${url}/__conformance/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(empty)
    })
    await reply.arrayBuffer()
    status = reply.status
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    throw new CliError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`)
  }
  if (status !== 204)
    throw new CliError(
      `${url} answered ${status} to PUT /__conformance/state, not 204: is its conformance hook on (budget-rules serve --conformance)?`
    )
}

/**
 * The `--endpoints` option: endpoint names separated by commas, each one the kit checks.
 *
 * @example
 * parseEndpoints('budget.update, index.bank_transactions') //=> ['budget.update', 'index.bank_transactions']
 * (() => { try { return parseEndpoints('budget.close') } catch (e) { return String(e) } })()
 * //=> 'CliError: --endpoints: unknown endpoint "budget.close": the kit checks budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, index.decisions'
 *
 * @since 0.4.0
 */
export const parseEndpoints = (value: string): ReadonlyArray<KitEndpoint> => {
  try {
    return endpointsOf(
      value
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '')
    )
  } catch (e) {
    throw new CliError(`--endpoints: ${(e as Error).message}`)
  }
}

/** The most clients a history may have, and operations it may plan, and steps a sequence may take. */
const MAX_CLIENTS = 64
const MAX_OPERATIONS = 100_000
const MAX_COMMANDS = 1000

/** The options of `conformance`, as commander hands them over. */
interface Options {
  readonly url: ReadonlyArray<string>
  readonly runs?: string
  readonly seed?: string
  readonly sequences?: boolean
  readonly commands?: string
  readonly concurrency?: string
  readonly operations?: string
  readonly endpoints?: string
}

/** Each `--url` given, in order. */
const collect = (value: string, previous: ReadonlyArray<string> | undefined): ReadonlyArray<string> => [
  ...(previous ?? []),
  value
]

/**
 * Adds `conformance` to the program. The kit (and fast-check, a peer dependency) loads only
 * when it runs.
 *
 * @since 0.3.0
 */
export const conformanceCommand = (program: Command, io: Io): Command =>
  program
    .command('conformance')
    .description('check a server with its conformance hook on against the library (R-91..R-93), over HTTP')
    .requiredOption(
      '--url <url>',
      'the server, e.g. http://127.0.0.1:3000 (started with budget-rules serve --conformance); with --concurrency, once per instance',
      collect
    )
    .option('--runs <n>', "how many scenarios, or sequences with --sequences (the kit's default unless told)")
    .option('--seed <s>', 'the seed, to replay a run')
    .option('--sequences', 'check sequences of requests (R-92)')
    .option('--commands <n>', 'with --sequences: the most steps of a sequence')
    .option('--concurrency <n>', 'check a concurrent history of n clients (R-93)')
    .option('--operations <n>', 'with --concurrency: the operations the clients plan in all')
    .option(
      '--endpoints <names>',
      'only these endpoints, comma-separated (a partial server), e.g. budget.update,index.bank_transactions'
    )
    .action(async (options: Options) => {
      const urls = options.url.map(parseUrl)
      const numRuns = options.runs === undefined ? undefined : parseRuns(options.runs)
      const seed = options.seed === undefined ? undefined : parseSeed(options.seed)
      if (options.sequences === true && options.concurrency !== undefined)
        throw new CliError('--sequences and --concurrency are two checks: ask for one at a time')
      if (urls.length > 1 && options.concurrency === undefined)
        throw new CliError('several --url are for --concurrency (instances sharing one database); the other checks take one')
      if (options.commands !== undefined && options.sequences !== true) throw new CliError('--commands goes with --sequences')
      if (options.operations !== undefined && options.concurrency === undefined)
        throw new CliError('--operations goes with --concurrency')
      if (options.runs !== undefined && options.concurrency !== undefined)
        throw new CliError('--runs is for scenarios and sequences; a history plans --operations')
      const clients =
        options.concurrency === undefined ? undefined : parseCount('--concurrency', options.concurrency, 1, MAX_CLIENTS)
      const operations =
        options.operations === undefined ? undefined : parseCount('--operations', options.operations, 1, MAX_OPERATIONS)
      const maxCommands = options.commands === undefined ? undefined : parseCount('--commands', options.commands, 1, MAX_COMMANDS)
      const endpoints = options.endpoints === undefined ? undefined : parseEndpoints(options.endpoints)
      const only = endpoints === undefined ? {} : { endpoints }
      for (const url of urls) await checkHook(url)
      try {
        await check(io, urls, { numRuns, seed, sequences: options.sequences === true, clients, operations, maxCommands, only })
      } catch (e) {
        // The kit's refusal of the endpoints given, before any request: a usage error.
        if (e instanceof Error && e.name === 'EndpointsError') throw new CliError(`--endpoints: ${e.message}`)
        throw e
      }
    })

/** What the command runs, its options read. */
interface Check {
  readonly numRuns: number | undefined
  readonly seed: number | undefined
  readonly sequences: boolean
  readonly clients: number | undefined
  readonly operations: number | undefined
  readonly maxCommands: number | undefined
  readonly only: { readonly endpoints?: ReadonlyArray<KitEndpoint> }
}

/** Runs the check asked for and prints its outcome; a CommandFailed when the server failed it. */
const check = async (io: Io, urls: ReadonlyArray<string>, options: Check): Promise<void> => {
  const { numRuns, seed, clients, operations, maxCommands, only } = options
  const url = urls[0] as string
  const kit = await import('../conformance')
  if (clients !== undefined) {
    const result = await kit.checkHistories({
      urls,
      clients,
      ...only,
      ...(operations === undefined ? {} : { operations }),
      ...(seed === undefined ? {} : { seed })
    })
    io.out(`${kit.formatHistory(result)}\n`)
    if (!result.ok)
      throw new CommandFailed(
        result.verdict === 'unknown' ? 'the search ran out of time: no verdict' : 'no order explains the history'
      )
    return
  }
  if (options.sequences) {
    const result = await kit.checkSequences({
      url,
      ...only,
      ...(numRuns === undefined ? {} : { numRuns }),
      ...(maxCommands === undefined ? {} : { maxCommands }),
      ...(seed === undefined ? {} : { seed })
    })
    if (result.ok) io.out(`${kit.formatSequences(result)}\n`)
    else
      io.out(
        `${kit.formatSequences(result).replace(/\n*$/, '')}\n${summaryLine(result.runs, result.kind === 'disagreement' ? 1 : 0, 'sequences', result.kind === 'transport' ? 1 : 0)}\n`
      )
    if (!result.ok) throw new CommandFailed('the server disagrees with the library')
    return
  }
  const result = await kit.checkConformance({
    send: kit.httpSender(url),
    ...only,
    ...(numRuns === undefined ? {} : { numRuns }),
    ...(seed === undefined ? {} : { seed })
  })
  if (!result.ok) io.out(`${kit.formatDisagreement(result).replace(/\n*$/, '')}\n`)
  io.out(
    `${summaryLine(result.runs, result.ok || result.kind === 'transport' ? 0 : 1, 'scenarios', !result.ok && result.kind === 'transport' ? 1 : 0)}\n`
  )
  if (!result.ok) throw new CommandFailed('the server disagrees with the library')
}
