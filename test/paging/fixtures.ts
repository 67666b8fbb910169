import fc from 'fast-check'
import { type Endpoint, endpoints, type IndexContext, respondIndex } from '../api'
import { headers, session } from '../fixtures'

export interface Transaction {
  readonly id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** Transaction n, created n minutes after 2026-11-01T00:00:00Z (in a -03:00 offset for odd n). */
export const transaction = (n: number, overrides: Partial<Transaction> = {}): Transaction => {
  const minutes = n
  const utc = `2026-11-${pad(1 + Math.floor(minutes / 1440))}T${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}:00Z`
  return {
    id: `tx-${pad(n, 4)}`,
    amount: (n * 37) % 1000,
    status: n % 3 === 0 ? 'pending' : 'authorized',
    created_at: utc,
    updated_at: utc,
    ...overrides
  }
}

export const transactions = (count: number) => Array.from({ length: count }, (_, i) => transaction(i))

export const index = (
  query: string,
  records: ReadonlyArray<unknown>,
  endpoint: Endpoint = endpoints.bankTransactions,
  extra: Partial<IndexContext> = {}
) =>
  respondIndex({
    request: { headers: headers(), query },
    session: session('member'),
    endpoint,
    records,
    request_id: 'req-1',
    ...extra
  })

// -------------------------------------------------------------------------------------
// collections for properties, and a brute-force oracle written from contract section 8
// -------------------------------------------------------------------------------------

/** A small deterministic generator (mulberry32): collections of thousands of records from one seed. */
export const prng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 2026-11-22T10:00:00Z in milliseconds since the epoch. */
const BASE_MS = Date.UTC(2026, 10, 22, 10, 0, 0)

/** Offsets an instant may be written in, in minutes east of UTC (+14:00 moves the date). */
const OFFSETS = [0, 0, -180, 330, 840, -690] as const

const offsetText = (minutes: number, z: boolean): string => {
  if (minutes === 0 && z) return 'Z'
  const m = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(m / 60))}:${pad(m % 60)}`
}

/**
 * The moment `ms` (milliseconds since the epoch) written one of several ways, chosen by `pick`
 * in [0, 1): with or without a fraction of 1, 3 or 9 digits, in `Z`, `+00:00` or another
 * offset. `2026-11-22T10:00:00Z`, `...10:00:00.000Z` and `...07:00:00-03:00` are one moment.
 * Wall time is computed from UTC (`toISOString`), never from the process time zone.
 */
export const spell = (ms: number, pick: number): string => {
  const variant = Math.floor(pick * 4 * OFFSETS.length)
  const key = `${ms}/${variant}`
  const known = spelled.get(key)
  if (known !== undefined) return known
  if (spelled.size > 10_000) spelled.clear()
  const text = spellVariant(ms, variant)
  spelled.set(key, text)
  return text
}

/** Spellings already made: collections hold thousands of records over a few moments. */
const spelled = new Map<string, string>()

const spellVariant = (ms: number, variant: number): string => {
  const offset = OFFSETS[variant % OFFSETS.length] as number
  const style = Math.floor(variant / OFFSETS.length)
  const wall = new Date(ms + offset * 60_000).toISOString().slice(0, 19)
  const millis = ((ms % 1000) + 1000) % 1000
  const three = pad(millis, 3)
  const fraction =
    style === 0
      ? millis === 0
        ? ''
        : `.${three.replace(/0+$/, '')}`
      : style === 1
        ? `.${three}`
        : style === 2
          ? `.${three}000000`
          : millis === 0
            ? '.0'
            : `.${three.replace(/0+$/, '')}`
  return `${wall}${fraction}${offsetText(offset, variant % 2 === 0)}`
}

/** A record with what the oracle knows of it by construction: its position and its moments. */
export interface Known {
  readonly record: Transaction
  readonly index: number
  readonly created: number
  readonly updated: number
}

/** Amounts that tie often, negative ones and the largest safe integers included. */
const AMOUNTS = [0, 1, -1, 250, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER] as const

/** Gaps between the few distinct moments of a collection: half a second to a day less 1 ms. */
const STRIDES = [500, 1000, 60_000, 3_600_000, 86_399_999] as const

export interface CollectionSpec {
  readonly size: number
  readonly seed: number
  /** How many distinct moments and amounts: few, so that sort keys tie heavily. */
  readonly moments: number
  readonly amounts: number
  readonly stride: number
  /** unique ids; ids drawn from a small pool; or unique ids with copies of earlier records. */
  readonly ids: 'unique' | 'pool' | 'copies'
}

/** The ids a collection's records may hold. */
export const idOf = (n: number) => `tx-${pad(n, 5)}`

/** The moment of index `m` of a collection (also what filters on instants name). */
export const momentOf = (spec: Pick<CollectionSpec, 'stride'>, m: number) => BASE_MS + m * spec.stride

/**
 * The records of `spec`, each with its position and moments. Duplicate ids come with equal sort
 * keys often: a pool of few ids over few moments, or copies of an earlier record (same id, same
 * moments and amount, the instants respelled).
 */
export const buildCollection = (spec: CollectionSpec): ReadonlyArray<Known> => {
  const random = prng(spec.seed)
  const draw = (n: number) => Math.floor(random() * n)
  // Unique ids in an order unrelated to position.
  const order = Array.from({ length: spec.size }, (_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = draw(i + 1)
    ;[order[i], order[j]] = [order[j] as number, order[i] as number]
  }
  const pool = Math.max(1, Math.floor(spec.size / 8))
  const known: Array<Known> = []
  for (let index = 0; index < spec.size; index++) {
    const earlier = known[draw(Math.max(1, known.length))]
    if (spec.ids === 'copies' && earlier !== undefined && random() < 0.3) {
      const r = earlier.record
      const record = { ...r, created_at: spell(earlier.created, random()), updated_at: spell(earlier.updated, random()) }
      known.push({ record, index, created: earlier.created, updated: earlier.updated })
      continue
    }
    const created = momentOf(spec, draw(spec.moments))
    const updated = momentOf(spec, draw(spec.moments))
    const record: Transaction = {
      id: idOf(spec.ids === 'pool' ? draw(pool) : (order[index] as number)),
      amount: AMOUNTS[draw(spec.amounts)] as number,
      status: random() < 0.5 ? 'authorized' : 'pending',
      created_at: spell(created, random()),
      updated_at: spell(updated, random())
    }
    known.push({ record, index, created, updated })
  }
  return known
}

/** Collections of 0 to a few hundred records, or of 2,000 to 4,000 in one run in four. */
export const collectionSpec = (
  sizes: fc.Arbitrary<number> = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 30 }), weight: 1 },
    { arbitrary: fc.integer({ min: 0, max: 400 }), weight: 2 },
    { arbitrary: fc.integer({ min: 2000, max: 4000 }), weight: 1 }
  )
): fc.Arbitrary<CollectionSpec> =>
  fc.record({
    size: sizes,
    seed: fc.integer(),
    moments: fc.integer({ min: 1, max: 6 }),
    amounts: fc.integer({ min: 1, max: AMOUNTS.length }),
    stride: fc.constantFrom(...STRIDES),
    ids: fc.constantFrom('unique' as const, 'pool' as const, 'copies' as const)
  })

export type SortField = 'created_at' | 'updated_at' | 'amount'
export type Order = 'asc' | 'desc'

/**
 * A filter as the oracle knows it: the values as sent (query text) and as compared (numbers
 * for amounts and moments, strings for ids and statuses).
 */
export interface KnownFilter {
  readonly field: 'amount' | 'status' | 'created_at' | 'updated_at' | 'id'
  readonly op: '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin'
  readonly sent: ReadonlyArray<string | number>
  readonly compared: ReadonlyArray<string | number>
}

const ALL_OPS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'] as const
const SET_OPS = ['$eq', '$ne', '$in', '$nin'] as const

/** Filters on every field of bank_transactions, each value one the collection holds or near it. */
export const knownFilter = (spec: CollectionSpec): fc.Arbitrary<KnownFilter> => {
  const listOf = <T>(one: fc.Arbitrary<T>, op: string) =>
    op === '$in' || op === '$nin'
      ? fc.oneof(fc.array(one, { maxLength: 6 }), fc.array(one, { minLength: 400, maxLength: 500 }))
      : one.map((v) => [v])
  const amount = fc.constantFrom(...AMOUNTS, 2, -250)
  const moment = fc.tuple(
    fc.integer({ min: -1, max: spec.moments }),
    fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000)
  )
  const id = fc.integer({ min: 0, max: Math.max(0, spec.size) })
  return fc.oneof(
    fc
      .constantFrom(...ALL_OPS)
      .chain((op) => listOf(amount, op).map((vs) => ({ field: 'amount' as const, op, sent: vs, compared: vs }))),
    fc.constantFrom(...SET_OPS).chain((op) =>
      listOf(fc.constantFrom('authorized', 'pending'), op).map((vs) => ({
        field: 'status' as const,
        op,
        sent: vs,
        compared: vs
      }))
    ),
    fc.tuple(fc.constantFrom('created_at' as const, 'updated_at' as const), fc.constantFrom(...ALL_OPS)).chain(([field, op]) =>
      listOf(moment, op).map((ms) => ({
        field,
        op,
        sent: ms.map(([m, pick]) => spell(momentOf(spec, m), pick)),
        compared: ms.map(([m]) => momentOf(spec, m))
      }))
    ),
    fc
      .constantFrom(...SET_OPS)
      .chain((op) => listOf(id, op).map((ns) => ({ field: 'id' as const, op, sent: ns.map(idOf), compared: ns.map(idOf) })))
  )
}

/** Up to three filters, no two on the same field and operator (a repeated key is a 400). */
export const knownFilters = (spec: CollectionSpec) =>
  fc.uniqueArray(knownFilter(spec), { maxLength: 3, selector: (f) => `${f.field}${f.op}` })

/** No filter in one run of two, else up to three. */
export const someFilters = (spec: CollectionSpec): fc.Arbitrary<ReadonlyArray<KnownFilter>> =>
  fc.oneof(fc.constant([]), knownFilters(spec))

/** The query string of a window, order, field and filters, encoded by URLSearchParams (not the library). */
export const queryOf = (q: {
  start: number
  end: number
  order: Order
  field: SortField
  filters: ReadonlyArray<KnownFilter>
}): string =>
  new URLSearchParams([
    ['_start', String(q.start)],
    ['_end', String(q.end)],
    ['_order', q.order],
    ['_field', q.field],
    ...q.filters.map((f): [string, string] => [
      f.op === '$eq' ? f.field : `${f.field}[${f.op}]`,
      f.op === '$in' || f.op === '$nin' ? JSON.stringify(f.sent) : String(f.sent[0])
    ])
  ]).toString()

const holds = (left: string | number, f: KnownFilter): boolean => {
  const [right] = f.compared
  switch (f.op) {
    case '$eq':
      return left === right
    case '$ne':
      return left !== right
    case '$gt':
      return (left as number) > (right as number)
    case '$gte':
      return (left as number) >= (right as number)
    case '$lt':
      return (left as number) < (right as number)
    case '$lte':
      return (left as number) <= (right as number)
    case '$in':
      return f.compared.includes(left)
    case '$nin':
      return !f.compared.includes(left)
  }
}

const valueOf = (k: Known, field: KnownFilter['field'] | SortField): string | number =>
  field === 'created_at' ? k.created : field === 'updated_at' ? k.updated : k.record[field]

/** The records every filter holds of, in their positions. */
export const bruteFilter = (records: ReadonlyArray<Known>, filters: ReadonlyArray<KnownFilter>): ReadonlyArray<Known> =>
  records.filter((k) => filters.every((f) => holds(valueOf(k, f.field), f)))

/**
 * The whole collection in page order, from contract section 8, R-47 and ADR 0047: by the field's
 * value (the moment for instants), then id, both in the direction of `order`, then position in
 * the collection given, always ascending (so records with equal keys and equal ids keep the
 * order they were given in, either direction).
 */
export const bruteSort = (records: ReadonlyArray<Known>, field: SortField, order: Order): ReadonlyArray<Known> => {
  const direction = order === 'asc' ? 1 : -1
  const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)
  return [...records].sort(
    (a, b) =>
      direction * (compare(valueOf(a, field), valueOf(b, field)) || compare(a.record.id, b.record.id)) || a.index - b.index
  )
}

/** The exact page headers of a window over `total` matches, from contract section 8. */
export const expectedHeaders = (start: number, end: number, total: number): Record<string, string> => {
  const count = Math.max(0, Math.min(end, total) - start)
  return {
    'X-Request-Id': 'req-1',
    'Content-Type': 'application/json; charset=utf-8',
    'X-Total-Count': String(total),
    'Content-Range': count === 0 ? `*/${total}` : `${start}-${start + count - 1}/${total}`,
    'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count'
  }
}

/** A record as a proxy over `fields` that logs each property read (R-18: each field is read once). */
export const logged = (fields: object, log: Array<string | symbol>): object =>
  new Proxy(fields, {
    get: (target, key, receiver) => {
      log.push(key)
      return Reflect.get(target, key, receiver) as unknown
    }
  })
