/**
 * Replay finds real differences: traffic recorded by the reference server, replayed with
 * a copy of the library in which one rule is changed on purpose (a budget's manager may change
 * its recurrence), differs exactly on the replies that rule refused, and on no other; replayed
 * with the library as it is, on none.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DecisionRecord, replay } from '../../src/decisions'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { listDecisions } from '../../src/store/decisions'
import { call, seeded, stores } from '../server/harness'

const ROOT = new URL('../..', import.meta.url).pathname
/** Under the project, so that the copy's imports of fp-ts and io-ts resolve; reports/ is not committed. */
const COPY = join(ROOT, 'reports', 'changed-library')

/** The rule as it is, and as the copy has it: a manager passes the recurrence check too. */
const RULE = `  r.rights === 'full'
    ? pass(permission.rule, 'full budget rights', null)`
const CHANGED = `  r.rights === 'full' || (permission.rule === 'budget.permission.recurrence' && r.rights === 'manager')
    ? pass(permission.rule, 'full budget rights', null)`

type Replay = typeof replay

let db: Database
let drop: () => Promise<void>
let server: Served
let changedReplay: Replay

const keys = ['demo-admin', 'demo-manager', 'demo-member'] as const
const budgets = ['b-travel', 'b-marketing', 'b-offsite', 'b-team-lunch', 'b-events-2025'] as const
const change = fc.record(
  {
    name: fc.constantFrom('Trips', 'Travel', ''),
    recurrence_unit: fc.constantFrom('week', 'month', null),
    recurrence_every: fc.constantFrom(1, 2, 0),
    base_amount_cents: fc.constantFrom(1000, 50_000),
    manager_id: fc.constantFrom('u-manager', 'u-admin'),
    ends_on: fc.constantFrom('2027-01-01', null)
  },
  { requiredKeys: [] }
)
const traffic = fc.array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...budgets), change), {
  minLength: 150,
  maxLength: 150
})

beforeAll(async () => {
  // The copy: the whole of src/, one rule edited; the test fails if the rule is not where it was.
  rmSync(COPY, { recursive: true, force: true })
  mkdirSync(COPY, { recursive: true })
  cpSync(join(ROOT, 'src'), join(COPY, 'src'), { recursive: true })
  const update = join(COPY, 'src', 'budget', 'update.ts')
  const text = readFileSync(update, 'utf8')
  expect(text.split(RULE).length).toBe(2)
  writeFileSync(update, text.replace(RULE, CHANGED))
  changedReplay = ((await import(join(COPY, 'src', 'decisions.ts'))) as { replay: Replay }).replay

  ;({ database: db, drop } = await seeded(stores[0] as (typeof stores)[number]))
  server = await listen(db, { clock: () => new Date('2026-11-23T15:00:00Z'), rateLimitPerMinute: 1_000_000 })
  const [requests] = fc.sample(traffic, { numRuns: 1, seed: 20261127 })
  for (const [key, budget, body] of requests ?? [])
    await call(server.url, `/v1/budgets/${budget}`, { key, company: 'c-acme', method: 'PATCH', body: { budget: body } })
}, 120_000)

afterAll(async () => {
  await server.close()
  await drop()
  rmSync(COPY, { recursive: true, force: true })
})

describe('replay against a library with one rule changed', () => {
  it('differs exactly on the replies the changed rule refused, and the library as it is on none', async () => {
    const records: ReadonlyArray<DecisionRecord> = await listDecisions(db, { endpoint: 'budget.update' })
    expect(records).toHaveLength(150)
    // Independently of the rules: the replies that were the recurrence rule's 403.
    const refusedByTheRule = records
      .filter((r) => r.status === 403 && JSON.stringify(r.reply.body).includes('budgets/cannot_change_recurrence'))
      .map((r) => r.request_id)
      .sort()
    const differing = records.filter((r) => changedReplay(r).replayable && !(changedReplay(r) as { same: boolean }).same)
    expect(differing.map((r) => r.request_id).sort()).toEqual(refusedByTheRule)
    for (const r of differing) {
      const found = changedReplay(r) as { expected: { status: number }; actual: { status: number; rules: ReadonlyArray<string> } }
      expect(found.expected.status).toBe(403)
      expect(found.actual.status).not.toBe(403)
    }
    expect(records.every((r) => replay(r).replayable && (replay(r) as { same: boolean }).same)).toBe(true)
    // The traffic reaches the rule's refusals, and plenty of other replies.
    expect(refusedByTheRule.length).toBeGreaterThan(10)
    expect(records.length - refusedByTheRule.length).toBeGreaterThan(100)
  })
})
