/**
 * The conformance hook (R-91) over real HTTP: off, its route is a 404; on, a seeding sets the
 * server's data, session, today and members, and the replies to the scenario's requests are
 * the library facades' replies for that state, exactly (status, body, Content-Range,
 * X-Total-Count), the instants of the records compared as instants.
 */
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/program'
import { endpoints, respondBudgetUpdate, respondIndex, respondTopUp, type Session } from '../../src/index'
import type { BudgetJson } from '../../src/budget/model'
import { parseInstant } from '../../src/calendar/instant'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { runCli } from '../cli/run'
import { call, type Got, seeded, stores, UUID } from './harness'

/** The server's own clock is years away from the scenario's today: a reply dated by it would differ. */
const CLOCK = new Date('2031-06-15T12:00:00Z')
const TODAY = '2026-11-23'
const json = 'application/json; charset=utf-8'

/** An admin of c-1, whose key the server has never seen. */
const session: Session = {
  user: { id: 'u-admin', email_verified: true },
  memberships: { 'c-1': { role: 'admin', permissions: [] } }
}

/** A funded budget renewing weekly, last advanced in January: today is many periods later. */
const budget: BudgetJson = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Team lunch',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-manager',
  co_manager_id: null,
  status: 'open',
  created_on: '2026-01-05',
  ends_on: null,
  recurrence_unit: 'week',
  recurrence_every: 1,
  base_amount_cents: 30_000,
  recurrence_starts_on: '2026-01-05',
  period_starts_on: '2026-01-05',
  period_ends_on: '2026-01-12',
  period_amount_cents: 30_000,
  balance_cents: 90_000
}

/** Records whose instants are written at offsets PostgreSQL cannot read, with fractions. */
const records = [
  { id: 'tx-a', amount: 500, status: 'pending', created_at: '2026-11-22T23:30:00+23:30', updated_at: '2026-11-22T00:00:00Z' },
  {
    id: 'tx-b',
    amount: -20,
    status: 'authorized',
    created_at: '2026-11-21T10:00:00.5-20:00',
    updated_at: '2026-11-22T06:00:00.25Z'
  },
  {
    id: 'tx-c',
    amount: 9_007_199_254_740_991,
    status: 'pending',
    created_at: '2026-11-22T01:00Z',
    updated_at: '2026-11-23T00:00:00.000001+00:00'
  },
  {
    id: 'tx-d',
    amount: 0,
    status: 'authorized',
    created_at: '0001-01-01T00:00:00+23:59',
    updated_at: '9999-12-31T23:59:59.999999-23:59'
  }
]

const state = { today: TODAY, session, budget, company_member_ids: ['u-admin', 'u-manager', 'u-member'], records }

/** The headers the contract fixes, as the facade gives them or as they came over HTTP. */
const fixedHeaders = (headers: Readonly<Record<string, string>> | Headers) => {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] ?? null))
  return { 'content-type': get('Content-Type'), 'content-range': get('Content-Range'), 'x-total-count': get('X-Total-Count') }
}

/** A reply's records with their instants as { seconds, nanos }, however they were spelled. */
const asInstants = (body: unknown) =>
  (body as ReadonlyArray<Record<string, unknown>>).map((r) => ({
    ...r,
    created_at: parseInstant(r.created_at as string),
    updated_at: parseInstant(r.updated_at as string)
  }))

describe.each(stores)('the conformance hook on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  let on: Served
  let off: Served

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    off = await listen(db, { clock: () => CLOCK })
    on = await listen(db, { clock: () => CLOCK, conformance: true, rateLimitPerMinute: 1 })
  }, 60_000)

  afterAll(async () => {
    await off.close()
    await on.close()
    await drop()
  }, 30_000)

  const seed = (body: unknown) => call(on.url, '/__conformance/state', { method: 'PUT', body })

  it('is a 404 when the server is not in test mode, like any unknown route', async () => {
    const got = await call(off.url, '/__conformance/state', { method: 'PUT', body: { state, company_id: 'c-1' } })
    expect([got.status, got.body]).toEqual([404, { error: 'not_found', message: 'No route for PUT /__conformance/state' }])
    // And the demo data is still there.
    expect((await db.query('SELECT count(*)::int AS n FROM budgets'))[0]).not.toEqual({ n: 0 })
  })

  it('seeds in one transaction: 204, the scenario budget and records only, other rows gone', async () => {
    const got = await seed({ state, company_id: 'c-1' })
    expect([got.status, got.text]).toEqual([204, ''])
    expect(got.headers.get('x-request-id')).toMatch(UUID)
    expect(await db.query('SELECT id, company_id FROM budgets')).toEqual([{ id: 'b-1', company_id: 'c-1' }])
    expect(await db.query('SELECT id, company_id FROM bank_transactions ORDER BY id')).toEqual(
      ['tx-a', 'tx-b', 'tx-c', 'tx-d'].map((id) => ({ id, company_id: 'c-1' }))
    )
    // +23:30 and -20:00 went in as the instants they name.
    const instants = await db.query<{ id: string; utc: string }>(
      `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS utc FROM bank_transactions WHERE id IN ('tx-a', 'tx-b') ORDER BY id`
    )
    expect(instants).toEqual([
      { id: 'tx-a', utc: '2026-11-22 00:00:00.000000' },
      { id: 'tx-b', utc: '2026-11-22 06:00:00.500000' }
    ])
  })

  it('PATCH: the facade reply for the seeded session, budget, today and members, whatever the key', async () => {
    await seed({ state, company_id: 'c-1' })
    const body = JSON.stringify({ budget: { name: 'Lunch', manager_id: 'u-member' } })
    const headers = { Authorization: 'Bearer not-a-stored-key', 'company-id': 'c-1', 'Content-Type': 'application/json' }
    const got = await call(on.url, '/v1/budgets/b-1', { method: 'PATCH', headers, body })
    const expected = respondBudgetUpdate({
      request: { headers, body },
      session,
      budget,
      today: TODAY,
      request_id: 'r',
      company_member_ids: state.company_member_ids
    })
    expect(got.status).toBe(200)
    expect([got.status, got.body, fixedHeaders(got.headers)]).toEqual([
      expected.status,
      expected.body,
      fixedHeaders(expected.headers)
    ])
    // Advanced to the week of the scenario's today, not of the server's clock.
    expect(got.body).toMatchObject({
      name: 'Lunch',
      manager_id: 'u-member',
      period_starts_on: '2026-11-23',
      period_ends_on: '2026-11-30'
    })
  })

  it('PATCH: a manager not in the seeded member list is the facade 422', async () => {
    await seed({ state: { ...state, company_member_ids: ['u-admin'] }, company_id: 'c-1' })
    const body = JSON.stringify({ budget: { manager_id: 'u-member' } })
    const headers = { Authorization: 'Bearer x', 'company-id': 'c-1' }
    const got = await call(on.url, '/v1/budgets/b-1', { method: 'PATCH', headers, body })
    const expected = respondBudgetUpdate({
      request: { headers, body },
      session,
      budget,
      today: TODAY,
      request_id: 'r',
      company_member_ids: ['u-admin']
    })
    expect(got.status).toBe(422)
    expect([got.status, got.body, fixedHeaders(got.headers)]).toEqual([
      expected.status,
      expected.body,
      fixedHeaders(expected.headers)
    ])
  })

  it('top_up: the facade reply; an Idempotency-Key is claimed, so the same request replays its first reply', async () => {
    await seed({ state, company_id: 'c-1' })
    const body = JSON.stringify({ amount_cents: 1_000 })
    const headers = { Authorization: 'Bearer x', 'company-id': 'c-1', 'Idempotency-Key': 'same' }
    const first = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body })
    const expectedFirst = respondTopUp({ request: { headers, body }, session, budget, today: TODAY, request_id: 'r' })
    expect([first.status, first.body, fixedHeaders(first.headers)]).toEqual([
      expectedFirst.status,
      expectedFirst.body,
      fixedHeaders(expectedFirst.headers)
    ])
    expect(first.body).toMatchObject({ balance_cents: 91_000 })
    // The same key under another bearer key: one caller under the hook, so the same set of keys.
    const again = { ...headers, Authorization: 'Bearer y' }
    const second = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers: again, body })
    expect([second.status, second.headers.get('idempotent-replayed'), second.text]).toEqual([200, 'true', first.text])
    const other = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body: '{"amount_cents":2}' })
    expect([other.status, other.body]).toEqual([422, { errors: { idempotency_key: ['was already used with another request'] } }])
    expect(await db.query('SELECT balance_cents FROM budgets')).toEqual([{ balance_cents: 91_000 }])
    // Kept under the hook's own key row, which is revoked: no bearer key resolves to it.
    expect(await db.query('SELECT key_sha256, idempotency_key, status FROM idempotency_keys')).toEqual([
      { key_sha256: 'conformance', idempotency_key: 'same', status: 200 }
    ])
    expect(
      await db.query(`SELECT user_id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_sha256 = 'conformance'`)
    ).toEqual([{ user_id: 'conformance', revoked: true }])
    // A new seeding forgets the keys: the same request tops up again.
    await seed({ state, company_id: 'c-1' })
    const fresh = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body })
    expect([fresh.status, fresh.headers.get('idempotent-replayed'), fresh.body]).toMatchObject([
      200,
      null,
      { balance_cents: 91_000 }
    ])
  })

  it('claims no Idempotency-Key for a session without a user, nor for a request without a bearer key', async () => {
    await seed({ state: { ...state, session: { user: null, memberships: {} } }, company_id: 'c-1' })
    const body = JSON.stringify({ amount_cents: 1_000 })
    for (const headers of [
      { Authorization: 'Bearer x', 'company-id': 'c-1', 'Idempotency-Key': '' },
      { 'company-id': 'c-1', 'Idempotency-Key': '' }
    ]) {
      // An empty key would be a 400 were it claimed: the facade's 401 comes instead.
      const got = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body })
      expect(got.status).toBe(401)
    }
    await seed({ state, company_id: 'c-1' })
    const bare = await call(on.url, '/v1/budgets/b-1/top_up', {
      method: 'POST',
      headers: { 'company-id': 'c-1', 'Idempotency-Key': '' },
      body
    })
    expect(bare.status).toBe(401)
    const claimed = await call(on.url, '/v1/budgets/b-1/top_up', {
      method: 'POST',
      headers: { Authorization: 'Bearer x', 'company-id': 'c-1', 'Idempotency-Key': '' },
      body
    })
    expect([claimed.status, claimed.body]).toEqual([
      400,
      { error: 'bad_request', message: 'Idempotency-Key must be 1 to 255 characters' }
    ])
  })

  it('days pass with { today } alone: the data, session and keys stay, today moves', async () => {
    await seed({ state, company_id: 'c-1' })
    const headers = { Authorization: 'Bearer x', 'company-id': 'c-1', 'Idempotency-Key': 'kept' }
    const body = JSON.stringify({ amount_cents: 500 })
    const first = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body })
    const passed = await seed({ today: '2026-12-01' })
    expect([passed.status, passed.text]).toEqual([204, ''])
    const read = await call(on.url, '/v1/budgets/b-1', { headers })
    expect(read.body).toMatchObject({ balance_cents: 90_500, period_starts_on: '2026-11-30', period_ends_on: '2026-12-07' })
    const replayed = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', headers, body })
    expect([replayed.headers.get('idempotent-replayed'), replayed.text]).toEqual(['true', first.text])
  })

  it('a day passing before any state is a 409, and seeds nothing', async () => {
    const fresh = await listen(db, { clock: () => CLOCK, conformance: true })
    try {
      const got = await call(fresh.url, '/__conformance/state', { method: 'PUT', body: { today: TODAY } })
      expect([got.status, got.body]).toEqual([
        409,
        { error: 'no_state', message: 'Days pass over a state: seed one first with { state, company_id }' }
      ])
    } finally {
      await fresh.close()
    }
  })

  it('a body that starts with a BOM reaches the facade as sent: its 400, not a 200 (kit seed 20261123, path 689)', async () => {
    await seed({ state, company_id: 'c-1' })
    const body = '\uFEFF{"budget":{"name":"x"}}'
    const headers = { Authorization: 'Bearer x', 'company-id': 'c-1' }
    const got = await call(on.url, '/v1/budgets/b-1', { method: 'PATCH', headers, body })
    const expected = respondBudgetUpdate({
      request: { headers, body },
      session,
      budget,
      today: TODAY,
      request_id: 'r',
      company_member_ids: state.company_member_ids
    })
    expect([got.status, got.body]).toEqual([400, { error: 'bad_request', message: 'The body is not valid JSON' }])
    expect([got.status, got.body, fixedHeaders(got.headers)]).toEqual([
      expected.status,
      expected.body,
      fixedHeaders(expected.headers)
    ])
  })

  it('top_up without Authorization: the facade 401, whatever session was seeded', async () => {
    await seed({ state, company_id: 'c-1' })
    const got = await call(on.url, '/v1/budgets/b-1/top_up', { method: 'POST', company: 'c-1', body: { amount_cents: 1 } })
    expect([got.status, got.text]).toEqual([401, ''])
  })

  describe('GET /v1/banking/bank_transactions: the facade page of the seeded records', () => {
    const queries: ReadonlyArray<[string, number, string | null]> = [
      ['', 200, '0-3/4'],
      ['_field=created_at&_order=asc', 200, '0-3/4'],
      ['_field=amount&_order=desc&_start=1&_end=3', 200, '1-2/4'],
      ['_field=updated_at&updated_at[$gte]=2026-11-22T03:00:00.25-03:00', 200, '0-2/3'],
      ['created_at[$lt]=2026-11-22T01:00:00.000001%2B00:00&_field=created_at', 200, '0-2/3'],
      ['status=pending&_end=1', 200, '0-0/2'],
      ['_start=10&_end=20', 200, '*/4'],
      ['_sort=amount', 400, null]
    ]
    it.each(queries)('?%s: %i %s', async (query, status, range) => {
      await seed({ state, company_id: 'c-1' })
      const headers = { Authorization: 'Bearer x', 'company-id': 'c-1' }
      const got: Got = await call(on.url, `/v1/banking/bank_transactions?${query}`, { headers })
      const expected = respondIndex({
        request: { headers, query },
        session,
        endpoint: endpoints.bankTransactions,
        records,
        request_id: 'r'
      })
      expect([got.status, got.headers.get('content-range')]).toEqual([status, range])
      expect([got.status, fixedHeaders(got.headers)]).toEqual([expected.status, fixedHeaders(expected.headers)])
      expect(got.status === 200 ? asInstants(got.body) : got.body).toEqual(
        expected.status === 200 ? asInstants(expected.body) : expected.body
      )
    })

    it('written by the server in UTC microseconds: tx-d at the edges of the years it reads', async () => {
      await seed({ state, company_id: 'c-1' })
      const got = await call(on.url, '/v1/banking/bank_transactions?id=tx-d', { key: 'x', company: 'c-1' })
      expect(got.body).toEqual([
        {
          id: 'tx-d',
          amount: 0,
          status: 'authorized',
          created_at: '0001-01-01T00:00:00.000000+23:59',
          updated_at: '9999-12-31T23:59:59.999999-23:59'
        }
      ])
    })
  })

  it('takes a seeding larger than the API body limit, and the API limit still holds', async () => {
    const many = Array.from({ length: 800 }, (_, i) => ({
      id: `tx-${String(i).padStart(4, '0')}`,
      amount: i,
      status: 'pending',
      created_at: '2026-11-22T10:00:00Z',
      updated_at: '2026-11-22T10:00:00Z'
    }))
    const seeding = JSON.stringify({ state: { ...state, records: many }, company_id: 'c-1' })
    expect(seeding.length).toBeGreaterThan(65_536)
    expect((await seed(seeding)).status).toBe(204)
    const got = await call(on.url, '/v1/banking/bank_transactions?_end=1', { key: 'x', company: 'c-1' })
    expect([got.status, got.headers.get('x-total-count'), got.headers.get('content-range')]).toEqual([200, '800', '0-0/800'])
    const big = await call(on.url, '/v1/budgets/b-1', { method: 'PATCH', key: 'x', company: 'c-1', body: 'x'.repeat(65_537) })
    expect(big.status).toBe(413)
  })

  it('has no rate limit (the server was given 1 a minute)', async () => {
    await seed({ state, company_id: 'c-1' })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await call(on.url, '/v1/budgets/b-1', { key: 'x', company: 'c-1' })).status)
    expect(statuses).toEqual([200, 200, 200])
  })

  it('without a company-id, keeps no records; a budget of any company goes in as given', async () => {
    const other = { ...budget, id: 'b-9', company_id: 'c-nowhere' }
    expect((await seed({ state: { ...state, budget: other }, company_id: null })).status).toBe(204)
    expect(await db.query('SELECT count(*)::int AS n FROM bank_transactions')).toEqual([{ n: 0 }])
    expect(await db.query('SELECT id, company_id FROM budgets')).toEqual([{ id: 'b-9', company_id: 'c-nowhere' }])
    // company-id is read as the server reads the header: without the blanks around it.
    expect((await seed({ state, company_id: ' c-1\t' })).status).toBe(204)
    expect(await db.query(`SELECT DISTINCT company_id FROM bank_transactions`)).toEqual([{ company_id: 'c-1' }])
  })

  describe('refuses what the tables cannot hold, says why, and keeps the last scenario', () => {
    const refusals: ReadonlyArray<[string, unknown, number, string]> = [
      ['not JSON', '{', 400, 'The body is not JSON'],
      [
        'no state',
        { company_id: 'c-1' },
        400,
        'The body is { state: { today, session, budget, company_member_ids, records, others? }, company_id: string | null }, or { today }'
      ],
      [
        'today beside other keys',
        { today: TODAY, company_id: 'c-1' },
        400,
        'The body is { state: { today, session, budget, company_member_ids, records, others? }, company_id: string | null }, or { today }'
      ],
      [
        'records not an array',
        { state: { ...state, records: {} }, company_id: 'c-1' },
        422,
        'state.records is an object, not an array'
      ],
      [
        'a nanosecond',
        { state: { ...state, records: [{ ...records[0], created_at: '2026-11-22T10:00:00.0000001Z' }] }, company_id: 'c-1' },
        422,
        'state.records[0].created_at is "2026-11-22T10:00:00.0000001Z": a timestamptz keeps whole microseconds, not nanoseconds'
      ],
      [
        'a field the table lacks',
        { state: { ...state, records: [{ ...records[0], company_id: 'c-1' }] }, company_id: 'c-1' },
        422,
        'state.records[0] has fields id, amount, status, created_at, updated_at, company_id: the table keeps exactly id, amount, status, created_at, updated_at'
      ],
      [
        'an id twice',
        { state: { ...state, records: [records[0], records[0]] }, company_id: 'c-1' },
        422,
        'state.records[1].id is "tx-a", the id of an earlier record'
      ],
      [
        'an amount past 2^53',
        { state: { ...state, records: [{ ...records[0], amount: 2 ** 53 }] }, company_id: 'c-1' },
        422,
        'state.records[0].amount is 9007199254740992, not a safe integer'
      ],
      [
        'a name the text column would keep as text',
        { state: { ...state, budget: { ...budget, name: 5 } }, company_id: 'c-1' },
        422,
        'state.budget.name is 5, which the budgets table keeps as "5"'
      ]
    ]
    it.each(refusals)('%s', async (_, body, status, message) => {
      await seed({ state, company_id: 'c-1' })
      const got = await seed(body)
      expect([got.status, got.body, got.headers.get('content-type')]).toEqual([
        status,
        { error: status === 400 ? 'bad_request' : 'unprocessable_state', message },
        json
      ])
      expect(await db.query('SELECT id FROM bank_transactions ORDER BY id')).toEqual(records.map(({ id }) => ({ id })))
      expect(await db.query('SELECT id, name FROM budgets')).toEqual([{ id: 'b-1', name: 'Team lunch' }])
    })

    it('a budget PostgreSQL refuses: 422 with its reason', async () => {
      const got = await seed({ state: { ...state, budget: { ...budget, balance_cents: -1 } }, company_id: 'c-1' })
      expect(got.status).toBe(422)
      expect((got.body as { message: string }).message).toMatch(/^state\.budget does not fit the budgets table: .*balance_cents/)
    })
  })

  describe('budget-rules conformance --url', () => {
    it('agrees with the reference server: the count last, exit 0', async () => {
      const got = await runCli(['conformance', '--url', `${on.url}/`, '--runs', '40', '--seed', '7'])
      expect([got.code, got.stdout, got.stderr]).toEqual([0, '40 scenarios, 0 disagreements\n', ''])
    }, 60_000)

    it('a server without the hook: one line saying so, exit 1, no scenario run', async () => {
      expect(await runCli(['conformance', '--url', off.url])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: ${off.url} answered 404 to PUT /__conformance/state, not 204: is its conformance hook on (budget-rules serve --conformance)?\n`
      })
    })

    it('--sequences: agrees with the reference server, the count last, exit 0', async () => {
      const got = await runCli(['conformance', '--sequences', '--url', on.url, '--runs', '5', '--commands', '8', '--seed', '7'])
      expect([got.code, got.stderr]).toEqual([0, ''])
      expect(got.stdout).toMatch(/^5 sequences \(\d+ requests\), 0 disagreements\n$/)
    }, 60_000)

    it('--concurrency: two instances over one database, linearizable, exit 0', async () => {
      const second = await listen(db, { clock: () => CLOCK, conformance: true })
      try {
        const got = await runCli([
          'conformance',
          '--concurrency',
          '3',
          '--url',
          on.url,
          '--url',
          second.url,
          '--operations',
          '24',
          '--seed',
          '7'
        ])
        expect([got.code, got.stderr]).toEqual([0, ''])
        expect(got.stdout).toMatch(
          /^\d+ operations \(0 unknown, 0 refused, \d+ sent again, \d+ replayed\) in \d+ ms: linearizable \(search [\d.]+ ms, \d+ configurations\)\n$/
        )
      } finally {
        await second.close()
      }
    }, 60_000)

    it.each([
      [
        ['--sequences', '--concurrency', '2', '--url', 'http://127.0.0.1:1'],
        'error: --sequences and --concurrency are two checks: ask for one at a time\n'
      ],
      [
        ['--url', 'http://127.0.0.1:1', '--url', 'http://127.0.0.1:2'],
        'error: several --url are for --concurrency (instances sharing one database); the other checks take one\n'
      ],
      [['--url', 'http://127.0.0.1:1', '--commands', '5'], 'error: --commands goes with --sequences\n'],
      [['--url', 'http://127.0.0.1:1', '--operations', '5'], 'error: --operations goes with --concurrency\n'],
      [
        ['--concurrency', '2', '--url', 'http://127.0.0.1:1', '--runs', '5'],
        'error: --runs is for scenarios and sequences; a history plans --operations\n'
      ],
      [['--concurrency', '0', '--url', 'http://127.0.0.1:1'], 'error: --concurrency is "0", not a whole number from 1 to 64\n'],
      [
        ['--concurrency', '2', '--url', 'http://127.0.0.1:1', '--operations', '100001'],
        'error: --operations is "100001", not a whole number from 1 to 100000\n'
      ],
      [
        ['--sequences', '--url', 'http://127.0.0.1:1', '--commands', '1001'],
        'error: --commands is "1001", not a whole number from 1 to 1000\n'
      ],
      [['--url', 'localhost:3000'], 'error: --url is "localhost:3000", not an http or https URL\n'],
      [['--url', 'http://127.0.0.1:1', '--runs', '0'], 'error: --runs is "0", not a whole number from 1 to 1000000\n'],
      [
        ['--url', 'http://127.0.0.1:1', '--seed', '2147483648'],
        'error: --seed is "2147483648", not an integer from -2147483648 to 2147483647\n'
      ]
    ])('%j: one line, exit 1', async (args, stderr) => {
      expect(await runCli(['conformance', ...args])).toEqual({ code: 1, stdout: '', stderr })
    })

    it('a port nobody listens on: one line, exit 1', async () => {
      const gone = createServer()
      await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
      const url = `http://127.0.0.1:${(gone.address() as { port: number }).port}`
      await new Promise((resolve) => gone.close(resolve))
      expect(await runCli(['conformance', '--url', url])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: cannot reach ${url}: ECONNREFUSED\n`
      })
    })

    it('a server that answers every request with an empty page: the disagreement, then the count, exit 1', async () => {
      // Takes every seeding, then answers 200 [] whatever the request: wrong for nearly every scenario.
      const liar = createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          if (req.method === 'PUT') res.writeHead(204).end()
          else res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'r' }).end('[]')
        })
      })
      await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve))
      try {
        const url = `http://127.0.0.1:${(liar.address() as { port: number }).port}`
        const got = await runCli(['conformance', '--url', url, '--runs', '50', '--seed', '1'])
        expect([got.code, got.stderr]).toEqual([1, ''])
        const lines = got.stdout.trimEnd().split('\n')
        expect(lines.at(-1)).toMatch(/^\d+ scenarios, 1 disagreements$/)
        // The kit's report of the shrunk scenario comes first, with the seed to replay it.
        expect(lines[0]).toMatch(/^Disagreement on (budget\.(update|top_up|withdraw|amount)|index\.bank_transactions) /)
        expect(lines.at(-2)).toMatch(/^replay: checkConformance\(\{ send, seed: 1, path: "[\d:]+" \}\)$/)
        // The same over sequences: the report first, the count last.
        const sequences = await runCli(['conformance', '--sequences', '--url', url, '--runs', '10', '--seed', '1'])
        expect([sequences.code, sequences.stderr]).toEqual([1, ''])
        const report = sequences.stdout.trimEnd().split('\n')
        expect(report[0]).toMatch(/^Disagreement at step \d+ of a sequence \(found after \d+ sequences, shrunk to \d+ steps\)$/)
        expect(report.at(-1)).toMatch(/^\d+ sequences, 1 disagreements$/)
        // And over a history: no order explains a reply that shows no budget.
        const history = await runCli(['conformance', '--concurrency', '2', '--url', url, '--operations', '4', '--seed', '1'])
        expect([history.code, history.stderr]).toEqual([1, ''])
        expect(history.stdout).toMatch(
          /^\d+ operations \(0 unknown, 0 refused, \d+ sent again, \d+ replayed\) in \d+ ms: not linearizable: /
        )
      } finally {
        await new Promise((resolve) => liar.close(resolve))
      }
    }, 60_000)
  })
})

it('budget-rules serve --conformance: warns that it is a test mode, and takes a seeding', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'budget-rules-conformance-'))
  let out = ''
  let err = ''
  let stop: (signal: string) => void = () => undefined
  let listening: (url: string) => void = () => undefined
  const url = new Promise<string>((resolve) => (listening = resolve))
  try {
    const code = run(['serve', '--conformance'], {
      out: (text) => {
        out += text
        const m = /listening on (\S+)/.exec(text)
        if (m !== null) listening(m[1] as string)
      },
      err: (text) => {
        err += text
      },
      env: { PORT: '0', DATA_DIR: dataDir },
      signal: () => new Promise((resolve) => (stop = resolve))
    })
    const served = await url
    expect((await call(served, '/__conformance/state', { method: 'PUT', body: { state, company_id: 'c-1' } })).status).toBe(204)
    expect((await call(served, '/v1/budgets/b-1', { key: 'x', company: 'c-1' })).body).toMatchObject({
      id: 'b-1',
      period_starts_on: '2026-11-23'
    })
    stop('SIGTERM')
    expect(await code).toBe(0)
    expect(err).toBe(
      'warning: test mode: the conformance hook is on; whoever reaches the server may replace its data and act as anyone (PUT /__conformance/state)\n'
    )
    expect(out).toBe(`budget-rules server listening on ${served}\nSIGTERM: closing\n`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 60_000)
