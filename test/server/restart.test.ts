/**
 * The reference server started by `serve` (migrations, seed, listen) over data that outlives it:
 * PGlite in a temporary directory (a PostgreSQL database of its own when DATABASE_URL is set).
 * `close()` lets a request under way finish; a second `serve` on the same data finds every
 * change and seeds nothing again.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serve } from '../../src/server/main'
import { call, stores } from './harness'

const clock = () => new Date('2026-11-23T15:00:00Z')
const admin = { key: 'demo-admin', company: 'c-acme' }

describe.each(stores)('serve and close on $name', (store) => {
  it('close drains the request under way; a restart keeps every change and seeds nothing again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'budget-rules-server-'))
    const place = await store.place(join(dir, 'data'))
    try {
      const first = await serve({ ...place.options, clock })
      const topUp = { ...admin, method: 'POST', body: { amount_cents: 1234 }, headers: { 'Idempotency-Key': 'restart-1' } }
      const kept = await call(first.url, '/v1/budgets/b-travel/top_up', topUp)
      expect((kept.body as { balance_cents: number }).balance_cents).toBe(421_234)
      const renamed = await call(first.url, '/v1/budgets/b-travel', {
        ...admin,
        method: 'PATCH',
        body: { budget: { name: 'Trips' } }
      })
      expect(renamed.status).toBe(200)
      const [pending] = (await call(first.url, '/v1/banking/bank_transactions?status=pending&_end=1', admin)).body as [
        { id: string }
      ]
      const authorized = await call(first.url, `/v1/banking/bank_transactions/${pending.id}/authorize`, {
        ...admin,
        method: 'POST'
      })
      expect(authorized.status).toBe(200)

      // A top-up whose body is still arriving when close() is called: it is finished, not cut.
      const encoder = new TextEncoder()
      let asked!: () => void
      const firstChunkTaken = new Promise<void>((resolve) => (asked = resolve))
      let pulls = 0
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          pulls++
          if (pulls === 1) controller.enqueue(encoder.encode('{"amount_cents":'))
          else if (pulls === 2) {
            asked()
            // hold the rest back until close() has begun
            await new Promise((resolve) => setTimeout(resolve, 600))
            controller.enqueue(encoder.encode('6}'))
          } else controller.close()
        }
      })
      const slow = fetch(`${first.url}/v1/budgets/b-travel/top_up`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' },
        body,
        duplex: 'half'
      })
      await firstChunkTaken
      // the first chunk is written: give the server a moment to have the request's headers
      await new Promise((resolve) => setTimeout(resolve, 300))
      const closed = first.close()
      const finished = await slow
      expect(finished.status).toBe(200)
      expect(((await finished.json()) as { balance_cents: number }).balance_cents).toBe(421_240)
      await closed
      await expect(fetch(`${first.url}/v1/companies`)).rejects.toThrow()

      const second = await serve({ ...place.options, clock })
      try {
        const travel = await call(second.url, '/v1/budgets/b-travel', admin)
        expect(travel.body).toMatchObject({ name: 'Trips', balance_cents: 421_240 })
        // the reply kept for the key survived too
        const replay = await call(second.url, '/v1/budgets/b-travel/top_up', topUp)
        expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([200, kept.text, 'true'])
        const again = await call(second.url, `/v1/banking/bank_transactions?id=${pending.id}`, admin)
        expect(again.body).toMatchObject([{ id: pending.id, status: 'authorized' }])
        // seeded once: still 5,000 transactions
        expect(again.headers.get('x-total-count')).toBe('1')
        const page = await call(second.url, '/v1/banking/bank_transactions?_end=1', admin)
        expect(page.headers.get('x-total-count')).toBe('5000')
      } finally {
        await second.close()
      }
    } finally {
      await place.drop()
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
