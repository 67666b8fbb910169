import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { decodeFilter, endpoints, type Filter, firstK, selectPage } from '../api'

const tx = endpoints.bankTransactions

const filter = (key: string, text: string): Filter => {
  const f = decodeFilter(tx, key, text)
  if (either.isLeft(f)) throw new Error(`not a filter: ${key}=${text}`)
  return f.right
}

const record = (id: string, amount: number, status = 'authorized', created_at = '2026-11-22T10:00:00Z') => ({
  id,
  amount,
  status,
  created_at,
  updated_at: created_at
})

const internal = (detail: string) => either.left({ _tag: 'InternalError', rule: 'page.records', detail })

/** The 500 of a record the server passed malformed: the detail for the log, the mistake for the message. */
const mistaken = (detail: string, mistake: string) =>
  either.left({ _tag: 'InternalError', rule: 'page.records', detail, mistake })

describe('selectPage: the page of a collection', () => {
  // Ten records, amounts 9, 8, ..., 0 with ids in the other order; even ones pending.
  const ten = Array.from({ length: 10 }, (_, i) => record(`tx-${i}`, 9 - i, i % 2 === 0 ? 'pending' : 'authorized'))

  it('filters, then sorts by the field, then takes the window', () => {
    const r = selectPage(tx, ten, [filter('status', 'pending')], { field: 'amount', order: 'asc' }, { start: 1, end: 3 })
    // Pending: tx-0 (9), tx-2 (7), tx-4 (5), tx-6 (3), tx-8 (1); by amount 1, 3, 5, 7, 9.
    expect(r).toEqual(either.right({ page: [ten[6], ten[4]], total: 5 }))
  })

  it('finds the same page through the bounded heap (a window far shorter than the collection) as by sorting', () => {
    const many = Array.from({ length: 200 }, (_, i) => record(`tx-${String(i).padStart(3, '0')}`, (i * 37) % 101))
    // Amounts (37 i mod 101): 0 at i = 0 and 101, 1 at i = 71 and 172, 2 at i = 41 and 142.
    const page = (start: number, end: number, order: 'asc' | 'desc') =>
      selectPage(tx, many, [], { field: 'amount', order }, { start, end })
    expect(page(0, 6, 'asc')).toEqual(either.right({ page: [0, 101, 71, 172, 41, 142].map((i) => many[i]), total: 200 }))
    expect(page(2, 4, 'asc')).toEqual(either.right({ page: [71, 172].map((i) => many[i]), total: 200 }))
    // Descending: 100 at i = 30 and 131, 99 at i = 60 and 161; ids descending within a key.
    expect(page(0, 4, 'desc')).toEqual(either.right({ page: [131, 30, 161, 60].map((i) => many[i]), total: 200 }))
  })

  it('keeps records with equal keys and equal ids in the order given, in either direction (R-47)', () => {
    // Told apart by updated_at, a field the sort and the filter never read.
    const same = [0, 1, 2].map((tag) => ({ ...record('tx-same', 5), updated_at: `2026-11-22T10:00:0${tag}Z` }))
    const many = [...same, ...Array.from({ length: 40 }, (_, i) => record(`tx-${String(i).padStart(2, '0')}`, 10 + i))]
    for (const order of ['asc', 'desc'] as const) {
      const all = selectPage(tx, many, [filter('amount', '5')], { field: 'amount', order }, { start: 0, end: 3 })
      expect(all).toEqual(either.right({ page: same, total: 3 }))
    }
    // Through the heap: a window of 2 over 43 records.
    const heap = selectPage(tx, many, [], { field: 'amount', order: 'asc' }, { start: 1, end: 2 })
    expect(heap).toEqual(either.right({ page: [same[1]], total: 43 }))
  })

  it('gives an empty page for an empty window, with the total', () => {
    expect(selectPage(tx, ten, [], { field: 'amount', order: 'asc' }, { start: 0, end: 0 })).toEqual(
      either.right({ page: [], total: 10 })
    )
  })

  it('is a 500 for a sort field the endpoint does not have', () => {
    expect(selectPage(tx, ten, [], { field: 'colour', order: 'asc' }, { start: 0, end: 5 })).toEqual(
      internal('the endpoint has no field colour')
    )
  })

  it.each<[string, ReadonlyArray<unknown>, string, string]>([
    ['null', [record('tx-0', 1), null], 'record 1 has no valid shape', 'records[1] is null, not an object'],
    ['an array', [[1, 2]], 'record 0 has no valid shape', 'records[0] is an array, not an object'],
    ['a number', [record('tx-0', 1), record('tx-1', 2), 7], 'record 2 has no valid shape', 'records[2] is 7, not an object'],
    [
      'an id that is not a string',
      [record('tx-0', 1), { ...record('tx-1', 2), id: 1 }],
      'record 1 has no valid id',
      'records[1].id is 1, not a string'
    ],
    [
      'no sort key',
      [{ id: 'tx-0', status: 'pending' }],
      'record 0 has no valid amount',
      'records[0].amount is undefined, not an integer'
    ],
    [
      'a sort key of the wrong type',
      [record('tx-0', 1), { ...record('tx-1', 2), amount: '2' }],
      'record 1 has no valid amount',
      'records[1].amount is "2", not an integer'
    ]
  ])('is a 500 naming the first record that is malformed: %s', (_, records, detail, mistake) => {
    expect(selectPage(tx, records, [], { field: 'amount', order: 'asc' }, { start: 0, end: 5 })).toEqual(
      mistaken(detail, mistake)
    )
  })

  it('is a 500 for a filtered field a record lacks, even when another filter already failed it', () => {
    const records = [record('tx-0', 1, 'pending'), { ...record('tx-1', 2), status: 'void' }]
    expect(
      selectPage(
        tx,
        records,
        [filter('amount[$gt]', '5'), filter('status', 'pending')],
        { field: 'amount', order: 'asc' },
        { start: 0, end: 5 }
      )
    ).toEqual(mistaken('record 1 has no valid status', 'records[1].status is "void", not one of authorized, pending'))
  })

  it('reads an unfiltered, unsorted field never: a record without it is fine', () => {
    const records = [
      { id: 'tx-0', amount: 3 },
      { id: 'tx-1', amount: 1 }
    ]
    expect(selectPage(tx, records, [], { field: 'amount', order: 'desc' }, { start: 0, end: 5 })).toEqual(
      either.right({ page: records, total: 2 })
    )
  })
})

describe('firstK', () => {
  const cmp = (a: number, b: number) => a - b
  it.each<[string, ReadonlyArray<number>, number, ReadonlyArray<number>]>([
    ['none', [3, 1, 2], 0, []],
    ['fewer than asked', [3, 1, 2], 5, [1, 2, 3]],
    ['by sorting (k a large share)', [5, 3, 9, 1, 7], 2, [1, 3]],
    ['by the heap (k small)', [50, 12, 7, 33, 7, 90, 1, 64, 28, 3, 45, 19, 77, 2, 8, 60, 21, 5], 2, [1, 2]],
    ['by the heap, equal items kept', [9, 4, 9, 4, 8, 4, 7, 6, 5, 9, 8, 7, 6, 5, 4, 3, 2, 9], 2, [2, 3]],
    ['negative k', [1, 2], -1, []]
  ])('%s', (_, items, k, expected) => {
    expect(firstK(items, k, cmp)).toEqual(expected)
  })
})

describe('selectPage over runs of newer and newer records', () => {
  // Records n seconds after 2026-01-01T00:00:00Z, spelled by Date; the oracle orders by Date.parse.
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
  const newestFirst = (a: { id: string; created_at: string }, b: { id: string; created_at: string }) =>
    Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

  // A window of `end` keeps up to end + 1,024 matches before it makes room (the selection's
  // slots); the lengths of run that matter are those near where it makes room: as the run's last
  // records come, as the older ones after it come, and the second time during the run.
  const nearRoom = (lead: number, end: number): ReadonlyArray<number> => {
    const room = end + 1024 - lead
    const near = [room - 300, room, room + 1024].flatMap((at) => Array.from({ length: 21 }, (_, d) => at - 10 + d))
    const coarse = Array.from({ length: 24 }, (_, i) => i * 97)
    return [...new Set([...coarse, ...near])].filter((run) => run >= 0 && run <= 2300)
  }

  it.each([0, 1, 3])(
    'finds the newest first when %i of the newest, then a run of ever newer records of any length up to 2,300, come before older ones',
    (lead) => {
      // Newest first, each record of the run comes before every one given earlier but the lead: the
      // selection keeps the lead and the last ones it saw, however many came after it last made room.
      const newest = Array.from({ length: lead }, (_, i) => record(`tx-top-${i}`, 0, 'pending', at(9000 - i)))
      const older = Array.from({ length: 300 }, (_, i) =>
        record(`tx-old-${(i * 7919) % 300}`, 0, 'pending', at((i * 7919) % 300))
      )
      const olderNewestFirst = [...older].sort(newestFirst)
      const newerAll = Array.from({ length: 2300 }, (_, i) =>
        record(`tx-new-${String(i).padStart(4, '0')}`, 0, 'pending', at(1000 + i))
      )
      for (const end of [1, 25]) {
        for (const run of nearRoom(lead, end)) {
          const newer = newerAll.slice(0, run)
          const records = [...newest, ...newer, ...older]
          // By construction, newest first: the lead, the run from its end, then the older ones.
          const expected = [...newest, ...newer.slice(-end).reverse(), ...olderNewestFirst].slice(0, end)
          expect(selectPage(tx, records, [], { field: 'created_at', order: 'desc' }, { start: 0, end })).toEqual(
            either.right({ page: expected, total: records.length })
          )
        }
      }
    }
  )

  // A window of 25 keeps the 25 first matches when its 1,049 slots are full; then come 1,024
  // more, each newer than the one before, all newer than the 25th kept but older than the first:
  // the page is that first one, then the 24 newest of the second run.
  const id = (run: string, i: number) => `tx-${run}-${String(i).padStart(4, '0')}`
  const second = Array.from({ length: 1024 }, (_, j) => record(id('b', j), 0, 'pending', at(6000 + j)))
  it.each<[string, ReadonlyArray<ReturnType<typeof record>>]>([
    // Kept in one pass: each match came before the one before it.
    ['ever newer', Array.from({ length: 1049 }, (_, i) => record(id('a', i), 0, 'pending', at(i < 1048 ? 4000 + i : 9000)))],
    // Kept by a selection: the first 1,048 ever older, the newest last.
    [
      'ever older but the last',
      Array.from({ length: 1049 }, (_, i) => record(id('a', i), 0, 'pending', at(i < 1048 ? 5000 - i : 9000)))
    ]
  ])('mixes the matches it kept when it made room with the ones that came after: first %s', (_, first) => {
    const expected = [first[1048], ...second.slice(-24).reverse()]
    expect(selectPage(tx, [...first, ...second], [], { field: 'created_at', order: 'desc' }, { start: 0, end: 25 })).toEqual(
      either.right({ page: expected, total: 2073 })
    )
  })
})

describe('selectPage by fields of every type', () => {
  const companies = endpoints.companies
  const company = (id: string, name: string) => ({
    id,
    name,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z'
  })
  const some = [company('c-3', 'Beta'), company('c-1', 'acme'), company('c-2', 'Acme'), company('c-4', 'Beta')]

  it('sorts by text in UTF-16 code units, then by id, in either direction', () => {
    // 'Acme' < 'Beta' < 'acme' in code units.
    expect(selectPage(companies, some, [], { field: 'name', order: 'asc' }, { start: 0, end: 4 })).toEqual(
      either.right({ page: [some[2], some[0], some[3], some[1]], total: 4 })
    )
    expect(selectPage(companies, some, [], { field: 'name', order: 'desc' }, { start: 1, end: 3 })).toEqual(
      either.right({ page: [some[3], some[0]], total: 4 })
    )
  })

  it('sorts by id, with filters on other fields', () => {
    const records = [record('tx-2', 5, 'pending'), record('tx-3', 6), record('tx-1', 7, 'pending')]
    expect(selectPage(tx, records, [filter('status', 'pending')], { field: 'id', order: 'desc' }, { start: 0, end: 5 })).toEqual(
      either.right({ page: [records[0], records[2]], total: 2 })
    )
  })

  it.each<[string, string, ReadonlyArray<unknown>, string, string]>([
    [
      'a name that is not text',
      'name',
      [company('c-1', 'Acme'), { ...company('c-2', 'B'), name: 3 }],
      'record 1 has no valid name',
      'records[1].name is 3, not a string'
    ],
    [
      'an instant that is not text',
      'created_at',
      [{ ...company('c-1', 'Acme'), created_at: 1 }],
      'record 0 has no valid created_at',
      'records[0].created_at is 1, not an ISO-8601 date-time with an offset'
    ],
    [
      'an instant that is not one',
      'created_at',
      [{ ...company('c-1', 'Acme'), created_at: '2026-02-30T00:00:00Z' }],
      'record 0 has no valid created_at',
      'records[0].created_at is "2026-02-30T00:00:00Z", not an ISO-8601 date-time with an offset'
    ]
  ])('is a 500 for a sort value of the wrong type: %s', (_, field, records, detail, mistake) => {
    expect(selectPage(companies, records, [], { field, order: 'asc' }, { start: 0, end: 5 })).toEqual(mistaken(detail, mistake))
  })
})

describe('selectPage and getters that throw (R-18)', () => {
  const throwing = (id: string) => ({
    id,
    amount: 1,
    status: 'pending',
    get created_at(): string {
      throw new Error(`no created_at for ${id}`)
    }
  })

  it('lets the error through, once every record before it is judged', () => {
    const records = [record('tx-0', 1), record('tx-1', 2), throwing('tx-2'), record('tx-3', 4)]
    // The very error (vitest's toThrow with a message also passes when undefined is thrown).
    let thrown: unknown
    try {
      selectPage(tx, records, [], { field: 'created_at', order: 'asc' }, { start: 0, end: 5 })
    } catch (error) {
      thrown = error
    }
    expect(thrown instanceof Error && thrown.message).toBe('no created_at for tx-2')
  })

  it('is the 500 of a record before it that is malformed', () => {
    const records = [record('tx-0', 1), { ...record('tx-1', 2), id: 1 }, throwing('tx-2')]
    expect(selectPage(tx, records, [], { field: 'created_at', order: 'asc' }, { start: 0, end: 5 })).toEqual(
      mistaken('record 1 has no valid id', 'records[1].id is 1, not a string')
    )
  })
})
