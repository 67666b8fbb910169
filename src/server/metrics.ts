/**
 * The reference server's metrics, in Prometheus's text format at `GET /metrics`, one
 * registry per app: requests and their durations by method, route pattern and status (never a
 * raw path: a label takes a small fixed set of values), decisions by endpoint, status and the
 * rule that decided, the requests the rate limit refused, the records dropped, the database's
 * connections, and the process's default metrics. With a token, `/metrics` asks for it as a
 * bearer token.
 *
 * @since 0.4.0
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { bearerKey } from '../auth/session'
import type { Database } from '../store/database'
import type { Env } from './reply'

/** The metrics of one app. */
export interface Metrics {
  /** Counts a request answered, and how long it took. */
  readonly request: (method: string, route: string, status: number, seconds: number) => void
  /** Counts a decision: its endpoint, status, and the rule that decided (the last consulted). */
  readonly decision: (endpoint: string, status: number, rule: string) => void
  readonly rateLimited: () => void
  readonly dropped: (endpoint: string) => void
  /** The reply to `GET /metrics`: the text format, or a 401 without the token when one is set. */
  readonly handler: (c: Context<Env>) => Promise<Response>
}

/** Durations from 1 ms to 10 s: a page of the database to a request held by a lock. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/** The counters every service of the library keeps (the reference server and the decision service, R-123, R-130). */
export interface RequestMetrics {
  readonly register: Registry
  /** Counts a request answered, and how long it took. */
  readonly request: (method: string, route: string, status: number, seconds: number) => void
  /** Counts a decision: its endpoint, status, and the rule that decided (the last consulted). */
  readonly decision: (endpoint: string, status: number, rule: string) => void
  readonly dropped: (endpoint: string) => void
  /** The reply to `GET /metrics` as status, content type and text: a 401 without the token when one is set. */
  readonly scrape: (authorization: unknown) => Promise<{ status: 200 | 401; contentType: string; text: string }>
}

/**
 * A registry with the process's default metrics, the requests and their durations by method,
 * route pattern and status, the decisions, the records dropped; `token` guards the scrape.
 */
export const requestMetrics = (token: string | undefined): RequestMetrics => {
  const register = new Registry()
  collectDefaultMetrics({ register })
  // Gauges named as counters, which promtool refuses; each is the sum of the same name's series by type.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    register.removeSingleMetric(name)
  const labels = ['method', 'route', 'status'] as const
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered.',
    labelNames: labels,
    registers: [register]
  })
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its reply.',
    labelNames: labels,
    buckets: BUCKETS,
    registers: [register]
  })
  const decisions = new Counter({
    name: 'budget_rules_decisions_total',
    help: 'Decisions made by a facade, by endpoint, status and the rule that decided.',
    labelNames: ['endpoint', 'status', 'rule'] as const,
    registers: [register]
  })
  const dropped = new Counter({
    name: 'budget_rules_decision_records_dropped_total',
    help: 'Decision records not kept because they could not be built without leaking or losing what decided.',
    labelNames: ['endpoint'] as const,
    registers: [register]
  })
  const expected = token === undefined || token === '' ? null : digest(token)
  // Each series' child once: prom-client hashes the labels of every call otherwise.
  const series = new Map<string, { readonly count: Counter.Internal; readonly time: Histogram.Internal<string> }>()
  return {
    register,
    request: (method, route, status, seconds) => {
      const key = `${method} ${route} ${status}`
      let child = series.get(key)
      if (child === undefined) {
        const at = { method, route, status: String(status) }
        child = { count: requests.labels(at), time: durations.labels(at) }
        series.set(key, child)
      }
      child.count.inc()
      child.time.observe(seconds)
    },
    decision: (endpoint, status, rule) => {
      decisions.inc({ endpoint, status: String(status), rule })
    },
    dropped: (endpoint) => {
      dropped.inc({ endpoint })
    },
    scrape: async (headers) => {
      if (expected !== null) {
        const given = bearerKey(headers as never)
        // Compared as digests of one length, in constant time.
        if (given === undefined || !timingSafeEqual(digest(given), expected)) return { status: 401, contentType: '', text: '' }
      }
      return { status: 200, contentType: register.contentType, text: await register.metrics() }
    }
  }
}

/** The metrics over a database's connections; `token` (METRICS_TOKEN) guards `/metrics` when set. */
export const metrics = (db: Database, token: string | undefined): Metrics => {
  const base = requestMetrics(token)
  const { register } = base
  const rateLimited = new Counter({
    name: 'budget_rules_rate_limited_total',
    help: 'Requests the rate limit refused with a 429.',
    registers: [register]
  })
  new Gauge({
    name: 'budget_rules_database_connections',
    help: "The database pool's connections, by state.",
    labelNames: ['state'] as const,
    registers: [register],
    collect() {
      const { total, idle } = db.stats()
      this.set({ state: 'idle' }, idle)
      this.set({ state: 'in_use' }, total - idle)
    }
  })
  new Gauge({
    name: 'budget_rules_database_waiting_requests',
    help: 'Requests waiting for a database connection.',
    registers: [register],
    collect() {
      this.set(db.stats().waiting)
    }
  })
  return {
    request: base.request,
    decision: base.decision,
    rateLimited: () => {
      rateLimited.inc()
    },
    dropped: base.dropped,
    handler: async (c) => {
      const scraped = await base.scrape(c.req.raw.headers)
      return scraped.status === 401
        ? new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } })
        : new Response(scraped.text, { status: 200, headers: { 'Content-Type': scraped.contentType } })
    }
  }
}
