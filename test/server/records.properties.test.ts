/**
 * Decision records through the reference server, over the conformance kit's scenarios (R-90,
 * each request the server answers leaves exactly one record, of the reply's status,
 * whose case the library decides again to the same reply (an index page but excepted).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenario } from '../../src/arbitraries'
import { httpSender } from '../../src/conformance'
import { type DecisionRecord, replay } from '../../src/decisions'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { findDecision } from '../../src/store/decisions'
import { runs, timeoutFor } from '../runs'
import { seeded, stores } from './harness'

let db: Database
let drop: () => Promise<void>
let server: Served

beforeAll(async () => {
  ;({ database: db, drop } = await seeded(stores[0] as (typeof stores)[number]))
  server = await listen(db, { clock: () => new Date('2031-06-15T12:00:00Z'), conformance: true })
}, 60_000)

afterAll(async () => {
  await server.close()
  await drop()
})

describe('decision records over generated scenarios', () => {
  it(
    'every reply has one record of its status, which replays to the same reply',
    async () => {
      const send = httpSender(server.url)
      const seen = { replayed: 0, pages: 0, refusals: 0, strangers: 0 }
      await fc.assert(
        fc.asyncProperty(scenario(), async (s) => {
          const got = await send(s)
          const id = String((got.headers as Readonly<Record<string, string>>)['x-request-id'])
          const rows = await db.query('SELECT status FROM decisions WHERE id = $1', [id])
          expect(rows).toEqual([{ status: got.status }])
          const record = (await findDecision(db, id)) as DecisionRecord
          expect([record.endpoint, record.path]).toEqual([s.endpoint, s.request.path])
          // a company named only past auth.membership (a rule of another family after it),
          // and a stranger's body erased to its length and digest.
          const member = record.rules.includes('auth.membership') && !String(record.rules.at(-1)).startsWith('auth.')
          expect(record.company_id === null, record.rules.join(', ')).toBe(!member)
          const body: unknown = (record.case?.request as { readonly body?: unknown }).body
          if (!member && body !== undefined) {
            expect(body).toMatchObject({ erased: 'body' })
            seen.strangers++
          }
          const found = replay(record)
          if (!found.replayable) {
            expect([s.endpoint, got.status, found.reason]).toEqual([
              'index.bank_transactions',
              200,
              'an index page: its records are not kept'
            ])
            seen.pages++
            return
          }
          expect(found).toEqual({ replayable: true, same: true })
          seen.replayed++
          if (got.status >= 400) seen.refusals++
        }),
        { numRuns: runs(150) }
      )
      expect(seen.replayed, JSON.stringify(seen)).toBeGreaterThan(seen.pages)
      expect(seen.refusals, JSON.stringify(seen)).toBeGreaterThan(runs(150) / 5)
      expect(seen.strangers, JSON.stringify(seen)).toBeGreaterThan(runs(150) / 50)
    },
    timeoutFor(150, 90_000)
  )
})
