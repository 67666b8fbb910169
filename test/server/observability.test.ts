/**
 * What a run of the reference server leaves behind, judged where a tool written
 * elsewhere can judge it: one JSON log line per request with the fields R-123 names; `/metrics`
 * in the Prometheus text format, checked by `promtool check metrics` (Debian's `prometheus`
 * package, which .ci/run installs), its counters moving by the requests sent, a raw path never a
 * label (1,000 budget ids make no new series); METRICS_TOKEN; and no API key or Authorization
 * header in any record, line or metric, searched as bytes.
 */
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { decisionLog } from '../../src/server/decision-log'
import { listen, type Served } from '../../src/server/main'
import type { Env } from '../../src/server/reply'
import type { Database } from '../../src/store/database'
import { call, type Call, seeded, stores } from './harness'

const NOW = new Date('2026-11-23T15:00:00Z')
const admin = { key: 'demo-admin', company: 'c-acme' }
const manager = { key: 'demo-manager', company: 'c-acme' }
/** A key no one holds, long enough never to turn up by chance. */
const MADE_UP = 'sk_live_9f8e7d6c5b4a39281706'
const FIELDS = [
  'actor_id',
  'company_id',
  'key_id',
  'level',
  'method',
  'ms',
  'msg',
  'request_id',
  'route',
  'rules',
  'status',
  'time'
]

let db: Database
let drop: () => Promise<void>
let server: Served
const lines: Array<string> = []
const sent: Array<{ readonly request: Call & { readonly path: string }; readonly id: string; readonly status: number }> = []

const send = async (path: string, c: Call = {}) => {
  const got = await call(server.url, path, c)
  sent.push({ request: { ...c, path }, id: got.headers.get('x-request-id') ?? '', status: got.status })
  return got
}

/** The value of one series of the page, or undefined. */
const sample = (page: string, series: string): number | undefined => {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** GET /metrics: its status, type and text (not JSON, which `call` reads). */
const scrape = async (base: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers })
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    auth: res.headers.get('www-authenticate'),
    text: await res.text()
  }
}

const promtool = (page: string) => spawnSync('promtool', ['check', 'metrics'], { input: page, encoding: 'utf8' })

beforeAll(async () => {
  ;({ database: db, drop } = await seeded(stores[0] as (typeof stores)[number]))
  server = await listen(db, {
    clock: () => NOW,
    rateLimitPerMinute: 1_000_000,
    logLevel: 'info',
    logDestination: {
      write: (line: string) => {
        lines.push(line)
      }
    }
  })
}, 60_000)

afterAll(async () => {
  await server.close()
  await drop()
})

describe('the log and the metrics of the reference server', () => {
  it('one JSON line per request, the fields R-123 names and no other, the route a pattern', async () => {
    await send('/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { recurrence_unit: 'week' } } })
    await send('/v1/budgets/b-travel/top_up', { ...admin, method: 'POST', body: { amount_cents: 1 } })
    await send('/v1/banking/bank_transactions?_end=2', { key: MADE_UP, company: 'c-acme' })
    await send('/v1/no/such/route', admin)
    await send('/v1/decisions?_end=1', admin)
    const scraped = await scrape(server.url)
    sent.push({ request: { path: '/metrics' }, id: '', status: scraped.status })
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(parsed).toHaveLength(sent.length)
    for (const [i, line] of parsed.entries()) {
      expect(Object.keys(line).sort()).toEqual(FIELDS)
      if (sent[i]?.id !== '') expect(line.request_id).toBe(sent[i]?.id)
      expect(line.status).toBe(sent[i]?.status)
      expect(typeof line.ms === 'number' && line.ms >= 0).toBe(true)
      // The logger's own clock, in UTC.
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    expect(parsed.map((l) => [l.level, l.msg, l.route, l.actor_id, l.company_id])).toEqual([
      ['info', 'PATCH /v1/budgets/:id 403', '/v1/budgets/:id', 'u-manager', 'c-acme'],
      ['info', 'POST /v1/budgets/:id/top_up 200', '/v1/budgets/:id/top_up', 'u-admin', 'c-acme'],
      ['info', 'GET /v1/banking/bank_transactions 401', '/v1/banking/bank_transactions', null, 'c-acme'],
      ['info', 'GET unmatched 404', 'unmatched', null, 'c-acme'],
      ['info', 'GET /v1/decisions 200', '/v1/decisions', 'u-admin', 'c-acme'],
      ['info', 'GET /metrics 200', '/metrics', null, null]
    ])
    expect(parsed[0]?.rules).toEqual([
      'auth.bearer',
      'auth.email_verified',
      'auth.company_header',
      'auth.membership',
      'budget.scope',
      'budget.stored',
      'budget.advance',
      'budget.permission.update',
      'budget.body.type',
      'budget.body.wrapper',
      'budget.permission.manager',
      'budget.permission.recurrence'
    ])
    expect(parsed[2]?.rules).toEqual(['auth.bearer'])
    expect(parsed[3]?.rules).toEqual([])
    // The key's id, for a key the store knows and for one it does not.
    expect(parsed[2]?.key_id).toMatch(/^[0-9a-f]{16}$/)
    expect(parsed[5]?.key_id).toBe(null)
  })

  it('/metrics passes promtool, and its counters move by the requests sent', async () => {
    const before = (await scrape(server.url)).text
    expect(promtool(before).status, promtool(before).stdout + promtool(before).stderr).toBe(0)
    const series = 'http_requests_total{method="GET",route="/v1/budgets/:id",status="404"}'
    const decided = 'budget_rules_decisions_total{endpoint="budget.get",status="404",rule="budget.scope"}'
    const lines0 = before.split('\n').length
    // 1,000 budgets that do not exist, each its own path: one series, counted 1,000 times.
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => send(`/v1/budgets/b-${i + j}`, admin)))
    const got = await scrape(server.url)
    expect(got.type).toBe('text/plain; version=0.0.4; charset=utf-8')
    const page = got.text
    const checked = promtool(page)
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
    expect((sample(page, series) ?? 0) - (sample(before, series) ?? 0)).toBe(1000)
    expect((sample(page, decided) ?? 0) - (sample(before, decided) ?? 0)).toBe(1000)
    expect(sample(page, 'http_request_duration_seconds_count{method="GET",route="/v1/budgets/:id",status="404"}')).toBe(
      sample(page, series)
    )
    // No id became a label: the page grew by no series (only the first 404's histogram and counters, if new).
    expect(page).not.toMatch(/b-\d+/)
    expect(page.split('\n').length - lines0).toBeLessThan(40)
    expect(sample(page, 'budget_rules_database_connections{state="idle"}')).toBeGreaterThanOrEqual(0)
    expect(sample(page, 'budget_rules_database_waiting_requests')).toBe(0)
    expect(page).toContain('\nprocess_cpu_user_seconds_total ')
  })

  it('the rate limit counts its refusals', async () => {
    const limited = await listen(db, { clock: () => NOW, rateLimitPerMinute: 2 })
    try {
      // A key the other servers of this file did not use within the minute.
      for (let i = 0; i < 5; i++) await call(limited.url, '/v1/budgets/b-travel', { key: 'demo-member', company: 'c-acme' })
      const page = (await scrape(limited.url)).text
      expect(sample(page, 'budget_rules_rate_limited_total')).toBe(3)
      expect(sample(page, 'http_requests_total{method="GET",route="/v1/budgets/:id",status="429"}')).toBe(3)
    } finally {
      await limited.close()
    }
  })

  it('a record the library would not build is dropped and told of; the decision is still noted', async () => {
    // Nothing is kept here: a database that is never asked.
    const unused = { query: () => Promise.reject(new Error('no statement is expected')) }
    const dropped: Array<string> = []
    const log = decisionLog({
      db: unused,
      enabled: true,
      clock: () => NOW,
      dropped: (endpoint, detail) => {
        dropped.push(`${endpoint}: ${detail}`)
      }
    })
    const app = new Hono<Env>()
    app.use('*', async (c, next) => {
      c.set('requestId', 'req-1')
      await next()
    })
    app.get('/', (c) => {
      const context = {
        request: { headers: c.req.raw.headers },
        session: { user: null, memberships: {} },
        budget: { id: 1n },
        today: '2026-11-23',
        request_id: 'req-1'
      }
      const record = log.decided(c, 'budget.get', context as never, {
        status: 401,
        headers: {},
        body: null,
        reasons: [{ rule: 'auth.bearer', detail: '' }]
      })
      return c.json({ record, noted: c.get('decision') })
    })
    const got = (await (await app.request('/')).json()) as { record: unknown; noted: unknown }
    expect(got).toEqual({ record: null, noted: { endpoint: 'budget.get', actor_id: null, rules: ['auth.bearer'] } })
    expect(dropped).toEqual(['budget.get: case.budget.id is 1n, not JSON'])
    const off = decisionLog({ db: unused, enabled: false, clock: () => NOW, dropped: () => undefined })
    const quiet = new Hono<Env>()
    quiet.get('/', (c) =>
      c.json({ record: off.decided(c, 'index.companies', {} as never, { status: 200, headers: {}, body: [], reasons: [] }) })
    )
    expect(await (await quiet.request('/')).json()).toEqual({ record: null })
  })

  it('METRICS_TOKEN: /metrics asks for it as a bearer token', async () => {
    const guarded = await listen(db, { clock: () => NOW, metricsToken: 'scrape-me' })
    try {
      for (const headers of [{}, { Authorization: 'Bearer scrape-you' }, { Authorization: 'Basic scrape-me' }]) {
        const refused = await scrape(guarded.url, headers)
        expect([refused.status, refused.text, refused.auth]).toEqual([401, '', 'Bearer'])
      }
      const admitted = await scrape(guarded.url, { Authorization: 'Bearer scrape-me' })
      expect(admitted.status).toBe(200)
      expect(admitted.text).toContain('# TYPE http_requests_total counter')
    } finally {
      await guarded.close()
    }
  })

  it('no API key and no Authorization header in any record, log line or metric, searched as bytes', async () => {
    const records = await db.query<{ text: string }>(`SELECT row_to_json(d)::text AS text FROM decisions d`)
    const page = (await scrape(server.url)).text
    const everything = Buffer.from([...records.map((r) => r.text), ...lines, page].join('\n'))
    expect(records.length).toBeGreaterThan(1000)
    for (const secret of ['demo-admin', 'demo-manager', 'demo-member', MADE_UP, `Bearer ${MADE_UP}`, 'Bearer demo'])
      expect(everything.includes(Buffer.from(secret)), secret).toBe(false)
  })
})
