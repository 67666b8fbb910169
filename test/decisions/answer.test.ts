/**
 * answerCase: the decision service's answer to a case, checked against the facades
 * called directly and `decisionRecord` of that call, with the request line written out by hand
 * for every endpoint; the refusals of what is not a case, each message whole.
 */
import { createHash } from 'node:crypto'
import { either as E } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { type Answer, answerCase, decisionRecord } from '../../src/decisions'
import {
  endpoints,
  respondAuthorizeTransaction,
  respondBankRecipient,
  respondBudget,
  respondBudgetUpdate,
  respondIndex,
  respondRoleAssignment,
  respondTopUp
} from '../../src/index'
import { baseBudget, session } from '../fixtures'

const AT = '2026-11-22T15:04:05.123Z'
const KEY = 'sk_live_4f9a1c2d3e'
const KEY_ID = createHash('sha256').update(KEY).digest('hex').slice(0, 16)
const headers = { Authorization: `Bearer ${KEY}`, 'company-id': 'c-1' }

const answered = (c: unknown, meta: Parameters<typeof answerCase>[1] = { at: AT }): Answer => {
  const a = answerCase(c, meta)
  if (E.isLeft(a)) throw new Error(a.left)
  return a.right
}

/** The record `decisionRecord` makes of the same call, with the request line the service writes. */
const recordOf = (
  endpoint: Parameters<typeof decisionRecord>[0],
  context: object,
  reply: never,
  method: string,
  path: string
) => {
  const r = decisionRecord(endpoint, context as never, reply, { at: AT, key_id: KEY_ID, method, path })
  if (E.isLeft(r)) throw new Error(r.left.detail)
  return r.right
}

const update = {
  request: { headers, body: '{"budget":{"name":"Trips"}}' },
  session: session('admin'),
  budget: baseBudget,
  today: '2026-11-22',
  request_id: 'req-1'
}

describe('answerCase, a facade endpoint', () => {
  it("answers the facade's reply, the budget to persist and the record of the call", () => {
    const reply = respondBudgetUpdate(update)
    expect(reply.status).toBe(200)
    expect(answered({ endpoint: 'budget.update', ...update })).toEqual({
      status: 200,
      headers: reply.headers,
      body: reply.body,
      reasons: reply.reasons,
      budget: { ...baseBudget, name: 'Trips' },
      record: recordOf('budget.update', update, reply as never, 'PATCH', '/v1/budgets/b-1')
    })
  })

  it("persists no budget for a refusal, a read's only when the facade rolled it forward", () => {
    const refused = { ...update, session: session('member') }
    const reply = respondBudgetUpdate(refused)
    // The spec's answer to an update its caller has no right to: a 401 with the message.
    expect([reply.status, reply.body]).toEqual([401, { message: 'Unauthorized (401)' }])
    const a = answered({ endpoint: 'budget.update', ...refused })
    expect([a.status, a.budget, a.record?.status, a.record?.changes]).toEqual([401, null, 401, []])
    const read = answered({ endpoint: 'budget.get', ...update })
    const direct = respondBudget(update)
    expect([read.status, read.body, read.budget]).toEqual([200, direct.body, (direct as { budget?: unknown }).budget])
  })

  it('gives a case without request_id the one it is handed, else none', () => {
    const without: Record<string, unknown> = { ...update }
    delete without.request_id
    expect(answered({ endpoint: 'budget.update', ...without }, { at: AT, request_id: 'svc-7' }).headers['X-Request-Id']).toBe(
      'svc-7'
    )
    expect(answered({ endpoint: 'budget.update', ...without }).record?.request_id).toBe('')
  })

  it("names the key by the caller's function when given one, else by its SHA-256", () => {
    const a = answered(
      { endpoint: 'budget.top_up', ...update, request: { headers, body: '{"amount_cents":1}' } },
      {
        at: AT,
        keyId: (key) => `id-of-${key}`
      }
    )
    expect(a.record?.key_id).toBe(`id-of-${KEY}`)
    expect(a.record?.case?.request).toEqual({
      headers: { authorization: `Bearer key:id-of-${KEY}`, 'company-id': 'c-1' },
      body: '{"amount_cents":1}'
    })
    const b = answered({ endpoint: 'budget.top_up', ...update, request: { headers, body: '{"amount_cents":1}' } })
    expect(b.record?.key_id).toBe(KEY_ID)
    const none = answered({ endpoint: 'budget.top_up', ...update, request: { headers: { 'company-id': 'c-1' } } })
    expect([none.status, none.record?.key_id]).toEqual([401, null])
  })

  it("writes the route's request line with the case's ids, or the case's own", () => {
    const line = (c: object) => {
      const r = answered(c).record
      return `${r?.method} ${r?.path}`
    }
    const money = { ...update, request: { headers, body: '{"amount_cents":1}' } }
    expect(line({ endpoint: 'budget.top_up', ...money })).toBe('POST /v1/budgets/b-1/top_up')
    expect(line({ endpoint: 'budget.withdraw', ...money })).toBe('POST /v1/budgets/b-1/withdraw')
    expect(line({ endpoint: 'budget.amount', ...money })).toBe('PATCH /v1/budgets/b-1/amount')
    expect(line({ endpoint: 'budget.get', ...update, budget: { ...baseBudget, id: 'b/ä 1' } })).toBe(
      'GET /v1/budgets/b%2F%C3%A4%201'
    )
    expect(line({ endpoint: 'budget.get', ...update, budget: null })).toBe('GET /v1/budgets/-')
    expect(line({ endpoint: 'budget.get', ...update, budget: { ...baseBudget, id: '' } })).toBe('GET /v1/budgets/-')
    expect(line({ endpoint: 'budget.update', ...update, method: 'PUT', path: '/budgets/b-1?x=1' })).toBe('PUT /budgets/b-1?x=1')
    expect(
      line({
        endpoint: 'transaction.authorize',
        request: { headers },
        session: session('admin'),
        transaction: { id: 'tx-9', company_id: 'c-1', status: 'pending', amount_cents: 100 },
        request_id: 'r'
      })
    ).toBe('POST /v1/banking/bank_transactions/tx-9/authorize')
    expect(
      line({
        endpoint: 'transaction.authorize',
        request: { headers },
        session: session('admin'),
        transaction: null,
        request_id: 'r'
      })
    ).toBe('POST /v1/banking/bank_transactions/-/authorize')
    expect(
      line({ endpoint: 'recipient.enroll', request: { headers, body: '{}' }, session: session('admin'), request_id: 'r' })
    ).toBe('POST /v1/banking/bank_recipients')
    expect(
      line({
        endpoint: 'role.assign',
        request: { headers, body: '{}' },
        session: session('admin'),
        user_id: 'u-2',
        request_id: 'r'
      })
    ).toBe('PATCH /v1/companies/c-1/memberships/u-2')
    expect(line({ endpoint: 'role.assign', request: { headers: {} }, session: session('admin'), request_id: 'r' })).toBe(
      'PATCH /v1/companies/-/memberships/-'
    )
    // A request that is no object: the facade's 500, and no record (a case keeps a request object).
    const broken = answered({ endpoint: 'role.assign', request: 'no object', session: session('admin'), request_id: 'r' })
    expect([broken.status, broken.record]).toEqual([500, null])
  })

  it('answers every other facade as the facade does', () => {
    const transaction = { id: 'tx-9', company_id: 'c-1', status: 'pending', amount_cents: 100 }
    const authorize = { request: { headers }, session: session('admin'), transaction, request_id: 'r' }
    expect(answered({ endpoint: 'transaction.authorize', ...authorize }).body).toEqual(
      respondAuthorizeTransaction(authorize).body
    )
    const enroll = { request: { headers, body: '{}' }, session: session('admin'), bank_ids: [], enrolled: [], request_id: 'r' }
    const enrolled = answered({ endpoint: 'recipient.enroll', ...enroll })
    expect([enrolled.status, enrolled.body]).toEqual([respondBankRecipient(enroll).status, respondBankRecipient(enroll).body])
    const assign = {
      request: { headers, body: '{"role":"admin"}' },
      session: session('owner'),
      user_id: 'u-2',
      company_member_ids: ['u-2'],
      request_id: 'r'
    }
    expect(answered({ endpoint: 'role.assign', ...assign }).reasons).toEqual(respondRoleAssignment(assign).reasons)
    expect(
      answered({ endpoint: 'budget.top_up', ...update, request: { headers, body: '{"amount_cents":5}' } }).budget?.balance_cents
    ).toBe(
      (respondTopUp({ ...update, request: { headers, body: '{"amount_cents":5}' } }) as { budget?: { balance_cents: number } })
        .budget?.balance_cents
    )
  })

  it('keeps a key named __proto__ as a key, as JSON.parse does, never as the prototype', () => {
    const c = JSON.parse(
      `{"endpoint":"budget.update","request":{"headers":${JSON.stringify(headers)},"body":"{}"},"session":{"__proto__":{"polluted":true},"user":{"id":"u-admin","email_verified":true},"memberships":{}},"budget":null,"today":"2026-11-22","request_id":"r"}`
    ) as unknown
    const session = answered(c).record?.case?.session as Record<string, unknown>
    expect(Object.getPrototypeOf(session)).toBe(Object.prototype)
    expect(Object.keys(session)).toEqual(['__proto__', 'user', 'memberships'])
    expect(Object.getOwnPropertyDescriptor(session, '__proto__')).toEqual({
      value: { polluted: true },
      writable: true,
      enumerable: true,
      configurable: true
    })
    expect('polluted' in session).toBe(false)
  })

  it('makes no record when told not to, and calls nothing to name the key', () => {
    let named = 0
    const a = answered({ endpoint: 'budget.update', ...update }, { at: AT, recorded: false, keyId: () => String(++named) })
    const b = answered({ endpoint: 'budget.update', ...update }, { at: AT, recorded: true, keyId: () => String(++named) })
    expect([a.record, a.status, a.body, named, b.record?.key_id]).toEqual([null, b.status, b.body, 1, '1'])
  })

  it('answers without a record when the case is deeper than a record keeps', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 40; i++) deep = { deep }
    const a = answered({ endpoint: 'budget.update', ...update, session: { ...session('admin'), deep } })
    expect([a.status, a.record]).toEqual([200, null])
  })
})

describe('answerCase, an index endpoint', () => {
  const records = [
    {
      id: 'tx-1',
      amount_cents: 100,
      created_at: '2026-11-01T00:00:00Z',
      status: 'pending',
      recipient_name: 'A',
      company_id: 'c-1'
    }
  ]
  const context = { request: { headers, query: '?_start=0&_end=1' }, session: session('admin'), records, request_id: 'r' }

  it('answers a page over the records the case holds, the query written once with its ?', () => {
    const reply = respondIndex({ ...context, endpoint: endpoints.bankTransactions })
    const a = answered({ endpoint: 'index.bank_transactions', ...context })
    expect([a.status, a.headers, a.body, a.reasons]).toEqual([reply.status, reply.headers, reply.body, reply.reasons])
    expect(a.record?.path).toBe('/v1/banking/bank_transactions?_start=0&_end=1')
    const plain = answered({ endpoint: 'index.bank_transactions', ...context, request: { headers, query: '_start=0&_end=1' } })
    expect(plain.record?.path).toBe('/v1/banking/bank_transactions?_start=0&_end=1')
  })

  it('writes each index route, without a ? when there is no query', () => {
    const path = (endpoint: string, query?: unknown) =>
      answered({
        endpoint,
        request: { headers, ...(query === undefined ? {} : { query }) },
        session: session('admin'),
        records: [],
        request_id: 'r'
      }).record?.path
    expect(path('index.budgets', '')).toBe('/v1/budgets')
    expect(path('index.companies')).toBe('/v1/companies')
    expect(path('index.decisions', 7)).toBe('/v1/decisions')
  })

  it('answers a refusal planned before any page without records', () => {
    const a = answered({ endpoint: 'index.companies', request: { headers: {} }, session: session('admin'), request_id: 'r' })
    expect(a.status).toBe(401)
  })
})

describe('answerCase, a meta outside its type', () => {
  it('is a TypeError naming it (R-19)', () => {
    const thrown = (meta: unknown) => {
      try {
        answerCase({}, meta as never)
        return 'returned'
      } catch (e) {
        return [e instanceof TypeError, (e as Error).message]
      }
    }
    const expected = (value: string) => [
      true,
      `answerCase: meta is ${value}, not an AnswerMeta: { at: text, request_id?: text, at_path?: text, keyId?: a function, recorded?: a boolean }`
    ]
    expect(
      [
        undefined,
        'x',
        {},
        { at: 1 },
        { at: AT, request_id: 7 },
        { at: AT, at_path: null },
        { at: AT, keyId: 'sha' },
        { at: AT, recorded: 'no' }
      ].map(thrown)
    ).toEqual([expected('undefined'), expected('"x"'), ...Array.from({ length: 6 }, () => expected('an object'))])
    expect(thrown({ at: AT, request_id: 'r', at_path: 'p', keyId: () => 'k', recorded: true })).toBe('returned')
  })
})

describe('answerCase, what is not a case', () => {
  const refused = (c: unknown, at_path?: string) => answerCase(c, { at: AT, ...(at_path === undefined ? {} : { at_path }) })

  it('refuses each, naming the field under the path given', () => {
    expect(refused(null)).toEqual(E.left('the case is null, not a case (a JSON object)'))
    expect(refused('x', 'cases[2]')).toEqual(E.left('cases[2] is "x", not a case (a JSON object)'))
    expect(refused({})).toEqual(
      E.left(
        'endpoint is undefined, not one of budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, transaction.authorize, recipient.enroll, index.companies, role.assign, index.decisions'
      )
    )
    expect(refused({ endpoint: 'budget.update', method: 1 }, 'cases[0]')).toEqual(E.left('cases[0].method is 1, not text'))
    expect(refused({ endpoint: 'budget.update', path: null })).toEqual(E.left('path is null, not text'))
    expect(
      refused(
        { endpoint: 'index.companies', request: { headers, query: '_start=0&_end=10' }, session: session('admin') },
        'cases[1]'
      )
    ).toEqual(E.left('cases[1].records is missing: an index case that asks for a page is answered over its records'))
  })
})
