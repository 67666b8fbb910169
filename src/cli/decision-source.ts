/**
 * Where `budget-rules decisions` and `replay` read decision records from: the reference
 * server's database (`DATABASE_URL`, or PGlite under `DATA_DIR`, as `serve` reads them), a
 * running server's `GET /v1/decisions` (`--url`, `--token`, `--company`: a PGlite directory has
 * one process at a time), or a file of records, one a line (`--file`: an export, or the decision service's `--records`). Each gives one record by
 * request id, or the records a filter selects, oldest first, a batch at a time.
 *
 * @example
 * decisionQuery({ resource: 'b-travel', status: 403, since: '2026-11-01T00:00:00Z' }, 0, 500)
 * //=> '_start=0&_end=500&_field=at&_order=asc&resource_id=b-travel&status=403&at%5B%24gte%5D=2026-11-01T00%3A00%3A00Z'
 *
 * @since 0.4.0
 */
import { createReadStream, existsSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { either as E } from 'fp-ts'
import { compareInstants, type Instant, parseInstant } from '../calendar/instant'
import { parseErrorResponse } from '../client/error'
import { DecisionRecord } from '../decisions'
import { describeValue } from '../json/describe'
import type { Database } from '../store/database'
import type { DecisionFilter } from '../store/decisions'
import { CliError, fileProblem } from './input'

/** Records, from wherever they are kept. */
export interface RecordSource {
  /** Where the records are, for messages. */
  readonly name: string
  readonly find: (requestId: string) => Promise<DecisionRecord | null>
  /** The records `filter` selects, oldest first (by `at`, then request id), a batch at a time. */
  readonly batches: (filter: DecisionFilter) => AsyncGenerator<ReadonlyArray<DecisionRecord>>
  readonly close: () => Promise<void>
}

/** How many records a batch holds: a page of the API, a query of the database. */
const BATCH = 1000

// -------------------------------------------------------------------------------------
// the database
// -------------------------------------------------------------------------------------

/** A filter's records a batch at a time, each batch one `list` after the last record of the one before. */
const inBatches = async function* (
  list: (filter: DecisionFilter) => Promise<ReadonlyArray<DecisionRecord>>,
  filter: DecisionFilter
): AsyncGenerator<ReadonlyArray<DecisionRecord>> {
  let left = filter.limit ?? Number.POSITIVE_INFINITY
  let after = filter.after
  while (left > 0) {
    const batch = await list({ ...filter, ...(after === undefined ? {} : { after }), limit: Math.min(BATCH, left) })
    if (batch.length > 0) yield batch
    const last = batch.at(-1)
    if (batch.length < Math.min(BATCH, left) || last === undefined) return
    left -= batch.length
    after = { at: last.at, id: last.request_id }
  }
}

/** How long a read waits for a directory's owner to let it in: a server starting, another command reading. */
const OWNER_WAIT_MS = 10_000

/**
 * The records of the reference server's database: PostgreSQL at `databaseUrl`, else PGlite under
 * `dataDir`, read through the server that owns the directory when one runs (R-113), else opened
 * by this process (the directory owned for `command` while it reads).
 */
export const databaseSource = async (where: {
  readonly dataDir: string
  readonly databaseUrl?: string
  readonly command: string
}): Promise<RecordSource> => {
  const { openDatabase } = await import('../store/database')
  const { DirectoryInUse } = await import('../store/owner')
  const store = await import('../store/decisions')
  const name = where.databaseUrl === undefined ? `the database in ${where.dataDir}` : 'the database of DATABASE_URL'
  const none = new CliError(`${name} keeps no decision records: start budget-rules serve on it first`)
  // A directory with no database is left as it is: a read makes none.
  if (where.databaseUrl === undefined && !existsSync(join(where.dataDir, 'PG_VERSION'))) throw none
  const until = Date.now() + OWNER_WAIT_MS
  let db: Database
  for (;;) {
    try {
      db = await openDatabase(where)
      break
    } catch (err) {
      if (!(err instanceof DirectoryInUse)) throw err
      if (err.owner?.socket != null) return ownerSource(name, err.owner.socket)
      if (Date.now() >= until) throw new CliError(err.message)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const found = await db.query<{ t: unknown }>(`SELECT to_regclass('decisions') AS t`)
  if (found[0]?.t === null || found[0]?.t === undefined) {
    await db.close()
    throw none
  }
  return {
    name,
    find: (requestId) => store.findDecision(db, requestId),
    batches: (filter) => inBatches((f) => store.listDecisions(db, f), filter),
    close: () => db.close()
  }
}

// -------------------------------------------------------------------------------------
// the server that owns the directory
// -------------------------------------------------------------------------------------

/** One read of the owner's socket (src/server/owner-socket.ts): its status and JSON body. */
const askOwner = (socketPath: string, path: string, name: string): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    const fail = (why: string) => {
      reject(new CliError(`cannot read ${name} through the server that owns it: ${why}`))
    }
    request({ socketPath, path }, (res) => {
      const chunks: Array<Buffer> = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', (err) => {
        fail(err.message)
      })
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
        } catch {
          fail('its answer is not JSON')
        }
      })
    })
      .on('error', (err) => {
        fail(err.message)
      })
      .end()
  })

/** The records of a PGlite directory, through the Unix socket of the server that owns it. */
const ownerSource = (name: string, socketPath: string): RecordSource => {
  const via = `${name} (through the server that owns it)`
  const record = (u: unknown): DecisionRecord => {
    const decoded = DecisionRecord.decode(u)
    if (E.isLeft(decoded)) throw new CliError(`${via} answered ${describeValue(u)}, not a decision record`)
    return decoded.right
  }
  const answered = async (path: string, found: ReadonlyArray<number>): Promise<{ status: number; body: unknown }> => {
    const got = await askOwner(socketPath, path, name)
    if (!found.includes(got.status)) {
      const { message } = (typeof got.body === 'object' && got.body !== null ? got.body : {}) as { message?: unknown }
      throw new CliError(`${via} answered ${got.status}${typeof message === 'string' ? `: ${message}` : ''}`)
    }
    return got
  }
  return {
    name: via,
    find: async (requestId) => {
      const got = await answered(`/decisions/${encodeURIComponent(requestId)}`, [200, 404])
      return got.status === 404 ? null : record(got.body)
    },
    batches: (filter) =>
      inBatches(async (f) => {
        const { body } = await answered(`/decisions?${new URLSearchParams({ filter: JSON.stringify(f) }).toString()}`, [200])
        if (!Array.isArray(body)) throw new CliError(`${via} answered ${describeValue(body)}, not a list of records`)
        return body.map(record)
      }, filter),
    close: () => Promise.resolve()
  }
}

// -------------------------------------------------------------------------------------
// a running server
// -------------------------------------------------------------------------------------

/**
 * The query of a window of `GET /v1/decisions` that a filter selects, oldest first.
 *
 * @example
 * decisionQuery({ endpoint: 'budget.top_up' }, 1000, 2000) //=> '_start=1000&_end=2000&_field=at&_order=asc&endpoint=budget.top_up'
 *
 * @since 0.4.0
 */
export const decisionQuery = (filter: DecisionFilter, start: number, end: number): string => {
  const filters: ReadonlyArray<readonly [string, string | number | undefined]> = [
    ['resource_id', filter.resource],
    ['actor_id', filter.actor],
    ['status', filter.status],
    ['endpoint', filter.endpoint],
    ['at[$gte]', filter.since]
  ]
  return new URLSearchParams([
    ['_start', String(start)],
    ['_end', String(end)],
    ['_field', 'at'],
    ['_order', 'asc'],
    ...filters.flatMap(([key, value]): Array<[string, string]> => (value === undefined ? [] : [[key, String(value)]]))
  ]).toString()
}

/** A record as `GET /v1/decisions` gives it, without its `id` (the request id again). */
const fromApi = (u: unknown, at: string): DecisionRecord => {
  const rest = { ...(typeof u === 'object' && u !== null ? u : {}) } as Record<string, unknown>
  delete rest.id
  const record = DecisionRecord.decode(rest)
  if (E.isLeft(record)) throw new CliError(`${at} answered ${describeValue(u)}, not a decision record`)
  return record.right
}

/** The records of a running server, through `GET /v1/decisions` with an admin's key, in a company. */
export const apiSource = (api: {
  readonly url: string
  readonly token: string
  readonly company: string
  readonly fetch?: typeof fetch
}): RecordSource => {
  const send = api.fetch ?? fetch
  const get = async (query: string): Promise<ReadonlyArray<unknown>> => {
    const at = `${api.url}/v1/decisions`
    let res: Response
    try {
      res = await send(`${at}?${query}`, { headers: { Authorization: `Bearer ${api.token}`, 'company-id': api.company } })
    } catch (err) {
      throw new CliError(`cannot reach ${at}: ${err instanceof Error ? err.message : describeValue(err)}`)
    }
    const text = await res.text()
    if (res.status !== 200) {
      const problem = parseErrorResponse({ status: res.status, headers: res.headers, body: text })
      throw new CliError(`${at} answered ${res.status}${problem.message === undefined ? '' : `: ${problem.message}`}`)
    }
    const body: unknown = JSON.parse(text)
    if (!Array.isArray(body)) throw new CliError(`${at} answered ${describeValue(body)}, not a page of records`)
    return body as ReadonlyArray<unknown>
  }
  return {
    name: `${api.url}/v1/decisions`,
    find: async (requestId) => {
      const page = await get(new URLSearchParams({ request_id: requestId }).toString())
      return page.length === 0 ? null : fromApi(page[0], `${api.url}/v1/decisions`)
    },
    batches: async function* (filter) {
      const limit = filter.limit ?? Number.POSITIVE_INFINITY
      for (let start = 0; start < limit; start += BATCH) {
        const end = Math.min(start + BATCH, limit)
        const page = await get(decisionQuery(filter, start, end))
        if (page.length > 0) yield page.map((r) => fromApi(r, `${api.url}/v1/decisions`))
        if (page.length < end - start) return
      }
    },
    close: () => Promise.resolve()
  }
}

// -------------------------------------------------------------------------------------
// an export
// -------------------------------------------------------------------------------------

/** The records of an NDJSON file, one per line (as `decisions export` writes them); the filter is not applied. */
export const fileSource = (file: string): RecordSource => {
  /** Each record of the file, in its order, with its line number. */
  const records = async function* (): AsyncGenerator<DecisionRecord> {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })
    let n = 0
    try {
      for await (const line of lines) {
        n++
        if (line.trim() === '') continue
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch {
          throw new CliError(`${file} line ${n} is not JSON`)
        }
        const record = DecisionRecord.decode(parsed)
        if (E.isLeft(record)) throw new CliError(`${file} line ${n} is not a decision record`)
        yield record.right
      }
    } catch (err) {
      if (err instanceof CliError) throw err
      throw new CliError(`cannot read ${file}: ${fileProblem(err)}`)
    }
  }
  return {
    name: file,
    // The last record of the request: a file appended to twice keeps the later.
    find: async (requestId) => {
      let found: DecisionRecord | null = null
      for await (const record of records()) if (record.request_id === requestId) found = record
      return found
    },
    batches: async function* (filter) {
      const since = filter.since === undefined ? null : parseInstant(filter.since)
      let batch: Array<DecisionRecord> = []
      let left = filter.limit ?? Number.POSITIVE_INFINITY
      for await (const r of records()) {
        if (left === 0) break
        if (!selects(filter, since, r)) continue
        batch.push(r)
        left--
        if (batch.length === BATCH) {
          yield batch
          batch = []
        }
      }
      if (batch.length > 0) yield batch
    },
    close: () => Promise.resolve()
  }
}

/** Whether `filter` selects `r`, as the database's query does: a file cannot be queried. */
const selects = (filter: DecisionFilter, since: Instant | null, r: DecisionRecord): boolean => {
  if (filter.resource !== undefined && r.resource_id !== filter.resource) return false
  if (filter.actor !== undefined && r.actor_id !== filter.actor) return false
  if (filter.status !== undefined && r.status !== filter.status) return false
  if (filter.endpoint !== undefined && r.endpoint !== filter.endpoint) return false
  if (since === null) return true
  const at = parseInstant(r.at)
  return at !== null && compareInstants(at, since) >= 0
}
