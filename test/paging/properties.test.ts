import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildQuery,
  compareInstants,
  decodePageRequest,
  endpoints,
  firstK,
  type LiveCursor,
  liveFeedQuery,
  liveFeedStart,
  nextLiveCursor,
  nextWindow,
  type Operator,
  type PageWindow,
  parseInstant
} from '../../src/index'
import { index, type Transaction, tiedTransactions } from './fixtures'

const order = fc.constantFrom('asc' as const, 'desc' as const)
const field = fc.constantFrom('created_at', 'updated_at', 'amount')

/** The naive reference: a full sort by the field, then id, in one direction. */
const naiveSort = (records: ReadonlyArray<Transaction>, f: string, o: 'asc' | 'desc') => {
  const key = (t: Transaction) => (f === 'amount' ? t.amount : (parseInstant(f === 'created_at' ? t.created_at : t.updated_at) ?? { seconds: 0, nanos: 0 }))
  const cmp = (a: Transaction, b: Transaction) => {
    const ka = key(a)
    const kb = key(b)
    const c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : compareInstants(ka as never, kb as never)
    return c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  }
  const sorted = [...records].sort(cmp)
  return o === 'asc' ? sorted : sorted.reverse()
}

describe('index endpoints: properties', () => {
  it('walking any collection with nextWindow returns every record exactly once, in order', () => {
    fc.assert(
      fc.property(tiedTransactions(), fc.integer({ min: 1, max: 2000 }), order, field, (records, size, o, f) => {
        const seen: Array<string> = []
        let window: PageWindow | null = { start: 0, end: size }
        let pages = 0
        while (window !== null) {
          const r = index(buildQuery(endpoints.bankTransactions, { window, order: o, field: f }), records)
          expect(r.status).toBe(200)
          const page = r.body as ReadonlyArray<Transaction>
          expect(page.length).toBeLessThanOrEqual(size)
          seen.push(...page.map((t) => t.id))
          window = nextWindow(window, page.length)
          pages++
        }
        expect(seen).toEqual(naiveSort(records, f, o).map((t) => t.id))
        expect(pages).toBe(Math.floor(records.length / size) + 1)
      }),
      { numRuns: 300 }
    )
  })

  it('small pages over heavy ties still partition the collection', () => {
    fc.assert(
      fc.property(tiedTransactions(120), fc.integer({ min: 1, max: 7 }), order, field, (records, size, o, f) => {
        const seen: Array<string> = []
        for (let w: PageWindow | null = { start: 0, end: size }; w !== null; ) {
          const page = index(buildQuery(endpoints.bankTransactions, { window: w, order: o, field: f }), records).body as ReadonlyArray<Transaction>
          seen.push(...page.map((t) => t.id))
          w = nextWindow(w, page.length)
        }
        expect(seen).toEqual(naiveSort(records, f, o).map((t) => t.id))
      }),
      { numRuns: 200 }
    )
  })

  it('a live feed over a growing collection sees every record once, ties included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 15 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (batches, size) => {
          const records: Array<Transaction> = []
          let clock = 0
          let cursor: LiveCursor = liveFeedStart
          const seen: Array<string> = []
          const poll = () => {
            for (;;) {
              const page = index(liveFeedQuery(endpoints.bankTransactions, cursor, size), records).body as ReadonlyArray<Transaction>
              seen.push(...page.map((t) => t.id))
              cursor = nextLiveCursor(cursor, page)
              if (page.length < size) return
            }
          }
          for (const batch of batches) {
            // New records are never older than the newest so far; several share a second.
            for (const step of batch) {
              clock += step
              const n = records.length
              const at = `2026-11-22T10:${String(Math.floor(clock / 60) % 60).padStart(2, '0')}:${String(clock % 60).padStart(2, '0')}Z`
              records.push({ id: `tx-${String(n).padStart(5, '0')}`, amount: n, status: 'pending', created_at: at, updated_at: at })
            }
            poll()
          }
          expect(seen).toEqual(records.map((t) => t.id))
        }
      ),
      { numRuns: 300 }
    )
  })

  it("a filter's predicate agrees with a naive evaluator", () => {
    const filter = fc.oneof(
      fc.record({ field: fc.constant('amount'), op: fc.constantFrom<Operator>('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'), value: fc.integer({ min: -4, max: 4 }) }),
      fc.record({ field: fc.constant('amount'), op: fc.constantFrom<Operator>('$in', '$nin'), value: fc.array(fc.integer({ min: -4, max: 4 }), { maxLength: 4 }) }),
      fc.record({ field: fc.constant('status'), op: fc.constantFrom<Operator>('$eq', '$ne'), value: fc.constantFrom('authorized', 'pending') }),
      fc.record({
        field: fc.constant('created_at'),
        op: fc.constantFrom<Operator>('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'),
        value: fc.integer({ min: 0, max: 5 }).map((m) => `2026-11-22T07:0${m}:00-03:00`)
      })
    )
    const naive = (t: Transaction, f: { field: string; op: Operator; value: unknown }): boolean => {
      const left = f.field === 'amount' ? t.amount : f.field === 'status' ? t.status : Date.parse(t.created_at)
      const norm = (v: unknown) => (f.field === 'created_at' ? Date.parse(v as string) : v)
      const right = Array.isArray(f.value) ? f.value.map(norm) : norm(f.value)
      switch (f.op) {
        case '$eq': return left === right
        case '$ne': return left !== right
        case '$gt': return (left as number) > (right as number)
        case '$gte': return (left as number) >= (right as number)
        case '$lt': return (left as number) < (right as number)
        case '$lte': return (left as number) <= (right as number)
        case '$in': return (right as ReadonlyArray<unknown>).includes(left)
        case '$nin': return !(right as ReadonlyArray<unknown>).includes(left)
      }
    }
    fc.assert(
      fc.property(tiedTransactions(80), fc.uniqueArray(filter, { maxLength: 3, selector: (f) => `${f.field}${f.op}` }), (records, filters) => {
        const r = index(buildQuery(endpoints.bankTransactions, { window: { start: 0, end: 2000 }, filters }), records)
        expect(r.status).toBe(200)
        const expected = naiveSort(records.filter((t) => filters.every((f) => naive(t, f))), 'created_at', 'asc')
        expect((r.body as ReadonlyArray<Transaction>).map((t) => t.id)).toEqual(expected.map((t) => t.id))
        expect(r.headers['X-Total-Count']).toBe(String(expected.length))
      }),
      { numRuns: 500 }
    )
  })

  it('firstK equals a full sort then slice', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer()), fc.nat({ max: 300 }), (xs, k) => {
        expect(firstK(xs, k, (a, b) => a - b)).toEqual([...xs].sort((a, b) => a - b).slice(0, k))
      })
    )
  })

  it('buildQuery round-trips through decodePageRequest', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10000 }), fc.integer({ min: 0, max: 2000 }), order, field, fc.integer(), (start, size, o, f, n) => {
        const amount = Math.trunc(n / 2) || 0
        const query = buildQuery(endpoints.bankTransactions, {
          window: { start, end: start + size },
          order: o,
          field: f,
          filters: [{ field: 'amount', op: '$gte', value: amount }]
        })
        const decoded = decodePageRequest(endpoints.bankTransactions, query).result
        expect(decoded._tag).toBe('Right')
        if (decoded._tag === 'Right') {
          expect(decoded.right.window).toEqual({ start, end: start + size })
          expect(decoded.right.sort).toEqual({ field: f, order: o })
          expect(decoded.right.filters.map((x) => [x.field, x.op, x.values])).toEqual([['amount', '$gte', [amount]]])
        }
      })
    )
  })

  it('any query string gives 200, 400 or 416, never throws, and leaves Object.prototype alone', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort()
    const piece = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', '_start', '_end', '_order', '_field', 'amount', 'status', 'created_at', '[$in]', '[$gt]', '%', '%2', '%E0%A4%A', '+', '=', '&', '[', ']', '99999999999999999999999', '-1', '[1,2]', 'desc', 'ASC'),
      fc.string({ maxLength: 8 }),
      fc.integer().map(String)
    )
    const query = fc.oneof(fc.string(), fc.array(piece, { maxLength: 30 }).map((ps) => ps.join('')))
    fc.assert(
      fc.property(query, (q) => {
        const r = index(q, [])
        expect([200, 400, 416]).toContain(r.status)
      }),
      { numRuns: 3000 }
    )
    const flood = Array.from({ length: 10_000 }, (_, i) => `amount[$gte]=${i}`).join('&')
    expect(index(flood, []).status).toBe(400)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
