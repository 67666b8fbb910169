/**
 * `budget-rules conformance --url URL [--runs N] [--seed S]`: checks a live server against the
 * library. The server must have the conformance hook on (`budget-rules serve
 * --conformance` for the reference server; docs/server.md describes the hook for others): each
 * scenario is seeded with `PUT URL/__conformance/state`, then sent, and the reply compared with
 * the library's. Prints the disagreement found, if any, then `N scenarios, N disagreements`;
 * exits 0 when there is none, 1 otherwise.
 *
 * @example
 * parseRuns('250') //=> 250
 *
 * @since 0.3.0
 */
import type { Command } from 'commander'
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
 * The line the command ends with.
 *
 * @example
 * summaryLine(1000, 0) //=> '1000 scenarios, 0 disagreements'
 *
 * @since 0.3.0
 */
export const summaryLine = (scenarios: number, disagreements: number): string =>
  `${scenarios} scenarios, ${disagreements} disagreements`

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
 * Adds `conformance` to the program. The kit (and fast-check, a peer dependency) loads only
 * when it runs.
 *
 * @since 0.3.0
 */
export const conformanceCommand = (program: Command, io: Io): Command =>
  program
    .command('conformance')
    .description('check a server with its conformance hook on against the library (R-91), over HTTP')
    .requiredOption('--url <url>', 'the server, e.g. http://127.0.0.1:3000 (started with budget-rules serve --conformance)')
    .option('--runs <n>', "how many scenarios (the kit's default unless told)")
    .option('--seed <s>', 'the seed, to replay a run')
    .action(async (options: { url: string; runs?: string; seed?: string }) => {
      const url = parseUrl(options.url)
      const numRuns = options.runs === undefined ? undefined : parseRuns(options.runs)
      const seed = options.seed === undefined ? undefined : parseSeed(options.seed)
      await checkHook(url)
      const { checkConformance, formatDisagreement, httpSender } = await import('../conformance')
      const result = await checkConformance({
        send: httpSender(url),
        ...(numRuns === undefined ? {} : { numRuns }),
        ...(seed === undefined ? {} : { seed })
      })
      if (!result.ok) io.out(`${formatDisagreement(result).replace(/\n*$/, '')}\n`)
      io.out(`${summaryLine(result.runs, result.ok ? 0 : 1)}\n`)
      if (!result.ok) throw new CommandFailed('the server disagrees with the library')
    })
