/**
 * The reference server end to end: real HTTP on a loopback port, a real PostgreSQL (PGlite, and a
 * PostgreSQL server when DATABASE_URL is set) seeded with the demo data. Each store gets one
 * seeded database; the tests run in order and read the rows back from it directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { migrate } from '../../src/store/migrations'
import { seedWhenEmpty } from '../../src/store/seed'
import { call, type Call, type Got, seeded, stores, UUID } from './harness'
import { DecisionRecord, replay } from '../../src/decisions'
import { findDecision } from '../../src/store/decisions'
import { type Prism, responseViolations, startPrism } from '../openapi/prism'

const NOW = new Date('2026-11-23T15:00:00Z') // Monday 23 November 2026, noon in Santiago
const admin = { key: 'demo-admin', company: 'c-acme' }
const manager = { key: 'demo-manager', company: 'c-acme' }
const member = { key: 'demo-member', company: 'c-acme' }
const json = 'application/json; charset=utf-8'

/** Every route of the server, with a request each would otherwise accept. */
const routes: ReadonlyArray<[string, string, unknown]> = [
  ['PATCH', '/v1/budgets/b-travel', { budget: { name: 'Travel' } }],
  ['POST', '/v1/budgets/b-travel/top_up', { amount_cents: 1 }],
  ['POST', '/v1/budgets/b-travel/withdraw', { amount_cents: 1 }],
  ['PATCH', '/v1/budgets/b-marketing/amount', { amount_cents: 1 }],
  ['GET', '/v1/budgets', undefined],
  ['GET', '/v1/budgets/b-travel', undefined],
  ['GET', '/v1/banking/bank_transactions', undefined],
  ['POST', '/v1/banking/bank_transactions/tx-00001/authorize', undefined],
  ['POST', '/v1/banking/bank_recipients', { bank_recipient: {} }],
  ['GET', '/v1/companies', undefined],
  ['PATCH', '/v1/companies/c-acme/memberships/u-member', { role: 'member' }],
  ['GET', '/v1/decisions', undefined]
]

/**
 * Each store, and PGlite once more behind Stoplight Prism, a validating proxy reading the API's
 * OpenAPI document: there every reply of the suite must match the document, which
 * `send` checks on each one (requests the tests mean to be invalid may break the request side).
 */
const variants = [
  ...stores.map((store) => ({ store, name: store.name, prism: false })),
  {
    store: stores[0] as (typeof stores)[number],
    name: 'PGlite, through a Prism proxy validating the OpenAPI document',
    prism: true
  }
]

describe.each(variants)('the reference server on $name', ({ store, prism }) => {
  let db: Database
  let drop: () => Promise<void>
  let server: Served
  let proxy: Prism | null = null
  let url: string
  const extra: Array<Served> = []
  /** The suite's server's log, a JSON line per request. */
  const logLines: Array<string> = []

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    server = await listen(db, {
      clock: () => NOW,
      rateLimitPerMinute: 1_000_000,
      logLevel: 'info',
      logDestination: {
        write: (line: string) => {
          logLines.push(line)
        }
      }
    })
    if (prism) proxy = await startPrism(server.url)
    url = proxy?.url ?? server.url
  }, 90_000)

  afterAll(async () => {
    await proxy?.close()
    for (const s of [server, ...extra]) await s.close()
    await drop()
  }, 30_000)

  /** Every reply of the suite's server, to check its decision record at the end. */
  const replies: Array<{ readonly request: string; readonly got: Got }> = []
  const send = async (path: string, c: Call = {}) => {
    const got = await call(url, path, c)
    if (prism) expect(responseViolations(got.headers), `${c.method ?? 'GET'} ${path}: ${got.status}`).toEqual([])
    replies.push({ request: `${c.method ?? 'GET'} ${path}`, got })
    return got
  }
  const row = async (sql: string, values: ReadonlyArray<unknown> = []) => (await db.query(sql, values))[0]
  const balance = async (id: string) => (await row('SELECT balance_cents FROM budgets WHERE id = $1', [id]))?.balance_cents

  describe('the store', () => {
    it('migrations and the seed run once: a second start applies and seeds nothing', async () => {
      expect(await migrate(db)).toEqual([])
      expect(await seedWhenEmpty(db)).toBe(false)
      expect(await db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 }
      ])
    })

    it('keeps only the SHA-256 of an API key', async () => {
      const keys = await db.query<{ key_sha256: string; user_id: string }>(
        'SELECT key_sha256, user_id FROM api_keys ORDER BY user_id'
      )
      expect(keys.map((k) => k.user_id)).toEqual(['u-admin', 'u-manager', 'u-member', 'u-unverified'])
      // printf demo-admin | sha256sum
      expect(keys[0]?.key_sha256).toBe('cce7a2cf1ae045989cfc914fb95a41526f167a838b3c7d33745143614abace7c')
      expect(JSON.stringify(await db.query('SELECT * FROM api_keys'))).not.toContain('demo-')
    })
  })

  describe('authentication and scope (contract section 4), on every route', () => {
    it.each(routes)('%s %s without a key: 401, empty', async (method, path, body) => {
      const got = await send(path, { method, body, company: 'c-acme' })
      expect([got.status, got.text]).toEqual([401, ''])
      expect(got.headers.get('x-request-id')).toMatch(UUID)
    })

    it.each(routes)('%s %s with a key the server does not know: 401, empty', async (method, path, body) => {
      const got = await send(path, { method, body, key: 'demo-nobody', company: 'c-acme' })
      expect([got.status, got.text]).toEqual([401, ''])
    })

    it.each(routes)('%s %s by a user whose email is not verified: 401 email_not_verified', async (method, path, body) => {
      const got = await send(path, { method, body, key: 'demo-unverified', company: 'c-acme' })
      expect(got.status).toBe(401)
      expect(got.body).toEqual({ error: 'email_not_verified', message: 'Email address not verified' })
    })

    it.each(routes.filter(([, path]) => path !== '/v1/companies'))(
      '%s %s without company-id: 401, empty',
      async (method, path, body) => {
        const got = await send(path, { method, body, key: 'demo-admin' })
        expect([got.status, got.text]).toEqual([401, ''])
      }
    )

    it.each(routes.filter(([, path]) => path !== '/v1/companies'))(
      '%s %s in a company the caller is not a member of: 404 not_found',
      async (method, path, body) => {
        const got = await send(path, { method, body, key: 'demo-admin', company: 'c-initech' })
        expect(got.status).toBe(404)
        expect(got.text).toBe('{"error":"not_found","message":"Not found"}')
      }
    )

    it("another company's budget or transaction is the 404 of one that does not exist, to the byte", async () => {
      const texts = await Promise.all([
        send('/v1/budgets/b-initech-ops', admin),
        send('/v1/budgets/b-nowhere', admin),
        send('/v1/budgets/b-initech-ops/top_up', { ...admin, method: 'POST', body: { amount_cents: 1 } }),
        send('/v1/budgets/b-nowhere/top_up', { ...admin, method: 'POST', body: { amount_cents: 1 } }),
        send('/v1/banking/bank_transactions/tx-initech-1/authorize', { ...admin, method: 'POST' }),
        send('/v1/banking/bank_transactions/tx-nowhere/authorize', { ...admin, method: 'POST' }),
        // an id PostgreSQL could not even hold names no record either
        send('/v1/budgets/b-travel%00', admin),
        send('/v1/budgets/b-travel%00/withdraw', { ...admin, method: 'POST', body: { amount_cents: 1 } }),
        send('/v1/banking/bank_transactions/tx-00001%00/authorize', { ...admin, method: 'POST' })
      ])
      for (const got of texts) expect([got.status, got.text]).toEqual([404, '{"error":"not_found","message":"Not found"}'])
      expect(await balance('b-initech-ops')).toBe(50_000)
    })
  })

  describe('budgets', () => {
    it('GET /v1/budgets/{id}: the budget as stored, to any member', async () => {
      const got = await send('/v1/budgets/b-travel', member)
      expect(got.status).toBe(200)
      expect(got.headers.get('content-type')).toBe(json)
      expect(got.body).toEqual({
        id: 'b-travel',
        company_id: 'c-acme',
        name: 'Travel',
        description: 'Flights and hotels',
        access: 'everyone',
        currency: 'CLP',
        mode: 'funded',
        manager_id: 'u-manager',
        co_manager_id: null,
        status: 'open',
        created_on: '2025-10-18',
        ends_on: null,
        recurrence_unit: null,
        recurrence_every: null,
        base_amount_cents: null,
        recurrence_starts_on: null,
        period_starts_on: '2025-10-18',
        period_ends_on: null,
        period_amount_cents: 1_500_000,
        balance_cents: 420_000
      })
    })

    it('GET /v1/budgets/{id}: a renewing budget is shown in the period of today', async () => {
      // weekly from Monday 5 January 2026; today is Monday 23 November, 47 weeks later
      const got = await send('/v1/budgets/b-team-lunch', member)
      expect(got.body).toMatchObject({
        period_starts_on: '2026-11-23',
        period_ends_on: '2026-11-30',
        period_amount_cents: 30_000
      })
      // reading writes nothing
      expect(await row('SELECT period_starts_on FROM budgets WHERE id = $1', ['b-team-lunch'])).toEqual({
        period_starts_on: '2026-01-05'
      })
    })

    it("GET /v1/budgets: the company's budgets with the index conventions", async () => {
      const got = await send('/v1/budgets', member)
      expect(got.status).toBe(200)
      expect(got.headers.get('x-total-count')).toBe('5')
      expect(got.headers.get('content-range')).toBe('0-4/5')
      const budgets = got.body as Array<Record<string, unknown>>
      expect(budgets.map((b) => b.id)).toEqual(['b-events-2025', 'b-marketing', 'b-travel', 'b-team-lunch', 'b-offsite'])
      expect(budgets[1]).toEqual({
        id: 'b-marketing',
        name: 'Marketing',
        access: 'members',
        currency: 'CLP',
        mode: 'tracking',
        status: 'open',
        created_on: '2025-01-31',
        // monthly from 31 January 2025: 31 October 2026 is the start of the period of today
        period_starts_on: '2026-10-31'
      })
      const byName = await send('/v1/budgets?_field=name&_order=desc&_end=3', member)
      expect((byName.body as Array<{ name: string }>).map((b) => b.name)).toEqual(['Travel', 'Team lunch', 'Offsite 2026'])
      expect(byName.headers.get('content-range')).toBe('0-2/5')
      const closing = await send('/v1/budgets?status=closing', member)
      expect((closing.body as Array<{ id: string }>).map((b) => b.id)).toEqual(['b-offsite'])
      expect((await send('/v1/budgets?_order=DESC', member)).body).toEqual({
        error: 'bad_request',
        message: '_order must be asc or desc'
      })
    })

    it('PATCH /v1/budgets/{id}: the manager renames the budget, and it is stored', async () => {
      const got = await send('/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { name: 'Travel 2027' } } })
      expect(got.status).toBe(200)
      expect(got.body).toMatchObject({ id: 'b-travel', name: 'Travel 2027', balance_cents: 420_000 })
      expect(await row('SELECT name FROM budgets WHERE id = $1', ['b-travel'])).toEqual({ name: 'Travel 2027' })
    })

    it('PATCH /v1/budgets/{id}: the refusals of contract section 5, nothing stored', async () => {
      const patch = (who: Call, body: unknown) => send('/v1/budgets/b-travel', { ...who, method: 'PATCH', body })
      const notManager = await patch(member, { budget: { name: 'Mine' } })
      expect([notManager.status, notManager.body]).toEqual([401, { message: 'Unauthorized (401)' }])
      const recurrence = await patch(manager, { budget: { recurrence_unit: 'month', base_amount_cents: 100 } })
      expect([recurrence.status, recurrence.body]).toEqual([
        403,
        {
          error_code: 'budgets/cannot_change_recurrence',
          message: 'Only an admin or a user with budgets_manage can change the recurrence'
        }
      ])
      // the new manager must be a member of the company (the server passes its members)
      const stranger = await patch(admin, { budget: { manager_id: 'u-initech' } })
      expect([stranger.status, stranger.body]).toEqual([422, { errors: { manager_id: ['is not a member of the company'] } }])
      const noWrapper = await patch(admin, { name: 'x' })
      expect([noWrapper.status, noWrapper.body]).toEqual([
        412,
        { message: 'The request body must hold the budget under the key "budget"' }
      ])
      const broken = await patch(admin, '{"budget":')
      expect([broken.status, broken.body]).toEqual([400, { error: 'bad_request', message: 'The body is not valid JSON' }])
      expect(await row('SELECT name, manager_id, recurrence_unit FROM budgets WHERE id = $1', ['b-travel'])).toEqual({
        name: 'Travel 2027',
        manager_id: 'u-manager',
        recurrence_unit: null
      })
    })

    it('PATCH /v1/budgets/{id}: a new ends_on reopens a closing budget', async () => {
      const got = await send('/v1/budgets/b-offsite', {
        ...manager,
        method: 'PATCH',
        body: { budget: { ends_on: '2026-12-31' } }
      })
      expect(got.body).toMatchObject({ status: 'open', ends_on: '2026-12-31' })
      expect(await row('SELECT status, ends_on FROM budgets WHERE id = $1', ['b-offsite'])).toEqual({
        status: 'open',
        ends_on: '2026-12-31'
      })
    })

    it('POST top_up and withdraw move the balance; a withdraw over it is a 422', async () => {
      const before = (await balance('b-travel')) as number
      const up = await send('/v1/budgets/b-travel/top_up', { ...admin, method: 'POST', body: { amount_cents: 1000 } })
      expect([up.status, (up.body as { balance_cents: number }).balance_cents]).toEqual([200, before + 1000])
      const down = await send('/v1/budgets/b-travel/withdraw', { ...admin, method: 'POST', body: { amount_cents: 300 } })
      expect([down.status, (down.body as { balance_cents: number }).balance_cents]).toEqual([200, before + 700])
      const over = await send('/v1/budgets/b-travel/withdraw', { ...admin, method: 'POST', body: { amount_cents: before + 701 } })
      expect([over.status, over.body]).toEqual([
        422,
        { errors: { amount_cents: [`must not exceed the balance of ${before + 700} cents`] } }
      ])
      const byManager = await send('/v1/budgets/b-travel/top_up', { ...manager, method: 'POST', body: { amount_cents: 5 } })
      expect([byManager.status, byManager.body]).toEqual([401, { message: 'Unauthorized (401)' }])
      expect(await balance('b-travel')).toBe(before + 700)
    })

    it('PATCH amount sets the planned amount of the period in progress, stored with the period of today', async () => {
      const got = await send('/v1/budgets/b-marketing/amount', { ...admin, method: 'PATCH', body: { amount_cents: 1234 } })
      expect(got.status).toBe(200)
      expect(
        await row('SELECT period_starts_on, period_ends_on, period_amount_cents FROM budgets WHERE id = $1', ['b-marketing'])
      ).toEqual({
        period_starts_on: '2026-10-31',
        period_ends_on: '2026-11-30',
        period_amount_cents: 1234
      })
      const funded = await send('/v1/budgets/b-travel/amount', { ...admin, method: 'PATCH', body: { amount_cents: 1 } })
      expect([funded.status, funded.body]).toEqual([422, { errors: { mode: ['must be tracking for amount'] } }])
      const closed = await send('/v1/budgets/b-events-2025/amount', { ...admin, method: 'PATCH', body: { amount_cents: 1 } })
      expect([closed.status, closed.body]).toEqual([409, { error: 'conflict', message: 'The budget is closed' }])
    })
  })

  describe('money under concurrency: one transaction per move, the budget row locked', () => {
    it('50 concurrent top-ups of one cent add exactly 50 cents', async () => {
      const before = (await balance('b-team-lunch')) as number
      const replies = await Promise.all(
        Array.from({ length: 50 }, () =>
          send('/v1/budgets/b-team-lunch/top_up', { ...admin, method: 'POST', body: { amount_cents: 1 } })
        )
      )
      expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 200))
      // each reply saw a different balance: the top-ups ran one after the other
      expect(new Set(replies.map((r) => (r.body as { balance_cents: number }).balance_cents)).size).toBe(50)
      expect(await balance('b-team-lunch')).toBe(before + 50)
    }, 30_000)

    it('withdraws racing never take the balance below 0: exactly as many succeed as it holds', async () => {
      const before = (await balance('b-team-lunch')) as number
      // three of these fit in the balance, four do not
      const each = Math.floor(before / 4) + 1
      const replies = await Promise.all(
        Array.from({ length: 10 }, () =>
          send('/v1/budgets/b-team-lunch/withdraw', { ...admin, method: 'POST', body: { amount_cents: each } })
        )
      )
      const statuses = replies.map((r) => r.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(3)
      expect(statuses.filter((s) => s === 422)).toHaveLength(7)
      expect(await balance('b-team-lunch')).toBe(before - 3 * each)
    }, 30_000)
  })

  describe('Idempotency-Key on money endpoints', () => {
    const topUp = (amount: number, key: string, who: Call = admin) =>
      send('/v1/budgets/b-travel/top_up', {
        ...who,
        method: 'POST',
        body: { amount_cents: amount },
        headers: { 'Idempotency-Key': key }
      })

    it('the same key and body: the stored reply again, the money moved once', async () => {
      const before = (await balance('b-travel')) as number
      const first = await topUp(100, 'idem-1')
      const again = await topUp(100, 'idem-1')
      expect(first.status).toBe(200)
      expect([again.status, again.text]).toEqual([200, first.text])
      expect(again.headers.get('content-type')).toBe(json)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(first.headers.get('idempotent-replayed')).toBeNull()
      expect(again.headers.get('x-request-id')).toMatch(UUID)
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
      expect(await balance('b-travel')).toBe(before + 100)
    })

    it('the same key with another body: 422, nothing moves', async () => {
      const before = await balance('b-travel')
      const other = await topUp(999, 'idem-1')
      expect([other.status, other.body]).toEqual([
        422,
        { errors: { idempotency_key: ['was already used with another request'] } }
      ])
      expect(await balance('b-travel')).toBe(before)
    })

    it('one key sent five times at once moves the money once, and all get the same reply', async () => {
      const before = (await balance('b-travel')) as number
      const replies = await Promise.all(Array.from({ length: 5 }, () => topUp(7, 'idem-burst')))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      expect(new Set(replies.map((r) => r.text)).size).toBe(1)
      expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(4)
      expect(await balance('b-travel')).toBe(before + 7)
    })

    it("keys are per API key: another key's use of the same value is its own request", async () => {
      const got = await topUp(100, 'idem-1', manager)
      expect([got.status, got.body]).toEqual([401, { message: 'Unauthorized (401)' }])
      expect(got.headers.get('idempotent-replayed')).toBeNull()
    })

    it('a refusal is kept and replayed too', async () => {
      const closed = { ...admin, method: 'POST', body: { amount_cents: 1 }, headers: { 'Idempotency-Key': 'idem-closed' } }
      const first = await send('/v1/budgets/b-events-2025/top_up', closed)
      const again = await send('/v1/budgets/b-events-2025/top_up', closed)
      expect([first.status, again.status, again.text]).toEqual([409, 409, first.text])
      expect(again.headers.get('idempotent-replayed')).toBe('true')
    })

    it('a caller refused before its company is known claims no key: the same empty refusal again, no replay, no row', async () => {
      const noCompany = {
        key: 'demo-admin',
        method: 'POST',
        body: { amount_cents: 1 },
        headers: { 'Idempotency-Key': 'idem-no-company' }
      }
      const first = await send('/v1/budgets/b-travel/top_up', noCompany)
      const again = await send('/v1/budgets/b-travel/top_up', noCompany)
      expect([first.status, first.text, again.status, again.text]).toEqual([401, '', 401, ''])
      expect([again.headers.get('idempotent-replayed'), again.headers.get('content-type')]).toEqual([null, null])
      expect(await row(`SELECT count(*)::int AS n FROM idempotency_keys WHERE idempotency_key = 'idem-no-company'`)).toEqual({
        n: 0
      })
    })

    it('an empty key, or one over 255 characters, is a 400', async () => {
      for (const key of ['', 'k'.repeat(256)]) {
        const got = await topUp(1, key)
        expect([got.status, got.body]).toEqual([
          400,
          { error: 'bad_request', message: 'Idempotency-Key must be 1 to 255 characters' }
        ])
      }
    })
  })

  describe('a request that fails inside its transaction', () => {
    it('leaves nothing half-written: the balance and the key are as before, and a retry moves the money once', async () => {
      const failures: Array<unknown> = []
      // The same database, but the statement that keeps the reply fails, after the budget was written.
      const failing: Database = {
        ...db,
        transaction: (work) =>
          db.transaction((tx) =>
            work({
              ...tx,
              query: (text, values) =>
                text.startsWith('UPDATE idempotency_keys')
                  ? Promise.reject(new Error('the disk is gone'))
                  : tx.query(text, values)
            })
          )
      }
      const broken = await listen(failing, { clock: () => NOW, report: (e) => failures.push(e) })
      extra.push(broken)
      const before = (await balance('b-travel')) as number
      const request = { ...admin, method: 'POST', body: { amount_cents: 700 }, headers: { 'Idempotency-Key': 'idem-crash' } }
      const got = await call(broken.url, '/v1/budgets/b-travel/top_up', request)
      expect([got.status, got.body]).toEqual([500, { error: 'internal_error', message: 'Internal server error' }])
      expect(got.headers.get('x-request-id')).toMatch(UUID)
      expect(failures.map((e) => (e as Error).message)).toEqual(['the disk is gone'])
      expect(await balance('b-travel')).toBe(before)
      expect(await row(`SELECT count(*)::int AS n FROM idempotency_keys WHERE idempotency_key = 'idem-crash'`)).toEqual({ n: 0 })
      const retry = await send('/v1/budgets/b-travel/top_up', request)
      expect(retry.status).toBe(200)
      expect(retry.headers.get('idempotent-replayed')).toBeNull()
      expect(await balance('b-travel')).toBe(before + 700)
    })
  })

  describe('GET /v1/banking/bank_transactions, a page at a time from the database', () => {
    const allIds = Array.from({ length: 5000 }, (_, i) => `tx-${String(i + 1).padStart(5, '0')}`)

    it('a walk in pages of 100 sees each of the 5,000 transactions once, in created_at then id order', async () => {
      type Tx = { id: string; created_at: string }
      const seen: Array<Tx> = []
      for (let start = 0; start < 5000; start += 100) {
        const got = await send(`/v1/banking/bank_transactions?_start=${start}&_end=${start + 100}`, member)
        expect(got.status).toBe(200)
        expect(got.headers.get('x-total-count')).toBe('5000')
        expect(got.headers.get('content-range')).toBe(`${start}-${start + 99}/5000`)
        seen.push(...(got.body as Array<{ id: string; created_at: string }>))
      }
      expect(seen.map((t) => t.id).sort()).toEqual(allIds)
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1], seen[i]] as [Tx, Tx]
        const order = Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1)
        expect(order).toBeLessThan(0)
      }
      // ties of created_at are there to be broken
      expect(new Set(seen.map((t) => t.created_at)).size).toBeLessThan(5000)
      const past = await send('/v1/banking/bank_transactions?_start=5000&_end=5100', member)
      expect([past.status, past.body, past.headers.get('content-range')]).toEqual([200, [], '*/5000'])
    }, 30_000)

    it('the unfiltered count is the one the database keeps, and follows inserts and deletes', async () => {
      const total = async () => (await send('/v1/banking/bank_transactions?_end=1', member)).headers.get('x-total-count')
      const counted = async () =>
        String((await row(`SELECT count(*)::int AS n FROM bank_transactions WHERE company_id = 'c-acme'`))?.n)
      expect([await total(), await counted()]).toEqual(['5000', '5000'])
      await db.query(
        `INSERT INTO bank_transactions (id, company_id, amount, status, created_at, updated_at)
         SELECT 'tx-count-' || n, 'c-acme', n, 'pending', now(), now() FROM generate_series(1, 7) AS n`
      )
      expect([await total(), await counted()]).toEqual(['5007', '5007'])
      await db.query(`DELETE FROM bank_transactions WHERE id LIKE 'tx-count-%' AND amount <= 7`)
      expect([await total(), await counted()]).toEqual(['5000', '5000'])
      // Another company's count is its own.
      expect((await row(`SELECT total::int AS n FROM bank_transaction_counts WHERE company_id = 'c-initech'`))?.n).toBe(3)
    })

    it('a filter and a sort run in the database: the count is the rows that match', async () => {
      const pending = (await row(
        `SELECT count(*)::int AS n FROM bank_transactions WHERE company_id = 'c-acme' AND status = 'pending'`
      )) as {
        n: number
      }
      const got = await send('/v1/banking/bank_transactions?status=pending&_end=50', member)
      expect(got.headers.get('x-total-count')).toBe(String(pending.n))
      expect((got.body as Array<{ status: string }>).every((t) => t.status === 'pending')).toBe(true)
      expect(got.body).toHaveLength(50)
      const byAmount = (await send('/v1/banking/bank_transactions?_field=amount&_order=desc&_end=100', member)).body as Array<{
        id: string
        amount: number
      }>
      for (let i = 1; i < byAmount.length; i++) {
        const [a, b] = [byAmount[i - 1], byAmount[i]] as [{ id: string; amount: number }, { id: string; amount: number }]
        expect(a.amount > b.amount || (a.amount === b.amount && a.id > b.id)).toBe(true)
      }
    })

    it('a window over 2000 is a 416; a malformed query a 400', async () => {
      const wide = await send('/v1/banking/bank_transactions?_start=0&_end=2001', member)
      expect([wide.status, wide.body]).toEqual([416, { message: 'Requested page size 2001 exceeds maximum of 2000' }])
      const widest = await send('/v1/banking/bank_transactions?_start=10&_end=2010', member)
      expect([widest.status, (widest.body as Array<unknown>).length]).toEqual([200, 2000])
      const bad = await send('/v1/banking/bank_transactions?_field=status', member)
      expect([bad.status, bad.body]).toEqual([
        400,
        { error: 'bad_request', message: '_field must be one of created_at, updated_at, amount' }
      ])
    })
  })

  describe('POST /v1/banking/bank_transactions/{id}/authorize', () => {
    it('an admin authorizes a pending transaction once; it is stored; a member may not', async () => {
      const pending = (await row(
        `SELECT id FROM bank_transactions WHERE company_id = 'c-acme' AND status = 'pending' ORDER BY id LIMIT 1`
      )) as { id: string }
      const path = `/v1/banking/bank_transactions/${pending.id}/authorize`
      const byMember = await send(path, { ...member, method: 'POST' })
      expect([byMember.status, byMember.body]).toEqual([401, { message: 'Unauthorized (401)' }])
      const got = await send(path, { ...admin, method: 'POST' })
      expect(got.status).toBe(200)
      expect(got.body).toMatchObject({ id: pending.id, company_id: 'c-acme', status: 'authorized' })
      expect(await row('SELECT status FROM bank_transactions WHERE id = $1', [pending.id])).toEqual({ status: 'authorized' })
      const again = await send(path, { ...admin, method: 'POST' })
      expect([again.status, again.body]).toEqual([409, { error: 'conflict', message: 'The transaction is already authorized' }])
    })

    it('with an Idempotency-Key, a retry gets the 200 again rather than a 409', async () => {
      const pending = (await row(
        `SELECT id FROM bank_transactions WHERE company_id = 'c-acme' AND status = 'pending' ORDER BY id LIMIT 1`
      )) as { id: string }
      const request = { ...admin, method: 'POST', headers: { 'Idempotency-Key': `authorize-${pending.id}` } }
      const first = await send(`/v1/banking/bank_transactions/${pending.id}/authorize`, request)
      const again = await send(`/v1/banking/bank_transactions/${pending.id}/authorize`, request)
      expect([first.status, again.status, again.text]).toEqual([200, 200, first.text])
    })
  })

  describe('POST /v1/banking/bank_recipients', () => {
    const ana = {
      bank_recipient: { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-chile', name: ' Ana Pérez ' }
    }

    it('an admin enrolls a recipient, normalised and stored; the same one again is a 409', async () => {
      const got = await send('/v1/banking/bank_recipients', { ...admin, method: 'POST', body: ana })
      expect([got.status, got.body]).toEqual([
        201,
        { rut: '12345678-5', account_number: '00123456', bank_id: 'bank-chile', name: 'Ana Pérez' }
      ])
      expect(await row(`SELECT company_id, rut, name FROM bank_recipients WHERE rut = '12345678-5'`)).toEqual({
        company_id: 'c-acme',
        rut: '12345678-5',
        name: 'Ana Pérez'
      })
      const again = await send('/v1/banking/bank_recipients', { ...admin, method: 'POST', body: ana })
      expect([again.status, again.body]).toEqual([409, { error: 'conflict', message: 'The recipient is already enrolled' }])
    })

    it('every invalid field in one 422; a member may not enroll', async () => {
      const wrong = { bank_recipient: { ...ana.bank_recipient, rut: '12.345.678-4', bank_id: 'bank-nowhere' } }
      const got = await send('/v1/banking/bank_recipients', { ...admin, method: 'POST', body: wrong })
      expect([got.status, got.body]).toEqual([
        422,
        { errors: { rut: ['has a wrong check digit'], bank_id: ['is not a known bank'] } }
      ])
      const byMember = await send('/v1/banking/bank_recipients', { ...member, method: 'POST', body: ana })
      expect([byMember.status, byMember.body]).toEqual([401, { message: 'Unauthorized (401)' }])
    })
  })

  describe('companies and roles', () => {
    it("GET /v1/companies lists the caller's companies in {data, cursors}", async () => {
      const got = await send('/v1/companies', { key: 'demo-member' })
      expect(got.status).toBe(200)
      expect(got.headers.get('x-total-count')).toBe('1')
      expect(got.body).toEqual({
        data: [
          { id: 'c-acme', name: 'Acme SpA', created_at: '2025-01-01T12:00:00.000000Z', updated_at: '2025-01-01T12:00:00.000000Z' }
        ],
        cursors: { previous: null, next: null }
      })
    })

    it('PATCH /v1/companies/{id}/memberships/{user_id}: a role granted is a role held', async () => {
      const assign = (role: string, who: Call = admin, path = '/v1/companies/c-acme/memberships/u-member') =>
        send(path, { ...who, method: 'PATCH', body: { role } })
      const topUp = () => send('/v1/budgets/b-travel/top_up', { ...member, method: 'POST', body: { amount_cents: 1 } })
      expect((await topUp()).status).toBe(401)
      const granted = await assign('admin')
      expect([granted.status, granted.body]).toEqual([200, { user_id: 'u-member', role: 'admin' }])
      expect(await row(`SELECT role FROM memberships WHERE user_id = 'u-member'`)).toEqual({ role: 'admin' })
      expect((await topUp()).status).toBe(200)
      expect((await assign('member')).status).toBe(200)
      expect((await topUp()).status).toBe(401)
      const owner = await assign('owner')
      expect([owner.status, owner.body]).toEqual([
        403,
        { error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role' }
      ])
      expect((await assign('Admin')).status).toBe(422)
      // the path names another company than company-id: no such member there
      const elsewhere = await assign('member', admin, '/v1/companies/c-initech/memberships/u-initech')
      expect([elsewhere.status, elsewhere.text]).toEqual([404, '{"error":"not_found","message":"Not found"}'])
      expect(await row(`SELECT role FROM memberships WHERE user_id = 'u-initech'`)).toEqual({ role: 'owner' })
    })
  })

  describe('around the routes', () => {
    it('every reply has its own X-Request-Id and the CORS headers', async () => {
      const [a, b] = await Promise.all([send('/v1/companies', { key: 'demo-admin' }), send('/v1/companies')])
      expect(a.headers.get('x-request-id')).toMatch(UUID)
      expect(b.headers.get('x-request-id')).toMatch(UUID)
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
      for (const got of [a, b]) {
        expect(got.headers.get('access-control-allow-origin')).toBe('*')
        expect(got.headers.get('access-control-expose-headers')).toBe('Content-Range, X-Total-Count, X-Request-Id, Retry-After')
      }
    })

    it('a malformed stored budget is a 500 of the rules, recorded: nothing kept for its key, no exception; a stranger is refused first', async () => {
      // funded without a balance: inconsistent; the database allows it, the facades do not
      await db.query(
        `INSERT INTO budgets (id, company_id, name, access, currency, mode, status, created_on, period_starts_on, balance_cents)
         VALUES ('b-broken', 'c-acme', 'Broken', 'everyone', 'CLP', 'funded', 'open', '2026-01-01', '2026-01-01', NULL)`
      )
      const lines: Array<string> = []
      // The exceptions logged: not the requests' own lines, a 5xx's at level error too.
      const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'unexpected error')
      try {
        // the server's defaults, but for its log: the system clock, 600 a minute, errors logged
        const plain = await listen(db, {
          logLevel: 'error',
          logDestination: {
            write: (line: string) => {
              lines.push(line)
            }
          }
        })
        extra.push(plain)
        const request = { ...admin, method: 'POST', body: { amount_cents: 1 }, headers: { 'Idempotency-Key': 'idem-broken' } }
        const refused = await call(plain.url, '/v1/budgets/b-broken/top_up', request)
        // The message names what the server's database holds wrong; the log has it too.
        expect([refused.status, refused.body]).toEqual([
          500,
          { error: 'internal_error', message: 'Internal server error: budget.balance_cents is null on a funded budget' }
        ])
        expect(await row(`SELECT count(*)::int AS n FROM idempotency_keys WHERE idempotency_key = 'idem-broken'`)).toEqual({
          n: 0
        })
        expect(logged()).toEqual([])
        // Listing checks every budget (R-17): the malformed one is the rules' 500, naming it, and recorded.
        const listed = await call(plain.url, '/v1/budgets', admin)
        expect([listed.status, listed.body]).toEqual([
          500,
          { error: 'internal_error', message: 'Internal server error: budgets[3].balance_cents is null on a funded budget' }
        ])
        expect(listed.headers.get('access-control-allow-origin')).toBe('*')
        const id = listed.headers.get('x-request-id') ?? ''
        expect(logged()).toEqual([])
        expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>).at(-1)).toMatchObject({
          level: 'error',
          msg: 'GET /v1/budgets 500',
          request_id: id,
          status: 500
        })
        expect((await findDecision(db, id))?.rules.slice(-2)).toEqual(['page.size', 'budget.stored'])
        expect(lines.join('')).not.toContain('demo-admin')
        // A stranger to the company is refused before any budget is read: its 404, not the 500.
        const stranger = await call(plain.url, '/v1/budgets', { key: 'demo-admin', company: 'c-initech' })
        expect([stranger.status, stranger.body]).toEqual([404, { error: 'not_found', message: 'Not found' }])
      } finally {
        await db.query(`DELETE FROM budgets WHERE id = 'b-broken'`)
      }
    })

    it('a CORS preflight is answered without a key', async () => {
      const res = await fetch(`${url}/v1/budgets/b-travel/top_up`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'idempotency-key'
        }
      })
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, OPTIONS')
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, company-id, Idempotency-Key')
      expect(res.headers.get('x-request-id')).toMatch(UUID)
    })

    it('an unknown route is a 404 in the not_found shape', async () => {
      for (const [method, path] of [
        ['GET', '/v1/nothing'],
        ['DELETE', '/v1/budgets/b-travel'],
        ['POST', '/v1/budgets']
      ] as const) {
        const got = await send(path, { ...admin, method })
        expect([got.status, got.body]).toEqual([404, { error: 'not_found', message: `No route for ${method} ${path}` }])
        expect(got.headers.get('x-request-id')).toMatch(UUID)
      }
    })

    it('a body over 64 KiB is a 413, whether its length is announced or streamed; 64 KiB exactly is read', async () => {
      const before = (await balance('b-travel')) as number
      const padded = (size: number) => `{"amount_cents":1}${' '.repeat(size - 18)}`
      const tooBig = await send('/v1/budgets/b-travel/top_up', { ...admin, method: 'POST', body: padded(65_537) })
      const refusal = { error: 'payload_too_large', message: 'The request body exceeds 65536 bytes' }
      expect([tooBig.status, tooBig.body]).toEqual([413, refusal])
      expect(tooBig.headers.get('x-request-id')).toMatch(UUID)
      // no Content-Length: counted while it streams in (straight to the server: a proxy frames the body anew)
      const chunk = new TextEncoder().encode(' '.repeat(16_384))
      let sent = 0
      const stream = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          if (sent++ < 5) controller.enqueue(sent === 1 ? new TextEncoder().encode('{"amount_cents":1}') : chunk)
          else controller.close()
        }
      })
      const streamed = await fetch(`${server.url}/v1/budgets/b-travel/top_up`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' },
        body: stream,
        duplex: 'half'
      })
      expect([streamed.status, await streamed.json()]).toEqual([413, refusal])
      expect(await balance('b-travel')).toBe(before)
      const exact = await send('/v1/budgets/b-travel/top_up', { ...admin, method: 'POST', body: padded(65_536) })
      expect(exact.status).toBe(200)
      expect(await balance('b-travel')).toBe(before + 1)
    })

    it('close() cuts a request that is still under way once the drain time is over', async () => {
      // the cut request's handler fails reading its body: not a failure to log here
      const draining = await listen(db, { clock: () => NOW, drainMs: 300, report: () => undefined })
      let asked!: () => void
      const started = new Promise<void>((resolve) => (asked = resolve))
      let pulls = 0
      // a body that never ends
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          if (++pulls === 1) controller.enqueue(new TextEncoder().encode('{"amount_cents":'))
          else {
            asked()
            await new Promise(() => undefined)
          }
        }
      })
      const stuck = fetch(`${draining.url}/v1/budgets/b-travel/top_up`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' },
        body,
        duplex: 'half'
      })
      await started
      await new Promise((resolve) => setTimeout(resolve, 300))
      const began = Date.now()
      await draining.close()
      expect(Date.now() - began).toBeGreaterThanOrEqual(250)
      await expect(stuck).rejects.toThrow()
    })

    it('over the rate limit: the contract 429 with Retry-After, per API key, until the minute is over', async () => {
      // A day after the suite's clock: the keys' windows, which every server on the database
      // shares, start again there.
      let now = NOW.getTime() + 86_400_000
      const limited = await listen(db, { clock: () => new Date(now), rateLimitPerMinute: 3 })
      extra.push(limited)
      const get = (key: string) => call(limited.url, '/v1/companies', { key })
      for (let i = 0; i < 3; i++) expect((await get('demo-member')).status).toBe(200)
      const over = await get('demo-member')
      expect(over.status).toBe(429)
      expect(over.headers.get('retry-after')).toBe('60')
      expect(over.body).toEqual({ error: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 60 })
      expect(over.headers.get('x-request-id')).toMatch(UUID)
      expect((await get('demo-admin')).status).toBe(200)
      now += 45_500
      const later = await get('demo-member')
      expect([later.status, later.headers.get('retry-after')]).toEqual([429, '15'])
      now += 14_500
      expect((await get('demo-member')).status).toBe(200)
    })
  })

  describe("today is the date at the company's midnight (America/Santiago, UTC-3 in November)", () => {
    const at = async (instant: string, path: string, c: Call = member) => {
      const s = await listen(db, { clock: () => new Date(instant) })
      extra.push(s)
      return call(s.url, path, c)
    }

    it('a weekly period rolls over at midnight in Santiago, not at midnight UTC', async () => {
      const before = await at('2026-11-30T02:59:59Z', '/v1/budgets/b-team-lunch')
      expect(before.body).toMatchObject({ period_starts_on: '2026-11-23', period_ends_on: '2026-11-30' })
      const after = await at('2026-11-30T03:00:00Z', '/v1/budgets/b-team-lunch')
      expect(after.body).toMatchObject({
        period_starts_on: '2026-11-30',
        period_ends_on: '2026-12-07',
        period_amount_cents: 30_000
      })
    })

    it('a monthly period from the 31st starts on the 28th of February, at Santiago midnight', async () => {
      const before = await at('2027-02-28T02:59:59Z', '/v1/budgets/b-marketing')
      expect(before.body).toMatchObject({ period_starts_on: '2027-01-31', period_ends_on: '2027-02-28' })
      const after = await at('2027-02-28T03:00:00Z', '/v1/budgets/b-marketing')
      expect(after.body).toMatchObject({
        period_starts_on: '2027-02-28',
        period_ends_on: '2027-03-31',
        period_amount_cents: 2_000_000
      })
    })

    it('a mutation after the midnight stores the budget in its new period', async () => {
      const got = await at('2026-11-30T03:00:00Z', '/v1/budgets/b-team-lunch/top_up', {
        ...admin,
        method: 'POST',
        body: { amount_cents: 1 }
      })
      expect(got.status).toBe(200)
      expect(await row('SELECT period_starts_on, period_ends_on FROM budgets WHERE id = $1', ['b-team-lunch'])).toEqual({
        period_starts_on: '2026-11-30',
        period_ends_on: '2026-12-07'
      })
    })
  })

  describe('decision records (R-120, R-121): GET /v1/decisions', () => {
    const records = (query: string, c: Call = admin) => send(`/v1/decisions?${query}`, c)

    it("an admin reads a budget's history, newest first, each a whole record", async () => {
      // A clock that moves a second a request, so that the records' instants differ.
      const name = (await row('SELECT name FROM budgets WHERE id = $1', ['b-travel']))?.name
      let tick = 0
      const ticking = await listen(db, { clock: () => new Date(NOW.getTime() + 1000 * tick++), rateLimitPerMinute: 1_000_000 })
      extra.push(ticking)
      const renamed = await call(ticking.url, '/v1/budgets/b-travel', {
        ...manager,
        method: 'PATCH',
        body: { budget: { name: 'Trips' } }
      })
      const refused = await call(ticking.url, '/v1/budgets/b-travel', {
        ...manager,
        method: 'PATCH',
        body: { budget: { recurrence_unit: 'week' } }
      })
      const got = await records('resource_id=b-travel&endpoint=budget.update&_order=desc&_end=2')
      expect(got.status).toBe(200)
      const page = got.body as ReadonlyArray<Record<string, unknown>>
      expect(page.map((r) => [r.id, r.request_id, r.status, r.actor_id])).toEqual([
        [refused.headers.get('x-request-id'), refused.headers.get('x-request-id'), 403, 'u-manager'],
        [renamed.headers.get('x-request-id'), renamed.headers.get('x-request-id'), 200, 'u-manager']
      ])
      for (const r of page) expect(DecisionRecord.is(r)).toBe(true)
      expect(page[1]).toMatchObject({
        endpoint: 'budget.update',
        method: 'PATCH',
        path: '/v1/budgets/b-travel',
        company_id: 'c-acme',
        resource_id: 'b-travel',
        changes: [{ field: 'name', before: name, after: 'Trips' }],
        masked: ['case.request.headers.authorization'],
        at: '2026-11-23T15:00:02.000000Z'
      })
      expect((page[0] as { rules: ReadonlyArray<string> }).rules.at(-1)).toBe('budget.permission.recurrence')
      expect(got.headers.get('content-range')).toMatch(/^0-1\/\d+$/)
      expect(got.text).not.toContain('demo-manager')
      await send('/v1/budgets/b-travel', { ...manager, method: 'PATCH', body: { budget: { name } } })
    })

    it('one request by its id; filters by actor, status and instant', async () => {
      const asked = await send('/v1/budgets/b-travel/top_up', { ...admin, method: 'POST', body: { amount_cents: 0 } })
      const id = asked.headers.get('x-request-id') ?? ''
      const got = await records(`request_id=${id}`)
      expect([
        got.status,
        (got.body as ReadonlyArray<{ id: string }>).map((r) => r.id),
        got.headers.get('x-total-count')
      ]).toEqual([200, [id], '1'])
      expect(got.body).toEqual([await findDecision(db, id).then((r) => ({ ...r, id }))])
      const mine = await records('actor_id=u-admin&status=422&at[$gte]=2026-11-23T15:00:00Z&_end=500')
      expect((mine.body as ReadonlyArray<{ id: string }>).map((r) => r.id)).toContain(id)
      const none = await records('actor_id[$ne]=u-admin&status=422&endpoint=budget.top_up')
      expect(none.body).toEqual([])
    })

    it("only full rights read it: a member and a manager get the guard's 401; a bad filter is a 400", async () => {
      for (const who of [member, manager]) {
        const got = await records('', who)
        expect([got.status, got.body]).toEqual([401, { message: 'Unauthorized (401)' }])
      }
      const bad = await records('rules=x')
      expect([bad.status, bad.body]).toEqual([400, { error: 'bad_request', message: 'rules cannot be filtered' }])
    })

    it('every reply of this suite that a facade decided has exactly one record, which decides again the same', async () => {
      let replayed = 0
      let checked = 0
      for (const { request, got } of replies) {
        const id = got.headers.get('x-request-id') ?? ''
        const found = await db.query('SELECT status FROM decisions WHERE id = $1', [id])
        // The server's own replies, before or besides a facade: no record.
        const own =
          !request.includes(' /v1/') ||
          [413, 429, 503].includes(got.status) ||
          (got.status === 404 && String((got.body as { message?: unknown } | null)?.message).startsWith('No route')) ||
          (got.status === 400 && String((got.body as { message?: unknown } | null)?.message).startsWith('Idempotency-Key')) ||
          (got.status === 422 && JSON.stringify(got.body).includes('idempotency_key'))
        if (own) {
          expect(found, request).toEqual([])
          continue
        }
        expect(found, request).toEqual([{ status: got.status }])
        const record = await findDecision(db, id)
        expect(record?.reply.status, request).toBe(got.status)
        const result = replay(record as DecisionRecord)
        if (result.replayable) {
          expect(result, request).toEqual({ replayable: true, same: true })
          replayed++
        } else
          expect(result.reason, request).toMatch(
            /^(an index page|the reply an Idempotency-Key replayed|the body, \d+ bytes, is over the 16384 a record keeps$)/
          )
        checked++
      }
      // Most of the suite's replies are decisions, most of them replayed whole.
      expect(checked).toBeGreaterThan(150)
      expect(replayed / checked).toBeGreaterThan(0.6)
    })

    it("no API key and no Authorization header of the suite's requests in any record, log line or metric, as bytes", async () => {
      const records = await db.query<{ text: string }>('SELECT row_to_json(d)::text AS text FROM decisions d')
      const metrics = await (await fetch(`${server.url}/metrics`)).text()
      expect(logLines.length).toBeGreaterThan(replies.length / 2)
      for (const line of logLines) expect(Object.keys(JSON.parse(line) as object)).toContain('request_id')
      const everything = Buffer.from([...records.map((r) => r.text), ...logLines, metrics].join('\n'))
      for (const secret of ['demo-admin', 'demo-manager', 'demo-member', 'demo-unverified', 'demo-nobody', 'Bearer demo'])
        expect(everything.includes(Buffer.from(secret)), secret).toBe(false)
    })
  })
})
