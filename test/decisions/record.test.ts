/**
 * decisionRecord: the record of each facade's call, field by field, written out by hand;
 * the masking of the request (the key never kept, the headers a facade does not read left out);
 * what cannot be kept (not JSON, a getter that throws) refused rather than kept wrong.
 */
import { createHash } from 'node:crypto'
import { either as E } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import {
  decisionRecord,
  DecisionRecord,
  type FacadeReply,
  LIBRARY_VERSION,
  type RecordMeta,
  replay,
  replayedRecord,
  decideCase
} from '../../src/decisions'
import { caseOf, indexOf } from '../../src/decisions/case'
import {
  endpoints,
  respondAmount,
  respondAuthorizeTransaction,
  respondBankRecipient,
  respondBudget,
  respondBudgetUpdate,
  respondIndex,
  respondRoleAssignment,
  respondTopUp,
  respondWithdraw
} from '../../src/index'
import { baseBudget, monthly, RESOURCE_DECISIONS, session } from '../fixtures'

const AT = '2026-11-22T15:04:05.123Z'
const KEY = 'sk_live_4f9a1c2d3e'
const headers = { Authorization: `Bearer ${KEY}`, 'company-id': 'c-1', 'User-Agent': 'curl/8', Accept: '*/*' }
const meta = (method: string, path: string, more: Partial<RecordMeta> = {}): RecordMeta => ({
  at: AT,
  key_id: '0a1b2c3d4e5f6071',
  method,
  path,
  ...more
})
const erasedBoth = ['case.request.headers.accept', 'case.request.headers.user-agent']
const keptHeaders = { authorization: 'Bearer key:0a1b2c3d4e5f6071', 'company-id': 'c-1' }

const right = (r: E.Either<unknown, DecisionRecord>): DecisionRecord => {
  if (E.isLeft(r)) throw new Error(`no record: ${JSON.stringify(r.left)}`)
  return r.right
}

describe('the record of each facade', () => {
  it('an update a manager may make: the case masked, the fields changed before and after', () => {
    const budget = monthly()
    const context = {
      request: { headers, body: '{"budget":{"name":"Trips","description":"Flights"}}' },
      session: session('manager'),
      budget,
      today: '2026-11-22',
      request_id: 'req-1',
      company_member_ids: ['u-manager', 'u-admin']
    }
    const reply = respondBudgetUpdate(context)
    expect(right(decisionRecord('budget.update', context, reply, meta('PATCH', '/v1/budgets/b-1')))).toStrictEqual({
      request_id: 'req-1',
      at: AT,
      company_id: 'c-1',
      actor_id: 'u-manager',
      key_id: '0a1b2c3d4e5f6071',
      endpoint: 'budget.update',
      method: 'PATCH',
      path: '/v1/budgets/b-1',
      resource_id: 'b-1',
      idempotency_key: null,
      replay_of: null,
      status: 200,
      rules: [
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
        'budget.permission.recurrence',
        'budget.status.closed',
        'budget.validation',
        'budget.update'
      ],
      case: {
        endpoint: 'budget.update',
        request: { headers: keptHeaders, body: '{"budget":{"name":"Trips","description":"Flights"}}' },
        session: {
          user: { id: 'u-manager', email_verified: true },
          memberships: { 'c-1': { role: 'member', permissions: [] } }
        },
        budget: { ...budget },
        today: '2026-11-22',
        company_member_ids: ['u-manager', 'u-admin'],
        request_id: 'req-1'
      },
      reply: {
        status: 200,
        headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
        body: { ...budget, name: 'Trips', description: 'Flights' }
      },
      changes: [
        { field: 'name', before: 'Travel', after: 'Trips' },
        { field: 'description', before: null, after: 'Flights' }
      ],
      masked: ['case.request.headers.authorization'],
      erased: erasedBoth,
      library_version: LIBRARY_VERSION
    })
  })

  it('a top-up that also rolls the period forward: every field the store writes is a change', () => {
    // The period in progress ended on 2026-11-18; today the next one has begun.
    const budget = monthly({ period_starts_on: '2026-10-18', period_ends_on: '2026-11-18', period_amount_cents: 1 })
    const context = {
      request: { headers, body: '{"amount_cents":700}' },
      session: session('admin'),
      budget,
      today: '2026-11-22',
      request_id: 'req-2'
    }
    const record = right(
      decisionRecord(
        'budget.top_up',
        context,
        respondTopUp(context),
        meta('POST', '/v1/budgets/b-1/top_up', { idempotency_key: 'k-1' })
      )
    )
    expect([record.status, record.idempotency_key, record.resource_id]).toEqual([200, 'k-1', 'b-1'])
    expect(record.changes).toStrictEqual([
      { field: 'period_starts_on', before: '2026-10-18', after: '2026-11-18' },
      { field: 'period_ends_on', before: '2026-11-18', after: '2026-12-18' },
      { field: 'period_amount_cents', before: 1, after: 50000 },
      { field: 'balance_cents', before: 5000, after: 5700 }
    ])
  })

  it('a refusal changes nothing, and the budget of the path is its resource even when none was found', () => {
    const context = { request: { headers }, session: session('member'), budget: null, today: '2026-11-22', request_id: 'req-3' }
    const reply = respondBudget(context)
    const record = right(decisionRecord('budget.get', context, reply, meta('GET', '/v1/budgets/b-9', { resource_id: 'b-9' })))
    expect(record).toMatchObject({
      status: 404,
      resource_id: 'b-9',
      changes: [],
      rules: ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'budget.scope'],
      reply: {
        status: 404,
        headers: { 'X-Request-Id': 'req-3', 'Content-Type': 'application/json; charset=utf-8' },
        body: { error: 'not_found', message: 'Not found' }
      }
    })
    expect(record.case).toStrictEqual({
      endpoint: 'budget.get',
      request: { headers: keptHeaders },
      session: { user: { id: 'u-member', email_verified: true }, memberships: { 'c-1': { role: 'member', permissions: [] } } },
      budget: null,
      today: '2026-11-22',
      request_id: 'req-3'
    })
  })

  it("R-124: a stranger's record names no company and keeps the body's length and SHA-256 only", () => {
    const body = '{"budget":{"name":"PWNED by anonymous"}}'
    const strangers = [
      { request: { headers: { 'company-id': 'c-1' }, body }, session: { user: null, memberships: {} } },
      { request: { headers, body }, session: session('member', 'c-2') }
    ]
    for (const stranger of strangers) {
      const context = { ...stranger, budget: monthly(), today: '2026-11-22', request_id: 'req-s' }
      const record = right(
        decisionRecord('budget.update', context, respondBudgetUpdate(context), meta('PATCH', '/v1/budgets/b-1'))
      )
      expect([record.status, record.company_id, record.case?.request, record.erased.at(-1)]).toStrictEqual([
        stranger.session.user === null ? 401 : 404,
        null,
        {
          headers: {
            'company-id': 'c-1',
            ...(stranger.session.user === null ? {} : { authorization: keptHeaders.authorization })
          },
          body: { erased: 'body', bytes: Buffer.byteLength(body), sha256: createHash('sha256').update(body).digest('hex') }
        },
        'case.request.body'
      ])
    }
  })

  it('R-124: a reply whose rules say auth.membership passed, for a request without company-id, names none', () => {
    const context = {
      request: { headers: {}, body: '{}' },
      session: session('admin'),
      budget: null,
      today: '2026-11-22',
      request_id: 'r'
    }
    const reply: FacadeReply = {
      status: 200,
      headers: { 'X-Request-Id': 'r' },
      body: null,
      reasons: [{ rule: 'auth.membership', detail: 'role admin' }]
    }
    const record = right(decisionRecord('budget.get', context, reply, meta('GET', '/v1/budgets/b-1')))
    expect([record.company_id, record.case?.request]).toStrictEqual([null, { headers: {}, body: '{}' }])
  })

  it('an index page keeps the ids of its records, and no records in the case', () => {
    const records = [
      { id: 'tx-2', amount: 800, status: 'pending', created_at: '2026-11-21T09:00:00Z', updated_at: '2026-11-21T09:00:00Z' },
      { id: 'tx-1', amount: 1200, status: 'authorized', created_at: '2026-11-20T09:00:00Z', updated_at: '2026-11-20T09:00:00Z' }
    ]
    const context = {
      request: { headers, query: '_order=desc' },
      session: session('member'),
      endpoint: endpoints.bankTransactions,
      records,
      request_id: 'req-4'
    }
    const record = right(
      decisionRecord(
        'index.bank_transactions',
        context,
        respondIndex(context),
        meta('GET', '/v1/banking/bank_transactions?_order=desc')
      )
    )
    expect(record.reply).toStrictEqual({
      status: 200,
      headers: {
        'X-Total-Count': '2',
        'Content-Range': '0-1/2',
        'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
        'X-Request-Id': 'req-4',
        'Content-Type': 'application/json; charset=utf-8'
      },
      body: ['tx-2', 'tx-1']
    })
    expect(record.case).toStrictEqual({
      endpoint: 'index.bank_transactions',
      request: { headers: keptHeaders, query: '_order=desc' },
      session: { user: { id: 'u-member', email_verified: true }, memberships: { 'c-1': { role: 'member', permissions: [] } } },
      request_id: 'req-4'
    })
    expect(record.resource_id).toBe(null)
  })

  it("the companies' envelope: the ids of its data", () => {
    const context = {
      request: { headers: { Authorization: `Bearer ${KEY}` }, query: '' },
      session: session('admin'),
      endpoint: endpoints.companies,
      records: [{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }],
      request_id: 'req-5'
    }
    const record = right(decisionRecord('index.companies', context, respondIndex(context), meta('GET', '/v1/companies')))
    expect([record.reply.body, record.company_id, record.erased]).toStrictEqual([['c-1'], null, []])
  })

  it('an authorization: the status before and after', () => {
    const transaction = { id: 'tx-7', company_id: 'c-1', amount: 900, status: 'pending', created_at: '2026-11-20T09:00:00Z' }
    const context = { request: { headers }, session: session('admin'), transaction, request_id: 'req-6' }
    const record = right(
      decisionRecord(
        'transaction.authorize',
        context,
        respondAuthorizeTransaction(context),
        meta('POST', '/v1/banking/bank_transactions/tx-7/authorize')
      )
    )
    expect([record.resource_id, record.changes]).toStrictEqual([
      'tx-7',
      [{ field: 'status', before: 'pending', after: 'authorized' }]
    ])
    expect(record.case?.transaction).toStrictEqual(transaction)
  })

  it('an enrolment: the recipient as enrolled, under the id the server gives it', () => {
    const context = {
      request: {
        headers,
        body: '{"bank_recipient":{"rut":"1-9","account_number":"1234567890","bank_id":"bank-1","name":" Ana "}}'
      },
      session: session('admin'),
      bank_ids: ['bank-1'],
      enrolled: [{ rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1' }],
      request_id: 'req-7'
    }
    const record = right(
      decisionRecord(
        'recipient.enroll',
        context,
        respondBankRecipient(context),
        meta('POST', '/v1/banking/bank_recipients', { resource_id: 'rcp-1' })
      )
    )
    expect([record.status, record.resource_id]).toEqual([201, 'rcp-1'])
    expect(record.changes).toStrictEqual([
      { field: 'rut', before: null, after: '1-9' },
      { field: 'account_number', before: null, after: '1234567890' },
      { field: 'bank_id', before: null, after: 'bank-1' },
      { field: 'name', before: null, after: 'Ana' }
    ])
    expect([record.case?.bank_ids, record.case?.enrolled]).toStrictEqual([context.bank_ids, context.enrolled])
  })

  it('a role assigned: the role given (the decision does not see the one it replaces)', () => {
    const context = {
      request: { headers, body: '{"role":"admin"}' },
      session: session('admin'),
      user_id: 'u-member',
      request_id: 'req-8',
      company_member_ids: ['u-member']
    }
    const record = right(
      decisionRecord(
        'role.assign',
        context,
        respondRoleAssignment(context),
        meta('PATCH', '/v1/companies/c-1/memberships/u-member')
      )
    )
    expect([record.resource_id, record.changes]).toStrictEqual(['u-member', [{ field: 'role', before: null, after: 'admin' }]])
  })

  it('the reply an Idempotency-Key replayed: no case, the first request named', () => {
    const record = right(
      replayedRecord(
        {
          request_id: 'req-9',
          company_id: 'c-1',
          actor_id: 'u-admin',
          endpoint: 'budget.withdraw',
          resource_id: 'b-1',
          replay_of: 'req-2',
          reply: { status: 422, headers: { 'Idempotent-Replayed': 'true' }, body: { errors: { amount_cents: ['x'] } } }
        },
        meta('POST', '/v1/budgets/b-1/withdraw', { idempotency_key: 'k-1' })
      )
    )
    expect(record).toStrictEqual({
      request_id: 'req-9',
      at: AT,
      company_id: 'c-1',
      actor_id: 'u-admin',
      key_id: '0a1b2c3d4e5f6071',
      endpoint: 'budget.withdraw',
      method: 'POST',
      path: '/v1/budgets/b-1/withdraw',
      resource_id: 'b-1',
      idempotency_key: 'k-1',
      replay_of: 'req-2',
      status: 422,
      rules: [],
      case: null,
      reply: { status: 422, headers: { 'Idempotent-Replayed': 'true' }, body: { errors: { amount_cents: ['x'] } } },
      changes: [],
      masked: [],
      erased: [],
      library_version: LIBRARY_VERSION
    })
  })
})

describe('masking the request', () => {
  const recordOf = (h: unknown, keyId: string | null = 'kid') => {
    const context = {
      request: { headers: h },
      session: session('admin'),
      budget: monthly(),
      today: '2026-11-22',
      request_id: 'r'
    }
    return right(
      decisionRecord('budget.get', context as never, respondBudget(context as never), {
        at: AT,
        key_id: keyId,
        method: 'GET',
        path: '/'
      })
    )
  }

  it('a bearer key becomes the id of the key; without an id, "unknown"', () => {
    expect(recordOf({ authorization: `bearer   ${KEY}  `, 'company-id': 'c-1' }).case?.request).toStrictEqual({
      headers: { authorization: 'Bearer key:kid', 'company-id': 'c-1' }
    })
    expect((recordOf({ Authorization: `Bearer ${KEY}` }, null).case?.request as { headers: unknown }).headers).toStrictEqual({
      authorization: 'Bearer key:unknown'
    })
  })

  it('an Authorization that holds no bearer key is masked all the same, and stays no bearer key', () => {
    for (const value of ['Basic dXNlcjpwYXNzd29yZA==', 'Bearer', 'Bearer two words', `Token ${KEY}`]) {
      const record = recordOf({ Authorization: value, 'company-id': 'c-1' })
      expect(record.case?.request).toStrictEqual({ headers: { authorization: 'masked', 'company-id': 'c-1' } })
      expect(record.masked).toStrictEqual(['case.request.headers.authorization'])
      expect([record.status, record.rules]).toStrictEqual([401, ['auth.bearer']])
    }
  })

  it('no Authorization: nothing masked', () => {
    const record = recordOf({ 'company-id': 'c-1' })
    expect([record.case?.request, record.masked]).toStrictEqual([{ headers: { 'company-id': 'c-1' } }, []])
  })

  it('two spellings that disagree count as absent, as the rules read them', () => {
    const record = recordOf({
      Authorization: `Bearer ${KEY}`,
      authorization: 'Bearer other',
      'company-id': 'c-1',
      'Company-Id': 'c-1'
    })
    expect(record.case?.request).toStrictEqual({ headers: { 'company-id': 'c-1' } })
    expect(record.erased).toStrictEqual([])
  })

  it("Node's header lists and a Fetch Headers read as the rules read them; every other name erased", () => {
    const node = recordOf({
      authorization: [`Bearer ${KEY}`],
      'company-id': ['c-1', 'c-1'],
      cookie: 'session=secret',
      'x-api-key': KEY
    })
    expect([node.case?.request, node.erased]).toStrictEqual([
      { headers: { authorization: 'Bearer key:kid', 'company-id': 'c-1' } },
      ['case.request.headers.cookie', 'case.request.headers.x-api-key']
    ])
    const fetched = recordOf(new Headers({ Authorization: `Bearer ${KEY}`, 'Company-Id': 'c-1', Cookie: 'a=1' }))
    expect([fetched.case?.request, fetched.erased, fetched.status]).toStrictEqual([
      { headers: { authorization: 'Bearer key:kid', 'company-id': 'c-1' } },
      ['case.request.headers.cookie'],
      200
    ])
    expect(JSON.stringify([node, fetched])).not.toContain(KEY)
    expect(JSON.stringify([node, fetched])).not.toContain('secret')
  })
})

describe('what cannot be kept is refused', () => {
  const reply: FacadeReply = { status: 500, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [] }
  const m = meta('GET', '/v1/budgets/b-1')
  const refused = (context: unknown, endpoint: Parameters<typeof decisionRecord>[0] = 'budget.get', r = reply, mm = m) =>
    decisionRecord(endpoint, context as never, r, mm)
  const base = { request: { headers }, session: session('admin'), budget: monthly(), today: '2026-11-22', request_id: 'r' }

  it('a value that is not JSON', () => {
    expect(refused({ ...base, budget: { ...baseBudget, balance_cents: 10n } })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'case.budget.balance_cents is 10n, not JSON' })
    )
    expect(refused({ ...base, today: Number.NaN })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'case.today is NaN, not JSON' })
    )
    expect(refused({ ...base, session: { user: null, memberships: { f: () => 1 } } })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'case.session.memberships.f is a function, not JSON' })
    )
    expect(refused({ ...base, company_member_ids: ['u-1', undefined] }, 'budget.update')).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'case.company_member_ids[1] is undefined, not JSON' })
    )
  })

  it('a cycle, or nesting deeper than any case', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(refused({ ...base, session: cyclic })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: `case.session${'.self'.repeat(32)} is nested deeper than 32` })
    )
  })

  it('a getter that throws', () => {
    const budget = Object.defineProperty({ ...baseBudget }, 'name', {
      enumerable: true,
      get: () => {
        throw new Error('row gone')
      }
    })
    expect(refused({ ...base, budget })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the context could not be read: row gone' })
    )
  })

  it('a context or a request that is not an object, an unknown endpoint, a malformed instant or reply', () => {
    expect(refused(null)).toStrictEqual(E.left({ _tag: 'Unrecordable', detail: 'the context is null, not an object' }))
    expect(refused({ ...base, request: 'GET /' })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the request is "GET /", not an object' })
    )
    expect(refused(base, 'budget.delete' as never)).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'endpoint is "budget.delete", not a decision endpoint' })
    )
    const malformed = E.left({ _tag: 'Unrecordable', detail: 'the reply, the instant or the request line is malformed' })
    expect(refused(base, 'budget.get', reply, { ...m, at: '2026-11-22' })).toStrictEqual(malformed)
    expect(refused(base, 'budget.get', { ...reply, status: 99 })).toStrictEqual(malformed)
    expect(refused(base, 'budget.get', { ...reply, headers: { 'X-Request-Id': 1 } as never })).toStrictEqual(malformed)
  })

  it('a stored object that is no object is kept as the facade saw it', () => {
    const record = decisionRecord('budget.get', { ...base, budget: 'b-1' } as never, reply, m)
    expect(E.isRight(record) && record.right.case?.budget).toBe('b-1')
  })
})

describe('the library version a record names', () => {
  it("is package.json's version", async () => {
    const { readFile } = await import('node:fs/promises')
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(LIBRARY_VERSION).toBe(pkg.version)
  })
})

describe('what an embedder may hand decisionRecord, however odd', () => {
  const at = { at: AT, key_id: null, method: 'GET', path: '/' }
  const odd = (status: number, body: unknown, extra: Record<string, unknown> = {}) => ({
    status,
    headers: {},
    body,
    reasons: [],
    ...extra
  })

  it('a page body that is no list, or records that are no objects, kept as they are', () => {
    const context = { request: { headers: {} }, session: null, endpoint: endpoints.companies, request_id: 'r' }
    expect(right(decisionRecord('index.companies', context as never, odd(200, { data: 'x' }), at)).reply.body).toEqual({
      data: 'x'
    })
    expect(right(decisionRecord('index.companies', context as never, odd(200, [{ id: 'c-1' }, 'c-2']), at)).reply.body).toEqual([
      'c-1',
      null
    ])
  })

  it('a 200 without what it changed records no change; a session that is no object, no actor; a request id that is no string, none', () => {
    const context = { request: { headers: {} }, session: 'u-1', budget: null, today: 'x', request_id: 7, user_id: 'u-member' }
    const update = right(decisionRecord('budget.update', context as never, odd(200, null), at))
    expect([update.changes, update.actor_id, update.request_id]).toEqual([[], null, ''])
    expect(right(decisionRecord('role.assign', context as never, odd(200, 'admin'), at)).changes).toEqual([])
    expect(right(decisionRecord('role.assign', context as never, odd(200, {}), at)).changes).toEqual([
      { field: 'role', before: null, after: null }
    ])
    expect(
      right(
        decisionRecord(
          'transaction.authorize',
          { ...context, transaction: null } as never,
          odd(200, { status: 'authorized' }),
          at
        )
      ).changes
    ).toEqual([{ field: 'status', before: null, after: 'authorized' }])
  })

  it('only the 200 of an index is a page of ids: another status, or another endpoint, keeps its body as given', () => {
    const indexContext = { request: { headers: {} }, session: null, endpoint: endpoints.companies, request_id: 'r' }
    const budgetContext = { request: { headers: {} }, session: null, budget: null, today: '2026-11-22', request_id: 'r' }
    const list = () => [{ id: 'c-1' }, { id: 'c-2' }]
    const replyOf = (endpoint: Parameters<typeof decisionRecord>[0], context: unknown, status: number, body: unknown) =>
      right(decisionRecord(endpoint, context as never, odd(status, body), at)).reply
    expect([
      replyOf('index.companies', indexContext, 200, list()),
      replyOf('index.companies', indexContext, 500, list()),
      replyOf('index.companies', indexContext, 206, { data: list() }),
      replyOf('budget.get', budgetContext, 200, list()),
      replyOf('budget.get', budgetContext, 200, { data: list() })
    ]).toStrictEqual([
      { status: 200, headers: {}, body: ['c-1', 'c-2'] },
      { status: 500, headers: {}, body: [{ id: 'c-1' }, { id: 'c-2' }] },
      { status: 206, headers: {}, body: { data: [{ id: 'c-1' }, { id: 'c-2' }] } },
      { status: 200, headers: {}, body: [{ id: 'c-1' }, { id: 'c-2' }] },
      { status: 200, headers: {}, body: { data: [{ id: 'c-1' }, { id: 'c-2' }] } }
    ])
  })

  it('keys whose value is undefined are left out of the case, as JSON leaves them', () => {
    const context = {
      request: { headers: {}, body: undefined },
      session: { user: null, memberships: {}, extra: undefined },
      budget: null,
      today: '2026-11-22',
      request_id: 'r'
    }
    expect(right(decisionRecord('budget.get', context, odd(401, null), at)).case).toStrictEqual({
      endpoint: 'budget.get',
      request: { headers: {} },
      session: { user: null, memberships: {} },
      budget: null,
      today: '2026-11-22',
      request_id: 'r'
    })
  })

  it('headers that are no object: nothing kept, nothing erased; a thrown value that is no error, named', () => {
    const context = { request: { headers: null }, session: null, budget: null, today: '2026-11-22', request_id: 'r' }
    expect(right(decisionRecord('budget.get', context as never, odd(500, null), at)).case?.request).toStrictEqual({ headers: {} })
    const thrower = Object.defineProperty({}, 'request', {
      get: () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what an embedder's getter may throw
        throw 'gone'
      }
    })
    expect(decisionRecord('budget.get', thrower as never, odd(500, null), at)).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the context could not be read: "gone"' })
    )
  })

  it('a replayed reply with a malformed instant is refused; the codec refuses a case that is no object', () => {
    const replayed = {
      request_id: 'r',
      company_id: null,
      actor_id: null,
      endpoint: 'budget.top_up' as const,
      resource_id: null,
      replay_of: 'q',
      reply: { status: 200, headers: {}, body: null }
    }
    expect(replayedRecord(replayed, { ...at, at: 'now' })).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the replayed reply or the request line is malformed' })
    )
    const record = right(replayedRecord(replayed, at))
    expect(record.idempotency_key).toBe(null)
    expect(E.isRight(DecisionRecord.decode(record))).toBe(true)
    expect(E.isLeft(DecisionRecord.decode({ ...record, case: 'PATCH /' }))).toBe(true)
  })
})

describe('never an exception, whatever an embedder hands over (found by the fuzz)', () => {
  const at = { at: AT, key_id: null, method: 'GET', path: '/' }
  const context = { request: { headers: {} }, session: null, budget: null, today: '2026-11-22', request_id: 'r' }
  const throwing = (key: string) =>
    Object.defineProperty({}, key, {
      enumerable: true,
      get: () => {
        throw new Error(`${key} gone`)
      }
    })

  it('decisionRecord: a reply that is undefined, or whose getter throws, is refused', () => {
    expect(decisionRecord('budget.get', context as never, undefined as never, at)).toStrictEqual(
      E.left({
        _tag: 'Unrecordable',
        detail: "the reply or the request line could not be read: Cannot read properties of undefined (reading 'status')"
      })
    )
    expect(decisionRecord('budget.get', context as never, throwing('status') as never, at)).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the reply or the request line could not be read: status gone' })
    )
  })

  it('replayedRecord: what was replayed, unreadable, is refused', () => {
    expect(replayedRecord(throwing('request_id') as never, at)).toStrictEqual(
      E.left({ _tag: 'Unrecordable', detail: 'the replayed reply or the request line could not be read: request_id gone' })
    )
  })

  it('replay: a record that is null or unreadable is not replayable', () => {
    expect(replay(null as never)).toStrictEqual({
      replayable: false,
      reason: "the record could not be read: Cannot read properties of null (reading 'case')"
    })
    expect(replay(throwing('case') as never)).toStrictEqual({
      replayable: false,
      reason: 'the record could not be read: case gone'
    })
  })

  it('decideCase: a case whose getter throws is refused', () => {
    expect(decideCase(throwing('endpoint'))).toStrictEqual(E.left('the case could not be read: endpoint gone'))
  })
})

describe('what each mutation changed, and that a refusal changed nothing (found by mutation testing)', () => {
  const admin = session('admin')
  const recordOf = (endpoint: Parameters<typeof decisionRecord>[0], context: unknown, reply: FacadeReply) =>
    right(decisionRecord(endpoint, context as never, reply, meta('POST', '/v1/x')))
  /** An admin's request on the monthly budget, today, with `body` if any. */
  const onBudget = (request_id: string, body?: string) => ({
    request: body === undefined ? { headers } : { headers, body },
    session: admin,
    budget: monthly(),
    today: '2026-11-22',
    request_id
  })

  it('a withdrawal and an amount set: the balance and the period amount before and after', () => {
    const context = onBudget('req-w', '{"amount_cents":700}')
    expect(recordOf('budget.withdraw', context, respondWithdraw(context)).changes).toStrictEqual([
      { field: 'balance_cents', before: 5000, after: 4300 }
    ])
    // The amount of a tracking budget's period in progress.
    const set = {
      ...context,
      budget: monthly({ mode: 'tracking', balance_cents: null }),
      request: { headers, body: '{"amount_cents":80000}' },
      request_id: 'req-a'
    }
    const record = recordOf('budget.amount', set, respondAmount(set))
    expect([record.status, record.changes.map((c) => c.field)]).toStrictEqual([200, ['period_amount_cents']])
  })

  it('a refused authorization, enrolment and role assignment change nothing, though their bodies are objects', () => {
    const transaction = { id: 'tx-7', company_id: 'c-1', amount: 900, status: 'pending', created_at: '2026-11-20T09:00:00Z' }
    const authorize = { request: { headers }, session: session('member'), transaction, request_id: 'req-r1' }
    const authorized = respondAuthorizeTransaction(authorize)
    const enrol = {
      request: { headers, body: '{"bank_recipient":{"rut":"1","account_number":"","bank_id":"bank-9","name":""}}' },
      session: admin,
      bank_ids: ['bank-1'],
      enrolled: [],
      request_id: 'req-r2'
    }
    const enrolled = respondBankRecipient(enrol)
    const assign = {
      request: { headers, body: '{"role":"admin"}' },
      session: session('member'),
      user_id: 'u-member',
      request_id: 'req-r3',
      company_member_ids: ['u-member']
    }
    const assigned = respondRoleAssignment(assign)
    // A member may neither authorize nor assign roles (401, a body all the same); the enrolment is invalid.
    expect([authorized.status, enrolled.status, assigned.status]).toStrictEqual([401, 422, 401])
    expect([
      recordOf('transaction.authorize', authorize, authorized).changes,
      recordOf('recipient.enroll', enrol, enrolled).changes,
      recordOf('role.assign', assign, assigned).changes
    ]).toStrictEqual([[], [], []])
  })

  it('a refused withdrawal changes nothing, even when the reply an embedder hands over carries a budget', () => {
    const context = onBudget('req-o', '{"amount_cents":9000}')
    const refused = respondWithdraw(context)
    const carrying = { ...refused, budget: monthly({ balance_cents: 0 }) }
    const record = recordOf('budget.withdraw', context, carrying)
    expect([record.status, record.rules, record.reply, record.changes]).toStrictEqual([
      422,
      [
        'auth.bearer',
        'auth.email_verified',
        'auth.company_header',
        'auth.membership',
        'budget.scope',
        'budget.stored',
        'budget.advance',
        'money.permission',
        'money.body',
        'money.status',
        'money.validation'
      ],
      {
        status: 422,
        headers: { 'X-Request-Id': 'req-o', 'Content-Type': 'application/json; charset=utf-8' },
        body: { errors: { amount_cents: ['must not exceed the balance of 5000 cents'] } }
      },
      []
    ])
    // Nor does a status other than 200, whatever the budget beside it.
    const topUp = { ...context, request: { headers, body: '{"amount_cents":700}' }, request_id: 'req-t' }
    const created = { status: 201, headers: {}, body: null, reasons: [], budget: monthly({ balance_cents: 5700 }) }
    expect(recordOf('budget.top_up', topUp, created).changes).toStrictEqual([])
  })

  it('a session whose user id is not text names no actor', () => {
    const context = {
      request: { headers },
      session: { user: { id: 7, email_verified: true }, memberships: {} },
      budget: null,
      today: '2026-11-22',
      request_id: 'req-s'
    }
    expect(recordOf('budget.get', context, respondBudget(context as never)).actor_id).toBe(null)
  })

  it('the codec takes the statuses 100 to 599, and no other', () => {
    const context = onBudget('req-c')
    const record = recordOf('budget.get', context, respondBudget(context))
    expect([99, 100, 599, 600].map((status) => E.isRight(DecisionRecord.decode({ ...record, status })))).toStrictEqual([
      false,
      true,
      true,
      false
    ])
  })

  it('replay tells a record whose rules are one fewer, or one more, than the decision names now', () => {
    const context = onBudget('req-p')
    const record = recordOf('budget.get', context, respondBudget(context))
    expect(record.rules.length).toBeGreaterThan(1)
    const fewer = replay({ ...record, rules: record.rules.slice(0, -1) })
    const more = replay({ ...record, rules: [...record.rules, 'auth.bearer'] })
    expect([fewer.replayable && fewer.same, more.replayable && more.same]).toStrictEqual([false, false])
  })
})

describe('the case of a call, as src/decisions/case.ts makes it (found by mutation testing)', () => {
  const transaction = {
    id: 'tx-7',
    company_id: 'c-1',
    amount: 900,
    status: 'pending',
    created_at: '2026-11-20T09:00:00Z',
    updated_at: '2026-11-20T09:00:00Z'
  }
  const base = { request: { headers: {} }, session: null, budget: null, today: '2026-11-22', request_id: 'r' }

  it('indexOf: the index each index decision pages, and null for a facade of one resource', () => {
    expect(RESOURCE_DECISIONS.map((e) => indexOf(e))).toStrictEqual([null, null, null, null, null, null, null, null])
    expect([
      indexOf('index.budgets') === endpoints.budgets,
      indexOf('index.bank_transactions') === endpoints.bankTransactions,
      indexOf('index.companies') === endpoints.companies,
      indexOf('index.decisions') === endpoints.decisions
    ]).toStrictEqual([true, true, true, true])
  })

  it('a context that is no object, or a request that is null, is refused as such', () => {
    expect(caseOf('budget.get', 'GET /', 'kid')).toStrictEqual(E.left('the context is "GET /", not an object'))
    expect(caseOf('budget.get', 7, 'kid')).toStrictEqual(E.left('the context is 7, not an object'))
    expect(caseOf('budget.get', { ...base, request: null }, 'kid')).toStrictEqual(E.left('the request is null, not an object'))
  })

  it('headers absent, null or no object: nothing kept, masked or erased', () => {
    const expected = E.right({
      case: {
        endpoint: 'budget.get',
        request: { headers: {} },
        session: null,
        budget: null,
        today: '2026-11-22',
        request_id: 'r'
      },
      masked: [],
      erased: []
    })
    for (const request of [{}, { headers: undefined }, { headers: null }, { headers: 'Accept: */*' }, { headers: 7 }])
      expect(caseOf('budget.get', { ...base, request }, 'kid')).toStrictEqual(expected)
  })

  it('of the names a Map lists, those that are no text are not headers, and not erased', () => {
    const headers = new Map<unknown, string>([
      ['company-id', 'c-1'],
      [1, 'one'],
      ['X-Trace', 't-1']
    ])
    expect(caseOf('budget.get', { ...base, request: { headers } }, 'kid')).toStrictEqual(
      E.right({
        case: {
          endpoint: 'budget.get',
          request: { headers: { 'company-id': 'c-1' } },
          session: null,
          budget: null,
          today: '2026-11-22',
          request_id: 'r'
        },
        masked: [],
        erased: ['case.request.headers.x-trace']
      })
    )
  })

  it('a stored object keeps its fields only: anything else it holds is left out', () => {
    const context = {
      request: { headers: {} },
      session: null,
      transaction: { ...transaction, card_number: '4111111111111111' },
      request_id: 'r'
    }
    expect(caseOf('transaction.authorize', context, null)).toStrictEqual(
      E.right({
        case: {
          endpoint: 'transaction.authorize',
          request: { headers: {} },
          session: null,
          // The stored fields, without card_number.
          transaction,
          request_id: 'r'
        },
        masked: [],
        erased: []
      })
    )
  })

  it('lists nested deeper than any case are refused, as objects are', () => {
    let body: unknown = 'x'
    for (let i = 0; i < 40; i++) body = [body]
    expect(caseOf('budget.update', { ...base, request: { headers: {}, body } }, null)).toStrictEqual(
      E.left(`case.request.body${'[0]'.repeat(32)} is nested deeper than 32`)
    )
  })

  it('what is not JSON in a body, a query or the request id is named by its path in the case', () => {
    expect(caseOf('budget.top_up', { ...base, request: { headers: {}, body: { amount_cents: 10n } } }, null)).toStrictEqual(
      E.left('case.request.body.amount_cents is 10n, not JSON')
    )
    expect(
      caseOf('index.companies', { request: { headers: {}, query: 1n }, session: null, request_id: 'r' }, null)
    ).toStrictEqual(E.left('case.request.query is 1n, not JSON'))
    expect(caseOf('budget.get', { ...base, request_id: 2n }, null)).toStrictEqual(E.left('case.request_id is 2n, not JSON'))
  })

  it('a case is plain JSON as JSON.parse makes it: each field may be changed and deleted', () => {
    const context = {
      request: { headers: {} },
      session: { user: null, memberships: {} },
      transaction,
      request_id: 'r'
    }
    const made = caseOf('transaction.authorize', context, null)
    if (E.isLeft(made)) throw new Error(made.left)
    const c = made.right.case as { session: Record<string, unknown>; transaction: Record<string, unknown> }
    c.session.user = 'u-1'
    delete c.session.memberships
    c.transaction.status = 'authorized'
    delete c.transaction.updated_at
    expect([c.session, c.transaction]).toStrictEqual([
      { user: 'u-1' },
      { id: 'tx-7', company_id: 'c-1', amount: 900, status: 'authorized', created_at: '2026-11-20T09:00:00Z' }
    ])
  })
})
