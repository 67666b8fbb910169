/**
 * The Express embedder keeps the reference server's decision records in a few lines
 * (examples/embed/express.mjs, budget-rules/decisions as installed: the built dist/): one record
 * per request a facade decides, no key in any, each decided again by `replay` to the same reply
 * (the index page but excepted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DecisionRecord, replay } from '../../src/decisions'

interface Store {
  readonly decisions: ReadonlyArray<DecisionRecord>
}
const load = async <M>(file: string): Promise<M> =>
  (await import(new URL(`../../examples/embed/${file}`, import.meta.url).href)) as M

let store: Store
let server: { readonly url: string; readonly close: () => Promise<void> }

beforeAll(async () => {
  const { createStore, demo } = await load<{ createStore: (d: unknown) => Store; demo: Record<string, unknown> }>('store.mjs')
  const { start } = await load<{ start: (s: Store) => Promise<typeof server> }>('express.mjs')
  store = createStore({ ...demo, today: () => '2026-11-22' })
  server = await start(store)
})

afterAll(async () => {
  await server.close()
})

const send = async (method: string, path: string, key: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'company-id': 'c-acme', 'User-Agent': 'test' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return res.headers.get('x-request-id')
}

describe('examples/embed/express.mjs keeps a decision record per request', () => {
  it('each with its endpoint, status, rules and changes; no key; replayed to the same reply', async () => {
    const ids = [
      await send('PATCH', '/v1/budgets/b-travel', 'sk_marta', { budget: { name: 'Trips' } }),
      await send('PATCH', '/v1/budgets/b-travel', 'sk_marta', { budget: { manager_id: 'u-ana' } }),
      await send('POST', '/v1/budgets/b-travel/top_up', 'sk_ana', { amount_cents: 500 }),
      await send('GET', '/v1/banking/bank_transactions?_end=1', 'sk_ana')
    ]
    expect(store.decisions.map((r) => [r.request_id, r.endpoint, r.status, r.actor_id, r.rules.at(-1)])).toEqual([
      [ids[0], 'budget.update', 200, 'u-marta', 'budget.update'],
      [ids[1], 'budget.update', 403, 'u-marta', 'budget.permission.manager'],
      [ids[2], 'budget.top_up', 200, 'u-ana', 'money.apply'],
      [ids[3], 'index.bank_transactions', 200, 'u-ana', 'page.headers']
    ])
    expect(store.decisions.map((r) => r.changes)).toEqual([
      [{ field: 'name', before: 'Travel', after: 'Trips' }],
      [],
      [{ field: 'balance_cents', before: 420_000, after: 420_500 }],
      []
    ])
    expect(store.decisions[0]?.erased).toEqual(
      expect.arrayContaining(['case.request.headers.user-agent', 'case.request.headers.content-type'])
    )
    expect(JSON.stringify(store.decisions)).not.toMatch(/sk_ana|sk_marta/)
    expect(store.decisions.map((r) => replay(r))).toEqual([
      { replayable: true, same: true },
      { replayable: true, same: true },
      { replayable: true, same: true },
      { replayable: false, reason: 'an index page: its records are not kept' }
    ])
  })
})
