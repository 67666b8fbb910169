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

/** The metrics over a database's connections; `token` (METRICS_TOKEN) guards `/metrics` when set. */
export const metrics = (db: Database, token: string | undefined): Metrics => {
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
  const rateLimited = new Counter({
    name: 'budget_rules_rate_limited_total',
    help: 'Requests the rate limit refused with a 429.',
    registers: [register]
  })
  const dropped = new Counter({
    name: 'budget_rules_decision_records_dropped_total',
    help: 'Decision records not kept because they could not be built without leaking or losing what decided.',
    labelNames: ['endpoint'] as const,
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
  const expected = token === undefined || token === '' ? null : digest(token)
  return {
    request: (method, route, status, seconds) => {
      const at = { method, route, status: String(status) }
      requests.inc(at)
      durations.observe(at, seconds)
    },
    decision: (endpoint, status, rule) => {
      decisions.inc({ endpoint, status: String(status), rule })
    },
    rateLimited: () => {
      rateLimited.inc()
    },
    dropped: (endpoint) => {
      dropped.inc({ endpoint })
    },
    handler: async (c) => {
      if (expected !== null) {
        const given = bearerKey(c.req.raw.headers)
        // Compared as digests of one length, in constant time.
        if (given === undefined || !timingSafeEqual(digest(given), expected))
          return new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } })
      }
      return new Response(await register.metrics(), { status: 200, headers: { 'Content-Type': register.contentType } })
    }
  }
}
