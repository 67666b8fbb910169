/**
 * The differential property of issue 11: a page request answered by PostgreSQL (planIndex ->
 * pageQuery -> both queries on PGlite -> respondIndexPage) is the reply respondIndex gives over
 * the same records in memory, in status, headers and body. Records tie heavily on amount and
 * instants, their instants are spelled in several ways (Z, .000Z, offsets), filter instants fall
 * between microseconds, and the table holds another company's rows under the same ids. The
 * text columns are in ICU's `unicode` collation, as a production database's would be in a
 * locale: the queries' code-point order must not depend on it. GET /v1/companies, sorted by
 * name, runs both ways too.
 */
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareInstants, endpoints, parseInstant, planIndex, respondIndex, respondIndexPage } from '../api'
import { headers, session } from '../fixtures'
import { runs, timeoutFor } from '../runs'
import { pageQuery } from '../../src/sql/page-query'

/** The instant `text` names; a test's own text that is none fails the test. */
const instant = (text: string) => {
  const parsed = parseInstant(text)
  if (parsed === null) throw new Error(`not an instant: ${text}`)
  return parsed
}

const endpoint = endpoints.bankTransactions
const TABLE = { table: 'bank_transactions', scope: { company_id: 'c-1' } }

let db: PGlite

beforeAll(async () => {
  db = new PGlite()
  await db.exec(`
    CREATE TABLE bank_transactions (
      company_id text NOT NULL,
      id text COLLATE "unicode" NOT NULL,
      amount bigint NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (company_id, id)
    );
    -- The queries read neither the session's time zone nor its date style.
    SET TimeZone TO 'America/Santiago';
    SET DateStyle TO 'SQL, DMY';`)
}, 60_000)

afterAll(async () => {
  await db.close()
})

interface Transaction {
  readonly id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

// -------------------------------------------------------------------------------------
// collections
// -------------------------------------------------------------------------------------

/** mulberry32: collections of thousands of records from one seed, shrinking by the seed. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** 2026-11-22T10:00:00Z in microseconds since the epoch. */
const BASE_US = Date.UTC(2026, 10, 22, 10) * 1000
/** Gaps between a collection's few moments: one microsecond to a day. */
const STRIDES_US = [1, 1000, 500_000, 60_000_000, 86_400_000_000] as const
/** Offsets PostgreSQL reads (it stops at 15:59), in minutes east of UTC. */
const OFFSETS = [0, 0, -180, 330, 840, -690] as const
/** Amounts that tie often, the safe integer extremes included. */
const AMOUNTS = [0, 1, -1, 250, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER] as const
/** Id characters: letters of both cases, digits, punctuation and BMP text below U+D800. */
const ID_CHARS = ['a', 'b', 'B', 'Z', '0', '9', '-', '_', '~', 'é', 'ñ', '中', ' ']

/**
 * The moment `us` microseconds past the epoch plus `ns` (0-999) nanoseconds, written one of
 * several ways by `variant`: in Z, +00:00 or another offset; with the fraction trimmed, in 6 or
 * 9 digits, or none at all when it is zero. Wall time comes from UTC (`toISOString`), never from
 * the process's time zone.
 */
const instantText = (us: number, ns: number, variant: number): string => {
  const offset = OFFSETS[variant % OFFSETS.length] as number
  const style = Math.floor(variant / OFFSETS.length) % 3
  const ms = Math.floor(us / 1000)
  const wall = new Date(ms + offset * 60_000).toISOString().slice(0, 19)
  const nine = `${pad(ms % 1000, 3)}${pad(us % 1000, 3)}${pad(ns, 3)}`
  // Trimmed (none when zero); six digits, or nine where six lose something; three where they lose nothing.
  const digits =
    style === 0
      ? nine.replace(/0+$/, '')
      : style === 1
        ? ns === 0
          ? nine.slice(0, 6)
          : nine
        : nine.endsWith('000000')
          ? nine.slice(0, 3)
          : nine
  const sign = offset < 0 ? '-' : '+'
  const zone =
    offset === 0 && variant % 2 === 0
      ? 'Z'
      : `${sign}${pad(Math.floor(Math.abs(offset) / 60), 2)}:${pad(Math.abs(offset) % 60, 2)}`
  return `${wall}${digits === '' ? '' : `.${digits}`}${zone}`
}

interface Collection {
  readonly records: ReadonlyArray<Transaction>
  /** The distinct moments the records hold, in microseconds. */
  readonly moments: ReadonlyArray<number>
  readonly stride: number
}

const collectionOf = (spec: { size: number; seed: number; moments: number; amounts: number; stride: number }): Collection => {
  const random = prng(spec.seed)
  const draw = (n: number) => Math.floor(random() * n)
  const moments = Array.from({ length: spec.moments }, (_, k) => BASE_US + k * spec.stride)
  const ids = new Set<string>()
  const records: Array<Transaction> = []
  while (records.length < spec.size) {
    const id = Array.from({ length: 1 + draw(4) }, () => ID_CHARS[draw(ID_CHARS.length)]).join('')
    if (ids.has(id)) continue
    ids.add(id)
    records.push({
      id,
      amount: AMOUNTS[draw(spec.amounts)] as number,
      status: random() < 0.5 ? 'authorized' : 'pending',
      created_at: instantText(moments[draw(moments.length)] as number, 0, draw(18)),
      updated_at: instantText(moments[draw(moments.length)] as number, 0, draw(18))
    })
  }
  return { records, moments, stride: spec.stride }
}

const collection = fc
  .record({
    size: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 40 }), weight: 1 },
      { arbitrary: fc.integer({ min: 40, max: 400 }), weight: 3 },
      { arbitrary: fc.integer({ min: 1000, max: 2500 }), weight: 1 }
    ),
    seed: fc.integer(),
    moments: fc.integer({ min: 1, max: 8 }),
    amounts: fc.integer({ min: 1, max: AMOUNTS.length }),
    stride: fc.constantFrom(...STRIDES_US)
  })
  .map(collectionOf)

/** Rows of another company under the same ids, all matching everything: the scope must drop them. */
const others = (records: ReadonlyArray<Transaction>): ReadonlyArray<Transaction> =>
  records.filter((_, i) => i % 3 === 0).map((r) => ({ ...r, amount: 1, created_at: '2026-11-22T10:00:00Z' }))

const insert = async (company: string, records: ReadonlyArray<Transaction>) => {
  if (records.length === 0) return
  await db.query(
    `INSERT INTO bank_transactions (company_id, id, amount, status, created_at, updated_at)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::timestamptz[])`,
    [
      company,
      records.map((r) => r.id),
      records.map((r) => r.amount),
      records.map((r) => r.status),
      records.map((r) => r.created_at),
      records.map((r) => r.updated_at)
    ]
  )
}

// -------------------------------------------------------------------------------------
// page requests, as query strings
// -------------------------------------------------------------------------------------

type Op = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin'
const ALL_OPS: ReadonlyArray<Op> = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']
const SET_OPS: ReadonlyArray<Op> = ['$eq', '$ne', '$in', '$nin']

/** A filter drawn before the collection is known: `picks` choose values from it, or near it. */
interface FilterSpec {
  readonly field: 'id' | 'amount' | 'status' | 'created_at' | 'updated_at'
  readonly op: Op
  readonly picks: ReadonlyArray<{ readonly pick: number; readonly ns: number; readonly variant: number }>
}

const pickArb = fc.record({
  pick: fc.nat(),
  // Nanoseconds off a moment: none most often, else within a microsecond either side.
  ns: fc.oneof(
    { arbitrary: fc.constant(0), weight: 2 },
    { arbitrary: fc.constantFrom(-1000, -999, -500, -1, 1, 500, 999, 1000), weight: 3 }
  ),
  variant: fc.nat({ max: 17 })
})

const filterSpec: fc.Arbitrary<FilterSpec> = fc
  .tuple(fc.constantFrom<FilterSpec['field']>('id', 'amount', 'status', 'created_at', 'updated_at'), fc.nat())
  .chain(([field, o]) => {
    const ops = field === 'amount' || field === 'created_at' || field === 'updated_at' ? ALL_OPS : SET_OPS
    const op = ops[o % ops.length] as Op
    const list = op === '$in' || op === '$nin'
    return fc
      .array(pickArb, list ? { minLength: 0, maxLength: 8 } : { minLength: 1, maxLength: 1 })
      .map((picks) => ({ field, op, picks }))
  })

/** The values a filter's picks stand for in this collection, as query text. */
const filterValues = (f: FilterSpec, c: Collection): ReadonlyArray<string | number> =>
  f.picks.map(({ pick, ns, variant }) => {
    switch (f.field) {
      case 'id':
        // An id of the collection, or one it does not hold.
        return c.records.length === 0 || pick % 5 === 0
          ? `no-${pick % 7}`
          : (c.records[pick % c.records.length] as Transaction).id
      case 'amount':
        return [...AMOUNTS, 2, -250][pick % (AMOUNTS.length + 2)] as number
      case 'status':
        return pick % 2 === 0 ? 'pending' : 'authorized'
      default: {
        // A moment of the collection, one before the first or after the last, or half way between two.
        const k = (pick % (c.moments.length + 2)) - 1
        const half = pick % 3 === 0 ? Math.floor(c.stride / 2) : 0
        const us = BASE_US + k * c.stride + half + Math.floor(ns / 1000)
        return instantText(us, ((ns % 1000) + 1000) % 1000, variant)
      }
    }
  })

interface RequestSpec {
  readonly start: number
  readonly size: number
  readonly order: 'asc' | 'desc'
  readonly field: 'created_at' | 'updated_at' | 'amount'
  readonly filters: ReadonlyArray<FilterSpec>
  /** A parameter that makes the request a 400, or none. */
  readonly bad: string | null
}

const requestSpec: fc.Arbitrary<RequestSpec> = fc.record({
  // Most pages start at the first record, so that most hold some (past the last, a page is empty).
  start: fc.oneof(
    { arbitrary: fc.constant(0), weight: 8 },
    { arbitrary: fc.nat({ max: 30 }), weight: 3 },
    { arbitrary: fc.nat({ max: 2600 }), weight: 1 }
  ),
  size: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 6 },
    { arbitrary: fc.constantFrom(0, 2000, 2001, 3000), weight: 1 }
  ),
  order: fc.constantFrom('asc' as const, 'desc' as const),
  field: fc.constantFrom('created_at' as const, 'updated_at' as const, 'amount' as const),
  // No filter one time in three, else one or two (a repeated key would be a 400).
  filters: fc.oneof(
    fc.constant([]),
    fc.uniqueArray(filterSpec, { minLength: 1, maxLength: 2, selector: (f) => `${f.field}${f.op}` }),
    fc.uniqueArray(filterSpec, { minLength: 1, maxLength: 2, selector: (f) => `${f.field}${f.op}` })
  ),
  bad: fc.oneof(
    { arbitrary: fc.constant(null), weight: 12 },
    { arbitrary: fc.constantFrom('status[$gt]=pending', 'amount=ten', '_limit=5', 'created_at=2026-11-22T10:00:00'), weight: 1 }
  )
})

const queryOf = (r: RequestSpec, c: Collection): string => {
  const parameters: Array<[string, string]> = [
    ['_start', String(r.start)],
    ['_end', String(r.start + r.size)],
    ['_order', r.order],
    ['_field', r.field]
  ]
  for (const f of r.filters) {
    const values = filterValues(f, c)
    const list = f.op === '$in' || f.op === '$nin'
    parameters.push([f.op === '$eq' ? f.field : `${f.field}[${f.op}]`, list ? JSON.stringify(values) : String(values[0])])
  }
  // URLSearchParams, not the library, writes the query.
  const query = new URLSearchParams(parameters).toString()
  return r.bad === null ? query : `${query}&${r.bad}`
}

// -------------------------------------------------------------------------------------
// the property
// -------------------------------------------------------------------------------------

const ROW_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** Whether two records next to each other on a page tie on the sort field (the id decides). */
const tied = (page: ReadonlyArray<Transaction>, field: RequestSpec['field']): boolean =>
  page.some((r, i) => {
    const next = page[i + 1]
    if (next === undefined) return false
    if (field === 'amount') return r.amount === next.amount
    return compareInstants(instant(r[field]), instant(next[field])) === 0
  })

describe('budget-rules/sql on PostgreSQL (PGlite) against respondIndex in memory', () => {
  it(
    'gives the same status, headers and body for random page requests over random collections',
    async () => {
      const seen = { pages: 0, nonEmpty: 0, ties: 0, between: 0, badRequest: 0, tooWide: 0 }
      await fc.assert(
        fc.asyncProperty(collection, fc.array(requestSpec, { minLength: 4, maxLength: 8 }), async (c, requests) => {
          await db.exec('TRUNCATE bank_transactions')
          await insert('c-1', c.records)
          await insert('c-2', others(c.records))
          const byId = new Map(c.records.map((r) => [r.id, r]))
          for (const r of requests) {
            const query = queryOf(r, c)
            const context = { request: { headers: headers(), query }, session: session('member'), endpoint, request_id: 'req-1' }
            const expected = respondIndex({ ...context, records: c.records })
            const plan = planIndex(context)
            if (plan._tag === 'Reply') {
              expect(plan.reply).toStrictEqual(expected)
              if (plan.reply.status === 400) seen.badRequest++
              if (plan.reply.status === 416) seen.tooWide++
              continue
            }
            const q = pageQuery(endpoint, plan.request, TABLE)
            const rows = (await db.query<Record<string, unknown>>(q.rows.text, [...q.rows.values])).rows
            const counted = (await db.query<{ total: unknown }>(q.count.text, [...q.count.values])).rows
            expect(counted.length).toBe(1)
            const total = counted[0]?.total as number
            // Each row is JSON-ready: the record's fields, integers as numbers, instants in UTC.
            const page = rows.map((row) => {
              const record = byId.get(row.id as string)
              expect(record, `row ${String(row.id)}`).toBeDefined()
              const original = record as Transaction
              expect(Object.keys(row)).toStrictEqual(['id', 'amount', 'status', 'created_at', 'updated_at'])
              expect([row.amount, row.status]).toStrictEqual([original.amount, original.status])
              for (const field of ['created_at', 'updated_at'] as const) {
                expect(row[field]).toMatch(ROW_INSTANT)
                expect(compareInstants(instant(row[field] as string), instant(original[field]))).toBe(0)
              }
              return original
            })
            const { reasons, ...reply } = respondIndexPage({ ...context, page, total })
            const { reasons: expectedReasons, ...expectedReply } = expected
            expect(reply).toStrictEqual(expectedReply)
            // The same rules and details, but for page.records, which says where the rows came from.
            const except = (rs: typeof reasons) => rs.map((x) => (x.rule === 'page.records' ? x.rule : x))
            expect(except(reasons)).toStrictEqual(except(expectedReasons))
            // The rows as the database wrote them make the same headers.
            expect(respondIndexPage({ ...context, page: rows, total }).headers).toStrictEqual(expected.headers)
            seen.pages++
            if (page.length > 0) seen.nonEmpty++
            if (tied(page, r.field)) seen.ties++
            if (
              r.filters.some(
                (f) => (f.field === 'created_at' || f.field === 'updated_at') && f.picks.some((p) => p.ns % 1000 !== 0)
              )
            )
              seen.between++
          }
        }),
        { numRuns: runs(50) }
      )
      // The runs reach what the property is about: pages with records, ties the id breaks,
      // instants between microseconds, and the 400s and 416s planIndex answers alone.
      expect(seen.nonEmpty / seen.pages, JSON.stringify(seen)).toBeGreaterThan(0.5)
      expect(seen.ties / seen.pages, JSON.stringify(seen)).toBeGreaterThan(0.2)
      expect(seen.between, JSON.stringify(seen)).toBeGreaterThan(10)
      expect(seen.badRequest, JSON.stringify(seen)).toBeGreaterThan(0)
      expect(seen.tooWide, JSON.stringify(seen)).toBeGreaterThan(0)
    },
    timeoutFor(50, 120_000)
  )
})

describe('budget-rules/sql on PostgreSQL (PGlite): the ends of the calendar and hostile values', () => {
  // Each record as the library spells it, and the same instant as written into the table by hand
  // (PostgreSQL reads offsets up to 15:59 only, and writes the year before 1 AD as 1 BC).
  const ENDS: ReadonlyArray<readonly [string, string]> = [
    ['0001-01-01T00:00:00+23:59', '0001-12-31 00:01:00+00 BC'],
    ['0001-01-01T23:58:59.999999+23:59', '0001-12-31 23:59:59.999999+00 BC'],
    ['0001-01-01T00:00:00Z', '0001-01-01 00:00:00+00'],
    ['2026-11-22T10:00:00.000001Z', '2026-11-22 10:00:00.000001+00'],
    ['9999-12-31T23:59:59.999999Z', '9999-12-31 23:59:59.999999+00'],
    ['9999-12-31T12:00:00-16:00', '10000-01-01 04:00:00+00'],
    ['9999-12-31T23:59:59.999999-23:59', '10000-01-01 23:58:59.999999+00']
  ]
  const records: ReadonlyArray<Transaction> = ENDS.map(([spelled], i) => ({
    id: `end-${i}`,
    amount: i,
    status: 'pending',
    created_at: spelled,
    updated_at: spelled
  }))

  it.each([
    '_end=100',
    '_end=100&_order=desc',
    '_start=2&_end=4&_order=desc',
    'created_at[$lt]=0001-01-01T00:00:00Z',
    'created_at[$lte]=0001-01-01T00:00:00.0000001%2B23:59',
    'created_at[$gt]=9999-12-31T23:59:59.9999995Z',
    'created_at[$gte]=9999-12-31T12:00:00-16:00',
    'created_at=9999-12-31T12:00:00-16:00',
    `updated_at[$in]=${encodeURIComponent(JSON.stringify(['0001-01-01T00:00:00+23:59', '9999-12-31T20:00:00-08:00', '9999-12-31T23:59:59.999999999-23:59']))}`
  ])('answers %s as respondIndex does, the instants read back exactly', async (query) => {
    await db.exec('TRUNCATE bank_transactions')
    await db.query(
      `INSERT INTO bank_transactions (company_id, id, amount, status, created_at, updated_at)
       SELECT 'c-1', * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::timestamptz[], $4::timestamptz[])`,
      [records.map((r) => r.id), records.map((r) => r.amount), records.map((r) => r.status), ENDS.map(([, table]) => table)]
    )
    const context = { request: { headers: headers(), query }, session: session('member'), endpoint, request_id: 'req-1' }
    const expected = respondIndex({ ...context, records })
    const plan = planIndex(context)
    if (plan._tag === 'Reply') throw new Error(`${query}: ${plan.reply.status}`)
    const q = pageQuery(endpoint, plan.request, TABLE)
    const rows = (await db.query<Record<string, string>>(q.rows.text, [...q.rows.values])).rows
    const total = (await db.query<{ total: number }>(q.count.text, [...q.count.values])).rows[0]?.total ?? -1
    const byId = new Map(records.map((r) => [r.id, r]))
    const page = rows.map((row) => {
      const original = byId.get(row.id as string) as Transaction
      expect(compareInstants(instant(row.created_at as string), instant(original.created_at))).toBe(0)
      return original
    })
    const reply = respondIndexPage({ ...context, page, total })
    expect([reply.status, reply.headers, reply.body]).toStrictEqual([200, expected.headers, expected.body])
    expect(expected.status).toBe(200)
  })

  it('writes the first and last UTC days at +23:59 and -23:59, every other instant in UTC', async () => {
    const plan = planIndex({
      request: { headers: headers(), query: '_end=100' },
      session: session('member'),
      endpoint,
      request_id: 'r'
    })
    if (plan._tag === 'Reply') throw new Error('no page')
    const q = pageQuery(endpoint, plan.request, TABLE)
    const rows = (await db.query<Record<string, string>>(q.rows.text, [...q.rows.values])).rows
    expect(rows.map((r) => r.created_at)).toStrictEqual([
      '0001-01-01T00:00:00.000000+23:59',
      '0001-01-01T23:58:59.999999+23:59',
      '0001-01-01T00:00:00.000000Z',
      '2026-11-22T10:00:00.000001Z',
      '9999-12-31T23:59:59.999999Z',
      '9999-12-31T04:01:00.000000-23:59',
      '9999-12-31T23:59:59.999999-23:59'
    ])
  })

  it("runs a filter value such as '; drop table x; -- as a value: an empty page, the table whole", async () => {
    const hostile = "'; drop table bank_transactions; --"
    const query = `id=${encodeURIComponent(hostile)}&status[$nin]=${encodeURIComponent(JSON.stringify(['authorized']))}`
    const context = { request: { headers: headers(), query }, session: session('member'), endpoint, request_id: 'req-1' }
    const plan = planIndex(context)
    if (plan._tag === 'Reply') throw new Error('no page')
    for (const scope of ['c-1', hostile]) {
      const q = pageQuery(endpoint, plan.request, { table: 'bank_transactions', scope: { company_id: scope } })
      expect((await db.query(q.rows.text, [...q.rows.values])).rows).toStrictEqual([])
      expect((await db.query(q.count.text, [...q.count.values])).rows).toStrictEqual([{ total: 0 }])
    }
    expect((await db.query('SELECT count(*)::float8 AS n FROM bank_transactions')).rows).toStrictEqual([{ n: ENDS.length }])
  })
})

describe('budget-rules/sql on PostgreSQL (PGlite): GET /v1/companies, sorted by name', () => {
  interface Company {
    readonly id: string
    readonly name: string
    readonly created_at: string
    readonly updated_at: string
  }
  const NAME_CHARS = ['a', 'A', 'b', 'B', 'z', 'Z', ' ', '-', 'é', 'É', '中']
  const companies = fc
    .uniqueArray(
      fc.record({
        id: fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength: 1, maxLength: 4 }),
        // Names tie often: few characters, short.
        name: fc.string({ unit: fc.constantFrom(...NAME_CHARS), maxLength: 2 }),
        created: fc.nat({ max: 3 }),
        variant: fc.nat({ max: 17 })
      }),
      { selector: (c) => c.id, maxLength: 120 }
    )
    .map((cs) =>
      cs.map((c): Company => ({
        id: c.id,
        name: c.name,
        created_at: instantText(BASE_US + c.created * 1000, 0, c.variant),
        updated_at: instantText(BASE_US, 0, c.variant)
      }))
    )
  const request = fc.record({
    start: fc.nat({ max: 40 }),
    size: fc.integer({ min: 1, max: 50 }),
    order: fc.constantFrom('asc', 'desc'),
    field: fc.constantFrom('name', 'created_at'),
    filter: fc.constantFrom('', 'name[$ne]=a', 'name[$in]=["a","B","","中"]', 'name[$nin]=["z"]', 'name=Z')
  })

  it('gives the same reply, {data, cursors} included, names compared by code point', async () => {
    await db.exec(`
      CREATE TABLE companies (
        id text COLLATE "unicode" PRIMARY KEY,
        name text COLLATE "unicode" NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`)
    await fc.assert(
      fc.asyncProperty(companies, fc.array(request, { minLength: 3, maxLength: 6 }), async (records, requests) => {
        await db.exec('TRUNCATE companies')
        await db.query(
          'INSERT INTO companies SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])',
          [
            records.map((c) => c.id),
            records.map((c) => c.name),
            records.map((c) => c.created_at),
            records.map((c) => c.updated_at)
          ]
        )
        const byId = new Map(records.map((c) => [c.id, c]))
        for (const r of requests) {
          const query = `_start=${r.start}&_end=${r.start + r.size}&_order=${r.order}&_field=${r.field}&${encodeURI(r.filter)}`
          const context = {
            request: { headers: { Authorization: 'Bearer k' }, query },
            session: session('member'),
            endpoint: endpoints.companies,
            request_id: 'req-1'
          }
          const plan = planIndex(context)
          if (plan._tag === 'Reply') throw new Error(`${query}: ${plan.reply.status}`)
          const q = pageQuery(endpoints.companies, plan.request, { table: 'companies' })
          const rows = (await db.query<{ id: string }>(q.rows.text, [...q.rows.values])).rows
          const total = (await db.query<{ total: number }>(q.count.text, [...q.count.values])).rows[0]?.total ?? -1
          const page = rows.map((row) => byId.get(row.id))
          const reply = respondIndexPage({ ...context, page, total })
          const expected = respondIndex({ ...context, records })
          expect([reply.status, reply.headers, reply.body]).toStrictEqual([200, expected.headers, expected.body])
        }
      }),
      { numRuns: runs(15) }
    )
  })
})
