/**
 * The page of a collection: filters first, then the records of the window in a stable order
 * (the sort field, then `id`, in the same direction), found in one pass without sorting or
 * copying the collection (a top-k selection over sort keys computed once per record).
 *
 * Laws, for every collection (ids need not be unique: equal sort keys and ids are ordered by
 * position, R-47):
 * - `firstK(items, k, cmp)` equals `[...items].sort(cmp).slice(0, k)` for a total order `cmp`;
 * - the page of a window equals the window's slice of the filtered collection sorted whole;
 * - the pages of consecutive windows partition the filtered collection.
 *
 * @example
 * firstK([5, 1, 4, 2, 3], 2, (a, b) => a - b) //=> [1, 2]
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { instantSlot, readInstant } from '../calendar/instant'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import { type Endpoint, type FieldType, fieldOf } from './endpoint'
import { compileRecordTest, type Filter, fieldValue } from './filter'
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
      if (!holdsFieldValue(type, value)) return malformed(index, field)
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

/** Whether a record's value fits its field: null where the field is nullable, any value (but undefined) in a `json` field. */
const holdsFieldValue = (type: FieldType, value: unknown): boolean =>
  (value === null && type.nullable === true) || type.type === 'json' || fieldValue(type, value) !== null

const malformed = (index: number, field: string): E.Either<Problem, never> =>
  E.left(problem.internalError('page.records', `record ${index} has no valid ${field}`))

// -------------------------------------------------------------------------------------
// selection
// -------------------------------------------------------------------------------------

/**
 * The matches a page may still be made of, one slot per match and one array per part of it (no
 * object per match), and where the selection stands.
 */
interface Selection {
  /** The window's end: how many matches the page is taken from. */
  readonly k: number
  /** k + max(k, 1024) slots: when they are full, the first k of them stay and the others are free again. */
  readonly capacity: number
  readonly direction: 1 | -1
  readonly records: Array<object>
  readonly ids: Array<string>
  /** The sort field's value as read, for the page. */
  readonly sortValues: Array<unknown>
  /**
   * The sort key, smaller first whatever the order: two numbers (an instant's seconds and
   * nanoseconds, or an integer and 0), negated for a descending order, or text (compared times
   * `direction`).
   */
  readonly first: Float64Array
  readonly second: Float64Array
  readonly texts: Array<string>
  /** The record's position in the collection given: the last tie-break. */
  readonly positions: Float64Array
  /** The values of the filtered fields other than id and the sort field, `extraCount` per slot. */
  readonly extraCount: number
  readonly extras: Array<unknown>
  readonly perm: Int32Array
  readonly chosen: Uint8Array
  filled: number
  /** 0 until the slots are first full, then k: slots 0 to k - 1 hold the first k matches so far. */
  kept: number
  /** Once k are kept: the slot of the last of them, which a match must come before, and of the first. */
  last: number
  best: number
}

const selection = (k: number, records: number, direction: 1 | -1, extraCount: number): Selection => {
  // At least 1,024 free slots each time: making room costs O(capacity), paid once per
  // capacity - k matches kept (a collection sorted the other way keeps every match).
  const capacity = k + Math.max(k, 1024)
  // The slots fill up only when the collection has that many records.
  const size = Math.min(capacity, records)
  return {
    k,
    capacity,
    direction,
    records: new Array<object>(size),
    ids: new Array<string>(size),
    sortValues: new Array<unknown>(size),
    first: new Float64Array(size),
    second: new Float64Array(size),
    texts: new Array<string>(size),
    positions: new Float64Array(size),
    extraCount,
    extras: new Array<unknown>(size * extraCount),
    perm: new Int32Array(capacity <= records ? capacity : 0),
    chosen: new Uint8Array(capacity <= records ? capacity : 0),
    filled: 0,
    kept: 0,
    last: 0,
    best: 0
  }
}

/** How many records are read before they are judged (see {@link selectPage}). */
const BATCH = 16

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Negative when the match in slot `a` comes before the one in slot `b` (never 0 for two slots). */
const compareSlots = (s: Selection, a: number, b: number): number =>
  (s.first[a] as number) - (s.first[b] as number) ||
  (s.second[a] as number) - (s.second[b] as number) ||
  s.direction *
    (byCodeUnits(s.texts[a] as string, s.texts[b] as string) || byCodeUnits(s.ids[a] as string, s.ids[b] as string)) ||
  (s.positions[a] as number) - (s.positions[b] as number)

const moveSlot = (s: Selection, from: number, to: number): void => {
  s.records[to] = s.records[from] as object
  s.ids[to] = s.ids[from] as string
  s.sortValues[to] = s.sortValues[from]
  s.first[to] = s.first[from] as number
  s.second[to] = s.second[from] as number
  s.texts[to] = s.texts[from] as string
  s.positions[to] = s.positions[from] as number
  for (let e = 0; e < s.extraCount; e++) s.extras[to * s.extraCount + e] = s.extras[from * s.extraCount + e]
}

/**
 * The first `k` of `s.perm` become the `k` slots that come first (in no particular order): a
 * quickselect, expected O(capacity). Slots never compare equal, so ties cannot stall it.
 */
const selectFirst = (s: Selection): void => {
  const perm = s.perm
  let lo = 0
  let hi = perm.length - 1
  while (lo < hi) {
    const a = perm[lo] as number
    const b = perm[(lo + hi) >> 1] as number
    const c = perm[hi] as number
    // The median of three as pivot: runs in either direction split in halves.
    const ab = compareSlots(s, a, b) < 0
    const bc = compareSlots(s, b, c) < 0
    const ac = compareSlots(s, a, c) < 0
    const pivot = ab === bc ? b : ab === ac ? c : a
    let i = lo
    let j = hi
    while (i <= j) {
      while (compareSlots(s, perm[i] as number, pivot) < 0) i++
      while (compareSlots(s, perm[j] as number, pivot) > 0) j--
      if (i <= j) {
        const t = perm[i] as number
        perm[i] = perm[j] as number
        perm[j] = t
        i++
        j--
      }
    }
    if (s.k - 1 <= j) hi = j
    else if (s.k - 1 >= i) lo = i
    else return
  }
}

/** The slots are full: the k that come first stay, in slots 0 to k - 1, and the others are free. */
const keepFirst = (s: Selection): void => {
  const { k, capacity } = s
  // Each new match before the one before it, and the k-th last before every match kept earlier
  // (a collection sorted the other way): the last k come first, found in one pass.
  let descending = s.kept === 0 || compareSlots(s, capacity - k, s.best) < 0
  for (let j = s.kept + 1; descending && j < capacity; j++) descending = compareSlots(s, j, j - 1) < 0
  if (descending) {
    for (let j = 0; j < k; j++) moveSlot(s, capacity - k + j, j)
    s.last = 0
    s.best = k - 1
  } else {
    const { perm, chosen } = s
    for (let j = 0; j < capacity; j++) perm[j] = j
    selectFirst(s)
    chosen.fill(0)
    for (let j = 0; j < k; j++) chosen[perm[j] as number] = 1
    // The chosen slots from k up move into the slots below k that were not chosen.
    for (let to = 0, from = k; to < k; to++) {
      if (chosen[to] === 1) continue
      while (chosen[from] === 0) from++
      moveSlot(s, from++, to)
    }
    s.last = 0
    s.best = 0
    for (let j = 1; j < k; j++) {
      if (compareSlots(s, j, s.last) > 0) s.last = j
      if (compareSlots(s, j, s.best) < 0) s.best = j
    }
  }
  s.kept = k
  s.filled = k
}

/**
 * The page of `records` for the window, and how many records match the filters.
 *
 * One pass over the records, copying none: each record's fields are read once (16 records at a
 * time, so that in a shuffled collection their reads from memory overlap), the filters tested,
 * and the sort key of a match computed once: two numbers for an integer or an instant (read
 * without allocating, see {@link readInstant}), or text. Once `end` matches are kept, a match is
 * kept only when it comes before the last of them (one comparison turns most away). The kept
 * ones fill `end + max(end, 1024)` slots; when these are full, the first `end` stay (found in one
 * pass when each match came before the one before it, as in a collection sorted the other way,
 * else by a quickselect): O(1) amortised per match, O(end) memory.
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
  // How a match's sort value becomes its key: two numbers, or text.
  const kind = sortType.type === 'instant' || sortType.type === 'integer' ? sortType.type : 'text'
  const direction = sort.order === 'asc' ? 1 : -1
  // Each field a record is asked for is read once, by property access: id, the sort
  // field, then the filtered fields, in that order in `batchValues` and, for a row of the page,
  // in `values`.
  const fields = [...new Set(['id', sort.field, ...filters.map((f) => f.field)])]
  const sortField = sort.field
  const extraFrom = sortField === 'id' ? 1 : 2
  const extraFields = fields.slice(extraFrom)
  const extraCount = extraFields.length
  const values: Array<unknown> = new Array<unknown>(fields.length)
  const tests = filters.map((f) => compileRecordTest(f))
  const testSlots = filters.map((f) => fields.indexOf(f.field))
  const moment = instantSlot()
  // Counts that are not whole (a typed caller's array-like, a window from elsewhere) are rounded
  // up, and a length that is no count reads as none, so that the slots fit every record read.
  const count = records.length > 0 ? Math.ceil(records.length) : 0
  const s = selection(window.end > 0 ? Math.min(Math.ceil(window.end), count) : 0, count, direction, extraCount)
  // The key of the last match kept, once k are (`s.kept > 0`).
  let lastFirst = 0
  let lastSecond = 0
  let lastText = ''
  let lastId = ''
  // Records are read a batch at a time, then judged: the reads of a batch overlap in memory, where
  // reading and judging each in turn waits for memory once per record in a shuffled collection.
  const width = fields.length
  const batchRecords = new Array<unknown>(BATCH)
  const batchValues = new Array<unknown>(BATCH * width)
  /** Per record of the batch: 1 when it is a record, plus 2 when its id is a string, plus 4 when its sort value is one. */
  const strings = new Uint8Array(BATCH)
  let total = 0
  for (let from = 0; from < records.length; from += BATCH) {
    let end = Math.min(records.length, from + BATCH)
    let reading = from
    // A getter that throws ends the batch there: the records before it are judged first.
    let thrown: { readonly error: unknown } | null = null
    try {
      for (; reading < end; reading++) {
        const record = records[reading]
        const j = reading - from
        if (typeof record !== 'object' || record === null || Array.isArray(record)) {
          strings[j] = 0
          end = reading + 1
          break
        }
        batchRecords[j] = record
        const at = j * width
        const id = (record as Readonly<Record<string, unknown>>).id
        const sortValue = extraFrom === 1 ? id : (record as Readonly<Record<string, unknown>>)[sortField]
        batchValues[at] = id
        if (extraFrom === 2) batchValues[at + 1] = sortValue
        for (let e = 0; e < extraCount; e++)
          batchValues[at + extraFrom + e] = (record as Readonly<Record<string, unknown>>)[extraFields[e] as string]
        strings[j] = 1 | (typeof id === 'string' ? 2 : 0) | (typeof sortValue === 'string' ? 4 : 0)
      }
    } catch (error) {
      thrown = { error }
      end = reading
    }
    for (let i = from; i < end; i++) {
      const j = i - from
      const flags = strings[j] as number
      if ((flags & 1) === 0) return malformed(i, 'shape')
      const at = j * width
      const id = batchValues[at] as string
      const sortValue = batchValues[at + extraFrom - 1]
      if ((flags & 2) === 0) return malformed(i, 'id')
      let keep = true
      for (let f = 0; f < tests.length; f++) {
        const holds = (tests[f] as (u: unknown) => number)(batchValues[at + (testSlots[f] as number)])
        if (holds < 0) return malformed(i, (filters[f] as Filter).field)
        keep = keep && holds === 1
      }
      if (!keep) continue
      let first = 0
      let second = 0
      let text = ''
      if (kind === 'instant') {
        if ((flags & 4) === 0 || !readInstant(sortValue as string, moment)) return malformed(i, sortField)
        first = direction * moment.seconds
        second = direction * moment.nanos
      } else if (kind === 'integer') {
        if (typeof sortValue !== 'number' || !Number.isSafeInteger(sortValue)) return malformed(i, sortField)
        first = direction * sortValue
      } else {
        if (fieldValue(sortType, sortValue) === null) return malformed(i, sortField)
        text = sortValue as string
      }
      total++
      // Turned away unless before the last match kept (a later match equal to it comes after it).
      if (
        s.k === 0 ||
        (s.kept > 0 &&
          !(
            first < lastFirst ||
            (first === lastFirst &&
              (second < lastSecond ||
                (second === lastSecond && direction * (byCodeUnits(text, lastText) || byCodeUnits(id, lastId)) < 0)))
          ))
      )
        continue
      const slot = s.filled++
      s.records[slot] = batchRecords[j] as object
      s.ids[slot] = id
      s.sortValues[slot] = sortValue
      s.first[slot] = first
      s.second[slot] = second
      s.texts[slot] = text
      s.positions[slot] = i
      for (let e = 0; e < extraCount; e++) s.extras[slot * extraCount + e] = batchValues[at + extraFrom + e]
      if (s.filled === s.capacity) {
        keepFirst(s)
        lastFirst = s.first[s.last] as number
        lastSecond = s.second[s.last] as number
        lastText = s.texts[s.last] as string
        lastId = s.ids[s.last] as string
      }
    }
    if (thrown !== null) throw thrown.error
  }
  const order = Array.from({ length: s.filled }, (_, j) => j).sort((a, b) => compareSlots(s, a, b))
  const plain = plainRecord(endpoint, fields)
  const page: Array<unknown> = []
  for (const slot of order.slice(0, s.k).slice(window.start)) {
    values[0] = s.ids[slot]
    if (extraFrom === 2) values[1] = s.sortValues[slot]
    for (let e = 0; e < extraCount; e++) values[extraFrom + e] = s.extras[slot * extraCount + e]
    const row = plain(s.records[slot] as object, values, s.positions[slot] as number)
    if (E.isLeft(row)) return row
    page.push(row.right)
  }
  return E.right({ page, total })
}
