/**
 * The README's quick start runs, as a newcomer pastes it (issue 38): its block, as written but
 * for the import of `budget-rules` (the sources here) and two lines that reach its data, answers
 * a PATCH of a stored budget and a page of bank transactions through Hono's own `app.request`,
 * where `c.req.url` is an absolute URL as on a real server.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { afterAll, describe, expect, it } from 'vitest'
import { baseBudget } from './fixtures'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const block = /## Quick start\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
const DIR = join(ROOT, 'test', '.quick-start')

afterAll(() => {
  rmSync(DIR, { recursive: true, force: true })
})

describe("the README's quick start", () => {
  it('answers a PATCH and a page as the README says', async () => {
    expect(block).toContain("from 'budget-rules'")
    mkdirSync(DIR, { recursive: true })
    const file = join(DIR, 'server.ts')
    writeFileSync(
      file,
      `${block.replaceAll("from 'budget-rules'", `from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))}`)}\nexport { budgets, transactions }\n`
    )
    const quick = (await import(file)) as {
      default: Hono
      budgets: Map<string, unknown>
      transactions: Array<unknown>
    }
    quick.budgets.set('b-1', { ...baseBudget, company_id: 'c-acme', manager_id: null, co_manager_id: null })
    quick.transactions.push(
      {
        id: 'tx-1',
        company_id: 'c-acme',
        amount_cents: 100,
        status: 'pending',
        created_at: '2026-11-01T10:00:00Z',
        recipient_name: 'A'
      },
      {
        id: 'tx-2',
        company_id: 'c-acme',
        amount_cents: 200,
        status: 'pending',
        created_at: '2026-11-02T10:00:00Z',
        recipient_name: 'B'
      }
    )
    const headers = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' }
    const patched = await quick.default.request('/v1/budgets/b-1', {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ budget: { name: 'Trips' } })
    })
    expect([patched.status, ((await patched.json()) as { name: string }).name]).toEqual([200, 'Trips'])
    expect((quick.budgets.get('b-1') as { name: string }).name).toBe('Trips')
    const page = await quick.default.request('/v1/banking/bank_transactions?_start=0&_end=1', { headers })
    expect([
      page.status,
      page.headers.get('content-range'),
      ((await page.json()) as Array<{ id: string }>).map((t) => t.id)
    ]).toEqual([200, '0-0/2', ['tx-1']])
  })
})
