/**
 * The embedding examples (examples/embed/*.mjs) served for real: each framework's server listens
 * on a loopback socket (127.0.0.1, a free port), and every scenario below is a sequence of real
 * HTTP requests sent with fetch, each reply compared whole: status, body, and every header but
 * the transport's own (Date, Connection, ...). The same table runs against Fastify, Express and
 * Hono. The examples import `budget-rules` itself, i.e. the built dist/ (`npm test` builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// -------------------------------------------------------------------------------------
// the examples, as their .mjs modules export them
// -------------------------------------------------------------------------------------

interface Server {
  readonly url: string
  readonly close: () => Promise<void>
}
interface StoreData {
  readonly budgets: ReadonlyArray<Record<string, unknown>>
  readonly sessions: Readonly<Record<string, unknown>>
  readonly members: Readonly<Record<string, ReadonlyArray<string>>>
  readonly transactions: Readonly<Record<string, ReadonlyArray<Record<string, unknown>>>>
  readonly today: () => string
}
interface Store {
  readonly budgets: ReadonlyMap<string, Record<string, unknown>>
}
interface StoreModule {
  readonly createStore: (data: StoreData) => Store
}
interface FrameworkModule {
  readonly start: (store: Store, options?: { readonly port?: number; readonly host?: string }) => Promise<Server>
}

/** Imported by URL: they are plain ESM JavaScript that resolves `budget-rules` as a user's code does. */
const load = async <M>(file: string): Promise<M> =>
  (await import(new URL(`../../examples/embed/${file}`, import.meta.url).href)) as M

// -------------------------------------------------------------------------------------
// the data the store starts with (today is fixed: the replies below are exact)
// -------------------------------------------------------------------------------------

const TODAY = '2026-11-22'

const budget = (id: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  company_id: 'c-acme',
  name: 'Travel',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-marta',
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
  period_amount_cents: 1500000,
  balance_cents: 420000,
  ...fields
})

const travel = budget('b-travel')
const renamed = budget('b-renamed')
const funded = budget('b-funded')
const tracking = budget('b-tracking', { mode: 'tracking', balance_cents: null, period_amount_cents: 50000 })
const elsewhere = budget('b-elsewhere', { company_id: 'c-other' })

const tx = (n: number, amount: number, status: string, created_at: string) => ({
  id: `tx-${n}`,
  amount,
  status,
  created_at,
  updated_at: created_at
})
const tx1 = tx(1, 1200, 'authorized', '2026-11-20T12:00:00Z')
const tx2 = tx(2, 3400, 'pending', '2026-11-21T09:30:00-03:00')
const tx3 = tx(3, 560, 'authorized', '2026-11-22T08:00:00Z')

const member = (id: string, role: string) => ({
  user: { id, email_verified: true },
  memberships: { 'c-acme': { role, permissions: [] } }
})

const data = (): StoreData => ({
  budgets: [travel, renamed, funded, tracking, elsewhere],
  sessions: { sk_ana: member('u-ana', 'admin'), sk_marta: member('u-marta', 'member') },
  members: { 'c-acme': ['u-ana', 'u-marta', 'u-tomas'] },
  transactions: { 'c-acme': [tx1, tx2, tx3], 'c-other': [tx(9, 99, 'pending', '2026-11-22T09:00:00Z')] },
  today: () => TODAY
})

// -------------------------------------------------------------------------------------
// the scenarios
// -------------------------------------------------------------------------------------

interface Sent {
  readonly method: 'GET' | 'PATCH' | 'POST'
  readonly path: string
  /** The API key sent as `Authorization: Bearer <key>`; none when absent. */
  readonly key?: string | undefined
  /** The company-id header; `c-acme` unless null (not sent). */
  readonly company?: string | null
  readonly contentType?: string
  readonly body?: string
}
interface Expected {
  readonly status: number
  /** Every header but X-Request-Id (a UUID, checked apart) and the transport's own. */
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body; null: an empty one. */
  readonly body: unknown
}
type Exchange = readonly [Sent, Expected]

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }
const ok = (body: unknown): Expected => ({ status: 200, headers: JSON_TYPE, body })
const json = (status: number, body: unknown): Expected => ({ status, headers: JSON_TYPE, body })
const empty = (status: number): Expected => ({ status, headers: {}, body: null })
const page = (total: number, range: string, body: ReadonlyArray<unknown>): Expected => ({
  status: 200,
  headers: {
    ...JSON_TYPE,
    'x-total-count': String(total),
    'content-range': range,
    'access-control-expose-headers': 'Content-Range, X-Total-Count'
  },
  body
})
const update = (id: string, key: string, body: unknown): Sent => ({
  method: 'PATCH',
  path: `/v1/budgets/${id}`,
  key,
  contentType: 'application/json',
  body: JSON.stringify(body)
})
const money = (id: string, operation: 'top_up' | 'withdraw' | 'amount', amount_cents: number, contentType?: string): Sent => ({
  method: operation === 'amount' ? 'PATCH' : 'POST',
  path: `/v1/budgets/${id}/${operation}`,
  key: 'sk_ana',
  ...(contentType === undefined ? {} : { contentType }),
  body: JSON.stringify({ amount_cents: amount_cents })
})
const transactions = (query: string, company: string | null = 'c-acme'): Sent => ({
  method: 'GET',
  path: `/v1/banking/bank_transactions${query}`,
  key: 'sk_ana',
  company
})

const PRECONDITION = 'The request body must hold the budget under the key "budget"'

export const scenarios: ReadonlyArray<readonly [string, ReadonlyArray<Exchange>]> = [
  [
    'an update is persisted: the next request sees it',
    [
      [update('b-renamed', 'sk_ana', { budget: { name: 'Travel & lodging' } }), ok({ ...renamed, name: 'Travel & lodging' })],
      [
        update('b-renamed', 'sk_marta', { budget: { description: 'Flights and hotels' } }),
        ok({ ...renamed, name: 'Travel & lodging', description: 'Flights and hotels' })
      ]
    ]
  ],
  [
    'a body without the budget wrapper is a 412',
    [[update('b-travel', 'sk_ana', { name: 'Travel & lodging' }), json(412, { message: PRECONDITION })]]
  ],
  [
    'a PATCH with no body at all is a 412',
    [[{ method: 'PATCH', path: '/v1/budgets/b-travel', key: 'sk_ana' }, json(412, { message: PRECONDITION })]]
  ],
  [
    'a manager (member role) changing manager_id is a 403, and nothing is persisted',
    [
      [
        update('b-travel', 'sk_marta', { budget: { manager_id: 'u-tomas' } }),
        json(403, {
          error_code: 'budgets/cannot_change_manager',
          message: 'Only an admin or a user with budgets_manage can change the manager'
        })
      ],
      [update('b-travel', 'sk_marta', { budget: {} }), ok(travel)]
    ]
  ],
  [
    'no Authorization header is a 401 with an empty body and no Content-Type',
    [[{ ...update('b-travel', 'sk_ana', { budget: { name: 'Mine' } }), key: undefined }, empty(401)]]
  ],
  [
    'an unknown API key is a 401 with an empty body',
    [[update('b-travel', 'sk_revoked', { budget: { name: 'Mine' } }), empty(401)]]
  ],
  [
    "another company's budget is a 404",
    [[update('b-elsewhere', 'sk_ana', { budget: { name: 'Mine' } }), json(404, { error: 'not_found', message: 'Not found' })]]
  ],
  [
    'top-ups and withdrawals move the balance, and each sees the last',
    [
      [money('b-funded', 'top_up', 5000, 'application/json'), ok({ ...funded, balance_cents: 425000 })],
      // fetch sends a string body as text/plain: the glue hands the text over whatever its type
      [money('b-funded', 'top_up', 1000), ok({ ...funded, balance_cents: 426000 })],
      [money('b-funded', 'withdraw', 26000, 'application/json'), ok({ ...funded, balance_cents: 400000 })],
      [
        money('b-funded', 'withdraw', 400001, 'application/json'),
        json(422, { errors: { amount_cents: ['must not exceed the balance of 400000 cents'] } })
      ]
    ]
  ],
  [
    "malformed JSON reaches the library, which answers its own 400 (the framework's parser stays out)",
    [
      [
        {
          method: 'POST',
          path: '/v1/budgets/b-funded/top_up',
          key: 'sk_ana',
          contentType: 'application/json',
          body: '{"amount_cents":'
        },
        json(400, { error: 'bad_request', message: 'The body is not valid JSON' })
      ]
    ]
  ],
  [
    "PATCH amount sets a tracking budget's planned amount",
    [[money('b-tracking', 'amount', 80000, 'application/json'), ok({ ...tracking, period_amount_cents: 80000 })]]
  ],
  [
    "the index pages the company's own transactions with its page headers",
    [
      [transactions('?_start=0&_end=2&_order=desc'), page(3, '0-1/3', [tx3, tx2])],
      [transactions('?_start=0&_end=10&_order=asc&status=pending'), page(1, '0-0/1', [tx2])],
      [transactions('?_start=3&_end=10'), page(3, '*/3', [])],
      [transactions(''), page(3, '0-2/3', [tx1, tx2, tx3])]
    ]
  ],
  [
    'the index refuses a window over 2000 (416) and a request without company-id (401, empty)',
    [
      [transactions('?_start=0&_end=5000'), json(416, { message: 'Requested page size 5000 exceeds maximum of 2000' })],
      [transactions('?_start=0&_end=2', null), empty(401)]
    ]
  ]
]

// -------------------------------------------------------------------------------------
// the runner
// -------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
/** X-Request-Id: a fresh UUID (crypto.randomUUID) per request. */
const aRequestId: unknown = expect.stringMatching(UUID)

/** Headers a framework or Node's HTTP stack adds for the connection, not the reply's own. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

interface Received {
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string
}

const send = async (server: Server, sent: Sent): Promise<Received> => {
  const headers: Record<string, string> = {}
  if (sent.key !== undefined) headers.Authorization = `Bearer ${sent.key}`
  if (sent.company !== null) headers['company-id'] = sent.company ?? 'c-acme'
  if (sent.contentType !== undefined) headers['Content-Type'] = sent.contentType
  const response = await fetch(`${server.url}${sent.path}`, {
    method: sent.method,
    headers,
    ...(sent.body === undefined ? {} : { body: sent.body })
  })
  return {
    status: response.status,
    headers: Object.fromEntries([...response.headers].filter(([name]) => !TRANSPORT.has(name))),
    text: await response.text()
  }
}

/** The same scenarios against one framework's example, served on 127.0.0.1 at a free port. */
export const describeEmbedding = (framework: 'fastify' | 'express' | 'hono'): void => {
  describe(`examples/embed/${framework}.mjs over a loopback socket`, () => {
    let server: Server
    let store: Store

    beforeAll(async () => {
      const { createStore } = await load<StoreModule>('store.mjs')
      const { start } = await load<FrameworkModule>(`${framework}.mjs`)
      store = createStore(data())
      server = await start(store, { port: 0, host: '127.0.0.1' })
    })

    afterAll(async () => {
      await server.close()
    })

    it('listens on the loopback interface at a port of its own', () => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/)
    })

    it.each(scenarios)('%s', async (_name, exchanges) => {
      for (const [sent, expected] of exchanges) {
        const received = await send(server, sent)
        const body: unknown = received.text === '' ? null : JSON.parse(received.text)
        expect({ status: received.status, headers: received.headers, body }).toEqual({
          status: expected.status,
          headers: { ...expected.headers, 'x-request-id': aRequestId },
          body: expected.body
        })
      }
    })

    it('gives every request an id of its own', async () => {
      const sent = update('b-travel', 'sk_ana', { name: 'no wrapper' })
      const ids = await Promise.all([1, 2, 3].map(async () => (await send(server, sent)).headers['x-request-id']))
      expect(new Set(ids).size).toBe(3)
    })

    it('persists only the 200s: the store holds what the last replies said', async () => {
      const after = (id: string) => store.budgets.get(id)
      await send(server, update('b-travel', 'sk_marta', { budget: { manager_id: 'u-ana' } }))
      expect(after('b-travel')).toEqual(travel)
      await send(server, money('b-tracking', 'amount', 120000))
      expect(after('b-tracking')).toEqual({ ...tracking, period_amount_cents: 120000 })
    })
  })
}
