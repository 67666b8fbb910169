/**
 * The reference server's app, assembled from its parts as Hono's guide for larger applications
 * does: middleware of one concern each (./middleware.ts), and a handler per operation (./routes/,
 * by resource) mounted at its route of src/api/routes.ts, each reading top to bottom as look up (./lookup.ts, the store),
 * decide (a facade), persist (the store) inside the unit of work (./unit-of-work.ts), record
 * (./decision-log.ts), reply. No rule of the service lives here: the replies are the facades'.
 *
 * Around the routes: an X-Request-Id on every reply, the bearer key hashed once, a JSON log line
 * and the metrics of every request (`GET /metrics`, R-123), CORS, a per-key rate limit shared by
 * every instance (the contract's 429 through `respondServiceRefusal`), a body limit (413 before
 * the body is read whole), a 404 for unknown routes, a 499 or 408 for a body that stopped coming
 * (the client's, R-127), a 503 while the database is away and a 500 for anything else thrown, in
 * the service's shapes. In test mode only, the conformance hook
 * (./conformance.ts).
 *
 * @since 0.2.0
 */
import { Hono } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import type { Logger } from 'pino'
import { type Database, isDatabaseBusy, isDatabaseUnavailable } from '../store/database'
import { adminRoutes } from './admin'
import { CONFORMANCE_PATH, conformanceHook, SEED_LIMIT_BYTES } from './conformance'
import { decisionLog } from './decision-log'
import { explorerRoutes } from './explorer'
import { lookup } from './lookup'
import { metrics as appMetrics } from './metrics'
import { admission, apiKey, bodyLimit, cors, observe, requestId, session } from './middleware'
import { openApiRoutes } from './openapi'
import { rateLimiter } from './rate-limit'
import {
  BodyNotReceived,
  bodyNotReceived,
  type Env,
  problem,
  rawBody,
  RETRY_AFTER_BUSY_S,
  RETRY_AFTER_UNAVAILABLE_S,
  send
} from './reply'
import { routes } from '../api/routes'
import { bankingHandlers } from './routes/banking'
import { budgetHandlers } from './routes/budgets'
import { companyHandlers } from './routes/companies'
import { decisionHandlers } from './routes/decisions'
import type { Handlers, RouteDeps } from './routes/deps'
import { unitOfWork } from './unit-of-work'

export { RETRY_AFTER_BUSY_S, RETRY_AFTER_UNAVAILABLE_S } from './reply'

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
  /** Where each request's JSON line goes. */
  readonly logger: Logger
  /** Whether decisions are recorded (R-121; `DECISION_LOG=off` turns it off). */
  readonly decisionLog: boolean
  /** The bearer token `/metrics` asks for, or undefined for none (`METRICS_TOKEN`). */
  readonly metricsToken?: string | undefined
  /** Whether the client's address is X-Forwarded-For's first hop (`TRUST_PROXY=1`), not the socket's. */
  readonly trustProxy?: boolean
  /**
   * The conformance hook (test mode, ./conformance.ts): PUT /__conformance/state seeds the
   * scenario, whose session, today and members every request then gets; no rate limit, no
   * Idempotency-Key. False by default: the route is then a 404.
   */
  readonly conformance?: boolean
}

/**
 * The Hono app of the reference server over `options.database` (migrated and seeded already).
 * `listen` (main.ts) serves it on `@hono/node-server`, whose bindings give the client's address.
 */
export const buildApp = (options: AppOptions): Hono<Env> => {
  const { database: db, clock, logger } = options
  const hook = options.conformance === true ? conformanceHook(db) : null
  const metrics = appMetrics(db, options.metricsToken)
  const log = decisionLog({
    db,
    enabled: options.decisionLog,
    clock,
    dropped: (endpoint, detail) => {
      metrics.dropped(endpoint)
      logger.warn({ endpoint, detail }, 'decision record dropped')
    }
  })
  const deps: RouteDeps = {
    db,
    clock,
    lookup: lookup(db, clock, hook),
    mutate: unitOfWork(db, clock, options.idempotencyTtlHours, log),
    log,
    answer: async (c, endpoint, context, reply, resource_id) => {
      await log.keepAlone(log.decided(c, endpoint, context, reply, resource_id))
      return send(reply)
    }
  }
  const app = new Hono<Env>()

  // -- every request: an id, its key hashed, its log line and metrics, CORS and preflight, the
  // metrics themselves (not rate limited), the rate limit (not under the hook), the body limit

  app.use('*', requestId(), apiKey(), observe(logger, metrics), cors())
  app.get('/metrics', (c) => metrics.handler(c))
  // The API's routes: the key's session and the rate limit in one statement (R-112: the pages and
  // documents are not counted); under the hook, the scenario's session and no limit.
  if (hook === null)
    app.use(
      '/v1/*',
      admission(rateLimiter(db, options.rateLimitPerMinute, clock), options.trustProxy ?? false, metrics.rateLimited)
    )
  else {
    app.use('/v1/*', session(deps.lookup))
    // Before the API's body limit: a scenario's records may outgrow it.
    app.put(CONFORMANCE_PATH, honoBodyLimit({ maxSize: SEED_LIMIT_BYTES }), async (c) => {
      const seeding = await hook.seed(await rawBody(c))
      return seeding.status === 204
        ? new Response(null, { status: 204 })
        : send(problem(seeding.status, c.get('requestId'), seeding.error, seeding.message))
    })
  }
  app.use('*', bodyLimit(options.bodyLimitBytes))

  // -- the API

  // Every operation at its route, from the one table of routes (src/api/routes.ts): a route
  // without a handler, or a handler without a route, does not compile.
  const handlers: Handlers = {
    ...budgetHandlers(deps),
    ...bankingHandlers(deps),
    ...companyHandlers(deps),
    ...decisionHandlers(deps)
  }
  for (const r of routes) app.on(r.method.toUpperCase(), r.path.replace(/\{([^}]+)\}/g, ':$1'), handlers[r.operationId])

  // -- pages: the decision explorer at `/`, the admin console, the OpenAPI document and /docs

  explorerRoutes(app)
  adminRoutes(app)
  openApiRoutes(app)

  // -- anything else

  app.notFound((c) => send(problem(404, c.get('requestId'), 'not_found', `No route for ${c.req.method} ${c.req.path}`)))

  const unavailable = (requestId: string, message: string, seconds: number) => {
    const reply = problem(503, requestId, 'service_unavailable', message)
    return send({ ...reply, headers: { ...reply.headers, 'Retry-After': String(seconds) } })
  }
  app.onError((error, c) => {
    // The client's fault, not an outage: its socket's ECONNRESET is no database's.
    if (error instanceof BodyNotReceived) return send(bodyNotReceived(c.get('requestId'), error))
    // The pool opens a new connection for the next request: nothing to restart.
    if (isDatabaseUnavailable(error))
      return unavailable(
        c.get('requestId'),
        'The database is unavailable; retry after Retry-After seconds',
        RETRY_AFTER_UNAVAILABLE_S
      )
    // A lock not had, or a statement not done, in time: nothing was written; the next try may find it free.
    if (isDatabaseBusy(error))
      return unavailable(c.get('requestId'), 'The database is busy; retry after Retry-After seconds', RETRY_AFTER_BUSY_S)
    options.report(error, c.get('requestId'))
    return send(problem(500, c.get('requestId'), 'internal_error', 'Internal server error'))
  })

  return app
}
