import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildQuery,
  encodeQuery,
  endpoints,
  liveFeedQuery,
  liveFeedStart,
  type LiveCursor,
  nextLiveCursor,
  nextWindow
} from '../api'
import { runs as runsOf } from '../runs'
import { index } from './fixtures'

// R-46 (live feed), R-47 (ties, $in/$nin, lone surrogates), R-19 (nextWindow).

/** One moment, 2026-11-22T10:mm:00Z, written in one of four spellings. */
const spell = (minute: number, how: number): string => {
  const mm = String(minute).padStart(2, '0')
  switch (how % 4) {
    case 0:
      return `2026-11-22T10:${mm}:00Z`
    case 1:
      return `2026-11-22T10:${mm}:00.000Z`
    case 2:
      return `2026-11-22T07:${mm}:00-03:00`
    default:
      return `2026-11-22T19:${mm}:00.000000000+09:00`
  }
}

interface Tx {
  readonly id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

/** A collection where most records share a moment with others, in different spellings. */
const tiedCollection = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(3)), { minLength: 8, maxLength: 60 })
  .map((specs) =>
    specs.map(([minute, how], i): Tx => ({
      id: `tx-${String(i).padStart(3, '0')}`,
      // The minute again, so the test knows each record's moment without parsing.
      amount: minute,
      status: 'authorized',
      created_at: spell(minute, how),
      updated_at: spell(minute, how + 1)
    }))
  )

/** An instant carrying `tag` in its nanoseconds, and the tag read back from it. */
const tagged = (tag: number): string => `2026-11-22T11:00:00.${String(tag).padStart(9, '0')}Z`
const tagOf = (r: { readonly updated_at: string }): number => Number(r.updated_at.slice(20, 29))

const bodyOf = (query: string, records: ReadonlyArray<unknown>): ReadonlyArray<Tx> => {
  const r = index(query, records)
  expect(r.status).toBe(200)
  return r.body as ReadonlyArray<Tx>
}

describe('a live feed compares instants, not strings (R-46)', () => {
  it('sees every record exactly once and stops, for any page size from 1, ties spelled any way', () => {
    let runs = 0
    let tieSplitByAPage = 0
    fc.assert(
      fc.property(tiedCollection, fc.integer({ min: 1, max: 7 }), (records, size) => {
        runs++
        const minuteOf = new Map(records.map((r) => [r.id, r.amount]))
        const pages: Array<ReadonlyArray<Tx>> = []
        let cursor: LiveCursor = liveFeedStart
        for (let page = 0; page <= records.length + 1; page++) {
          const body = bodyOf(liveFeedQuery(endpoints.bankTransactions, cursor, size), records)
          if (body.length === 0) break
          pages.push(body)
          cursor = nextLiveCursor(cursor, body)
        }
        const seen = pages.flat().map((r) => r.id)
        expect([...seen].sort()).toEqual(records.map((r) => r.id).sort())
        if (pages.some((p, i) => i > 0 && minuteOf.get(pages[i - 1]?.at(-1)?.id ?? '') === minuteOf.get(p[0]?.id ?? '')))
          tieSplitByAPage++
      })
    )
    // Most runs end a page inside a group of records of one moment: the case that once stalled.
    expect(tieSplitByAPage).toBeGreaterThanOrEqual(runs / 2)
  })

  it('counts a record spelled another way as the same moment as the cursor (the stall found in review)', () => {
    const records: ReadonlyArray<Tx> = [
      { id: 'a', amount: 1, status: 'pending', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z' },
      { id: 'b', amount: 1, status: 'pending', created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00Z' },
      { id: 'c', amount: 1, status: 'pending', created_at: '2026-11-22T07:00:00-03:00', updated_at: '2026-11-22T10:00:00Z' }
    ]
    const first = nextLiveCursor(liveFeedStart, bodyOf(liveFeedQuery(endpoints.bankTransactions, liveFeedStart, 2), records))
    expect(first).toEqual({ after: '2026-11-22T10:00:00.000Z', seen_at_after: 2 })
    const secondPage = bodyOf(liveFeedQuery(endpoints.bankTransactions, first, 2), records)
    expect(secondPage.map((r) => r.id)).toEqual(['c'])
    const second = nextLiveCursor(first, secondPage)
    expect(second).toEqual({ after: '2026-11-22T07:00:00-03:00', seen_at_after: 3 })
    expect(bodyOf(liveFeedQuery(endpoints.bankTransactions, second, 2), records)).toEqual([])
  })

  it('never throws on a page it cannot read, and keeps the cursor', () => {
    const cursor = { after: '2026-11-22T10:00:00Z', seen_at_after: 1 }
    const hostile = [
      null,
      [null],
      [{ created_at: 5 }],
      [
        Object.defineProperty({}, 'created_at', {
          get() {
            throw new Error('no')
          }
        })
      ]
    ]
    for (const page of hostile) expect(nextLiveCursor(cursor, page as never)).toBe(cursor)
  })
})

describe('index robustness (R-47)', () => {
  /** Records with equal sort keys and equal ids, told apart only by a tag the index never reads. */
  const duplicates = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.nat(3)), {
      minLength: 401,
      maxLength: 500
    })
    .map((specs) =>
      specs.map(([id, minute, how], i) => ({
        id: `tx-${id}`,
        amount: minute,
        status: 'pending' as const,
        created_at: spell(minute, how),
        // The record's position, in a field neither sort reads: how the test tells duplicates apart.
        updated_at: tagged(i)
      }))
    )

  it('pages records with equal keys and equal ids as a partition of the records given, both orders, pages of 10 to 50', () => {
    let runs = 0
    let heapPath = 0
    fc.assert(
      fc.property(
        duplicates,
        fc.integer({ min: 10, max: 50 }),
        fc.constantFrom('asc', 'desc'),
        fc.constantFrom('created_at', 'amount'),
        (records, size, order, field) => {
          runs++
          // A first window of at most 50 over more than 400 records streams through the bounded heap.
          if (size * 8 < records.length) heapPath++
          const tags: Array<number> = []
          for (let start = 0; start < records.length + size; start += size) {
            const body = bodyOf(`_start=${start}&_end=${start + size}&_order=${order}&_field=${field}`, records)
            tags.push(...body.map(tagOf))
          }
          expect([...tags].sort((a, b) => a - b)).toEqual(records.map((_, i) => i))
        }
      ),
      { numRuns: runsOf(100) }
    )
    // Every collection holds over 400 records over 9 (id, key) pairs: duplicates in each run, and
    // the first pages through the heap, the later ones through the full sort.
    expect(heapPath).toBe(runs)
  })

  it('orders duplicates by position within their tie, in either direction', () => {
    const records = [0, 1, 2, 3].map((tag) => ({
      id: 'tx-same',
      amount: 5,
      status: 'pending' as const,
      created_at: spell(0, tag),
      updated_at: tagged(tag)
    }))
    for (const order of ['asc', 'desc']) expect(bodyOf(`_order=${order}&_end=4`, records).map(tagOf)).toEqual([0, 1, 2, 3])
    // The same through the bounded heap (a small window over many records).
    const many = Array.from({ length: 400 }, (_, tag) => ({ ...records[0], created_at: spell(0, tag), updated_at: tagged(tag) }))
    expect(bodyOf('_start=3&_end=6&_order=desc', many).map(tagOf)).toEqual([3, 4, 5])
  })

  it('$in and $nin match instants as moments, whatever their spelling', () => {
    const records = [0, 1, 2, 3].map((minute) => ({
      id: `tx-${minute}`,
      amount: minute,
      status: 'pending' as const,
      created_at: spell(minute, minute),
      updated_at: spell(minute, 0)
    }))
    const list = encodeURIComponent(JSON.stringify([spell(1, 2), spell(3, 1), '2026-11-22T10:05:00Z']))
    expect(bodyOf(`created_at[$in]=${list}`, records).map((r) => r.id)).toEqual(['tx-1', 'tx-3'])
    expect(bodyOf(`created_at[$nin]=${list}`, records).map((r) => r.id)).toEqual(['tx-0', 'tx-2'])
  })

  it('$in and $nin over 500 ids agree with a brute force', () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({
      id: `tx-${i}`,
      amount: i % 7,
      status: i % 2 === 0 ? ('pending' as const) : ('authorized' as const),
      created_at: spell(i % 60, i),
      updated_at: spell(0, 0)
    }))
    const ids = Array.from({ length: 500 }, (_, k) => `tx-${(k * 7919) % 4000}`)
    const wanted = new Set(ids)
    const list = encodeURIComponent(JSON.stringify(ids))
    const total = (query: string) => index(query, records).headers['X-Total-Count']
    expect(total(`id[$in]=${list}`)).toBe(String(records.filter((r) => wanted.has(r.id)).length))
    expect(total(`id[$nin]=${list}`)).toBe(String(records.filter((r) => !wanted.has(r.id)).length))
  })

  it('a lone surrogate in a filter value is a 400, never a 500', () => {
    for (const query of ['name=%ED%A0%80', 'name=\uD800', 'name=a\uDC00b', '\uD800=1']) {
      const r = index(query, [], endpoints.companies)
      expect([r.status, r.body]).toEqual([
        400,
        {
          error: 'bad_request',
          message: query.startsWith('name=%') ? 'The query has a malformed % escape' : 'The query holds a lone surrogate'
        }
      ])
    }
  })

  it('encoding a query never throws: a lone surrogate is written as U+FFFD, as URLSearchParams writes it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), (key, value) => {
        const read = (query: string) => [...new URLSearchParams(query)]
        expect(read(encodeQuery([[key, value]]))).toEqual(read(new URLSearchParams([[key, value]]).toString()))
      })
    )
    expect(buildQuery(endpoints.companies, { filters: [{ field: 'name', op: '$eq', value: 'a\uD800' }] })).toBe('name=a%EF%BF%BD')
  })
})

describe('nextWindow given values outside its type (R-19)', () => {
  it.each<[string, unknown, unknown, string]>([
    ['a NaN end', { start: 0, end: Number.NaN }, 10, 'nextWindow: window.end is NaN, not a whole number >= start (0)'],
    ['a NaN start', { start: Number.NaN, end: 10 }, 10, 'nextWindow: window.start is NaN, not a whole number >= 0'],
    ['a NaN count', { start: 0, end: 10 }, Number.NaN, 'nextWindow: received is NaN, not a whole number >= 0'],
    [
      'an infinite end',
      { start: 0, end: Number.POSITIVE_INFINITY },
      10,
      'nextWindow: window.end is Infinity, not a whole number >= start (0)'
    ],
    ['a fractional start', { start: 0.5, end: 10 }, 10, 'nextWindow: window.start is 0.5, not a whole number >= 0'],
    ['an end before the start', { start: 10, end: 5 }, 0, 'nextWindow: window.end is 5, not a whole number >= start (10)'],
    ['a negative count', { start: 0, end: 10 }, -1, 'nextWindow: received is -1, not a whole number >= 0']
  ])('%s is a TypeError', (_, window, received, message) => {
    expect(() => nextWindow(window as never, received as never)).toThrow(new TypeError(message))
  })

  it('ends a walk that would pass Number.MAX_SAFE_INTEGER', () => {
    expect(nextWindow({ start: 0, end: Number.MAX_SAFE_INTEGER - 1 }, Number.MAX_SAFE_INTEGER - 1)).toBeNull()
  })
})

describe('the client query builders never throw (R-19)', () => {
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('no')
      }
    }
  )

  it.each<[string, unknown, unknown, string]>([
    ['no endpoint', null, { order: 'desc' }, '_order=desc'],
    ['no spec', endpoints.bankTransactions, null, ''],
    ['filters that are not a list', endpoints.bankTransactions, { filters: 0 }, ''],
    [
      'a hole and junk among the filters',
      endpoints.bankTransactions,
      { filters: [undefined, 7, { field: 'amount', op: '$gte', value: 5 }] },
      'amount%5B%24gte%5D=5'
    ],
    ['an order or field that is a number', endpoints.bankTransactions, { order: 1, field: 2 }, ''],
    ['a window of objects', endpoints.bankTransactions, { window: { start: Object.create(null) as unknown, end: 5 } }, ''],
    ['a BigInt in a list', endpoints.bankTransactions, { filters: [{ field: 'amount', op: '$in', value: [0n] }] }, ''],
    ['an unknown operator', endpoints.bankTransactions, { filters: [{ field: 'amount', op: '$like', value: 5 }] }, ''],
    ['a spec whose every read throws', endpoints.bankTransactions, throwing, '']
  ])('buildQuery with %s leaves the bad parts out', (_, endpoint, spec, expected) => {
    expect(buildQuery(endpoint as never, spec as never)).toBe(expected)
  })

  it.each<[string, unknown, unknown, string]>([
    ['a cursor that is not one', undefined, 10, '_start=0&_end=10&_order=asc&_field=created_at'],
    ['a BigInt offset', { after: null, seen_at_after: 10n }, 10, '_start=0&_end=10&_order=asc&_field=created_at'],
    ['a size that is a symbol', liveFeedStart, Symbol('x'), '_start=0&_end=25&_order=asc&_field=created_at'],
    ['a cursor whose every read throws', throwing, 5, '_start=0&_end=5&_order=asc&_field=created_at']
  ])('liveFeedQuery with %s reads it as the start', (_, cursor, size, expected) => {
    expect(liveFeedQuery(endpoints.bankTransactions, cursor as never, size as never)).toBe(expected)
  })

  it('nextLiveCursor reads a cursor that is not one as the start', () => {
    expect(nextLiveCursor('0' as never, [])).toBe(liveFeedStart)
    expect(nextLiveCursor({ after: undefined, seen_at_after: 1 } as never, [{ created_at: '2026-11-22T10:00:00Z' }])).toEqual({
      after: '2026-11-22T10:00:00Z',
      seen_at_after: 1
    })
  })
})

describe('records that are not plain objects (R-18)', () => {
  class Row {
    readonly #data: Tx
    constructor(data: Tx) {
      this.#data = data
    }
    get id() {
      return this.#data.id
    }
    get amount() {
      return this.#data.amount
    }
    get status() {
      return this.#data.status
    }
    get created_at() {
      return this.#data.created_at
    }
    get updated_at() {
      return this.#data.updated_at
    }
  }
  const plain: ReadonlyArray<Tx> = [0, 1, 2].map((i) => ({
    id: `tx-${i}`,
    amount: i,
    status: 'pending',
    created_at: spell(i, i),
    updated_at: spell(i, 0)
  }))

  it.each<[string, (t: Tx) => object]>([
    ['class instances with getters', (t) => new Row(t)],
    ['objects whose fields are inherited', (t) => Object.create(t) as object],
    ['rows with more fields than the endpoint has', (t) => ({ ...t, dataValues: { secret: 1 } })]
  ])('%s come back as plain objects of the endpoint fields, as plain records do', (_, dress) => {
    const r = index('_order=desc', plain.map(dress))
    expect(r.status).toBe(200)
    expect(r.body).toStrictEqual([...plain].reverse())
    expect(JSON.parse(JSON.stringify(r.body))).toStrictEqual([...plain].reverse())
  })
})

describe('a record of the page with a field of the wrong type (found by the fuzz)', () => {
  it('is the server fault, a 500, never a body that is not JSON', () => {
    const records = [
      { id: 'tx-0', amount: 0, status: () => 'pending', created_at: '2020-01-01T00:00:00Z', updated_at: '2026-11-22T10:00:00Z' }
    ]
    const r = index('', records)
    expect([r.status, r.body, r.reasons.at(-1)]).toStrictEqual([
      500,
      {
        error: 'internal_error',
        message: 'Internal server error: records[0].status is a function, not one of authorized, pending'
      },
      { rule: 'page.records', detail: 'record 0 has no valid status' }
    ])
  })
})
