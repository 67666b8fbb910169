/**
 * The kit's model of a server over a sequence (src/conformance/model.ts): each route goes to its
 * facade, the budget of a 200 is kept, pages list the company's budgets as of today, and the
 * Idempotency-Key conventions of ADR 0100 (written out here as the ADR states them) hold.
 */
import { describe, expect, it } from 'vitest'
import type { ScenarioRequest } from '../../src/arbitraries/scenario'
import {
  type Budget,
  endpoints,
  respondAmount,
  respondBudgetUpdate,
  respondIndex,
  respondTopUp,
  respondWithdraw
} from '../../src/index'
import { decideRequest, routeOf, type ServerState } from '../../src/conformance/model'
import { fixtures } from '../doc-examples'

const { budget, session, records } = fixtures() as unknown as {
  budget: Budget
  session: ServerState['session']
  records: ServerState['records']
}
const held: ServerState = {
  today: '2026-11-22',
  session,
  budget,
  company_member_ids: ['u-7', 'u-8'],
  records,
  kept: new Map()
}
const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }
const context = { session, budget, today: '2026-11-22', request_id: 'conformance' }
const request = (
  method: ScenarioRequest['method'],
  path: string,
  body?: string,
  extra: Record<string, string> = {}
): ScenarioRequest => ({
  method,
  path,
  headers: { ...headers, ...extra },
  body
})
/** The reply without the fields the facades add for the server (the budget to persist). */
const wire = ({ status, headers: h, body, reasons }: { status: number; headers: unknown; body: unknown; reasons: unknown }) => ({
  status,
  headers: h,
  body,
  reasons
})

describe('routeOf', () => {
  it.each([
    ['GET', '/v1/budgets', 'index.budgets', null],
    ['GET', '/v1/budgets?status=open&_end=5', 'index.budgets', null],
    ['GET', '/v1/banking/bank_transactions?_end=1', 'index.bank_transactions', null],
    ['GET', '/v1/budgets/b-1', 'budget.read', 'b-1'],
    ['PATCH', '/v1/budgets/b%2D9', 'budget.update', 'b-9'],
    ['POST', '/v1/budgets/b-1/top_up', 'budget.top_up', 'b-1'],
    ['POST', '/v1/budgets/b-1/withdraw', 'budget.withdraw', 'b-1'],
    ['PATCH', '/v1/budgets/b-1/amount', 'budget.amount', 'b-1']
  ])('%s %s: %s', (method, path, endpoint, id) => {
    expect(routeOf(method, path)).toEqual({ endpoint, id })
  })

  it.each([
    ['POST', '/v1/budgets'],
    ['POST', '/v1/banking/bank_transactions'],
    ['POST', '/v1/budgets/b-1'],
    ['GET', '/v1/budgets/b-1/top_up'],
    ['PATCH', '/v1/budgets/b-1/withdraw'],
    ['POST', '/v1/budgets/b-1/amount'],
    ['GET', '/v1/budgets/b-1/other'],
    ['GET', '/v1/companies']
  ])('%s %s: no route', (method, path) => {
    expect(routeOf(method, path)).toBeNull()
  })
})

describe('decideRequest', () => {
  it('each route is its facade, on the budget of the path; a 200 keeps the budget it returns', () => {
    const update = request('PATCH', '/v1/budgets/b-1', '{"budget":{"name":"Lunch"}}')
    const got = decideRequest(held, update)
    expect(got.reply).toEqual({
      ...wire(respondBudgetUpdate({ ...context, request: update, company_member_ids: held.company_member_ids })),
      replayed: false
    })
    expect(got.state.budget).toMatchObject({ name: 'Lunch' })
    const amount = request('PATCH', '/v1/budgets/b-1/amount', '{"amount_cents":5}')
    expect(decideRequest(held, amount).reply).toEqual({
      ...wire(respondAmount({ ...context, request: amount })),
      replayed: false
    })
    const withdraw = request('POST', '/v1/budgets/b-1/withdraw', '{"amount_cents":5}')
    expect(decideRequest(held, withdraw).reply).toEqual({
      ...wire(respondWithdraw({ ...context, request: withdraw })),
      replayed: false
    })
    // Another id: no budget, the facade's 404, the state as it was.
    const other = decideRequest(held, request('POST', '/v1/budgets/b-2/top_up', '{"amount_cents":5}'))
    expect([other.reply.status, other.state]).toEqual([404, held])
    // A refusal keeps the state itself.
    expect(decideRequest(held, request('POST', '/v1/budgets/b-1/withdraw', '{"amount_cents":999999}')).state).toBe(held)
  })

  it('reads: the budget as of today; pages of the company of company-id, as of today; the records', () => {
    const later = { ...held, today: '2027-01-20' }
    const read = decideRequest(later, request('GET', '/v1/budgets/b-1', undefined))
    expect(read.reply.body).toMatchObject({ period_starts_on: '2027-01-18', period_ends_on: '2027-02-18' })
    expect(read.state).toBe(later)
    const page = decideRequest(later, request('GET', '/v1/budgets?period_starts_on=2027-01-18', undefined))
    expect(page.reply.headers).toMatchObject({ 'X-Total-Count': '1' })
    const query = { headers, query: 'period_starts_on=2027-01-18' }
    expect(page.reply).toEqual({
      ...wire(
        respondIndex({
          request: query,
          session,
          endpoint: endpoints.budgets,
          records: [{ ...budget, period_starts_on: '2027-01-18', period_ends_on: '2027-02-18' }],
          request_id: 'conformance'
        })
      ),
      replayed: false
    })
    // Another company's caller sees none of them; without company-id, neither.
    const elsewhere = decideRequest(later, {
      ...request('GET', '/v1/budgets', undefined),
      headers: { ...headers, 'company-id': 'c-2' }
    })
    expect(elsewhere.reply.status).toBe(404)
    const none = decideRequest(
      { ...later, session: { ...session, memberships: { ...session.memberships, 'c-2': { role: 'admin', permissions: [] } } } },
      {
        ...request('GET', '/v1/budgets', undefined),
        headers: { ...headers, 'company-id': 'c-2' }
      }
    )
    expect([none.reply.status, none.reply.body, none.reply.headers['X-Total-Count']]).toEqual([200, [], '0'])
    const noBudget = decideRequest({ ...later, budget: null }, request('GET', '/v1/budgets', undefined))
    expect(noBudget.reply.body).toEqual([])
    const transactions = decideRequest(held, request('GET', '/v1/banking/bank_transactions?_end=2', undefined))
    expect(transactions.reply).toEqual({
      ...wire(
        respondIndex({
          request: { headers, query: '_end=2' },
          session,
          endpoint: endpoints.bankTransactions,
          records,
          request_id: 'conformance'
        })
      ),
      replayed: false
    })
    const all = decideRequest(held, request('GET', '/v1/banking/bank_transactions', undefined))
    expect(all.reply.headers['X-Total-Count']).toBe('3')
  })

  it('a route it does not know: 404 in the server own words, nothing kept', () => {
    expect(decideRequest(held, request('POST', '/v1/budgets?x=1', '{}'))).toEqual({
      reply: {
        status: 404,
        headers: { 'X-Request-Id': 'conformance', 'Content-Type': 'application/json; charset=utf-8' },
        body: { error: 'not_found', message: 'No route for POST /v1/budgets' },
        reasons: [],
        replayed: false
      },
      state: held
    })
  })

  describe('Idempotency-Keys (ADR 0100)', () => {
    const topUp = request('POST', '/v1/budgets/b-1/top_up?x=1', '{"amount_cents":500}', { 'Idempotency-Key': 'k' })

    it('the first request keeps its reply; the same one again replays it, marked, nothing moves', () => {
      const first = decideRequest(held, topUp)
      expect(first.reply).toEqual({ ...wire(respondTopUp({ ...context, request: topUp })), replayed: false })
      expect(first.state.kept.get('k')).toEqual({
        fingerprint: 'POST /v1/budgets/b-1/top_up\nc-1\n{"amount_cents":500}',
        reply: wire(respondTopUp({ ...context, request: topUp }))
      })
      const again = decideRequest(first.state, topUp)
      expect(again.state).toBe(first.state)
      expect(again.reply).toEqual({
        ...first.reply,
        headers: { ...first.reply.headers, 'Idempotent-Replayed': 'true' },
        replayed: true
      })
      // Another query string is the same request: the fingerprint holds the path alone.
      expect(decideRequest(first.state, { ...topUp, path: '/v1/budgets/b-1/top_up' }).reply.replayed).toBe(true)
    })

    it('the same key with another body, path or company-id: 422, nothing moves', () => {
      const { state } = decideRequest(held, topUp)
      const refusal = {
        status: 422,
        headers: { 'X-Request-Id': 'conformance', 'Content-Type': 'application/json; charset=utf-8' },
        body: { errors: { idempotency_key: ['was already used with another request'] } },
        reasons: [],
        replayed: false
      }
      for (const other of [
        { ...topUp, body: '{"amount_cents":501}' },
        { ...topUp, path: '/v1/budgets/b-1/withdraw' },
        { ...topUp, headers: { ...topUp.headers, 'company-id': 'c-1 ' } },
        { ...topUp, body: undefined }
      ])
        expect(decideRequest(state, other)).toEqual({ reply: refusal, state })
      // Without a company-id or a body, the fingerprint leaves them empty.
      const bare = request('POST', '/v1/budgets/b-1/top_up', undefined, { 'Idempotency-Key': 'bare' })
      const noCompany = { ...bare, headers: { Authorization: 'Bearer k', 'Idempotency-Key': 'bare' } }
      expect(decideRequest(held, noCompany).state.kept.get('bare')?.fingerprint).toBe('POST /v1/budgets/b-1/top_up\n\n')
    })

    it('a key of 0 or over 255 characters is a 400; 1 and 255 are keys', () => {
      for (const key of ['', 'x'.repeat(256)])
        expect(decideRequest(held, { ...topUp, headers: { ...topUp.headers, 'Idempotency-Key': key } })).toEqual({
          reply: {
            status: 400,
            headers: { 'X-Request-Id': 'conformance', 'Content-Type': 'application/json; charset=utf-8' },
            body: { error: 'bad_request', message: 'Idempotency-Key must be 1 to 255 characters' },
            reasons: [],
            replayed: false
          },
          state: held
        })
      for (const key of ['x', 'x'.repeat(255)])
        expect(decideRequest(held, { ...topUp, headers: { ...topUp.headers, 'Idempotency-Key': key } }).state.kept.has(key)).toBe(
          true
        )
    })

    it('claimed only by a money operation of a known caller with a bearer key', () => {
      const unclaimed = [
        {
          state: held,
          r: { ...request('PATCH', '/v1/budgets/b-1', '{"budget":{"name":"x"}}'), headers: { ...headers, 'Idempotency-Key': '' } }
        },
        {
          state: { ...held, session: { user: null, memberships: {} } },
          r: { ...topUp, headers: { ...topUp.headers, 'Idempotency-Key': '' } }
        },
        { state: held, r: { ...topUp, headers: { 'company-id': 'c-1', 'Idempotency-Key': '' } } },
        { state: held, r: { ...topUp, headers: { Authorization: 'Bearer', 'company-id': 'c-1', 'Idempotency-Key': '' } } },
        { state: held, r: { ...topUp, headers: { Authorization: 'Basic k', 'company-id': 'c-1', 'Idempotency-Key': '' } } }
      ]
      // An empty key would be a 400 were it claimed.
      for (const { state, r } of unclaimed) expect(decideRequest(state, r).reply.status).not.toBe(400)
      const spaced = { ...topUp, headers: { ...topUp.headers, Authorization: 'bearer   k  ' } }
      expect(decideRequest(held, spaced).state.kept.has('k')).toBe(true)
      // The amount of a tracking budget is a money operation too.
      const amount = request('PATCH', '/v1/budgets/b-1/amount', '{"amount_cents":5}', { 'Idempotency-Key': 'a' })
      expect(decideRequest(held, amount).state.kept.has('a')).toBe(true)
    })

    it('a 5xx keeps nothing: a retry runs again', () => {
      const broken = { ...held, today: 'not a date' }
      const got = decideRequest(broken, topUp)
      expect(got.reply.status).toBe(500)
      expect(got.state.kept.size).toBe(0)
    })
  })
})
