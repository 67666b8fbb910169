/**
 * The reference server's routes and middleware, built from its dependencies (a database, a
 * clock, its limits). Each route reads like a sentence: look up (store), decide (facade),
 * persist (store), reply. No rule of the service lives here: the replies are the facades'.
 *
 * Around the routes: an X-Request-Id on every reply, CORS, a per-key rate limit (the contract's
 * 429 through `respondServiceRefusal`), a body limit (413 before the body is read whole), a 404
 * for unknown routes and a 500 for anything thrown, both in the service's shapes. In test mode
 * only, the conformance hook (./conformance.ts).
 *
 * @since 0.2.0
 */
import { createHash, randomUUID } from 'node:crypto'
import type { HttpBindings } from '@hono/node-server'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import {
  advanceBudget,
  type Budget,
  endpoints,
  headerOf,
  type HttpHeaders,
  planIndex,
  respondAmount,
  respondAuthorizeTransaction,
  respondBankRecipient,
  respondBudgetUpdate,
  respondIndex,
  respondIndexPage,
  respondRoleAssignment,
  respondServiceRefusal,
  respondTopUp,
  respondWithdraw,
  type Session
} from '../index'
import { BudgetContext, type BudgetReply, scopedBudget, settleBudget } from '../facade/budget-context'
import { respondWith } from '../facade/context'
import { map } from '../decision/trail'
import { pageQuery } from '../sql/page-query'
import { type Database, isDatabaseUnavailable, type Queryable } from '../store/database'
import { keyHash } from '../store/seed'
import * as store from '../store/store'
import { CONFORMANCE_PATH, conformanceHook, SEED_LIMIT_BYTES } from './conformance'
import { adminRoutes } from './admin'
import { explorerRoutes } from './explorer'
import { openApiRoutes } from './openapi'
import { rateLimiter } from './rate-limit'
import { calendarDateIn } from './today'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What the app is built from. */
export interface AppOptions {
  readonly database: Database
  /** The server's clock: `today` of each company, the rate limit's windows, instants written. */
  readonly clock: () => Date
  /** Requests a minute per API key (per client address without one), across every instance on the database. */
  readonly rateLimitPerMinute: number
  /** How long an Idempotency-Key is remembered; a key older than this is a new request. */
  readonly idempotencyTtlHours: number
  /** The largest request body read, in bytes. */
  readonly bodyLimitBytes: number
  /** Told of every exception that became a 500, with the request's id. */
  readonly report: (error: unknown, requestId: string) => void
  /**
   * The conformance hook (test mode, ./conformance.ts): PUT /__conformance/state seeds the
   * scenario, whose session, today and members every request then gets; no rate limit, no
   * Idempotency-Key. False by default: the route is then a 404.
   */
  readonly conformance?: boolean
}

/** A reply as the facades give it: a status, headers, a JSON body or null. */
interface AnyReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

type Env = { Bindings: HttpBindings; Variables: { requestId: string } }

/** GET /v1/budgets/{id}: the budget in the caller's company, as of today (contract section 4). */
const respondBudget: (context: BudgetContext) => BudgetReply = respondWith(BudgetContext, (c) =>
  settleBudget(c.request_id, map(({ budget }: { readonly budget: Budget }) => budget)(scopedBudget(c)))
)

/** The seconds a 503 asks a client to wait while the database is away (R-110: within 10). */
export const RETRY_AFTER_UNAVAILABLE_S = 5

const CORS_EXPOSED = 'Content-Range, X-Total-Count, X-Request-Id, Retry-After'
const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, company-id, Idempotency-Key'
const CORS_ALLOWED_METHODS = 'GET, POST, PATCH, OPTIONS'

/** A rejection that carries the reply to send once the transaction is rolled back. */
class RolledBack extends Error {
  constructor(readonly reply: AnyReply) {
    super(`rolled back: ${reply.status}`)
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const json = 'application/json; charset=utf-8'

const send = (reply: AnyReply): Response =>
  new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers })

/** A reply the server writes on its own account, in the service's `{error, message}` shape. */
const problem = (status: number, requestId: string, error: string, message: string): AnyReply => ({
  status,
  headers: { 'X-Request-Id': requestId, 'Content-Type': json },
  body: { error, message }
})

/** The bearer key of a request, to look its session up (the facade checks the header again). */
const bearerKey = (headers: HttpHeaders): string | undefined =>
  /^bearer +(\S+) *$/i.exec(headerOf(headers, 'authorization') ?? '')?.[1]

/** The raw query string of a URL, without '?'. */
const rawQuery = (url: string): string => {
  const at = url.indexOf('?')
  return at < 0 ? '' : url.slice(at + 1)
}

/** Decodes UTF-8 keeping a leading BOM, which `Request.text()` drops: the facades refuse a body that starts with one. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** The body as sent; Node hands a request without one as an empty body, which the facades read as none. */
const rawBody = async (c: Context): Promise<string> => utf8.decode(await c.req.arrayBuffer())

// -------------------------------------------------------------------------------------
// app
// -------------------------------------------------------------------------------------

/**
 * The Hono app of the reference server over `options.database` (migrated and seeded already).
 * `listen` (main.ts) serves it on `@hono/node-server`, whose bindings give the client's address.
 */
export const buildApp = (options: AppOptions): Hono<Env> => {
  const { database: db, clock } = options
  const { admit } = rateLimiter(db, options.rateLimitPerMinute, clock)
  const app = new Hono<Env>()
  const hook = options.conformance === true ? conformanceHook(db) : null
  /** The scenario seeded last under the conformance hook, or null. */
  const scenario = () => hook?.state() ?? null

  /**
   * The session of the request's key, and the key's hash when it names a stored key; under the
   * conformance hook, the scenario's session and no key (so no Idempotency-Key is claimed).
   */
  const sessionOf = async (headers: HttpHeaders): Promise<{ session: Session; keySha256: string | null }> => {
    const seeded = scenario()
    if (seeded !== null) return { session: seeded.session as Session, keySha256: null }
    const key = bearerKey(headers)
    if (key === undefined) return { session: { user: null, memberships: {} }, keySha256: null }
    const keySha256 = keyHash(key)
    const session = await store.findSession(db, keySha256)
    return { session, keySha256: session.user === null ? null : keySha256 }
  }

  /** A company's today; any valid date when there is no company to ask (the facade then refuses). */
  const todayIn = (timeZone: string | null): string => {
    const seeded = scenario()
    return seeded !== null ? (seeded.today as string) : calendarDateIn(clock(), timeZone ?? 'UTC')
  }

  /** The ids of a company's members (the scenario's under the conformance hook, as given). */
  const membersOf = async (tx: Queryable, companyId: string): Promise<ReadonlyArray<string>> => {
    const seeded = scenario()
    return seeded !== null ? (seeded.company_member_ids as ReadonlyArray<string>) : store.memberIds(tx, companyId)
  }

  /**
   * One transaction around `work`: its reply is committed, unless it is a 5xx (rolled back).
   * With an Idempotency-Key (money endpoints, a stored API key), the key is claimed first: a
   * key already used replays its reply (same request) or is refused (another request).
   */
  const mutate = async (
    c: Context<Env>,
    idempotent: { keySha256: string | null } | null,
    body: string,
    work: (tx: Queryable) => Promise<AnyReply>
  ): Promise<Response> => {
    const requestId = c.get('requestId')
    const idempotencyKey = c.req.header('idempotency-key')
    const claim =
      idempotent !== null && idempotent.keySha256 !== null && idempotencyKey !== undefined ? idempotent.keySha256 : null
    if (claim !== null && (idempotencyKey === '' || (idempotencyKey as string).length > 255))
      return send(problem(400, requestId, 'bad_request', 'Idempotency-Key must be 1 to 255 characters'))
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n${c.req.header('company-id') ?? ''}\n${body}`)
      .digest('hex')
    try {
      return await db.transaction(async (tx) => {
        if (claim !== null) {
          const kept = await store.claimIdempotencyKey(tx, {
            key_sha256: claim,
            idempotency_key: idempotencyKey as string,
            fingerprint,
            now: clock().toISOString(),
            expired_before: new Date(clock().getTime() - options.idempotencyTtlHours * 3_600_000).toISOString()
          })
          if (kept !== null) return replay(requestId, kept, fingerprint)
        }
        const reply = await work(tx)
        if (reply.status >= 500) throw new RolledBack(reply)
        if (claim !== null) {
          // A replay gets the id of its own request.
          const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name !== 'X-Request-Id'))
          await store.keepReply(tx, {
            key_sha256: claim,
            idempotency_key: idempotencyKey as string,
            status: reply.status,
            headers,
            body: reply.body === null ? null : JSON.stringify(reply.body)
          })
        }
        return send(reply)
      })
    } catch (e) {
      if (e instanceof RolledBack) return send(e.reply)
      throw e
    }
  }

  /** The reply kept for an Idempotency-Key, again (with this request's id), or the 422 of another request. */
  const replay = (requestId: string, kept: store.KeptReply, fingerprint: string): Response =>
    kept.fingerprint === fingerprint && kept.status !== null
      ? new Response(kept.body, {
          status: kept.status,
          headers: { ...kept.headers, 'X-Request-Id': requestId, 'Idempotent-Replayed': 'true' }
        })
      : send({
          status: 422,
          headers: { 'X-Request-Id': requestId, 'Content-Type': json },
          body: { errors: { idempotency_key: ['was already used with another request'] } }
        })

  // -- every request: an id, CORS, preflight, the rate limit, the body limit

  app.use('*', async (c, next) => {
    const requestId = randomUUID()
    c.set('requestId', requestId)
    if (c.req.method === 'OPTIONS') {
      c.res = new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
          'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
          'Access-Control-Max-Age': '600'
        }
      })
    } else await next()
    c.res.headers.set('Access-Control-Allow-Origin', '*')
    c.res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSED)
    if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', requestId)
  })

  app.use('*', async (c, next) => {
    if (hook !== null) return next()
    const key = bearerKey(c.req.raw.headers)
    const retryAfter = await admit(
      key === undefined ? `address ${String(c.env.incoming.socket.remoteAddress)}` : `key ${keyHash(key)}`
    )
    if (retryAfter === null) return next()
    return send(
      respondServiceRefusal({ refusal: { kind: 'rate_limited', retry_after_s: retryAfter }, request_id: c.get('requestId') })
    )
  })

  if (hook !== null)
    // Before the API's body limit: a scenario's records may outgrow it.
    app.put(CONFORMANCE_PATH, bodyLimit({ maxSize: SEED_LIMIT_BYTES }), async (c) => {
      const seeding = await hook.seed(await rawBody(c))
      return seeding.status === 204
        ? new Response(null, { status: 204 })
        : send(problem(seeding.status, c.get('requestId'), seeding.error, seeding.message))
    })

  app.use(
    '*',
    bodyLimit({
      maxSize: options.bodyLimitBytes,
      onError: (c) =>
        send(
          problem(
            413,
            String(c.get('requestId')),
            'payload_too_large',
            `The request body exceeds ${options.bodyLimitBytes} bytes`
          )
        )
    })
  )

  // -- budgets

  const budgetMutations = [
    ['PATCH', '/v1/budgets/:id', respondBudgetUpdate, null],
    ['POST', '/v1/budgets/:id/top_up', respondTopUp, 'money'],
    ['POST', '/v1/budgets/:id/withdraw', respondWithdraw, 'money'],
    ['PATCH', '/v1/budgets/:id/amount', respondAmount, 'money']
  ] as const

  for (const [method, path, respond, money] of budgetMutations)
    app.on(method, path, async (c) => {
      const headers = c.req.raw.headers
      const { session, keySha256 } = await sessionOf(headers)
      const body = await rawBody(c)
      return mutate(c, money === null ? null : { keySha256 }, body, async (tx) => {
        const found = await store.lockBudget(tx, c.req.param('id'))
        const reply = respond({
          request: { headers, body },
          session,
          budget: found?.budget ?? null,
          today: todayIn(found?.time_zone ?? null),
          request_id: c.get('requestId'),
          ...(money === null && found !== null ? { company_member_ids: await membersOf(tx, found.budget.company_id) } : {})
        })
        if (reply.status === 200) await store.saveBudget(tx, reply.budget)
        return reply
      })
    })

  app.get('/v1/budgets/:id', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await sessionOf(headers)
    const found = await store.findBudget(db, c.req.param('id'))
    return send(
      respondBudget({
        request: { headers },
        session,
        budget: found?.budget ?? null,
        today: todayIn(found?.time_zone ?? null),
        request_id: c.get('requestId')
      })
    )
  })

  app.get('/v1/budgets', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await sessionOf(headers)
    const company = headerOf(headers, 'company-id')
    // Scoped to the company named; the facade refuses a caller who is not its member.
    const budgets = company === undefined ? [] : await store.companyBudgets(db, company)
    const records = budgets.map(({ budget, time_zone }) =>
      advanceBudget(budget as unknown as Budget, todayIn(time_zone) as Parameters<typeof advanceBudget>[1])
    )
    return send(
      respondIndex({
        request: { headers, query: rawQuery(c.req.url) },
        session,
        endpoint: endpoints.budgets,
        records,
        request_id: c.get('requestId')
      })
    )
  })

  // -- banking

  app.get('/v1/banking/bank_transactions', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await sessionOf(headers)
    const context = {
      request: { headers, query: rawQuery(c.req.url) },
      session,
      endpoint: endpoints.bankTransactions,
      request_id: c.get('requestId')
    }
    const plan = planIndex(context)
    if (plan._tag === 'Reply') return send(plan.reply)
    // A Page plan means company-id named a company of the caller's.
    const companyId = headerOf(headers, 'company-id') as string
    const query = pageQuery(endpoints.bankTransactions, plan.request, {
      table: 'bank_transactions',
      scope: { company_id: companyId }
    })
    // One snapshot for the rows and their count, so they always agree. Without filters the
    // count is the company's, kept by the database (migration 2), not a count of a million rows.
    const { page, total } = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
      const rows = await tx.query(query.rows.text, query.rows.values)
      const count =
        plan.request.filters.length === 0
          ? await tx.query('SELECT COALESCE(sum(total), 0)::float8 AS total FROM bank_transaction_counts WHERE company_id = $1', [
              companyId
            ])
          : await tx.query(query.count.text, query.count.values)
      // Either count query returns one row of one column.
      return { page: rows, total: Number(Object.values(count[0] as Record<string, unknown>)[0]) }
    })
    return send(respondIndexPage({ ...context, page, total }))
  })

  app.post('/v1/banking/bank_transactions/:id/authorize', async (c) => {
    const headers = c.req.raw.headers
    const { session, keySha256 } = await sessionOf(headers)
    const body = await rawBody(c)
    return mutate(c, { keySha256 }, body, async (tx) => {
      const transaction = await store.lockTransaction(tx, c.req.param('id'))
      const reply = respondAuthorizeTransaction({
        request: { headers, body },
        session,
        transaction,
        request_id: c.get('requestId')
      })
      if (reply.status === 200) await store.saveTransactionStatus(tx, reply.transaction.id, reply.transaction.status)
      return reply
    })
  })

  app.post('/v1/banking/bank_recipients', async (c) => {
    const headers = c.req.raw.headers
    const { session, keySha256 } = await sessionOf(headers)
    const body = await rawBody(c)
    const company = headerOf(headers, 'company-id') ?? ''
    return mutate(c, { keySha256 }, body, async (tx) => {
      // Enrolments of one company one at a time, so that the 409 of a duplicate is never missed.
      await store.lockCompany(tx, company)
      const reply = respondBankRecipient({
        request: { headers, body },
        session,
        bank_ids: [...(await store.bankIds(tx))],
        enrolled: [...(await store.enrolledRecipients(tx, company))],
        request_id: c.get('requestId')
      })
      if (reply.status === 201)
        await store.insertRecipient(tx, {
          id: randomUUID(),
          company_id: company,
          ...reply.recipient,
          created_at: clock().toISOString()
        })
      return reply
    })
  })

  // -- companies

  app.get('/v1/companies', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await sessionOf(headers)
    const records = session.user === null ? [] : await store.userCompanies(db, session.user.id)
    return send(
      respondIndex({
        request: { headers, query: rawQuery(c.req.url) },
        session,
        endpoint: endpoints.companies,
        records,
        request_id: c.get('requestId')
      })
    )
  })

  app.patch('/v1/companies/:id/memberships/:user_id', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await sessionOf(headers)
    const body = await rawBody(c)
    const company = c.req.param('id')
    return mutate(c, null, body, async (tx) => {
      // A path naming another company than company-id names no member of the caller's company.
      const members = company === headerOf(headers, 'company-id') ? await membersOf(tx, company) : []
      const reply = respondRoleAssignment({
        request: { headers, body },
        session,
        user_id: c.req.param('user_id'),
        request_id: c.get('requestId'),
        company_member_ids: [...members]
      })
      if (reply.status === 200) await store.saveRole(tx, company, reply.body.user_id, reply.body.role)
      return reply
    })
  })

  // The decision explorer (the page built by scripts/explorer.ts) at `/`.
  explorerRoutes(app)
  adminRoutes(app)

  // The API's OpenAPI document at /openapi.json, and its reference page at /docs.
  openApiRoutes(app)

  // -- anything else

  app.notFound((c) => send(problem(404, c.get('requestId'), 'not_found', `No route for ${c.req.method} ${c.req.path}`)))

  app.onError((error, c) => {
    if (isDatabaseUnavailable(error)) {
      // The pool opens a new connection for the next request: nothing to restart.
      const reply = problem(
        503,
        c.get('requestId'),
        'service_unavailable',
        'The database is unavailable; retry after Retry-After seconds'
      )
      return send({ ...reply, headers: { ...reply.headers, 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_S) } })
    }
    options.report(error, c.get('requestId'))
    return send(problem(500, c.get('requestId'), 'internal_error', 'Internal server error'))
  })

  return app
}
