/**
 * Limits before trust: a request is authenticated and scoped before anything else is
 * read for it. For a caller with no key, an unknown key, or a key that is no member of the company
 * named, no route reads or locks a budget, transaction, recipient or company row: the store's
 * statements are counted. A stranger to a company holding a corrupt budget gets its 401 or 404,
 * not the 500 that budget would be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database, Queryable } from '../../src/store/database'
import { call, seeded, stores } from './harness'

/** Statements that read or lock the company's data, as opposed to the caller's session, the rate limit and the records. */
const COMPANY_DATA = /\b(budgets|bank_transactions|bank_transaction_counts|bank_recipients|banks|companies)\b/

const routes: ReadonlyArray<readonly [string, string, unknown]> = [
  ['GET', '/v1/budgets', undefined],
  ['GET', '/v1/budgets/b-broken', undefined],
  ['PATCH', '/v1/budgets/b-broken', { budget: { name: 'x' } }],
  ['POST', '/v1/budgets/b-broken/top_up', { amount_cents: 1 }],
  ['POST', '/v1/budgets/b-broken/withdraw', { amount_cents: 1 }],
  ['PATCH', '/v1/budgets/b-broken/amount', { amount_cents: 1 }],
  ['GET', '/v1/banking/bank_transactions', undefined],
  ['POST', '/v1/banking/bank_transactions/tx-00001/authorize', undefined],
  ['POST', '/v1/banking/bank_recipients', { bank_recipient: {} }],
  ['PATCH', '/v1/companies/c-acme/memberships/u-member', { role: 'admin' }],
  ['GET', '/v1/decisions', undefined]
]

describe.each(stores)('scoped before anything is read, on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  let server: Served
  const statements: Array<string> = []

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    // A budget no rule takes (funded, no balance: R-17), in the company strangers name.
    await db.query(
      `INSERT INTO budgets (id, company_id, name, access, currency, mode, status, created_on, period_starts_on, balance_cents)
       VALUES ('b-broken', 'c-acme', 'Broken', 'everyone', 'CLP', 'funded', 'open', '2026-01-01', '2026-01-01', NULL)`
    )
    const counted =
      (q: Queryable['query']): Queryable['query'] =>
      (text, values) => {
        statements.push(text)
        return q(text, values)
      }
    const counting: Database = {
      ...db,
      query: counted(db.query),
      transaction: (work) => db.transaction((tx) => work({ ...tx, query: counted(tx.query) }))
    }
    server = await listen(counting, { rateLimitPerMinute: 1_000_000 })
  }, 60_000)

  afterAll(async () => {
    await server.close()
    await drop()
  }, 30_000)

  const strangers = [
    ['no key', { company: 'c-acme' }, 401],
    ['an unknown key', { key: 'demo-nobody', company: 'c-acme' }, 401],
    ['a member of another company', { key: 'demo-admin', company: 'c-initech' }, 404],
    ['no company-id', { key: 'demo-admin' }, 401]
  ] as const

  it.each(strangers)('%s: its 401 or 404 on every route, and not one statement on the company’s data', async (_, who, status) => {
    for (const [method, path, body] of routes) {
      statements.length = 0
      const got = await call(server.url, path, { method, body, ...who })
      expect([method, path, got.status]).toEqual([method, path, status])
      expect(statements.filter((s) => COMPANY_DATA.test(s) && !/^INSERT INTO decisions/.test(s))).toEqual([])
    }
  })

  it('a member reads the corrupt budget and gets the rules’ 500, naming it (the control of the above)', async () => {
    statements.length = 0
    const got = await call(server.url, '/v1/budgets', { key: 'demo-admin', company: 'c-acme' })
    expect(got.status).toBe(500)
    expect(statements.some((s) => /FROM budgets/.test(s))).toBe(true)
  })
})
