/**
 * `budget-rules decisions show REQUEST_ID`, `decisions list`, `decisions export` and
 * `budget-rules replay`: the records of the reference server's database (read as
 * `serve` reads it: `DATABASE_URL`, or PGlite under `DATA_DIR`), of a running server (`--url`,
 * `--token`, `--company`), or of a file of records, one a line (`--file`: an export, or the decision
 * service's `--records`). `replay` decides
 * each record's case again with this library, prints each difference with its request id, shows
 * its progress on standard error, ends with `N replayed, N same, N differ, N not replayable`, and
 * exits 1 when any differs.
 *
 * @example
 * parseStatus('403') //=> 403
 *
 * @since 0.4.0
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import type { Command } from 'commander'
import { type DecisionRecord, decisionEndpoints, isDecisionEndpoint, replay } from '../decisions'
import { parseInstant } from '../calendar/instant'
import { describeValue } from '../json/describe'
import type { DecisionFilter } from '../store/decisions'
import { CommandFailed, parseUrl } from './conformance'
import { apiSource, databaseSource, fileSource, type RecordSource } from './decision-source'
import { differenceText, recordLine, recordText, type ReplayCounts, replaySummary } from './decision-text'
import { CliError, fileProblem } from './input'
import { safeLinesToPrint, safeToPrint } from '../text/safe-to-print'
import type { Io } from './io'
import { databaseOptions } from './serve'

// -------------------------------------------------------------------------------------
// options
// -------------------------------------------------------------------------------------

/**
 * The `--status` option: an HTTP status, 100 to 599.
 *
 * @example
 * (() => { try { return parseStatus('4xx') } catch (e) { return String(e) } })()
 * //=> 'CliError: --status is "4xx", not an HTTP status from 100 to 599'
 *
 * @since 0.4.0
 */
export const parseStatus = (value: string): number => {
  const n = /^[1-5]\d\d$/.test(value) ? Number(value) : Number.NaN
  if (Number.isNaN(n)) throw new CliError(`--status is ${describeValue(value)}, not an HTTP status from 100 to 599`)
  return n
}

/**
 * The `--since` option: an ISO-8601 instant with its offset.
 *
 * @example
 * parseSince('2026-11-01T00:00:00-03:00') //=> '2026-11-01T00:00:00-03:00'
 * (() => { try { return parseSince('2026-11-01') } catch (e) { return String(e) } })()
 * //=> 'CliError: --since is "2026-11-01", not an ISO-8601 instant with an offset (2026-11-01T00:00:00Z)'
 *
 * @since 0.4.0
 */
export const parseSince = (value: string): string => {
  if (parseInstant(value) === null)
    throw new CliError(`--since is ${describeValue(value)}, not an ISO-8601 instant with an offset (2026-11-01T00:00:00Z)`)
  return value
}

/**
 * The `--limit` option: a whole number from 1.
 *
 * @example
 * (() => { try { return parseLimit('0') } catch (e) { return String(e) } })()
 * //=> 'CliError: --limit is "0", not a whole number from 1'
 *
 * @since 0.4.0
 */
export const parseLimit = (value: string): number => {
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new CliError(`--limit is ${describeValue(value)}, not a whole number from 1`)
  return Number(value)
}

/**
 * The `--endpoint` option: a decision endpoint.
 *
 * @example
 * (() => { try { return parseEndpoint('budget.close') } catch (e) { return String(e).slice(0, 76) } })()
 * //=> 'CliError: --endpoint is "budget.close", not one of budget.get, budget.update'
 *
 * @since 0.4.0
 */
export const parseEndpoint = (value: string): string => {
  if (!isDecisionEndpoint(value))
    throw new CliError(`--endpoint is ${describeValue(value)}, not one of ${decisionEndpoints.join(', ')}`)
  return value
}

/** The options every command of records takes: where they are. */
interface Where {
  readonly file?: string
  readonly url?: string
  readonly token?: string
  readonly company?: string
}

interface Filters {
  readonly resource?: string
  readonly actor?: string
  readonly status?: number
  readonly endpoint?: string
  readonly since?: string
  readonly limit?: number
}

/** The records `where` names: a running server's API with all three of --url, --token, --company, else the database. */
const sourceOf = async (where: Where, io: Io, command: string): Promise<RecordSource> => {
  if (where.file !== undefined) {
    if (where.url !== undefined || where.token !== undefined || where.company !== undefined)
      throw new CliError('--file reads records from a file: it goes without --url, --token and --company')
    return fileSource(where.file)
  }
  const given = [where.url, where.token, where.company].filter((v) => v !== undefined).length
  if (given === 0) return databaseSource({ ...databaseOptions(io.env), command })
  if (given < 3 || where.url === undefined || where.token === undefined || where.company === undefined)
    throw new CliError('--url, --token and --company go together: the server, an admin key and the company')
  return apiSource({ url: where.url, token: where.token, company: where.company })
}

const filterOf = (f: Filters): DecisionFilter => ({
  ...(f.resource === undefined ? {} : { resource: f.resource }),
  ...(f.actor === undefined ? {} : { actor: f.actor }),
  ...(f.status === undefined ? {} : { status: f.status }),
  ...(f.endpoint === undefined ? {} : { endpoint: f.endpoint }),
  ...(f.since === undefined ? {} : { since: f.since }),
  ...(f.limit === undefined ? {} : { limit: f.limit })
})

/** Runs `work` over the source and closes it, whatever happens. */
const using = async <T>(source: RecordSource, work: (s: RecordSource) => Promise<T>): Promise<T> => {
  try {
    return await work(source)
  } finally {
    await source.close()
  }
}

const whereOptions = (command: Command): Command =>
  command
    .option('--file <records.ndjson>', 'read the records of a file, one a line (decisions export, serve --decide --records)')
    .option('--url <url>', "a running server's URL: read its GET /v1/decisions instead of the database", parseUrl)
    .option('--token <key>', "an admin's API key, with --url")
    .option('--company <id>', 'the company whose records to read, with --url')

const filterOptions = (command: Command): Command =>
  command
    .option('--resource <id>', 'only the records of this budget, transaction, recipient or member')
    .option('--actor <user>', 'only the records of this user')
    .option('--status <status>', 'only the records of this status', parseStatus)
    .option('--endpoint <endpoint>', 'only the records of this endpoint', parseEndpoint)
    .option('--since <instant>', 'only the records at or after this instant', parseSince)

// -------------------------------------------------------------------------------------
// commands
// -------------------------------------------------------------------------------------

/** The default length of `decisions list`. */
const LIST_LIMIT = 100

/**
 * Adds `decisions` (show, list, export) to the program.
 *
 * @since 0.4.0
 */
export const decisionsCommand = (program: Command, io: Io): Command => {
  const decisions = program
    .command('decisions')
    .description(
      'read the decision records of the reference server (DATABASE_URL or DATA_DIR, as serve), or of a running one (--url)'
    )
  whereOptions(
    decisions
      .command('show')
      .description("print one request's record: when, who, the request, the reply, each rule and what it means, the changes")
      .argument('<request-id>', "the request's X-Request-Id")
      .option('--json', 'print the record as JSON')
  ).action(async (requestId: string, options: Where & { json?: boolean }) => {
    const source = await sourceOf(options, io, 'decisions show')
    const record = await using(source, (s) => s.find(requestId))
    if (record === null) throw new CliError(`no record of request ${describeValue(requestId)} in ${source.name}`)
    io.out(options.json === true ? `${safeLinesToPrint(JSON.stringify(record, null, 2))}\n` : recordText(record))
  })
  whereOptions(
    filterOptions(
      decisions
        .command('list')
        .description('list records, oldest first, one a line: when, request id, endpoint, status, who, what, the deciding rule')
        .option('--limit <n>', `at most this many records (${LIST_LIMIT} by default)`, parseLimit)
    )
  ).action(async (options: Where & Filters) => {
    const source = await sourceOf(options, io, 'decisions list')
    await using(source, async (s) => {
      for await (const batch of s.batches(filterOf({ limit: LIST_LIMIT, ...options })))
        io.out(batch.map((r) => `${recordLine(r)}\n`).join(''))
    })
  })
  whereOptions(
    filterOptions(
      decisions
        .command('export')
        .description('write records as NDJSON, one a line, oldest first (what replay --file reads)')
        .option('--limit <n>', 'at most this many records', parseLimit)
        .option('--out <file>', 'write to this file instead of standard output')
    )
  ).action(async (options: Where & Filters & { out?: string }) => {
    const source = await sourceOf(options, io, 'decisions export')
    const file = options.out === undefined ? null : await openOut(options.out)
    try {
      await using(source, async (s) => {
        for await (const batch of s.batches(filterOf(options))) {
          // Escaping C1, DEL and bidi controls inside JSON strings keeps the same JSON value.
          const text = batch.map((r) => `${safeToPrint(JSON.stringify(r))}\n`).join('')
          if (file === null) io.out(text)
          else if (!file.write(text))
            await new Promise<void>((resolve) => {
              file.once('drain', () => {
                resolve()
              })
            })
        }
      })
    } finally {
      if (file !== null)
        await new Promise<void>((resolve) => {
          file.end(resolve)
        })
    }
  })
  return decisions
}

const openOut = (path: string): Promise<WriteStream> =>
  new Promise((resolve, reject) => {
    const file = createWriteStream(path)
    file.once('open', () => {
      resolve(file)
    })
    file.once('error', (err) => {
      reject(new CliError(`cannot write ${path}: ${fileProblem(err)}`))
    })
  })

/** How often `replay` tells how far it is, at most. */
const PROGRESS_EVERY_MS = 1000

/**
 * Replays records and counts what it finds, printing each difference as it goes and telling its
 * progress through `progress` (with the count so far) at most once a `PROGRESS_EVERY_MS`.
 */
export const replayAll = async (
  batches: AsyncIterable<ReadonlyArray<DecisionRecord>>,
  out: (text: string) => void,
  progress: (counts: ReplayCounts) => void,
  now: () => number = Date.now
): Promise<ReplayCounts> => {
  const counts: ReplayCounts = { replayed: 0, same: 0, differ: 0, notReplayable: 0 }
  let told = now()
  for await (const batch of batches) {
    for (const record of batch) {
      const found = replay(record)
      counts.replayed++
      if (!found.replayable) counts.notReplayable++
      else if (found.same) counts.same++
      else {
        counts.differ++
        out(differenceText(record.request_id, found.expected, found.actual))
      }
    }
    if (now() - told >= PROGRESS_EVERY_MS) {
      told = now()
      progress(counts)
    }
  }
  return counts
}

/**
 * Adds `replay` to the program.
 *
 * @since 0.4.0
 */
export const replayCommand = (program: Command, io: Io): Command =>
  whereOptions(
    program
      .command('replay')
      .description(
        'decide recorded requests again with this library and compare the replies; exit 1 when any differs (records of DATABASE_URL or DATA_DIR, --url, or --file)'
      )
      .option('--endpoint <endpoint>', 'only the records of this endpoint', parseEndpoint)
      .option('--since <instant>', 'only the records at or after this instant', parseSince)
  ).action(async (options: Where & { endpoint?: string; since?: string }) => {
    const source = await sourceOf(options, io, 'replay')
    const counts = await using(source, (s) =>
      replayAll(s.batches(filterOf(options)), io.out, (c) => {
        io.err(`replaying: ${replaySummary(c)}\n`)
      })
    )
    io.out(`${replaySummary(counts)}\n`)
    if (counts.differ > 0) throw new CommandFailed(`${counts.differ} replies differ`)
  })
