import fc from 'fast-check'
import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/paging/endpoint'
import { rankingInts } from '../../src/paging/ranking'
import { borrow, giveBack } from '../../src/paging/scratch'
import { firstK, plainPage, selectPage, selectPageCounted } from '../../src/paging/select'
import { runs } from '../runs'

const tx = endpoints.bankTransactions

/**
 * The time limit of the tests over large windows: about ten times what they take on a busy
 * machine, and far below the minutes a quadratic selection would take over them.
 */
const LIMIT = 30_000

/** A comparator of numbers that counts its calls. */
const counting = () => {
  const counter = {
    calls: 0,
    cmp: (a: number, b: number): number => {
      counter.calls++
      return a - b
    }
  }
  return counter
}

// firstK takes one sort of the items when the window is a large share of them (k * 8 >= n, its
// JSDoc): a heap of k items then costs more than the sort. Array.prototype.sort compares each
// item once in items already in order, forwards or backwards, which a heap never does.
describe('firstK with a window that is a large share of the items', () => {
  const n = 1024
  const shapes: ReadonlyArray<[string, ReadonlyArray<number>]> = [
    ['ascending', Array.from({ length: n }, (_, i) => i)],
    ['descending', Array.from({ length: n }, (_, i) => n - i)],
    ['shuffled', Array.from({ length: n }, (_, i) => (i * 769) % n)]
  ]

  it.each(shapes)('costs no more comparisons than one sort of the items: %s', (_, items) => {
    // k = n / 8 is the smallest share sorted whole; past n, the window holds every item.
    for (const k of [n / 8, n / 2, n, 2 * n]) {
      const sort = counting()
      const sorted = [...items].sort(sort.cmp)
      const first = counting()
      expect(firstK(items, k, first.cmp)).toEqual(sorted.slice(0, k))
      expect(first.calls).toBeLessThanOrEqual(sort.calls)
    }
  })
})

// An item no smaller than the largest kept is turned away without being stored (the bounded
// heap's doc): of items that tie, the first offered stay, and a tie costs one comparison.
describe('firstK on items that tie', () => {
  it('with k = 1, is the first of the smallest items in the order given', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }), (keys) => {
        const items = keys.map((key, at) => ({ key, at }))
        let first = items[0] as { key: number; at: number }
        for (const item of items) if (item.key < first.key) first = item
        expect(firstK(items, 1, (a, b) => a.key - b.key)).toEqual([first])
      }),
      { numRuns: runs(200) }
    )
  })

  it.each([1, 2, 64, 100])('compares each of equal items once, and the k kept once more to sort them (k = %i)', (k) => {
    const items = Array.from({ length: 1024 }, () => 7)
    const count = counting()
    expect(firstK(items, k, count.cmp)).toEqual(Array.from({ length: k }, () => 7))
    expect(count.calls).toBeLessThanOrEqual(items.length + k)
  })
})

// The slots a window keeps its matches in are as many as it needs, never more than the records:
// an array-like of a length no array could hold is read record by record like any other, and
// its first bad record is the 500.
describe('selectPage over an array-like of a length no array could hold', () => {
  const record = {
    id: 'tx-0',
    amount: 5,
    status: 'pending',
    created_at: '2026-11-22T10:00:00Z',
    updated_at: '2026-11-22T10:00:00Z'
  }

  it.each([2 ** 32, 2 ** 40, Number.MAX_SAFE_INTEGER])('length %d', (length) => {
    const records = { length, 0: record, 1: 'tx-1' } as never
    expect(selectPage(tx, records, [], { field: 'amount', order: 'asc' }, { start: 0, end: 5 })).toEqual(
      either.left({
        _tag: 'InternalError',
        rule: 'page.records',
        detail: 'record 1 has no valid shape',
        mistake: 'records[1] is "tx-1", not an object'
      })
    )
  })
})

// A window of k matches over 2k records: the shapes that made the median-of-three quickselect of
// issue 13 go slow, which a ranking by sorted batches (src/paging/ranking.ts) merges run by run.
// The page is right whatever the order, and the comparisons counted stay within R-48's bound
// (n·log2(n) + n); a ranking gone quadratic would also show as the time limit.
describe('selectPage: the last records of a large window over collections of several shapes', () => {
  const k = 160_000
  const n = 2 * k
  const shapes: ReadonlyArray<[string, (i: number) => number]> = [
    ['ascending', (i) => i],
    ['ascending, then descending', (i) => (i < k ? 2 * i : 2 * (n - 1 - i) + 1)],
    ['descending, then ascending', (i) => (i < k ? 2 * (k - i) : 2 * (i - k) + 1)],
    ['descending, with the smallest in the middle', (i) => (i === (n - 1) >> 1 ? -1 : n - i)],
    [
      'descending, but for the middle record, which comes between the first four fifths and the rest',
      (i) => (i === (n - 1) >> 1 ? -1 : i < (4 * n) / 5 ? 3 * n - i : -i)
    ]
  ]

  it.each(shapes)(
    '%s',
    (_, amount) => {
      const records = Array.from({ length: n }, (_, i) => ({
        id: `tx-${String(i).padStart(6, '0')}`,
        amount: amount(i),
        status: 'pending',
        created_at: '2026-11-22T10:00:00Z',
        updated_at: '2026-11-22T10:00:00Z'
      }))
      const expected = [...records].sort((a, b) => a.amount - b.amount).slice(k - 3, k)
      expect(selectPage(tx, records, [], { field: 'amount', order: 'asc' }, { start: k - 3, end: k })).toEqual(
        either.right({ page: expected, total: n })
      )
      const counted = selectPageCounted(tx, records, [], { field: 'amount', order: 'asc' }, { start: k - 3, end: k })
      expect(either.isRight(counted) && counted.right.comparisons).toBeLessThanOrEqual(n * Math.log2(n) + n)
    },
    LIMIT
  )
})

/** The order of the contract over records of known positions: the key, then the id, both in the order's direction, then the position. */
const byKeyIdPosition =
  (direction: 1 | -1, key: (at: number) => number, id: (at: number) => string) =>
  (a: number, b: number): number =>
    direction * (key(a) - key(b)) || direction * (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0) || a - b

// Once a window's k matches are kept, a match that does not come before the last of them is
// turned away by one comparison. Below, the first 2k records come in order: the first k + 1,024
// are ranked together (a run: one comparison each) and the first k stay; the rest of them, then
// k - 1 matches after the last kept (by the amount, by the id on an equal amount, by the
// position when they are copies of it, by the nanoseconds of an instant) are turned away, and
// one match comes before all. The page is the same whether the k - 1 are turned away or stored;
// stored, they would cost a comparison more each at least, which the count of comparisons shows.
describe('selectPage: matches after the last of a large window are turned away', () => {
  const k = 160_000
  const pad = (n: number) => String(n).padStart(6, '0')
  const record = (id: string, amount: number, created_at = '2026-11-22T10:00:00Z') => ({
    id,
    amount,
    status: 'pending',
    created_at,
    updated_at: '2026-11-22T10:00:00Z'
  })
  type Row = ReturnType<typeof record>

  /** The page of the window [k - 3, k) by a full sort of the records' positions. */
  const expectPage = (
    records: ReadonlyArray<Row>,
    order: 'asc' | 'desc',
    field: 'amount' | 'created_at',
    key: (at: number) => number
  ) => {
    const positions = Array.from({ length: records.length }, (_, at) => at)
    positions.sort(byKeyIdPosition(order === 'asc' ? 1 : -1, key, (at) => (records[at] as Row).id))
    expect(selectPage(tx, records, [], { field, order }, { start: k - 3, end: k })).toEqual(
      either.right({ page: positions.slice(k - 3, k).map((at) => records[at]), total: records.length })
    )
    // One comparison a record, and the one before all placed among those kept by one more.
    const counted = selectPageCounted(tx, records, [], { field, order }, { start: k - 3, end: k })
    expect(either.isRight(counted) && counted.right.comparisons).toBeLessThanOrEqual(records.length + 1)
  }

  /** 2k records of amounts 10, 20, ... (negated for a descending order), then `after`, then one before all. */
  const collection = (order: 'asc' | 'desc', after: (j: number, lastKept: Row) => Row): Array<Row> => {
    const sign = order === 'asc' ? 1 : -1
    const first = Array.from({ length: 2 * k }, (_, i) => record(`tx-1${pad(i)}`, sign * 10 * (i + 1)))
    const lastKept = first[k - 1] as Row
    return [...first, ...Array.from({ length: k - 1 }, (_, j) => after(j, lastKept)), record('tx-2', -sign)]
  }

  it(
    'larger amounts, with smaller ids',
    () => {
      const records = collection('asc', (j) => record(`tx-0${pad(j)}`, 10 * (3 * k + j)))
      expectPage(records, 'asc', 'amount', (at) => (records[at] as Row).amount)
    },
    LIMIT
  )

  it(
    'the amount of the last kept, with larger ids',
    () => {
      const records = collection('asc', (j, last) => record(`tx-3${pad(j)}`, last.amount))
      expectPage(records, 'asc', 'amount', (at) => (records[at] as Row).amount)
    },
    LIMIT
  )

  it.each(['asc', 'desc'] as const)(
    'copies of the last kept, in %s order',
    (order) => {
      const records = collection(order, (_, last) => last)
      expectPage(records, order, 'amount', (at) => (records[at] as Row).amount)
    },
    LIMIT
  )

  it(
    'the second of the last kept instant, more nanoseconds, smaller ids',
    () => {
      // Instants one second apart, then the k - 1 in the second of the k-th with 1, 2, ... ns.
      const base = Date.UTC(2026, 10, 22, 10, 0, 0)
      const second = (s: number) => new Date(base + s * 1000).toISOString().slice(0, 19)
      const keys: Array<number> = []
      const records: Array<Row> = []
      for (let i = 0; i < 2 * k; i++) {
        keys.push((i + 1) * 1e9)
        records.push(record(`tx-1${pad(i)}`, 0, `${second(i + 1)}Z`))
      }
      for (let j = 0; j < k - 1; j++) {
        keys.push(k * 1e9 + j + 1)
        records.push(record(`tx-0${pad(j)}`, 0, `${second(k)}.${String(j + 1).padStart(9, '0')}Z`))
      }
      keys.push(0)
      records.push(record('tx-2', 0, `${second(0)}Z`))
      expectPage(records, 'asc', 'created_at', (at) => keys[at] as number)
    },
    LIMIT
  )
})

/** A transaction of the page: its id and amount, the other fields the same for all. */
const transaction = (id: string, amount: number) => ({
  id,
  amount,
  status: 'pending',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z'
})

/** The comparisons selectPageCounted counted for a window, or NaN for a 500. */
const comparisonsOf = (
  records: ReadonlyArray<unknown>,
  order: 'asc' | 'desc',
  window: { readonly start: number; readonly end: number }
): number => {
  const counted = selectPageCounted(tx, records, [], { field: 'amount', order }, window)
  return either.isRight(counted) ? counted.right.comparisons : Number.NaN
}

// A null is a value only of a nullable field: in any other field of a record of the page,
// one the query reads or not, it is the server's fault (500), as a value of the wrong type is.
describe('a null in a field that is not nullable', () => {
  it('is a 500 in a row plainPage is given', () => {
    expect(plainPage(endpoints.companies, [{ id: 'c-1', name: null }])).toEqual(
      either.left({
        _tag: 'InternalError',
        rule: 'page.records',
        detail: 'record 0 has no valid name',
        mistake: 'page[0].name is null, not a string'
      })
    )
  })

  it('is a 500 in a record of the page that selectPage finds', () => {
    const records = [transaction('tx-0', 1), { ...transaction('tx-1', 2), status: null }]
    expect(selectPage(tx, records, [], { field: 'amount', order: 'asc' }, { start: 0, end: 2 })).toEqual(
      either.left({
        _tag: 'InternalError',
        rule: 'page.records',
        detail: 'record 1 has no valid status',
        mistake: 'records[1].status is null, not one of authorized, pending'
      })
    )
  })
})

// Ten transactions, amounts 0, 7, 4, 1, 8, 5, 2, 9, 6, 3 (7i mod 10): by amount, tx-0, tx-3,
// tx-6, tx-9, tx-2, tx-5, tx-8, tx-1, tx-4, tx-7.
describe('selectPage over windows from elsewhere', () => {
  const ten = Array.from({ length: 10 }, (_, i) => transaction(`tx-${i}`, (7 * i) % 10))
  const byAmount = [0, 3, 6, 9, 2, 5, 8, 1, 4, 7].map((i) => ten[i])

  // A window's end that is no count (NaN, or none left of 0) reads as none: no match is ranked.
  it.each([Number.NaN, -1, -10.5])('an end of %d is an empty page, with the total, for no comparison', (end) => {
    expect(selectPageCounted(tx, ten, [], { field: 'amount', order: 'asc' }, { start: 0, end })).toEqual(
      either.right({ page: [], total: 10, comparisons: 0 })
    )
  })

  // The page of a window is its slice of the matches sorted whole, and slice reads a start that
  // is not whole as the whole number below it: ranked from the start or, nearer the end, from
  // the end, the page is the same.
  it.each([
    [2.5, 10, 2],
    [6.5, 10, 6],
    [7.25, 9, 7]
  ])('a start of %d, up to %d, is the page from %d', (start, end, from) => {
    expect(selectPage(tx, ten, [], { field: 'amount', order: 'asc' }, { start, end })).toEqual(
      either.right({ page: byAmount.slice(from, end), total: 10 })
    )
  })
})

// selectPageCounted counts each comparison of two matches, the ranking's and those of the pass
// over the records.
describe('selectPageCounted: the comparisons a window costs', () => {
  it('counts those of finding the runs and of merging them', () => {
    // Largest first, tx-2 comes after tx-1 (a run), tx-3 before tx-2 (a second run): two
    // comparisons; then, merged by halves of the batch, [tx-1] and [tx-2, tx-3], tx-2 and tx-3
    // (one), then tx-1 with them (two): 5.
    const records = [transaction('tx-1', 1200), transaction('tx-2', 800), transaction('tx-3', 4500)]
    expect(selectPageCounted(tx, records, [], { field: 'amount', order: 'desc' }, { start: 0, end: 2 })).toEqual(
      either.right({ page: [records[2], records[0]], total: 3, comparisons: 5 })
    )
  })

  // A window nearer the end of the collection than its start is the first n - start matches in
  // the other order (selectPage's JSDoc): with ids all different, so that no tie falls to the
  // position, ranking them costs what the window [0, n - start) costs in the other order, fewer
  // comparisons than ranking the first `end` from the start, as the window [0, end) does.
  it('ranks a window nearer the end than its start from the end', () => {
    const n = 2000
    const shuffled = Array.from({ length: n }, (_, i) => transaction(`tx-${String(i).padStart(4, '0')}`, (769 * i) % n))
    for (const order of ['asc', 'desc'] as const) {
      const other = order === 'asc' ? 'desc' : 'asc'
      const last = comparisonsOf(shuffled, order, { start: n - 5, end: n })
      expect([order, last]).toEqual([order, comparisonsOf(shuffled, other, { start: 0, end: 5 })])
      expect(last).toBeLessThan(comparisonsOf(shuffled, order, { start: 0, end: n }))
    }
  })

  // Seven transactions, amounts 0, 5, 3, 1, 6, 4, 2 (5i mod 7). The window [2, 5) is as near the
  // end as the start: it is ranked from the start, as [0, 5) is, whose cost differs from that of
  // the first five in the other order.
  it('ranks a window as near the end as its start from the start', () => {
    const seven = Array.from({ length: 7 }, (_, i) => transaction(`tx-${i}`, (5 * i) % 7))
    for (const order of ['asc', 'desc'] as const) {
      const other = order === 'asc' ? 'desc' : 'asc'
      expect([order, comparisonsOf(seven, order, { start: 2, end: 5 })]).toEqual([
        order,
        comparisonsOf(seven, order, { start: 0, end: 5 })
      ])
      expect(comparisonsOf(seven, order, { start: 0, end: 5 })).not.toBe(comparisonsOf(seven, other, { start: 0, end: 5 }))
    }
  })

  // A window of k matches merges its first batch once it holds k + 1,024 (the slots hold up to
  // 2k), and turns away from then on. Below, k = 1,100 and 2,200 transactions: the first 2,124
  // in order (one run: 2,123 comparisons, merged for none), kept the first 1,100; the last 76, in
  // order and all smaller, each compared with the last kept (76) and with the one before it (75),
  // then, a batch wholly before those kept, placed first by one comparison: 2,275. The 76 come
  // first, so the window [1,097, 1,100) holds the amounts 1,021 to 1,023.
  it('merges the first batch once it holds k matches and 1,024 more', () => {
    const k = 1100
    const records = Array.from({ length: 2 * k }, (_, i) =>
      transaction(`tx-${String(i).padStart(4, '0')}`, i < k + 1024 ? i : i - 3000)
    )
    expect(selectPageCounted(tx, records, [], { field: 'amount', order: 'asc' }, { start: k - 3, end: k })).toEqual(
      either.right({ page: records.slice(1021, 1024), total: 2 * k, comparisons: 2275 })
    )
  })
})

// selectPage works in scratch it borrows and gives back (src/paging/scratch.ts): it asks for the
// room its window needs, and a scratch that fits is lent again.
describe('the room a selection borrows', () => {
  const ten = Array.from({ length: 10 }, (_, i) => transaction(`tx-${i}`, (7 * i) % 10))

  /** A scratch of just this room, given back so that it is the one kept; the one kept before is let go. */
  const kept = (values: number, numbers: number, ints: number) => {
    borrow(0, 0, 0)
    const s = borrow(values, numbers, ints)
    giveBack(s, 0)
    return s
  }

  it('is none for an empty window: a scratch with no room is lent and given back', () => {
    const s = kept(0, 0, 0)
    expect(selectPage(tx, ten, [], { field: 'amount', order: 'asc' }, { start: 0, end: 0 })).toEqual(
      either.right({ page: [], total: 10 })
    )
    expect(borrow(0, 0, 0)).toBe(s)
  })

  // The first 3 of 10 by amount: a slot per record (fewer than 3 + 1,024), each of three values
  // (the record, its id, its amount: no text key) and three numbers, and the ranking's integers.
  it('is three values a slot for a key that is a number, and is given back', () => {
    const s = kept(3 * 10, 3 * 10, rankingInts(3, 10))
    expect(selectPage(tx, ten, [], { field: 'amount', order: 'asc' }, { start: 0, end: 3 })).toEqual(
      either.right({ page: [ten[0], ten[3], ten[6]], total: 10 })
    )
    expect(borrow(0, 0, 0)).toBe(s)
  })
})
