import fc from 'fast-check'
import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/paging/endpoint'
import type { Filter } from '../../src/paging/filter'
import { selectPageCounted } from '../../src/paging/select'
import { runs, timeoutFor } from '../runs'
import { keysOf, SHAPES, type Shape, type ShapeName, shape } from './shapes'

const tx = endpoints.bankTransactions

/** what sorting n matches whole costs at most, n·log2(n) + n comparisons. */
const sortBound = (n: number): number => (n === 0 ? 0 : n * Math.log2(n) + n)

type Field = 'amount' | 'created_at' | 'id'

interface Row {
  readonly id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

const BASE_MS = Date.UTC(2026, 10, 22, 10, 0, 0)

/**
 * A record per key: its key is the amount, the instant (that many seconds and as many
 * milliseconds after a base, as toISOString writes it) and the number in the id, so that one
 * shape sorts alike by each field; ids repeat when `repeatIds` (ties broken by position, R-47).
 */
const rowsOf = (keys: ReadonlyArray<number>, field: Field, repeatIds: boolean, pendingEvery: number): Array<Row> =>
  keys.map((key, i) => {
    const at = new Date(BASE_MS + key * 1001).toISOString()
    return {
      id:
        field === 'id'
          ? `tx-${String(key + 1_000_000).padStart(8, '0')}`
          : repeatIds
            ? `tx-${i % 5}`
            : `tx-${String(i).padStart(6, '0')}`,
      amount: key,
      status: i % pendingEvery === 0 ? 'pending' : 'authorized',
      created_at: at,
      updated_at: at
    }
  })
/** The oracle: the matches' positions sorted whole by the key, the id and the position (R-47), with Array.prototype.sort. */
const expectedPage = (
  rows: ReadonlyArray<Row>,
  keys: ReadonlyArray<number>,
  order: 'asc' | 'desc',
  keep: (r: Row) => boolean,
  start: number,
  end: number
) => {
  const d = order === 'asc' ? 1 : -1
  const positions = rows.flatMap((r, i) => (keep(r) ? [i] : []))
  positions.sort((a, b) => {
    const ia = (rows[a] as Row).id
    const ib = (rows[b] as Row).id
    return d * ((keys[a] as number) - (keys[b] as number)) || d * (ia < ib ? -1 : ia > ib ? 1 : 0) || a - b
  })
  return { page: positions.slice(start, end).map((i) => rows[i]), total: positions.length }
}

const pending: Filter = { field: 'status', type: tx.fields.status as Filter['type'], op: '$eq', values: ['pending'] }

/** A window among m matches: the first page, one at 1,000, the middle, the last page, or anywhere. */
const windowOf = (m: number, pick: number, size: number, anywhere: number): { start: number; end: number } => {
  const starts = [0, 0, Math.min(1000, m), Math.floor(m / 2), Math.max(0, m - size), anywhere % (m + 2)]
  const start = starts[pick % starts.length] as number
  return { start, end: start + size }
}

describe('selectPage: never more comparisons than sorting the matches whole (R-48)', () => {
  it(
    'on every shape, window, field and order, with and without a filter',
    () => {
      const seen = new Map<ShapeName, number>()
      let batches = 0
      let fromEnd = 0
      let total = 0
      const sizes = fc.oneof(
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }) },
        { weight: 4, arbitrary: fc.integer({ min: 1100, max: 8000 }) }
      )
      fc.assert(
        fc.property(
          shape(sizes),
          fc.constantFrom<Field>('amount', 'created_at', 'id'),
          fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
          fc.boolean(),
          fc.constantFrom(1, 1, 2, 3),
          fc.record({
            pick: fc.nat(),
            size: fc.oneof(
              { weight: 3, arbitrary: fc.integer({ min: 1, max: 25 }) },
              { weight: 1, arbitrary: fc.integer({ min: 26, max: 2000 }) }
            ),
            anywhere: fc.nat()
          }),
          (s: Shape, f, order, repeatIds, pendingEvery, w) => {
            const keys = keysOf(s)
            const rows = rowsOf(keys, f, repeatIds, pendingEvery)
            const keep = (r: Row) => pendingEvery === 1 || r.status === 'pending'
            const m = rows.filter(keep).length
            const { start, end } = windowOf(m, w.pick, w.size, w.anywhere)
            const reply = selectPageCounted(tx, rows, pendingEvery === 1 ? [] : [pending], { field: f, order }, { start, end })
            const expected = expectedPage(rows, keys, order, keep, start, end)
            expect(
              either.map(({ page, total }: { page: ReadonlyArray<unknown>; total: number }) => ({ page, total }))(reply)
            ).toEqual(either.right(expected))
            const comparisons = either.isRight(reply) ? reply.right.comparisons : Number.NaN
            expect(comparisons).toBeLessThanOrEqual(sortBound(m))
            seen.set(s.name, (seen.get(s.name) ?? 0) + 1)
            total++
            // The first k matches the selection keeps, counted from the end when that is nearer.
            const front = Math.min(end, rows.length)
            const k = rows.length - start < front ? rows.length - start : front
            if (m > k + Math.max(k, 1024)) batches++
            if (k < front) fromEnd++
          }
        ),
        { numRuns: runs(400) }
      )
      // Each shape a good share of the runs (a third of its even share).
      for (const name of SHAPES) expect(seen.get(name) ?? 0).toBeGreaterThanOrEqual(total / (3 * SHAPES.length))
      // Many runs rank in batches after the first, and many rank from the end.
      expect(batches / total).toBeGreaterThanOrEqual(0.25)
      expect(fromEnd / total).toBeGreaterThanOrEqual(0.15)
    },
    timeoutFor(400, 60_000)
  )

  // Issue 29's table: in created_at order but the record at 40,000 (or every 40,000th) the
  // oldest, newest first, the window ending at 20,000; the median-of-3 quickselect that made
  // room took a second of CPU over them.
  it.each([
    ['the 40,000th', (i: number) => (i === 39_999 ? -1 : i)],
    ['every 40,000th', (i: number) => (i % 40_000 === 39_999 ? -1 - i : i)]
  ])(
    'in created_at order, %s the oldest, 25 newest first up to 20,000 of 200,000',
    (_, key) => {
      const keys = Array.from({ length: 200_000 }, (_, i) => key(i))
      const rows = rowsOf(keys, 'created_at', false, 1)
      const reply = selectPageCounted(tx, rows, [], { field: 'created_at', order: 'desc' }, { start: 19_975, end: 20_000 })
      expect(either.map(({ page, total }: { page: ReadonlyArray<unknown>; total: number }) => ({ page, total }))(reply)).toEqual(
        either.right(expectedPage(rows, keys, 'desc', () => true, 19_975, 20_000))
      )
      // Newest first, each new record comes before those kept: a batch is one run, about two
      // comparisons a record.
      expect(either.isRight(reply) && reply.right.comparisons).toBeLessThanOrEqual(3 * rows.length)
    },
    30_000
  )
})

// The collections a database hands over most: in creation order, or newest first. Ranked
// either way, each match is compared once, with the one before it (a run: ADR 0116) or with the
// last kept (turned away), and no batch is ever sorted or merged: n - 1 comparisons in all.
describe('selectPage compares each match once when the collection is in order either way', () => {
  const n = 5000
  const keys = Array.from({ length: n }, (_, i) => i)
  it.each([
    ['in creation order, oldest first', 'asc', 0],
    ['in creation order, newest first', 'desc', 0],
    ['newest first, the last page', 'desc', n - 25],
    ['oldest first, at 1,000', 'asc', 1000]
  ] as const)('%s', (_, order, start) => {
    const rows = rowsOf(keys, 'created_at', false, 1)
    const reply = selectPageCounted(tx, rows, [], { field: 'created_at', order }, { start, end: start + 25 })
    expect(either.map(({ page, total }: { page: ReadonlyArray<unknown>; total: number }) => ({ page, total }))(reply)).toEqual(
      either.right(expectedPage(rows, keys, order, () => true, start, start + 25))
    )
    expect(either.isRight(reply) && reply.right.comparisons).toBe(n - 1)
  })
})
