/**
 * The page of a collection: filters first, then the records of the window in a stable order
 * (the sort field, then `id`, in the same direction), found without sorting the whole
 * collection when the window is small (top-k selection with a bounded heap).
 *
 * Laws, for every collection (ids need not be unique: equal sort keys and ids are ordered by
 * position, R-47):
 * - `firstK(items, k, cmp)` equals `[...items].sort(cmp).slice(0, k)` for a total order `cmp`;
 * - the pages of consecutive windows partition the filtered collection.
 *
 * @example
 * firstK([5, 1, 4, 2, 3], 2, (a, b) => a - b) //=> [1, 2]
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import { type Endpoint, fieldOf } from './endpoint'
import { compareValues, compileFilter, type FieldValue, type Filter, fieldValue } from './filter'
import type { PageWindow, Sort } from './window'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A heap pays off only when the window ends early in the matches; else one sort is cheaper. */
const prefersFullSort = (k: number, n: number): boolean => k * 8 >= n

/**
 * The `k` smallest of the items offered to it, by `cmp`: a max-heap of at most `k` items, so
 * that an item no smaller than the largest kept is turned away without being stored.
 */
const boundedHeap = <T>(k: number, cmp: (a: T, b: T) => number) => {
  const heap: Array<T> = []
  const larger = (i: number, j: number) => cmp(heap[i] as T, heap[j] as T) > 0
  const swap = (i: number, j: number) => {
    const t = heap[i] as T
    heap[i] = heap[j] as T
    heap[j] = t
  }
  return {
    /** Whether an item comparing to the largest kept as `vsLargest` would be kept. */
    admits: (vsLargest: (largest: T) => number): boolean => heap.length < k || vsLargest(heap[0] as T) < 0,
    offer: (item: T): void => {
      if (heap.length < k) {
        heap.push(item)
        for (let i = heap.length - 1; i > 0 && larger(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1)
        return
      }
      if (cmp(item, heap[0] as T) >= 0) return
      heap[0] = item
      for (let i = 0; ;) {
        const l = 2 * i + 1
        const r = l + 1
        let top = i
        if (l < k && larger(l, top)) top = l
        if (r < k && larger(r, top)) top = r
        if (top === i) break
        swap(i, top)
        i = top
      }
    },
    sorted: (): Array<T> => heap.sort(cmp)
  }
}

/**
 * The `k` smallest items by `cmp`, in order: a full sort when `k` is a large share of the
 * items, else one pass with a max-heap of `k` items (O(n log k)).
 *
 * @example
 * firstK(['tx-3', 'tx-1', 'tx-2'], 10, (a, b) => (a < b ? -1 : a > b ? 1 : 0)) //=> ['tx-1', 'tx-2', 'tx-3']
 *
 * @category utils
 * @since 0.1.0
 */
export const firstK = <T>(items: ReadonlyArray<T>, k: number, cmp: (a: T, b: T) => number): Array<T> => {
  if (k <= 0) return []
  if (prefersFullSort(k, items.length)) return [...items].sort(cmp).slice(0, k)
  const heap = boundedHeap(k, cmp)
  for (const item of items) heap.offer(item)
  return heap.sorted()
}

interface Row {
  readonly record: object
  /** The fields read from the record, in the order of `fields` (each read once, R-18). */
  readonly values: ReadonlyArray<unknown>
  readonly key: FieldValue
  readonly id: string
  /** The record's position in the collection given: the last tie-break. */
  readonly index: number
}

/**
 * A record of the page as a plain JSON object of the endpoint's fields: a class instance
 * or an ORM row reads like the plain object it stands for, and serialises whole. Fields already
 * read for the query are not read again; a field that is `undefined` is left out, one of the
 * wrong type is the server's fault (500), as for the fields the query reads.
 */
const plainRecord =
  (endpoint: Endpoint, read: ReadonlyArray<string>) =>
  (record: object, values: ReadonlyArray<unknown>, index: number): E.Either<Problem, Record<string, unknown>> => {
    const plain: Record<string, unknown> = {}
    for (const [field, type] of Object.entries(endpoint.fields)) {
      const slot = read.indexOf(field)
      const value = slot >= 0 ? values[slot] : (record as Readonly<Record<string, unknown>>)[field]
      if (value === undefined) continue
      // A record of the page holds only JSON values of its fields' types: what the body sends.
      if (fieldValue(type, value) === null) return malformed(index, field)
      Object.defineProperty(plain, field, { value, enumerable: true, writable: true, configurable: true })
    }
    return E.right(plain)
  }

/**
 * The rows a server's database found for a page, as plain JSON objects of the endpoint's fields
 * as {@link selectPage} returns its page; a row that is not a record with an id is the
 * server's fault (500).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * plainPage(endpoints.companies, [{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', extra: 1 }])
 * //=> right([{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }])
 * plainPage(endpoints.companies, [{ name: 'Acme' }])
 * //=> left({ _tag: 'InternalError', rule: 'page.records', detail: 'record 0 has no valid id' })
 *
 * @category rules
 * @since 0.2.0
 */
export const plainPage = (endpoint: Endpoint, rows: ReadonlyArray<unknown>): E.Either<Problem, ReadonlyArray<unknown>> => {
  const plain = plainRecord(endpoint, ['id'])
  return E.traverseArrayWithIndex((i, row: unknown) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return malformed(i, 'shape')
    const id = (row as Readonly<Record<string, unknown>>).id
    return typeof id === 'string' ? plain(row, [id], i) : malformed(i, 'id')
  })(rows)
}

const malformed = (index: number, field: string): E.Either<Problem, never> =>
  E.left(problem.internalError('page.records', `record ${index} has no valid ${field}`))

/**
 * The page of `records` for the window, and how many records match the filters.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // records: tx-1 (1200), tx-2 (800), tx-3 (4500)
 * selectPage(endpoints.bankTransactions, records, [], { field: 'amount', order: 'desc' }, { start: 0, end: 2 })
 * //=> right({ page: [records[2], records[0]], total: 3 })
 * selectPage(endpoints.bankTransactions, [{ id: 7 }], [], { field: 'created_at', order: 'asc' }, { start: 0, end: 2 })
 * //=> left({ _tag: 'InternalError', rule: 'page.records', detail: 'record 0 has no valid id' })
 *
 * @category rules
 * @since 0.1.0
 */
export const selectPage = (
  endpoint: Endpoint,
  records: ReadonlyArray<unknown>,
  filters: ReadonlyArray<Filter>,
  sort: Sort,
  window: PageWindow
): E.Either<Problem, { readonly page: ReadonlyArray<unknown>; readonly total: number }> => {
  const sortType = fieldOf(endpoint, sort.field)
  if (sortType === undefined) return E.left(problem.internalError('page.records', `the endpoint has no field ${sort.field}`))
  const direction = sort.order === 'asc' ? 1 : -1
  const byKey = compareValues(sortType)
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  // Equal keys and equal ids (duplicates) keep the order they were given in, either direction.
  const cmp = (a: Row, b: Row): number => direction * (byKey(a.key, b.key) || byId(a.id, b.id)) || a.index - b.index
  // Each field a record is asked for is read once, by property access: id, the sort
  // field, then the filtered fields.
  const fields = [...new Set(['id', sort.field, ...filters.map((f) => f.field)])]
  const sortSlot = fields.indexOf(sort.field)
  const predicates = filters.map((f) => ({ f, slot: fields.indexOf(f.field), holds: compileFilter(f) }))
  const values: Array<unknown> = new Array<unknown>(fields.length)
  // A small window streams through a bounded heap; a large one keeps every match and sorts.
  const streaming = !prefersFullSort(window.end, records.length)
  const heap = boundedHeap(window.end, cmp)
  const rows: Array<Row> = []
  let total = 0
  for (let i = 0; i < records.length; i++) {
    const record = records[i]
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return malformed(i, 'shape')
    for (let s = 0; s < fields.length; s++) values[s] = (record as Readonly<Record<string, unknown>>)[fields[s] as string]
    const id = values[0]
    if (typeof id !== 'string') return malformed(i, 'id')
    let keep = true
    for (const { f, slot, holds } of predicates) {
      const value = fieldValue(f.type, values[slot])
      if (value === null) return malformed(i, f.field)
      keep = keep && holds(value)
    }
    if (!keep) continue
    const key = fieldValue(sortType, values[sortSlot])
    if (key === null) return malformed(i, sort.field)
    total++
    if (!streaming) rows.push({ record, values: [...values], key, id, index: i })
    else if (
      window.end > 0 &&
      heap.admits((largest) => direction * (byKey(key, largest.key) || byId(id, largest.id)) || i - largest.index)
    )
      heap.offer({ record, values: [...values], key, id, index: i })
  }
  const first = streaming ? heap.sorted() : rows.sort(cmp).slice(0, window.end)
  return E.map((page: ReadonlyArray<unknown>) => ({ page, total }))(
    E.traverseArray((row: Row) => plainRecord(endpoint, fields)(row.record, row.values, row.index))(first.slice(window.start))
  )
}
