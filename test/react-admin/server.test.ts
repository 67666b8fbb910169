/**
 * The react-admin data provider against the reference server: the app built in-process
 * on a fresh PGlite seeded with the demo data (test/server/harness.ts), listening on a loopback
 * port, and the provider sending through Node's own fetch. Expected values are the demo data as
 * docs/server.md describes it, not what the provider computes.
 */
import { HttpError } from 'ra-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reactAdminDataProvider } from '../../src/react-admin'
import { listen, type Served } from '../../src/server/main'
import { seeded, stores } from '../server/harness'

const NOW = new Date('2026-11-23T15:00:00Z') // Monday 23 November 2026, noon in Santiago

/** A record as the service sends it. */
type Row = { id: string } & Record<string, unknown>

let server: Served
let drop: () => Promise<void>
const as = (token: string) => reactAdminDataProvider({ url: server.url, token, companyId: 'c-acme' })

const rejection = async (p: Promise<unknown>): Promise<HttpError> => {
  const error: unknown = await p.then(
    () => null,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(HttpError)
  return error as HttpError
}

describe('the provider against the reference server (R-101)', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    const db = await seeded(stores[0] as (typeof stores)[number])
    drop = db.drop
    server = await listen(db.database, { clock: () => NOW, rateLimitPerMinute: 1_000_000 })
  }, 90_000)

  afterAll(async () => {
    await (server as Served | undefined)?.close()
    await (drop as (() => Promise<void>) | undefined)?.()
  }, 30_000)

  it('getList walks the 5,000 transactions in pages of 500 sorted by amount, each once, total 5000 on every page', async () => {
    const provider = as('demo-member')
    const seen: Array<{ id: string; amount: number }> = []
    for (let page = 1; ; page++) {
      const { data, total } = await provider.getList<Row>('bank_transactions', {
        pagination: { page, perPage: 500 },
        sort: { field: 'amount', order: 'ASC' },
        filter: {}
      })
      expect(total).toBe(5000)
      seen.push(...(data as Array<{ id: string; amount: number }>))
      if (data.length < 500) break
    }
    expect(seen).toHaveLength(5000)
    expect(new Set(seen.map((t) => t.id)).size).toBe(5000)
    // Ascending by amount, ties by id (contract section 8).
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]] as [{ id: string; amount: number }, { id: string; amount: number }]
      expect(a.amount < b.amount || (a.amount === b.amount && a.id < b.id), `${a.id} before ${b.id}`).toBe(true)
    }
  })

  it('a window over 2000 records is refused as the service refuses it: the same 416 and message', async () => {
    const served = await fetch(`${server.url}/v1/banking/bank_transactions?_start=2001&_end=4002`, {
      headers: { Authorization: 'Bearer demo-member', 'company-id': 'c-acme' }
    })
    const refused = await rejection(as('demo-member').getList('bank_transactions', { pagination: { page: 2, perPage: 2001 } }))
    expect([served.status, refused.status]).toEqual([416, 416])
    const body: unknown = await served.json()
    expect((refused as { readonly body: unknown }).body).toEqual(body)
    expect(refused.message).toBe('Requested page size 2001 exceeds maximum of 2000')
  })

  it('getList filters as the service spells it, and its total is the filtered count', async () => {
    const { data, total } = await as('demo-member').getList<Row>('bank_transactions', {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'created_at', order: 'ASC' },
      filter: { status: 'pending', 'amount[$gte]': 900000 }
    })
    // docs/server.md: 129 pending transactions of 900,000 or more, the first tx-03675.
    expect(total).toBe(129)
    expect(data).toEqual([
      {
        id: 'tx-03675',
        amount: 900575,
        status: 'pending',
        created_at: '2026-05-01T13:21:00.000000Z',
        updated_at: '2026-05-03T01:56:00.000000Z'
      }
    ])
  })

  it('getList of budgets sorted by name, companies through their envelope', async () => {
    const budgets = await as('demo-member').getList<Row>('budgets', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {}
    })
    expect([budgets.total, budgets.data.map((b) => b.id)]).toEqual([
      5,
      ['b-events-2025', 'b-marketing', 'b-offsite', 'b-team-lunch', 'b-travel']
    ])
    const companies = await as('demo-member').getList<Row>('companies', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {}
    })
    expect(companies).toEqual({
      data: [
        { id: 'c-acme', name: 'Acme SpA', created_at: '2025-01-01T12:00:00.000000Z', updated_at: '2025-01-01T12:00:00.000000Z' }
      ],
      total: 1
    })
  })

  it('getOne reads a budget by its path and a transaction through the index; getMany by id[$in]', async () => {
    const provider = as('demo-member')
    const { data: lunch } = await provider.getOne<Row>('budgets', { id: 'b-team-lunch' })
    expect(lunch).toMatchObject({
      id: 'b-team-lunch',
      name: 'Team lunch',
      period_starts_on: '2026-11-23',
      period_ends_on: '2026-11-30'
    })
    const { data: tx } = await provider.getOne<Row>('bank_transactions', { id: 'tx-03675' })
    expect(tx).toMatchObject({ id: 'tx-03675', amount: 900575 })
    const { data } = await provider.getMany<Row>('budgets', { ids: ['b-travel', 'b-marketing', 'b-nothing'] })
    expect(data.map((b) => b.id).sort()).toEqual(['b-marketing', 'b-travel'])
    expect((await rejection(provider.getOne<Row>('budgets', { id: 'b-initech-ops' }))).status).toBe(404)
  })

  it('update renames Travel as its manager: only the name is sent, and the budget returned is saved', async () => {
    const provider = as('demo-manager')
    const { data: travel } = await provider.getOne<Row>('budgets', { id: 'b-travel' })
    const { data: saved } = await provider.update<Row>('budgets', {
      id: 'b-travel',
      data: { ...travel, name: 'Trips' },
      previousData: travel
    })
    expect(saved).toEqual({ ...travel, name: 'Trips' })
    expect((await provider.getOne<Row>('budgets', { id: 'b-travel' })).data).toEqual({ ...travel, name: 'Trips' })
  })

  it('a 422 rejects with each field’s first message in body.errors', async () => {
    const provider = as('demo-manager')
    const { data: travel } = await provider.getOne<Row>('budgets', { id: 'b-travel' })
    const error = await rejection(
      provider.update<Row>('budgets', {
        id: 'b-travel',
        data: { ...travel, name: '', ends_on: '2026-11-01' },
        previousData: travel
      })
    )
    expect([error.status, error.message, error.body]).toEqual([
      422,
      'Unprocessable Entity',
      { errors: { name: "can't be blank", ends_on: 'must be after 2026-11-23' } }
    ])
  })

  it('a 403 rejects with the service’s message: a manager changing the recurrence', async () => {
    const provider = as('demo-manager')
    const { data: travel } = await provider.getOne<Row>('budgets', { id: 'b-travel' })
    const error = await rejection(
      provider.update<Row>('budgets', {
        id: 'b-travel',
        data: { ...travel, recurrence_unit: 'month', base_amount_cents: 100000 },
        previousData: travel
      })
    )
    expect([error.status, error.message, error.body]).toEqual([
      403,
      'Only an admin or a user with budgets_manage can change the recurrence',
      {
        error_code: 'budgets/cannot_change_recurrence',
        message: 'Only an admin or a user with budgets_manage can change the recurrence'
      }
    ])
  })

  it('an empty 401 rejects with the status text; a member may not rename Travel', async () => {
    const error = await rejection(as('demo-nobody').getOne<Row>('budgets', { id: 'b-travel' }))
    expect([error.status, error.message, error.body]).toEqual([401, 'Unauthorized', null])
    const member = await rejection(
      as('demo-member').update<Row>('budgets', { id: 'b-travel', data: { name: 'Mine' }, previousData: { name: 'Trips' } })
    )
    expect([member.status, member.message]).toEqual([401, 'Unauthorized (401)'])
  })

  it('create enrolls a recipient once: the same key replays the reply, a new one is the 409', async () => {
    const provider = as('demo-admin')
    const data = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-chile', name: 'Ana Pérez' }
    const expected = {
      data: {
        rut: '12345678-5',
        account_number: '00123456',
        bank_id: 'bank-chile',
        name: 'Ana Pérez',
        id: '12345678-5/bank-chile/00123456'
      }
    }
    expect(await provider.create('bank_recipients', { data, meta: { idempotencyKey: 'click-1' } })).toEqual(expected)
    expect(await provider.create('bank_recipients', { data, meta: { idempotencyKey: 'click-1' } })).toEqual(expected)
    const error = await rejection(provider.create('bank_recipients', { data }))
    expect([error.status, error.message]).toEqual([409, 'The recipient is already enrolled'])
  })

  it('a server that is gone is an HttpError of status 0', async () => {
    const gone = reactAdminDataProvider({ url: 'http://127.0.0.1:1', token: 'demo-admin', companyId: 'c-acme' })
    const error = await rejection(gone.getList<Row>('budgets', {}))
    expect([error.status, error.message]).toEqual([0, 'GET /v1/budgets failed: fetch failed'])
  })
})
