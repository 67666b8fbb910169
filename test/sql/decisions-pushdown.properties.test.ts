/**
 * GET /v1/decisions pushed down to SQL (R-121): over the real `decisions` table (the migrations,
 * on PGlite), a page asked of PostgreSQL (planIndex -> pageQuery -> respondIndexPage) is the
 * reply respondIndex gives over the same records in memory, in status, headers and body: nullable
 * ids that are often null (filtered with $eq, $ne, $in and $nin), the endpoint's enum, statuses,
 * instants that tie, and the records' JSON carried whole.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decisionEndpoints } from '../../src/decisions'
import { endpoints, planIndex, respondIndex, respondIndexPage } from '../../src/index'
import { type Database, openDatabase } from '../../src/store/database'
import { insertDecision } from '../../src/store/decisions'
import { migrate } from '../../src/store/migrations'
import { pageQuery } from '../../src/sql/page-query'
import { runs, timeoutFor } from '../runs'

let db: Database

beforeAll(async () => {
  db = await openDatabase({})
  await migrate(db)
}, 60_000)

afterAll(async () => {
  await db.close()
})

const endpoint = endpoints.decisions
const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }
const sessionOf = (role: 'admin' | 'member', permissions: Array<string>) => ({
  user: { id: 'u-1', email_verified: true },
  memberships: { 'c-1': { role, permissions } }
})
/** An admin reads every record; a member with budgets_manage only the budgets' (R-125). */
const readers = { admin: sessionOf('admin', []), budgets: sessionOf('member', ['budgets_manage']) }
/** The budgets' decisions, as R-125 names them. */
const BUDGETS = /^(budget\.[a-z_]+|index\.budgets)$/
const ids = ['b-1', 'b-2', 'tx-1']
const actors = ['u-1', 'u-2']

const recordArb = fc.record({
  second: fc.nat({ max: 5 }),
  company: fc.constantFrom('c-1', 'c-1', 'c-1', 'c-2'),
  actor: fc.option(fc.constantFrom(...actors), { nil: null, freq: 3 }),
  resource: fc.option(fc.constantFrom(...ids), { nil: null, freq: 3 }),
  endpoint: fc.constantFrom(...decisionEndpoints),
  status: fc.constantFrom(200, 201, 401, 403, 404, 422),
  rules: fc.array(fc.constantFrom('auth.bearer', 'budget.update'), { maxLength: 3 })
})

const recordsArb = fc.array(recordArb, { minLength: 10, maxLength: 60 }).map((specs) =>
  specs.map((s, i) => ({
    request_id: `req-${String(i).padStart(3, '0')}`,
    at: `2026-11-22T10:00:0${s.second}.000000Z`,
    company_id: s.company,
    actor_id: s.actor,
    key_id: null,
    endpoint: s.endpoint,
    method: 'GET',
    path: '/v1/x',
    resource_id: s.resource,
    idempotency_key: null,
    replay_of: null,
    status: s.status,
    rules: s.rules,
    case: { endpoint: s.endpoint, n: i },
    reply: { status: s.status, headers: { 'X-Request-Id': `req-${i}` }, body: i % 2 === 0 ? null : { n: i } },
    changes: [],
    masked: [],
    erased: [],
    library_version: '0.4.0'
  }))
)

const filterArb = fc.oneof(
  fc
    .tuple(fc.constantFrom('resource_id', 'actor_id'), fc.constantFrom('$eq', '$ne'), fc.constantFrom(...ids, ...actors))
    .map(([f, op, v]) => `${f}${op === '$eq' ? '' : `[${op}]`}=${v}`),
  fc
    .tuple(fc.constantFrom('resource_id', 'actor_id'), fc.constantFrom('$in', '$nin'), fc.subarray([...ids, ...actors]))
    .map(([f, op, vs]) => `${f}[${op}]=${encodeURIComponent(JSON.stringify(vs))}`),
  fc.constantFrom(...decisionEndpoints).map((e) => `endpoint=${e}`),
  fc.tuple(fc.constantFrom('$gte', '$lt', '$ne'), fc.constantFrom(200, 403, 404)).map(([op, n]) => `status[${op}]=${n}`),
  fc.tuple(fc.constantFrom('$gt', '$lte'), fc.nat({ max: 5 })).map(([op, s]) => `at[${op}]=2026-11-22T10:00:0${s}Z`)
)

const queryArb = fc
  .record({
    start: fc.oneof(fc.constant(0), fc.nat({ max: 10 })),
    size: fc.integer({ min: 0, max: 30 }),
    order: fc.constantFrom('asc', 'desc'),
    filters: fc.uniqueArray(filterArb, { maxLength: 2, selector: (f) => f.split('=')[0] })
  })
  .map(({ start, size, order, filters }) => [`_start=${start}`, `_end=${start + size}`, `_order=${order}`, ...filters].join('&'))

describe('GET /v1/decisions on PostgreSQL (PGlite) against respondIndex in memory', () => {
  it(
    'gives the same status, headers and body, nulls and ties included',
    async () => {
      const seen = { pages: 0, nulls: 0, nonEmpty: 0, narrowed: 0 }
      await fc.assert(
        fc.asyncProperty(
          recordsArb,
          fc.array(fc.tuple(queryArb, fc.constantFrom('admin' as const, 'budgets' as const)), { minLength: 3, maxLength: 6 }),
          async (records, queries) => {
            await db.query('DELETE FROM decisions')
            for (const r of records) await insertDecision(db, r)
            const mine = records.filter((r) => r.company_id === 'c-1').map((r) => ({ id: r.request_id, ...r }))
            for (const [query, who] of queries) {
              const context = { request: { headers, query }, session: readers[who], endpoint, request_id: 'req-q' }
              const expected = respondIndex({ ...context, records: mine })
              const plan = planIndex(context)
              if (plan._tag === 'Reply') {
                expect(plan.reply).toStrictEqual(expected)
                continue
              }
              const q = pageQuery(endpoint, plan.request, { table: 'decisions', scope: { company_id: 'c-1' } })
              const rows = await db.query(q.rows.text, q.rows.values)
              const [counted] = await db.query<{ total: number }>(q.count.text, q.count.values)
              const { reasons, ...reply } = respondIndexPage({ ...context, page: rows, total: counted?.total ?? -1 })
              expect(reply).toStrictEqual({ status: expected.status, headers: expected.headers, body: expected.body })
              expect(reasons.map((x) => x.rule)).toEqual(expected.reasons.map((x) => x.rule))
              seen.pages++
              const page = reply.body as ReadonlyArray<{ readonly endpoint: string }>
              if (who === 'budgets') {
                // Only the budgets' records, and only they counted.
                for (const r of page) expect(r.endpoint).toMatch(BUDGETS)
                const readable = mine.filter((r) => BUDGETS.test(r.endpoint)).length
                expect(Number(reply.headers['X-Total-Count'])).toBeLessThanOrEqual(readable)
                if (page.length > 0 && mine.some((r) => !BUDGETS.test(r.endpoint))) seen.narrowed++
              }
              if (page.length > 0) seen.nonEmpty++
              if (/(resource_id|actor_id)\[\$n/.test(query) && mine.some((r) => r.resource_id === null || r.actor_id === null))
                seen.nulls++
            }
          }
        ),
        { numRuns: runs(40) }
      )
      expect(seen.nonEmpty / seen.pages, JSON.stringify(seen)).toBeGreaterThan(0.4)
      expect(seen.nulls, JSON.stringify(seen)).toBeGreaterThan(10)
      expect(seen.narrowed, JSON.stringify(seen)).toBeGreaterThan(10)
    },
    timeoutFor(40, 120_000)
  )
})
