import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildQuery,
  decodePageRequest,
  endpoints,
  firstK,
  type LiveCursor,
  liveFeedQuery,
  liveFeedStart,
  nextLiveCursor,
  nextWindow,
  type PageWindow
} from '../api'
import { tally } from '../arbitraries'
import { FC_NUM_RUNS, runs, timeoutFor } from '../runs'
import {
  bruteFilter,
  bruteSort,
  buildCollection,
  collectionSpec,
  expectedHeaders,
  index,
  type Known,
  someFilters,
  momentOf,
  prng,
  type Order,
  queryOf,
  type SortField,
  spell,
  type Transaction
} from './fixtures'

const order = fc.constantFrom<Order>('asc', 'desc')
const field = fc.constantFrom<SortField>('created_at', 'updated_at', 'amount')
/** A share in [0, 1): windows and page sizes are drawn as shares of the matches, known only in the property. */
const share = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000)

/**
 * The runs of a property over collections of thousands of records. Its own `numRuns` overrides
 * fast-check's global one; FC_NUM_RUNS raises it, but to at most four times as many, so that
 * FC_NUM_RUNS=10000 stays within minutes.
 */
const heavyRuns = (n: number): number => (FC_NUM_RUNS === undefined ? n : Math.max(n, Math.min(FC_NUM_RUNS, 4 * n)))

/** Those properties' time limit on a busy machine, growing with the runs FC_NUM_RUNS adds. */
const heavyTimeout = (n: number): number => timeoutFor(n, 120_000, heavyRuns(n))

/** Whether the window ends early among many records: the selection keeps far fewer than it reads (firstK: its heap). */
const streams = (end: number, records: number) => end * 8 < records

describe('index endpoints: properties', () => {
  it(
    'consecutive windows of any size from 1 partition the filtered collection, with exact headers, ties and duplicate ids included',
    () => {
      const reached = tally()
      let heap = 0
      const walk = collectionSpec().chain((spec) =>
        // Small pages three times in four: walks of many pages, the conclusion this property is about.
        fc.record({
          spec: fc.constant(spec),
          field,
          order,
          filters: someFilters(spec),
          small: fc.nat(3).map((n) => n > 0),
          size: share
        })
      )
      fc.assert(
        fc.property(walk, ({ spec, field: f, order: o, filters, small, size: sizeShare }) => {
          reached.run()
          const known = buildCollection(spec)
          const records = known.map((k) => k.record)
          const matching = bruteFilter(known, filters)
          const total = matching.length
          // Page sizes from 1, but few enough pages over thousands of records to keep each run short.
          const least = Math.max(1, Math.ceil(total / (records.length >= 1000 ? 5 : 60)))
          const most = Math.max(least, Math.min(2000, total + 1))
          const top = small ? Math.min(most, Math.max(least, 7)) : most
          // Smaller sizes more often (the square of a uniform share): more pages, more page edges among ties.
          const size = least + Math.floor(sizeShare * sizeShare * (top - least + 1))
          const seen: Array<unknown> = []
          let pages = 0
          for (let w: PageWindow | null = { start: 0, end: size }; w !== null;) {
            if (streams(w.end, records.length)) heap++
            const r = index(
              buildQuery(endpoints.bankTransactions, {
                window: w,
                order: o,
                field: f,
                filters: filters.map((x) => ({
                  field: x.field,
                  op: x.op,
                  value: x.op === '$in' || x.op === '$nin' ? x.sent : (x.sent[0] as string | number)
                }))
              }),
              records
            )
            expect(r.status).toBe(200)
            expect(r.headers).toEqual(expectedHeaders(w.start, w.end, total))
            const page = r.body as ReadonlyArray<unknown>
            expect(page.length).toBeLessThanOrEqual(size)
            seen.push(...page)
            w = nextWindow(w, page.length)
            pages++
          }
          expect(pages).toBe(Math.floor(total / size) + 1)
          // A partition: every record given that matches, each as many times as it was given, in page order.
          expect(seen).toEqual(bruteSort(matching, f, o).map((k) => k.record))
          if (pages > 2) reached.reach()
        }),
        { numRuns: heavyRuns(100) }
      )
      reached.expectShare()
      expect(heap).toBeGreaterThan(0)
    },
    heavyTimeout(100)
  )

  it(
    'a page of any window, order, field and filters is the brute force, with exact headers',
    () => {
      const reached = tally()
      const pageCase = collectionSpec().chain((spec) =>
        fc.record({
          spec: fc.constant(spec),
          field,
          order,
          filters: someFilters(spec),
          start: share.map((x) => x * 1.1),
          size: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2000 }))
        })
      )
      fc.assert(
        fc.property(pageCase, ({ spec, field: f, order: o, filters, start: startShare, size }) => {
          reached.run()
          const known = buildCollection(spec)
          const matching = bruteSort(bruteFilter(known, filters), f, o)
          const start = Math.floor(startShare * matching.length)
          const r = index(
            queryOf({ start, end: start + size, order: o, field: f, filters }),
            known.map((k) => k.record)
          )
          const expected = matching.slice(start, start + size).map((k) => k.record)
          expect([r.status, r.headers]).toEqual([200, expectedHeaders(start, start + size, matching.length)])
          expect(r.body).toEqual(expected)
          if (expected.length > 0) reached.reach()
        }),
        { numRuns: heavyRuns(300) }
      )
      reached.expectShare()
    },
    heavyTimeout(300)
  )

  it(
    'over 2,000 to 4,000 records, windows that end early give the brute force, window after window',
    () => {
      const reached = tally()
      const heapCase = collectionSpec(fc.integer({ min: 2000, max: 4000 })).chain((spec) =>
        fc.record({
          spec: fc.constant(spec),
          field,
          order,
          filters: someFilters(spec),
          size: fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 249 })),
          windows: fc.integer({ min: 1, max: 4 })
        })
      )
      fc.assert(
        fc.property(heapCase, ({ spec, field: f, order: o, filters, size, windows }) => {
          reached.run()
          const known = buildCollection(spec)
          const records = known.map((k) => k.record)
          const matching = bruteSort(bruteFilter(known, filters), f, o)
          let streamed = 0
          for (let start = 0, n = 0; n < windows && streams(start + size, records.length); start += size, n++) {
            const r = index(queryOf({ start, end: start + size, order: o, field: f, filters }), records)
            expect([r.status, r.headers]).toEqual([200, expectedHeaders(start, start + size, matching.length)])
            expect(r.body).toEqual(matching.slice(start, start + size).map((k) => k.record))
            if (start < matching.length) streamed++
          }
          if (streamed > 0) reached.reach()
        }),
        { numRuns: heavyRuns(40) }
      )
      reached.expectShare()
    },
    heavyTimeout(40)
  )

  it(
    'over 2,000 to 6,000 records in creation order, reversed, shuffled, in page order or its reverse, a page is the brute force, heavy ties and duplicate ids included',
    () => {
      const arrangements = ['creation', 'reversed', 'shuffled', 'page order', 'reverse page order'] as const
      type Arrangement = (typeof arrangements)[number]
      /** The collection as given to the endpoint, each record's position its new one. */
      const arrange = (
        known: ReadonlyArray<Known>,
        how: Arrangement,
        f: SortField,
        o: Order,
        seed: number
      ): ReadonlyArray<Known> => {
        const creation = [...known].sort((a, b) => a.created - b.created || a.index - b.index)
        const page = bruteSort(known, f, o)
        const shuffled = [...known]
        const random = prng(seed)
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1))
          ;[shuffled[i], shuffled[j]] = [shuffled[j] as Known, shuffled[i] as Known]
        }
        const given = {
          creation,
          reversed: [...creation].reverse(),
          shuffled,
          'page order': page,
          'reverse page order': [...page].reverse()
        }[how]
        return given.map((k, index) => ({ ...k, index }))
      }
      const reached = tally()
      // Per arrangement, runs whose matches far outnumber the window's end (more than the
      // selection holds at once: the window's end plus 1,024), and runs whose page ends inside a
      // run of equal sort keys.
      const many = new Map<Arrangement, number>()
      let tiedEdges = 0
      const bigCase = collectionSpec(fc.integer({ min: 2000, max: 6000 })).chain((spec) =>
        fc.record({
          spec: fc.constant(spec),
          field,
          order,
          filters: someFilters(spec),
          arrangement: fc.constantFrom(...arrangements),
          seed: fc.integer(),
          start: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
          size: fc.integer({ min: 1, max: 40 })
        })
      )
      fc.assert(
        fc.property(bigCase, ({ spec, field: f, order: o, filters, arrangement, seed, start, size }) => {
          reached.run()
          const known = arrange(buildCollection(spec), arrangement, f, o, seed)
          const matching = bruteSort(bruteFilter(known, filters), f, o)
          const r = index(
            queryOf({ start, end: start + size, order: o, field: f, filters }),
            known.map((k) => k.record)
          )
          expect([r.status, r.headers]).toEqual([200, expectedHeaders(start, start + size, matching.length)])
          expect(r.body).toEqual(matching.slice(start, start + size).map((k) => k.record))
          if (matching.length > 2 * (start + size) + 1100) {
            reached.reach()
            many.set(arrangement, (many.get(arrangement) ?? 0) + 1)
          }
          const key = (k: Known | undefined) =>
            k === undefined ? undefined : f === 'created_at' ? k.created : f === 'updated_at' ? k.updated : k.record.amount
          const edge = key(matching[start + size - 1])
          if (edge !== undefined && edge === key(matching[start + size])) tiedEdges++
        }),
        { numRuns: heavyRuns(100) }
      )
      reached.expectShare(0.3)
      for (const a of arrangements) expect(many.get(a) ?? 0, a).toBeGreaterThan(0)
      expect(tiedEdges).toBeGreaterThan(0)
    },
    heavyTimeout(100)
  )

  it('a live feed over a growing collection sees every record once, equal instants in any spelling included (R-46)', () => {
    const reached = tally()
    fc.assert(
      fc.property(
        // Steps of 0 seconds in two runs of three: instants tie often, each spelled its own way.
        fc.array(fc.array(fc.tuple(fc.constantFrom(0, 0, 0, 0, 1, 2), share), { minLength: 1, maxLength: 15, size: 'max' }), {
          minLength: 1,
          maxLength: 8
        }),
        fc.integer({ min: 1, max: 6 }),
        (batches, size) => {
          reached.run()
          const records: Array<Transaction> = []
          const moments: Array<number> = []
          let clock = 0
          let cursor: LiveCursor = liveFeedStart
          const seen: Array<string> = []
          const poll = () => {
            // At most one page per record and one more: a feed that does not move on fails, not hangs.
            for (let polls = 0; polls <= records.length + 1; polls++) {
              const page = index(liveFeedQuery(endpoints.bankTransactions, cursor, size), records)
                .body as ReadonlyArray<Transaction>
              seen.push(...page.map((t) => t.id))
              cursor = nextLiveCursor(cursor, page)
              if (page.length < size) return
            }
          }
          for (const batch of batches) {
            // New records are never older than the newest so far; several share a second, each spelled its own way.
            for (const [step, pick] of batch) {
              clock += step
              const n = records.length
              const at = spell(momentOf({ stride: 1000 }, clock), pick)
              moments.push(clock)
              records.push({
                id: `tx-${String(n).padStart(5, '0')}`,
                amount: n,
                status: 'pending',
                created_at: at,
                updated_at: at
              })
            }
            poll()
          }
          expect(seen).toEqual(records.map((t) => t.id))
          const tiedAcrossSpellings = records.some(
            (t, i) => i > 0 && moments[i] === moments[i - 1] && t.created_at !== records[i - 1]?.created_at
          )
          if (tiedAcrossSpellings && records.length > size) reached.reach()
        }
      ),
      { numRuns: runs(300) }
    )
    reached.expectShare()
  })

  it('firstK equals a full sort then slice, on the heap path in most runs', () => {
    const reached = tally()
    const arrays = fc.record({
      n: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 100, max: 3000 })),
      seed: fc.integer(),
      spread: fc.integer({ min: 1, max: 50 }),
      k: share,
      // k below n / 8 (the heap) in three runs of four, any k up to past n otherwise.
      small: fc.constantFrom(true, true, true, false)
    })
    fc.assert(
      fc.property(arrays, ({ n, seed, spread, k: kShare, small }) => {
        reached.run()
        // Few distinct values, so that ties are many.
        const xs = Array.from(
          { length: n },
          (_, i) => ((Math.imul(seed ^ i, 2654435761) >>> 0) % spread) - Math.floor(spread / 2)
        )
        // On the heap path k is 1 or more and 8k stays below n.
        const heapMost = Math.floor((n - 1) / 8)
        const k = small && heapMost >= 1 ? 1 + Math.floor(kShare * heapMost) : Math.floor(kShare * (n + 2))
        expect(firstK(xs, k, (a, b) => a - b)).toEqual([...xs].sort((a, b) => a - b).slice(0, k))
        if (k > 0 && streams(k, n)) reached.reach()
      }),
      { numRuns: runs(300) }
    )
    reached.expectShare()
  })

  it('buildQuery round-trips through decodePageRequest', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10000 }),
        fc.integer({ min: 0, max: 2000 }),
        order,
        field,
        fc.integer(),
        (start, size, o, f, n) => {
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
        }
      )
    )
  })

  it('any query string gives 200, 400 or 416, never throws, and leaves Object.prototype alone', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort()
    const piece = fc.oneof(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        '_start',
        '_end',
        '_order',
        '_field',
        'amount',
        'status',
        'created_at',
        '[$in]',
        '[$gt]',
        '%',
        '%2',
        '%E0%A4%A',
        '+',
        '=',
        '&',
        '[',
        ']',
        '99999999999999999999999',
        '-1',
        '[1,2]',
        'desc',
        'ASC'
      ),
      fc.string({ maxLength: 8 }),
      fc.integer().map(String)
    )
    const query = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 30 }).map((ps) => ps.join(''))
    )
    fc.assert(
      fc.property(query, (q) => {
        const r = index(q, [])
        expect([200, 400, 416]).toContain(r.status)
      }),
      { numRuns: runs(3000) }
    )
    const flood = Array.from({ length: 10_000 }, (_, i) => `amount[$gte]=${i}`).join('&')
    expect(index(flood, []).status).toBe(400)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
