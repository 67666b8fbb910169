import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { budget, caller, errorReply, moneyBody, query, record, scenario, session, updateBody } from '../../src/arbitraries'
import { readBudget } from '../../src/budget/stored'
import { expectedReply } from '../../src/conformance'
import {
  advanceBudget,
  type CalendarDate,
  endpoints,
  parseErrorResponse,
  parseInstant,
  respondBudgetUpdate,
  respondIndex,
  Session
} from '../api'
import { r17Problems } from '../arbitraries'
import { daysBetween, lastDayOfMonth } from '../budget/calendar-oracle'

const isMonthEnd = (d: string) => Number(d.slice(8)) === lastDayOfMonth(Number(d.slice(0, 4)), Number(d.slice(5, 7)))

/** How a budget renews, read from its fields (contract section 6). */
const renewalOf = (b: { recurrence_unit: unknown; period_ends_on: unknown; period_starts_on: string; created_on: string }) =>
  b.recurrence_unit !== null
    ? 'renewing'
    : b.period_ends_on !== null
      ? 'stopped'
      : b.period_starts_on === b.created_on
        ? 'none or lapsed'
        : 'lapsed'

describe('budget()', () => {
  it('makes only consistent budgets (R-17): the library reads each, and so does an independent check', () => {
    fc.assert(
      fc.property(budget(), (b) => {
        expect(readBudget(b)._tag).toBe('Right')
        expect(r17Problems(b)).toStrictEqual([])
        // consistent enough to advance any distance without a TypeError
        expect(advanceBudget(b, '9999-12-31' as CalendarDate).id).toBe('b-1')
      }),
      { numRuns: 400, seed: 5 }
    )
  })

  it('reaches both modes, every status, every way of renewing, month-end anchors and budgets a century old', () => {
    const seen = new Map<string, number>()
    const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1)
    for (const b of fc.sample(budget(), { numRuns: 2000, seed: 9 })) {
      count(b.mode)
      count(b.status)
      count(renewalOf(b))
      if (b.recurrence_starts_on !== null && isMonthEnd(b.recurrence_starts_on)) count('month-end anchor')
      if (b.recurrence_starts_on?.slice(5) === '02-29') count('29 February anchor')
      if (daysBetween(b.created_on, b.period_starts_on) >= 36525) count('a century old')
    }
    for (const k of ['funded', 'tracking', 'open', 'closing', 'closed', 'renewing', 'stopped', 'lapsed', 'none or lapsed'])
      expect(seen.get(k) ?? 0, k).toBeGreaterThan(100)
    expect(seen.get('month-end anchor') ?? 0).toBeGreaterThan(200)
    expect(seen.get('29 February anchor') ?? 0).toBeGreaterThan(50)
    expect(seen.get('a century old') ?? 0).toBeGreaterThan(100)
  })

  it('narrows to the modes, statuses and renewals asked for', () => {
    for (const b of fc.sample(
      budget({ modes: ['tracking'], statuses: ['closing'], renewals: ['stopped'], company_id: 'c-9' }),
      100
    )) {
      expect([b.mode, b.status, b.company_id, b.balance_cents, b.recurrence_unit]).toStrictEqual([
        'tracking',
        'closing',
        'c-9',
        null,
        null
      ])
      expect(b.period_ends_on).not.toBeNull()
    }
  })

  it('shrinks a budget failing on balance_cents > 1000 to a balance of 1001', () => {
    const details = fc.check(
      fc.property(budget(), (b) => !(b.balance_cents !== null && b.balance_cents > 1000)),
      { seed: 42 }
    )
    expect(details.failed).toBe(true)
    const [b] = details.counterexample ?? []
    expect(b?.balance_cents).toBe(1001)
    expect(b?.mode).toBe('funded')
  })
})

describe('session() and caller()', () => {
  it('makes sessions the codec accepts: verified, unverified and no user, any memberships', () => {
    const sessions = fc.sample(session(), { numRuns: 500, seed: 3 })
    expect(sessions.every((s) => Session.is(s))).toBe(true)
    expect(sessions.filter((s) => s.user === null).length).toBeGreaterThan(20)
    expect(sessions.filter((s) => s.user?.email_verified === false).length).toBeGreaterThan(20)
    expect(sessions.filter((s) => Object.keys(s.memberships).length === 0).length).toBeGreaterThan(20)
    expect(sessions.filter((s) => s.memberships['c-1']?.permissions.includes('budgets_manage')).length).toBeGreaterThan(20)
  })

  it('makes callers of every role, some with budgets_manage', () => {
    const callers = fc.sample(caller(), { numRuns: 300, seed: 3 })
    expect(new Set(callers.map((c) => c.role))).toStrictEqual(new Set(['member', 'admin', 'owner']))
    expect(callers.some((c) => c.role === 'member' && c.permissions.includes('budgets_manage'))).toBe(true)
  })
})

const adminSession = {
  user: { id: 'u-admin', email_verified: true },
  memberships: { 'c-1': { role: 'admin' as const, permissions: [] } }
}
const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }

describe('updateBody()', () => {
  it('gives an admin 200, 400, 412 and 422 on open budgets, and hostile text', () => {
    const statuses = new Map<number, number>()
    const pairs = fc.sample(
      budget({ statuses: ['open'] }).chain((b) =>
        updateBody({ budget: b, today: b.period_starts_on }).map((body) => ({ b, body }))
      ),
      { numRuns: 1000, seed: 4 }
    )
    for (const { b, body } of pairs) {
      const reply = respondBudgetUpdate({
        request: { headers, ...(body === undefined ? {} : { body }) },
        session: adminSession,
        budget: b,
        today: b.period_starts_on,
        request_id: 'r',
        company_member_ids: ['u-manager', 'u-comanager', 'u-member', 'u-admin']
      })
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(300)
    for (const status of [400, 412, 422]) expect(statuses.get(status) ?? 0, String(status)).toBeGreaterThan(10)
    expect([...statuses.keys()].sort()).toStrictEqual([200, 400, 412, 422])
    const texts = pairs.map((p) => p.body)
    expect(texts).toContain(undefined)
    expect(texts.some((t) => t?.includes('__proto__'))).toBe(true)
    expect(texts.some((t) => t?.includes('\\u0000'))).toBe(true)
  })

  it('makes money bodies, most of them a valid amount', () => {
    const bodies = fc.sample(moneyBody(), { numRuns: 300, seed: 2 })
    expect(bodies.filter((b) => b !== undefined && /^\{"amount_cents":[1-9]\d*\}$/.test(b)).length).toBeGreaterThan(150)
    expect(bodies).toContain(undefined)
  })
})

describe('query() and record()', () => {
  it('makes records of the endpoint: typed fields, instants in several spellings', () => {
    const rs = fc.sample(record(endpoints.bankTransactions), { numRuns: 300, seed: 6 })
    for (const r of rs) {
      expect(Object.keys(r)).toStrictEqual(['id', 'amount', 'status', 'created_at', 'updated_at'])
      expect(Number.isSafeInteger(r.amount)).toBe(true)
      expect(parseInstant(String(r.created_at))).not.toBeNull()
    }
    const spellings = new Set(rs.map((r) => String(r.created_at).replace(/\d/g, '0')))
    expect(spellings).toContain('0000-00-00T00:00:00Z')
    expect(spellings).toContain('0000-00-00T00:00:00.000Z')
    expect([...spellings].some((s) => /[+-]00:00$/.test(s))).toBe(true)
  })

  it('makes queries the index answers with 200, 400 and 416', () => {
    const statuses = new Map<number, number>()
    const rs = fc.sample(record(endpoints.bankTransactions), { numRuns: 10, seed: 1 })
    for (const q of fc.sample(query(endpoints.bankTransactions), { numRuns: 1000, seed: 8 })) {
      const reply = respondIndex({
        request: { headers, query: q },
        session: adminSession,
        endpoint: endpoints.bankTransactions,
        records: rs,
        request_id: 'r'
      })
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(500)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(150)
    expect(statuses.get(416) ?? 0).toBeGreaterThan(20)
    expect([...statuses.keys()].sort()).toStrictEqual([200, 400, 416])
  })
})

describe('errorReply()', () => {
  it('is parsed by parseErrorResponse, every kind reached', () => {
    const kinds = new Set<string>()
    for (const reply of fc.sample(errorReply(), { numRuns: 1000, seed: 7 })) {
      const parsed = parseErrorResponse(reply)
      expect(parsed.status).toBe(reply.status)
      kinds.add(parsed.kind)
    }
    expect([...kinds].sort()).toStrictEqual(
      [
        'bad_request',
        'conflict',
        'forbidden',
        'not_found',
        'precondition_failed',
        'range_not_satisfiable',
        'rate_limited',
        'server_error',
        'unauthorized',
        'unexpected',
        'upstream',
        'validation'
      ].sort()
    )
  })
})

describe('scenario()', () => {
  // Every status each endpoint may reply with (contract sections 4, 5, 7 and 8), by error code for 403.
  const every = {
    'budget.update': [
      '200',
      '400',
      '401',
      '403 budgets/cannot_change_manager',
      '403 budgets/cannot_change_recurrence',
      '404',
      '409',
      '412',
      '422'
    ],
    'budget.top_up': ['200', '400', '401', '404', '409', '422'],
    'budget.withdraw': ['200', '400', '401', '404', '409', '422'],
    'budget.amount': ['200', '400', '401', '404', '409', '422'],
    'index.bank_transactions': ['200', '400', '401', '404', '416']
  }

  it('reaches every status of every endpoint, the passing requests most of all, never a 500', () => {
    const seen: Record<string, Map<string, number>> = {}
    const scenarios = fc.sample(scenario(), { numRuns: 2500, seed: 21 })
    for (const s of scenarios) {
      const r = expectedReply(s)
      const code = typeof r.body === 'object' && r.body !== null && 'error_code' in r.body ? ` ${String(r.body.error_code)}` : ''
      const bucket = (seen[s.endpoint] ??= new Map())
      bucket.set(`${r.status}${code}`, (bucket.get(`${r.status}${code}`) ?? 0) + 1)
    }
    for (const [endpoint, statuses] of Object.entries(every)) {
      const bucket = seen[endpoint] ?? new Map<string, number>()
      expect([...bucket.keys()].sort(), endpoint).toStrictEqual([...statuses].sort())
      const total = [...bucket.values()].reduce((a, b) => a + b, 0)
      expect(bucket.get('200') ?? 0, `${endpoint} 200`).toBeGreaterThan(total / 4)
    }
  })

  it('sends the conformance key and company c-1 in most scenarios, never an Idempotency-Key, and records with distinct ids', () => {
    const scenarios = fc.sample(scenario(), { numRuns: 500, seed: 22 })
    expect(
      scenarios.filter(
        (s) => s.request.headers.Authorization === 'Bearer conformance' && s.request.headers['company-id'] === 'c-1'
      ).length
    ).toBeGreaterThan(400)
    for (const s of scenarios) {
      expect(Object.keys(s.request.headers).map((h) => h.toLowerCase())).not.toContain('idempotency-key')
      expect(new Set(s.state.records.map((r) => r.id)).size).toBe(s.state.records.length)
      expect(s.state.budget === null || readBudget(s.state.budget)._tag === 'Right').toBe(true)
      expect(s.state.budget === null || s.state.today >= s.state.budget.period_starts_on).toBe(true)
    }
  })

  it('narrows to the endpoints asked for', () => {
    const scenarios = fc.sample(scenario({ endpoints: ['budget.amount'] }), { numRuns: 100, seed: 1 })
    expect(new Set(scenarios.map((s) => s.endpoint))).toStrictEqual(new Set(['budget.amount']))
    expect(new Set(scenarios.map((s) => `${s.request.method} ${s.request.path}`))).toStrictEqual(
      new Set(['PATCH /v1/budgets/b-1/amount'])
    )
  })
})
