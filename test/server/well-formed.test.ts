/**
 * R-128 through the reference server, on PGlite and on PostgreSQL when DATABASE_URL is set: the
 * body of issue 36, `{"budget":{"name":"Z\udbff"}}` with the escape as JSON text, was a 200
 * whose reply said `Z\udbff` while the row kept `Z\ufffd`. Now it is the 422 naming the field,
 * and nothing is stored; a lone surrogate where no rule reads it is the body's 400. Text that is
 * well-formed, an astral character included, is stored and replied alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { call, seeded, stores } from './harness'

const manager = { key: 'demo-manager', company: 'c-acme' }
const admin = { key: 'demo-admin', company: 'c-acme' }
const ILL_FORMED = 'must be well-formed Unicode (no lone surrogate)'
const BAD_BODY = { error: 'bad_request', message: 'The body holds text that is not well-formed Unicode (a lone surrogate)' }

describe.each(stores)('well-formed text on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  let server: Served

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    server = await listen(db, { rateLimitPerMinute: 1_000_000 })
  }, 90_000)

  afterAll(async () => {
    await server.close()
    await drop()
  }, 30_000)

  const row = async (sql: string) => (await db.query(sql))[0]

  it('the body of issue 36: 422 on name, the stored name unchanged', async () => {
    const got = await call(server.url, '/v1/budgets/b-travel', {
      ...manager,
      method: 'PATCH',
      body: '{"budget":{"name":"Z\\udbff"}}'
    })
    expect([got.status, got.text]).toEqual([422, JSON.stringify({ errors: { name: [ILL_FORMED] } })])
    expect(await row(`SELECT name FROM budgets WHERE id = 'b-travel'`)).toEqual({ name: 'Travel' })
  })

  it('a name with an emoji, its surrogates paired: the reply and the row hold the same text', async () => {
    const got = await call(server.url, '/v1/budgets/b-travel', {
      ...manager,
      method: 'PATCH',
      body: '{"budget":{"name":"Z\\ud83d\\udcb6"}}'
    })
    expect([got.status, (got.body as { name: string }).name]).toEqual([200, 'Z💶'])
    expect(await row(`SELECT name FROM budgets WHERE id = 'b-travel'`)).toEqual({ name: 'Z💶' })
  })

  it("a recipient's name: 422 on name, no row", async () => {
    const body =
      '{"bank_recipient":{"rut":"12.345.678-5","account_number":"0012-3456","bank_id":"bank-chile","name":"Ana\\udbff"}}'
    const got = await call(server.url, '/v1/banking/bank_recipients', { ...admin, method: 'POST', body })
    expect([got.status, got.body]).toEqual([422, { errors: { name: [ILL_FORMED] } }])
    expect(await db.query(`SELECT rut FROM bank_recipients WHERE rut = '12345678-5'`)).toEqual([])
  })

  it('beside what a rule reads: a top-up and a role assignment are the 400 of the body, nothing moved', async () => {
    const before = await row(`SELECT balance_cents FROM budgets WHERE id = 'b-travel'`)
    const topUp = await call(server.url, '/v1/budgets/b-travel/top_up', {
      ...admin,
      method: 'POST',
      body: '{"amount_cents":100,"note":"\\ud800"}'
    })
    expect([topUp.status, topUp.body]).toEqual([400, BAD_BODY])
    expect(await row(`SELECT balance_cents FROM budgets WHERE id = 'b-travel'`)).toEqual(before)
    const role = await call(server.url, '/v1/companies/c-acme/memberships/u-member', {
      ...admin,
      method: 'PATCH',
      body: '{"role":"admin","\\udc00":1}'
    })
    expect([role.status, role.body]).toEqual([400, BAD_BODY])
    expect(await row(`SELECT role FROM memberships WHERE user_id = 'u-member' AND company_id = 'c-acme'`)).toEqual({
      role: 'member'
    })
  })
})
