/**
 * The owner's door for the reads of its directory: while the server owns a PGlite
 * directory, no other process may open it, so `budget-rules decisions show|list|export` and
 * `replay` read the decision records through the server, over HTTP on a Unix socket in the
 * directory (mode 0600: whoever may read the directory's files may read through it, nobody
 * else). The reads wait their turn on the server's one connection like any request; no client
 * can hold the connection, so the server keeps serving. Two reads, as the CLI makes them:
 *
 * - `GET /decisions/<request id>`: the record, or 404;
 * - `GET /decisions?filter=<a DecisionFilter as JSON>`: the records it selects, oldest first.
 *
 * @since 0.5.0
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Database } from '../store/database'
import { type DecisionFilter, findDecision, listDecisions } from '../store/decisions'
import { SOCKET_FILE } from '../store/pglite'

/** The longest path a Unix socket's address holds on Linux and macOS, less a margin. */
const MAX_SOCKET_PATH_BYTES = 100

const text = (u: unknown): boolean => u === undefined || typeof u === 'string'
const whole = (u: unknown, least: number): boolean => u === undefined || (Number.isSafeInteger(u) && (u as number) >= least)

const isAfter = (u: unknown): boolean =>
  u === undefined ||
  (typeof u === 'object' &&
    u !== null &&
    typeof (u as { at?: unknown }).at === 'string' &&
    typeof (u as { id?: unknown }).id === 'string')

const FILTER_KEYS: ReadonlyArray<string> = ['resource', 'actor', 'status', 'endpoint', 'since', 'after', 'limit']

/**
 * A filter as the CLI sends it, or null when it is not one.
 *
 * @example
 * decisionFilter({ resource: 'b-travel', limit: 1000 }) //=> { resource: 'b-travel', limit: 1000 }
 * decisionFilter({ limit: 0 }) //=> null
 *
 * @since 0.5.0
 */
export const decisionFilter = (u: unknown): DecisionFilter | null => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return null
  const f = u as Record<string, unknown>
  return Object.keys(f).every((key) => FILTER_KEYS.includes(key)) &&
    text(f.resource) &&
    text(f.actor) &&
    text(f.endpoint) &&
    text(f.since) &&
    whole(f.status, 100) &&
    whole(f.limit, 1) &&
    isAfter(f.after)
    ? f
    : null
}

/** The answer to one read: its status and body. */
const read = async (database: Database, req: IncomingMessage): Promise<readonly [number, unknown]> => {
  const url = new URL(req.url ?? '/', 'http://owner')
  if (req.method !== 'GET') return [405, { message: 'only GET' }]
  if (url.pathname.startsWith('/decisions/')) {
    const record = await findDecision(database, decodeURIComponent(url.pathname.slice('/decisions/'.length)))
    return record === null ? [404, { message: 'no such record' }] : [200, record]
  }
  if (url.pathname !== '/decisions') return [404, { message: 'no such read' }]
  let filter: DecisionFilter | null
  try {
    filter = decisionFilter(JSON.parse(url.searchParams.get('filter') ?? '{}'))
  } catch {
    filter = null
  }
  return filter === null ? [400, { message: 'filter is not a decision filter' }] : [200, await listDecisions(database, filter)]
}

/** Where the socket goes: in the directory when its path fits an address, else in a private folder of its own. */
const socketPath = (dir: string): { readonly path: string; readonly folder: string | null } => {
  const inside = join(resolve(dir), SOCKET_FILE)
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH_BYTES) return { path: inside, folder: null }
  const folder = mkdtempSync(join(tmpdir(), 'budget-rules-'))
  return { path: join(folder, SOCKET_FILE), folder }
}

/**
 * Serves the reads of `database`'s records on a Unix socket for the directory `dir`, which this
 * process owns (so a socket file there is a dead owner's, removed first). Resolves with the
 * socket's path and how to stop serving (the socket file removed).
 */
export const serveOwnerSocket = async (
  database: Database,
  dir: string
): Promise<{ readonly socket: string; readonly close: () => Promise<void> }> => {
  const { path, folder } = socketPath(dir)
  rmSync(path, { force: true })
  const server = createServer((req, res) => {
    read(database, req)
      .catch((err: unknown): readonly [number, unknown] => [503, { message: err instanceof Error ? err.message : String(err) }])
      .then(([status, body]) => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
      })
      .catch(() => res.destroy())
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(path, done)
  })
  chmodSync(path, 0o600)
  return {
    socket: path,
    close: async () => {
      await new Promise((done) => {
        server.close(done)
        server.closeAllConnections()
      })
      rmSync(folder ?? path, { recursive: true, force: true })
    }
  }
}
