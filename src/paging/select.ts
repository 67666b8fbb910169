/**
 * The page of a collection: filters first, then the records of the window in a stable order
 * (the sort field, then `id`, in the same direction), found in one pass without sorting or
 * copying the collection (the first k by sort keys computed once per record, ranked within the
 * comparisons of sorting the matches whole whatever their order, R-48).
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
import { describeValue } from '../json/describe'
import { type Endpoint, type FieldType, fieldOf } from './endpoint'
import { compileRecordTest, describeFieldType, type Filter, fieldValue } from './filter'
import { admit, follows, freeSlot, lastOffered, type Ranking, ranking, rankingInts, settle } from './ranking'
import { borrow, giveBack } from './scratch'
import type { PageWindow, Sort } from './window'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The least number of matches a ranking takes in before it merges them with those it keeps. */
const MIN_BATCH = 1024

/**
 * The `k` smallest items by `cmp`, in order, as a stable sort orders them: one sort of the items
 * when `k` is an eighth of them or more (or not a whole number), else a ranking (`ranking`)
 * that sorts the first `k`, then turns away each item that does not come before the last of those
 * kept (one comparison) and sorts and merges the others `k` at a time: about one comparison an
 * item when `k` is small, and never more than n·log2(n) + n.
 *
 * @example
 * firstK(['tx-3', 'tx-1', 'tx-2'], 10, (a, b) => (a < b ? -1 : a > b ? 1 : 0)) //=> ['tx-1', 'tx-2', 'tx-3']
 *
 * @category utils
 * @since 0.1.0
 */
export const firstK = <T>(items: ReadonlyArray<T>, k: number, cmp: (a: T, b: T) => number): Array<T> => {
  if (k <= 0) return []
  // Read as the law reads them, by spreading them: an array-like that is not iterable is a TypeError.
  const list: ReadonlyArray<T> = Array.isArray(items) ? items : [...items]
  const n = list.length
  // A ranking pays off only when the window ends early in the items; else one sort is cheaper.
  // A k that is not a whole number is read by slice, as the law reads it (the ranking counts slots).
  if (!Number.isInteger(k) || k * 8 >= n) return [...list].sort(cmp).slice(0, k)
  // The item in each slot, by its index: equal items keep the order given.
  const at = new Int32Array(2 * k)
  const r = ranking(
    k,
    2 * k,
    k,
    (a, b) => cmp(list[at[a] as number] as T, list[at[b] as number] as T) || (at[a] as number) - (at[b] as number)
  )
  for (let i = 0; i < n; i++) {
    // Turned away unless before the last kept (a later item equal to it comes after it).
    if (r.keptCount === k && cmp(list[i] as T, list[at[r.kept[k - 1] as number] as number] as T) >= 0) continue
    const slot = freeSlot(r)
    at[slot] = i
    admit(r, slot, follows(r) ? (r.compare(slot, lastOffered(r)) < 0 ? -1 : 1) : 0)
  }
  settle(r)
  return Array.from(r.kept, (slot) => list[at[slot] as number] as T)
}

/**
 * A record of the page as a plain JSON object of the endpoint's fields: a class instance
 * or an ORM row reads like the plain object it stands for, and serialises whole. Fields already
 * read for the query are not read again; a field that is `undefined` is left out, one of the
 * wrong type is the server's fault (500), as for the fields the query reads.
 */
const plainRecord =
  (endpoint: Endpoint, read: ReadonlyArray<string>, collection: Collection) =>
  (record: object, values: ReadonlyArray<unknown>, index: number): E.Either<Problem, Record<string, unknown>> => {
    const plain: Record<string, unknown> = {}
    for (const [field, type] of Object.entries(endpoint.fields)) {
      const slot = read.indexOf(field)
      const value = slot >= 0 ? values[slot] : (record as Readonly<Record<string, unknown>>)[field]
      if (value === undefined) continue
      // A record of the page holds only JSON values of its fields' types: what the body sends.
      if (!holdsFieldValue(type, value)) return malformed(collection, index, field, value, type)
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
 * //=> left({ _tag: 'InternalError', rule: 'page.records', detail: 'record 0 has no valid id', mistake: 'page[0].id is undefined, not a string' })
 *
 * @category rules
 * @since 0.2.0
 */
export const plainPage = (endpoint: Endpoint, rows: ReadonlyArray<unknown>): E.Either<Problem, ReadonlyArray<unknown>> => {
  const plain = plainRecord(endpoint, ['id'], 'page')
  return E.traverseArrayWithIndex((i, row: unknown) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return malformed('page', i, 'shape', row)
    const id = (row as Readonly<Record<string, unknown>>).id
    return typeof id === 'string' ? plain(row, [id], i) : malformed('page', i, 'id', id)
  })(rows)
}

/** Whether a record's value fits its field: null where the field is nullable, any value (but undefined) in a `json` field. */
const holdsFieldValue = (type: FieldType, value: unknown): boolean =>
  (value === null && type.nullable === true) || type.type === 'json' || fieldValue(type, value) !== null

/** What a field holds, in the words of a 500's message (R-106): the filter's words, and null where it may be. */
const shapeOf = (type: FieldType): string =>
  type.nullable === true ? `${describeFieldType(type)} or null` : describeFieldType(type)

/**
 * The 500 of a record the server passed malformed: the log names the record and field, the
 * message also the value and what the field holds (`type`; none for the id, a string,
 * and for the record itself, an object), under the name the caller gave the collection.
 */
const malformed = (
  collection: Collection,
  index: number,
  field: string,
  value: unknown,
  type?: FieldType
): E.Either<Problem, never> =>
  E.left(
    problem.serverMistake(
      'page.records',
      `record ${index} has no valid ${field}`,
      field === 'shape'
        ? `${collection}[${index}] is ${describeValue(value)}, not an object`
        : `${collection}[${index}].${field} is ${describeValue(value)}, not ${type === undefined ? 'a string' : shapeOf(type)}`
    )
  )

/** The field of the context a collection came in: `records` (respondIndex's) or `page` (respondIndexPage's). */
type Collection = 'records' | 'page'

// -------------------------------------------------------------------------------------
// selection
// -------------------------------------------------------------------------------------

/**
 * The matches a page may still be made of, one slot per match and one array per part of it (no
 * object per match), ranked by {@link compareSlots} (see `ranking`).
 */
interface Selection {
  /** The order the matches are ranked in: the sort's, or the other way round to rank from the end. */
  readonly direction: 1 | -1
  /** Whether the sort key is text (the others are two numbers). */
  readonly textKeys: boolean
  /**
   * Per slot, `width` values: the record, its id and its sort field's value as read (for the
   * page), a text key (compared times `direction`) when the key is text, and the values of the
   * filtered fields other than id and the sort field.
   */
  readonly width: number
  readonly values: Array<unknown>
  /**
   * Per slot, three numbers: the sort key, smaller first in the order ranked (an instant's
   * seconds and nanoseconds, or an integer and 0, times `direction`; 0 and 0 for text), and the
   * record's position in the collection given, times -1 to rank from the end (the last
   * tie-break, R-47).
   */
  readonly keys: Float64Array
  /** How many times the ranking compared two matches (R-48; the pass over the records counts its own apart). */
  comparisons: number
}

/** How many records are read before they are judged (see {@link selectPage}). */
const BATCH = 16

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Negative when the match in slot `a` comes before the one in slot `b` (never 0 for two slots). */
const compareSlots = (s: Selection, a: number, b: number): number => {
  s.comparisons++
  const { keys } = s
  return (
    (keys[3 * a] as number) - (keys[3 * b] as number) ||
    (keys[3 * a + 1] as number) - (keys[3 * b + 1] as number) ||
    s.direction *
      ((s.textKeys ? byCodeUnits(s.values[s.width * a + 3] as string, s.values[s.width * b + 3] as string) : 0) ||
        byCodeUnits(s.values[s.width * a + 1] as string, s.values[s.width * b + 1] as string)) ||
    (keys[3 * a + 2] as number) - (keys[3 * b + 2] as number)
  )
}

/** What a selection works with, worked out once from the request: its fields, tests and window. */
const planOf = (
  endpoint: Endpoint,
  records: ReadonlyArray<unknown>,
  filters: ReadonlyArray<Filter>,
  sort: Sort,
  window: PageWindow
) => {
  const sortType = fieldOf(endpoint, sort.field)
  if (sortType === undefined) return null
  // How a match's sort value becomes its key: two numbers, or text.
  const kind = sortType.type === 'instant' || sortType.type === 'integer' ? sortType.type : 'text'
  // Each field a record is asked for is read once, by property access: id, the sort
  // field, then the filtered fields, in that order in `batchValues` and, for a row of the page,
  // in `values`.
  const fields = [...new Set(['id', sort.field, ...filters.map((f) => f.field)])]
  const extraFrom = sort.field === 'id' ? 1 : 2
  const extraFields = fields.slice(extraFrom)
  // Counts that are not whole (a typed caller's array-like, a window from elsewhere) are rounded
  // up, and a length that is no count reads as none, so that the slots fit every record read.
  const count = records.length > 0 ? Math.ceil(records.length) : 0
  const end = window.end > 0 ? Math.min(Math.ceil(window.end), count) : 0
  // For speed only: a window nearer the end than the start is the first matches counted from the
  // end (the order turned round), fewer to keep; test/paging/select-ends.test.ts pins it to the front.
  const fromEnd = Number.isSafeInteger(window.start) && window.start >= 0 && count - window.start < end
  const k = fromEnd ? Math.max(0, count - window.start) : end
  const textKeys = kind === 'text'
  return {
    sortType,
    kind,
    sortField: sort.field,
    fields,
    extraFrom,
    extraFields,
    tests: filters.map((f) => compileRecordTest(f)),
    testSlots: filters.map((f) => fields.indexOf(f.field)),
    end,
    fromEnd,
    k,
    direction: (sort.order === 'asc') === !fromEnd ? (1 as const) : (-1 as const),
    sign: fromEnd ? -1 : 1,
    // At least 1,024 slots more than k: a batch costs O(k + 1,024 log) and brings as many new
    // matches, and the slots fill up only when the collection has that many records.
    slots: k === 0 ? 0 : Math.min(k + Math.max(k, MIN_BATCH), count),
    textKeys,
    // Per slot: the record, its id, its sort value, the text key when it is text, then the other fields read.
    extrasAt: textKeys ? 4 : 3,
    slotWidth: (textKeys ? 4 : 3) + extraFields.length
  }
}

type Plan = Exclude<ReturnType<typeof planOf>, null>

/**
 * The page of `records` for the window, how many records match the filters, and how many times
 * two matches were compared: at most n·log2(n) + n for n matches, whatever their order.
 * {@link selectPage} is this without the count.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // records: tx-1 (1200), tx-2 (800), tx-3 (4500)
 * selectPageCounted(endpoints.bankTransactions, records, [], { field: 'amount', order: 'desc' }, { start: 0, end: 2 })
 * //=> right({ page: [records[2], records[0]], total: 3, comparisons: 5 })
 *
 * @category rules
 * @since 0.3.0
 */
export const selectPageCounted = (
  endpoint: Endpoint,
  records: ReadonlyArray<unknown>,
  filters: ReadonlyArray<Filter>,
  sort: Sort,
  window: PageWindow
): E.Either<Problem, { readonly page: ReadonlyArray<unknown>; readonly total: number; readonly comparisons: number }> => {
  const plan = planOf(endpoint, records, filters, sort, window)
  if (plan === null) return E.left(problem.internalError('page.records', `the endpoint has no field ${sort.field}`))
  const { k, slots, slotWidth } = plan
  const scratch = borrow(slotWidth * slots, 3 * slots, k === 0 ? 0 : rankingInts(k, slots))
  const s: Selection = {
    direction: plan.direction,
    textKeys: plan.textKeys,
    width: slotWidth,
    values: scratch.values,
    keys: scratch.numbers,
    comparisons: 0
  }
  // The first batch is merged once it holds k and 1,024 more, so that turning away starts early.
  const r = k === 0 ? null : ranking(k, slots, Math.min(slots, k + MIN_BATCH), (a, b) => compareSlots(s, a, b), scratch.ints)
  try {
    return rankMatches(plan, endpoint, records, filters, window, s, r)
  } finally {
    giveBack(scratch, r === null ? 0 : slotWidth * r.fresh)
  }
}

/** {@link selectPageCounted}'s pass over the records and its page, in the selection and ranking made for it. */
const rankMatches = (
  plan: Plan,
  endpoint: Endpoint,
  records: ReadonlyArray<unknown>,
  filters: ReadonlyArray<Filter>,
  window: PageWindow,
  s: Selection,
  r: Ranking | null
): E.Either<Problem, { readonly page: ReadonlyArray<unknown>; readonly total: number; readonly comparisons: number }> => {
  const { sortType, kind, sortField, fields, extraFrom, extraFields, tests, testSlots, end, fromEnd, k, direction, sign } = plan
  const { textKeys, extrasAt, slotWidth } = plan
  const extraCount = extraFields.length
  const values: Array<unknown> = new Array<unknown>(fields.length)
  const moment = instantSlot()
  // The key of the last match kept, once k are (`r.keptCount === k`).
  let lastFirst = 0
  let lastSecond = 0
  let lastText = ''
  let lastId = ''
  let lastPosition = 0
  // The key of the match offered last, which the next one offered is compared with (the runs of the ranking).
  let prevFirst = 0
  let prevSecond = 0
  let prevText = ''
  let prevId = ''
  let prevPosition = 0
  // Records are read a batch at a time, then judged: the reads of a batch overlap in memory, where
  // reading and judging each in turn waits for memory once per record in a shuffled collection.
  const width = fields.length
  const batchRecords = new Array<unknown>(BATCH)
  const batchValues = new Array<unknown>(BATCH * width)
  /** Per record of the batch: 1 when it is a record, plus 2 when its id is a string, plus 4 when its sort value is one. */
  const strings = new Uint8Array(BATCH)
  let total = 0
  /** The comparisons made here, to turn matches away and find runs (the ranking's count in `s`). */
  let compared = 0
  for (let from = 0; from < records.length; from += BATCH) {
    let batchEnd = Math.min(records.length, from + BATCH)
    let reading = from
    // A getter that throws ends the batch there: the records before it are judged first.
    let thrown: { readonly error: unknown } | null = null
    try {
      for (; reading < batchEnd; reading++) {
        const record = records[reading]
        const j = reading - from
        if (typeof record !== 'object' || record === null || Array.isArray(record)) {
          strings[j] = 0
          // Kept for the 500's message, which names it.
          batchRecords[j] = record
          batchEnd = reading + 1
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
      batchEnd = reading
    }
    for (let i = from; i < batchEnd; i++) {
      const j = i - from
      const flags = strings[j] as number
      if ((flags & 1) === 0) return malformed('records', i, 'shape', batchRecords[j])
      const at = j * width
      const id = batchValues[at] as string
      const sortValue = batchValues[at + extraFrom - 1]
      if ((flags & 2) === 0) return malformed('records', i, 'id', id)
      let keep = true
      for (let f = 0; f < tests.length; f++) {
        const holds = (tests[f] as (u: unknown) => number)(batchValues[at + (testSlots[f] as number)])
        if (holds < 0) {
          const filter = filters[f] as Filter
          return malformed('records', i, filter.field, batchValues[at + (testSlots[f] as number)], filter.type)
        }
        keep = keep && holds === 1
      }
      if (!keep) continue
      let first = 0
      let second = 0
      let text = ''
      if (kind === 'instant') {
        if ((flags & 4) === 0 || !readInstant(sortValue as string, moment))
          return malformed('records', i, sortField, sortValue, sortType)
        first = direction * moment.seconds
        second = direction * moment.nanos
      } else if (kind === 'integer') {
        if (typeof sortValue !== 'number' || !Number.isSafeInteger(sortValue))
          return malformed('records', i, sortField, sortValue, sortType)
        first = direction * sortValue
      } else {
        if (fieldValue(sortType, sortValue) === null) return malformed('records', i, sortField, sortValue, sortType)
        text = sortValue as string
      }
      total++
      if (r === null) continue
      const position = sign * i
      if (r.keptCount === k) {
        // Turned away unless before the last match kept.
        compared++
        if (!(
          first < lastFirst ||
          (first === lastFirst &&
            (second < lastSecond ||
              (second === lastSecond &&
                (direction * ((textKeys ? byCodeUnits(text, lastText) : 0) || byCodeUnits(id, lastId)) ||
                  position - lastPosition) < 0)))
        ))
          continue
      }
      const slot = freeSlot(r)
      const v = slotWidth * slot
      s.values[v] = batchRecords[j]
      s.values[v + 1] = id
      s.values[v + 2] = sortValue
      if (textKeys) s.values[v + 3] = text
      for (let e = 0; e < extraCount; e++) s.values[v + extrasAt + e] = batchValues[at + extraFrom + e]
      s.keys[3 * slot] = first
      s.keys[3 * slot + 1] = second
      s.keys[3 * slot + 2] = position
      // The match against the one offered before it, for the runs of the ranking.
      let run = 0
      if (follows(r)) {
        compared++
        run =
          first < prevFirst ||
          (first === prevFirst &&
            (second < prevSecond ||
              (second === prevSecond &&
                (direction * ((textKeys ? byCodeUnits(text, prevText) : 0) || byCodeUnits(id, prevId)) ||
                  position - prevPosition) < 0)))
            ? -1
            : 1
      }
      prevFirst = first
      prevSecond = second
      prevText = text
      prevId = id
      prevPosition = position
      if (admit(r, slot, run) && r.keptCount === k) {
        const last = r.kept[k - 1] as number
        lastFirst = s.keys[3 * last] as number
        lastSecond = s.keys[3 * last + 1] as number
        lastText = textKeys ? (s.values[slotWidth * last + 3] as string) : ''
        lastId = s.values[slotWidth * last + 1] as string
        lastPosition = s.keys[3 * last + 2] as number
      }
    }
    if (thrown !== null) throw thrown.error
  }
  const plain = plainRecord(endpoint, fields, 'records')
  const page: Array<unknown> = []
  const row = (slot: number): E.Either<Problem, unknown> => {
    const v = slotWidth * slot
    values[0] = s.values[v + 1]
    if (extraFrom === 2) values[1] = s.values[v + 2]
    for (let e = 0; e < extraCount; e++) values[extraFrom + e] = s.values[v + extrasAt + e]
    return plain(s.values[v] as object, values, sign * (s.keys[3 * slot + 2] as number))
  }
  if (r !== null) {
    settle(r)
    // From the end, the match at `p` from the start is the one at `total - 1 - p` from the end.
    const slots = fromEnd
      ? Array.from(
          { length: Math.max(0, Math.min(end, total) - window.start) },
          (_, p) => r.kept[total - 1 - window.start - p] as number
        )
      : r.kept.subarray(0, r.keptCount).subarray(window.start)
    for (const slot of slots) {
      const plainRow = row(slot)
      if (E.isLeft(plainRow)) return plainRow
      page.push(plainRow.right)
    }
  }
  return E.right({ page, total, comparisons: s.comparisons + compared })
}

/**
 * The page of `records` for the window, and how many records match the filters.
 *
 * One pass over the records, copying none: each record's fields are read once (16 records at a
 * time, so that in a shuffled collection their reads from memory overlap), the filters tested,
 * and the sort key of a match computed once: two numbers for an integer or an instant (read
 * without allocating, see `readInstant`), or text. The first `end` matches are ranked
 * (`ranking`): once `end` are kept, a match is kept only when it comes before the last of
 * them (one comparison turns most away), and the kept ones are sorted and merged a batch at a
 * time, never costing more comparisons than sorting the matches whole, in O(end) memory.
 * A window nearer the end of the collection than its start is ranked from the end.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // records: tx-1 (1200), tx-2 (800), tx-3 (4500)
 * selectPage(endpoints.bankTransactions, records, [], { field: 'amount', order: 'desc' }, { start: 0, end: 2 })
 * //=> right({ page: [records[2], records[0]], total: 3 })
 * selectPage(endpoints.bankTransactions, [{ id: 7 }], [], { field: 'created_at', order: 'asc' }, { start: 0, end: 2 })
 * //=> left({ _tag: 'InternalError', rule: 'page.records', detail: 'record 0 has no valid id', mistake: 'records[0].id is 7, not a string' })
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
): E.Either<Problem, { readonly page: ReadonlyArray<unknown>; readonly total: number }> =>
  E.map(({ page, total }: { readonly page: ReadonlyArray<unknown>; readonly total: number }) => ({ page, total }))(
    selectPageCounted(endpoint, records, filters, sort, window)
  )
