/**
 * The reference server with one defect planted (issue 30), each a test fixture over the real
 * app, its real store and a real PostgreSQL (PGlite, or a server for the races), served on a
 * loopback socket with its conformance hook on. Nothing in src/server knows of them:
 *
 * - `lost-update`: the budget is read without its row lock (the store's `FOR UPDATE OF b`
 *   taken out of the statement it sends), so that two withdrawals read one balance and the
 *   second write wins. Only concurrent requests can show it, on a PostgreSQL server.
 * - `key-race`: an Idempotency-Key checked, then inserted, with the table's unique key dropped
 *   in the fixture's own database: two retries racing each see no key and both move the money.
 * - `roll-on-read`: a read that has seen a period end rolls the stored budget forward one period
 *   (rather than to the period holding today) and shows it: every read after days have passed
 *   moves it one period further.
 * - `amount-kept`: an update that finds the next period begun keeps the old period's amount
 *   (rather than the base amount a change set for the periods to come).
 * - `count-stale`: GET /v1/budgets counts each filter once after the data is loaded, and keeps
 *   that total in X-Total-Count and Content-Range whatever is written after.
 *
 * And one company check removed at a time (issue 37, R-94), each a statement rewritten on its way
 * to the database:
 *
 * - `page-query`: the bank transactions' page statement (its rows and their count) reads every
 *   company's rows.
 * - `page-count`: its count alone counts every company's rows (its rows stay the company's).
 * - `budget-lookup`: GET /v1/budgets/{id} reads the budget by its id alone and takes it to be
 *   the caller's company's (as a server does that trusts the id of its path): the rules' own
 *   scope check then sees the caller's company.
 * - `money-lock`: the budget a change locks (the money operations' `FOR UPDATE`), the same way.
 * - `decisions-index`: GET /v1/decisions pages and counts every company's decision records.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Http2Bindings, type HttpBindings, serve } from '@hono/node-server'
import type { Budget } from '../../src/budget/stored'
import type { CalendarDate } from '../../src/calendar/date'
import { period } from '../../src/recurrence/schedule'
import { buildApp } from '../../src/server/app'
import { requestLogger } from '../../src/server/log'
import { type Database, openDatabase, type Queryable } from '../../src/store/database'
import { migrate } from '../../src/store/migrations'
import { findBudget, saveBudget } from '../../src/store/store'

export type Defect =
  | 'lost-update'
  | 'key-race'
  | 'roll-on-read'
  | 'amount-kept'
  | 'count-stale'
  | 'page-query'
  | 'page-count'
  | 'budget-lookup'
  | 'money-lock'
  | 'decisions-index'

/** The defects that remove a company check. */
export const leaks: ReadonlyArray<Defect> = ['page-query', 'page-count', 'budget-lookup', 'money-lock', 'decisions-index']

export interface Planted {
  readonly url: string
  /** The same server in process, without its socket (as Hono's `app.request` answers). */
  readonly request: (request: Request) => Promise<Response>
  /**
   * Plants a leak in the running server, or takes it out (null), and keeps the routes of
   * a partial server (`has`; every route unless given): one server for many checks.
   */
  readonly plant: (leak: Defect | null, has?: (method: string, path: string) => boolean) => void
  readonly database: Database
  readonly close: () => Promise<void>
}

type Query = Queryable['query']

/** The database with every statement it is sent (its transactions' too, but whole scripts) passed through `around`. */
const rewritten = (db: Database, around: (query: Query) => Query): Database => ({
  driver: db.driver,
  query: around(db.query),
  transaction: (work) => db.transaction((tx) => work({ query: around(tx.query), exec: tx.exec })),
  close: db.close,
  stats: db.stats
})

/** lost-update: the budget's `SELECT ... FOR UPDATE OF b` sent without its lock. */
const withoutRowLock =
  (query: Query): Query =>
  (text, values) =>
    query(text.replace(/ FOR UPDATE OF b$/, ''), values)

/**
 * key-race: the claim of an Idempotency-Key as a look, then an insert (the table has no unique
 * key left to make the insert wait or conflict): an empty result says the key was there.
 */
const checkThenInsert =
  (query: Query): Query =>
  async <R extends Readonly<Record<string, unknown>>>(text: string, values?: ReadonlyArray<unknown>) => {
    if (!text.trimStart().startsWith('INSERT INTO idempotency_keys')) return query<R>(text, values)
    const [keySha256, key] = values ?? []
    const there = await query('SELECT 1 FROM idempotency_keys WHERE key_sha256 = $1 AND idempotency_key = $2', [keySha256, key])
    return there.length > 0 ? [] : query<R>(text, values)
  }

/** A page statement (./page.ts): its count, then its rows aggregated after `json_agg(p) FROM (`. */
const PAGE_ROWS = 'json_agg(p) FROM ('

/** A company scope of a page query made true of every row (the parameter kept, typed). */
const unscoped = (part: string): string =>
  part.replaceAll('"company_id" = $1', '$1::text IS NOT NULL').replaceAll('company_id = $1', '$1::text IS NOT NULL')

/**
 * The leaks: a statement whose company check is removed. A budget read or locked by id
 * alone is taken to be the caller's company's (`$2`, the company the statement was given).
 */
const leaking =
  (planted: () => Defect | null) =>
  (query: Query): Query =>
  (text, values) => {
    const defect = planted()
    const at = text.indexOf(PAGE_ROWS)
    const count = at < 0 ? '' : text.slice(0, at)
    const rows = at < 0 ? '' : text.slice(at)
    const byIdAlone = (t: string) =>
      t
        .replace('b.company_id,', () => '$2::text AS company_id,')
        .replace('AND b.company_id = $2', () => 'AND $2::text IS NOT NULL')
    const rewritten =
      defect === 'page-query' && rows.includes('"bank_transactions"')
        ? unscoped(text)
        : defect === 'page-count' && rows.includes('"bank_transactions"')
          ? unscoped(count) + rows
          : defect === 'decisions-index' && rows.includes('"decisions"')
            ? unscoped(text)
            : defect === 'budget-lookup' && text.endsWith('WHERE b.id = $1 AND b.company_id = $2')
              ? byIdAlone(text)
              : defect === 'money-lock' && text.endsWith('FOR UPDATE OF b') && !text.includes('member_ids')
                ? byIdAlone(text)
                : text
    return query(rewritten, values)
  }

/** The requests a wrapper looks at: method, path, query, and the body of a seeding. */
const BUDGET_PATH = /^\/v1\/budgets\/([^/]+)$/

/**
 * Starts the server over a fresh database (PGlite in memory, or the PostgreSQL server of
 * `databaseUrl`, migrated), with `defect` planted, or none; `observe` sees each request and its
 * reply (for a test's counters); `has` keeps the routes of a partial server.
 */
export const startPlanted = async (
  defect: Defect | null,
  databaseUrl?: string,
  observe: (request: Request, reply: Response) => void = () => undefined,
  has: (method: string, path: string) => boolean = () => true
): Promise<Planted> => {
  const base = await openDatabase(databaseUrl === undefined ? {} : { databaseUrl })
  await migrate(base)
  let leak = defect !== null && leaks.includes(defect) ? defect : null
  let routes = has
  if (defect === 'key-race') await base.query('ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_pkey')
  const database =
    defect === 'lost-update'
      ? rewritten(base, withoutRowLock)
      : defect === 'key-race'
        ? rewritten(base, checkThenInsert)
        : rewritten(
            base,
            leaking(() => leak)
          )
  const app = buildApp({
    database,
    clock: () => new Date(),
    rateLimitPerMinute: 600,
    idempotencyTtlHours: 24,
    bodyLimitBytes: 65_536,
    conformance: true,
    logger: requestLogger('silent'),
    decisionLog: true,
    report: (error) => {
      console.error(error)
    }
  })
  // What the wrappers remember: the hook's today, and the totals counted since the data was loaded.
  let today: string | null = null
  const totals = new Map<string, string>()

  const fetch = async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const reply = await answer(request, env)
    observe(request, reply)
    return reply
  }

  const answer = async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const url = new URL(request.url)
    // A partial server: the routes it lacks are a 404, as a framework answers them.
    if (url.pathname !== '/__conformance/state' && !routes(request.method, url.pathname))
      return Response.json({ error: 'not_found' }, { status: 404 })
    if (request.method === 'PUT' && url.pathname === '/__conformance/state') {
      const body = (await request
        .clone()
        .json()
        .catch(() => null)) as { state?: { today?: unknown }; today?: unknown } | null
      const reply = await app.fetch(request, env)
      if (reply.status === 204) {
        const given = body?.state?.today ?? body?.today
        today = typeof given === 'string' ? given : today
        totals.clear()
      }
      return reply
    }
    const id = BUDGET_PATH.exec(url.pathname)?.[1]
    if (defect === 'roll-on-read' && request.method === 'GET' && id !== undefined && today !== null) {
      const reply = await app.fetch(request, env)
      const found = await findBudget(base, id)
      if (reply.status !== 200 || found === null) return reply
      const b = found.budget as unknown as Budget
      if (b.status === 'closed' || b.period_ends_on === null || today < b.period_ends_on || b.recurrence_unit === null)
        return reply
      const next = period(
        { anchor: b.recurrence_starts_on as CalendarDate, unit: b.recurrence_unit, every: b.recurrence_every as number },
        b.period_ends_on
      )
      if (next === null) return reply
      const rolled = {
        ...b,
        period_starts_on: next.starts_on,
        period_ends_on: next.ends_on,
        period_amount_cents: b.base_amount_cents
      }
      await saveBudget(base, rolled)
      const shown = (await reply.json()) as Record<string, unknown>
      return Response.json(
        {
          ...shown,
          period_starts_on: rolled.period_starts_on,
          period_ends_on: rolled.period_ends_on,
          period_amount_cents: rolled.period_amount_cents
        },
        { status: 200, headers: reply.headers }
      )
    }
    if (defect === 'amount-kept' && request.method === 'PATCH' && id !== undefined) {
      const before = await findBudget(base, id)
      const reply = await app.fetch(request, env)
      if (reply.status !== 200 || before === null) return reply
      const after = (await reply.json()) as Record<string, unknown>
      if (after.period_starts_on === before.budget.period_starts_on)
        return Response.json(after, { status: 200, headers: reply.headers })
      const kept = { ...after, period_amount_cents: before.budget.period_amount_cents }
      await base.query('UPDATE budgets SET period_amount_cents = $2 WHERE id = $1', [id, kept.period_amount_cents])
      return Response.json(kept, { status: 200, headers: reply.headers })
    }
    if (defect === 'count-stale' && request.method === 'GET' && url.pathname === '/v1/budgets') {
      const reply = await app.fetch(request, env)
      const counted = reply.headers.get('X-Total-Count')
      if (reply.status !== 200 || counted === null) return reply
      const filters = [...url.searchParams]
        .filter(([name]) => !name.startsWith('_'))
        .map(([name, value]) => `${name}=${value}`)
        .sort()
        .join('&')
      const total = totals.get(filters) ?? counted
      totals.set(filters, total)
      const headers = new Headers(reply.headers)
      headers.set('X-Total-Count', total)
      headers.set('Content-Range', (headers.get('Content-Range') ?? '').replace(/\/\d+$/, `/${total}`))
      return new Response(reply.body, { status: 200, headers })
    }
    return app.fetch(request, env)
  }

  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => {
      resolve(s)
    }) as Server
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    request: (request) => fetch(request, {} as HttpBindings),
    plant: (planted, kept = () => true) => {
      leak = planted
      routes = kept
    },
    database: base,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await base.close()
    }
  }
}
