/**
 * The worst shapes (contract R-48): a page of 25 of 1,000,000 bank transactions, newest first,
 * in every order the contract and issue 29 name, at each window (`_start` 0, 1,000, 19,975 so
 * that it ends at 20,000, 500,000 and the last page), against `filter` + `sort` + `slice` (a
 * copy, nothing being filtered; bench/index.bench.ts's comparator on the `created_at` strings,
 * then `id` descending), and beside the same once every instant is first checked and read as the
 * library must (bench/index.bench.ts's `instantReader`), which no goal names: it shows what of
 * the library's time reading the instants takes. Goal: at most 1.5× the sort's time, on every
 * shape and window. Each order is a permutation of one collection of distinct instants (100 to
 * 199 ms apart), so that a million records are built once; "all at one instant" is a second
 * collection. Answers compared: the page's ids and the total.
 */
import { root } from './library'
import type { Case, Contender } from './case'
import { byCreatedDesc, instantReader, PAGE, type Transaction } from './index.bench'

const { endpoints, respondIndex } = root

const N = 1_000_000
/** As the index cases: each call reads a million records. */
const ITERATIONS = 4
const START = Date.UTC(2024, 0, 1)

/** A seeded PRNG (mulberry32), so that every run measures the same orders. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Record j of a collection in creation order: created at `at(j)`. */
const collection = (at: (j: number) => string): ReadonlyArray<Transaction> =>
  Array.from({ length: N }, (_, j) => {
    const created = at(j)
    return { id: `tx-${String(j).padStart(7, '0')}`, amount: j, status: 'authorized', created_at: created, updated_at: created }
  })

/**
 * The orders, as the rank in creation order of the record at each position (a permutation of
 * 0 to N - 1): the oldest record's rank is 0.
 */
const orders = (): ReadonlyArray<readonly [string, (i: number) => number]> => {
  const random = prng(29)
  const shuffled = Array.from({ length: N }, (_, i) => i)
  for (let i = N - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = shuffled[i] as number
    shuffled[i] = shuffled[j] as number
    shuffled[j] = t
  }
  const few = Array.from({ length: N }, (_, i) => i)
  for (let s = 0; s < 10; s++) {
    const i = Math.floor(random() * N)
    const j = Math.floor(random() * N)
    const t = few[i] as number
    few[i] = few[j] as number
    few[j] = t
  }
  // Musser's median-of-3 killer of 1..N (N even): 1, m + 2, 3, m + 4, ... then 2, 4, ..., 2m.
  const m = N / 2
  const killer = (i: number) => (i < m ? (i % 2 === 0 ? i + 1 : m + i + (m % 2)) : 2 * (i - m + 1)) - 1
  const p = 40_000
  const specials = Math.floor(N / p)
  return [
    ['in creation order', (i) => i],
    ['reversed', (i) => N - 1 - i],
    ['organ pipe (older, then newer, then older again)', (i) => (i < N / 2 ? 2 * i : 2 * (N - i) - 1)],
    ['sawtooth (1,000 runs of 1,000)', (i) => (i % 1000) * 1000 + Math.floor(i / 1000)],
    ['a few out of place (10 swaps)', (i) => few[i] as number],
    ['in creation order but the 40,000th the oldest', (i) => (i === p - 1 ? 0 : i < p - 1 ? i + 1 : i)],
    [
      'in creation order but every 40,000th the oldest so far',
      (i) => ((i + 1) % p === 0 ? specials - (i + 1) / p : specials + i - Math.floor((i + 1) / p))
    ],
    ["Musser's median-of-3 killer", killer],
    ['shuffled', (i) => shuffled[i] as number]
  ]
}

const session = {
  user: { id: 'u-1', email_verified: true },
  memberships: { 'c-1': { role: 'member' as const, permissions: [] } }
}

interface Page {
  readonly ids: ReadonlyArray<string>
  readonly total: number
}

const contenders = (records: ReadonlyArray<Transaction>, start: number): ReadonlyArray<Contender> => {
  const context = {
    request: {
      headers: { Authorization: 'Bearer k', 'company-id': 'c-1' },
      query: `_start=${start}&_end=${start + PAGE}&_order=desc`
    },
    session,
    endpoint: endpoints.bankTransactions,
    records,
    request_id: 'bench'
  }
  const sortWhole = () => {
    const matches = [...records]
    return { page: matches.sort(byCreatedDesc).slice(start, start + PAGE), total: matches.length }
  }
  // What the sort costs once it also checks and reads every instant first, as the library must.
  const checkedSortWhole = () => {
    const isInstant = instantReader()
    for (const r of records) if (typeof r.id !== 'string' || !isInstant(r.created_at)) throw new Error(`malformed record ${r.id}`)
    return sortWhole()
  }
  return [
    {
      name: 'budget-rules respondIndex',
      kind: 'library',
      run: () => respondIndex(context),
      answer: (): Page => {
        const reply = respondIndex(context)
        if (reply.status !== 200) throw new Error(`respondIndex answered ${reply.status}`)
        return { ids: (reply.body as ReadonlyArray<Transaction>).map((r) => r.id), total: Number(reply.headers['X-Total-Count']) }
      }
    },
    {
      name: 'filter + sort + slice',
      kind: 'baseline',
      run: sortWhole,
      answer: (): Page => {
        const { page, total } = sortWhole()
        return { ids: page.map((r) => r.id), total }
      }
    },
    {
      name: 'instants read, then filter + sort + slice',
      kind: 'baseline',
      run: checkedSortWhole,
      answer: (): Page => {
        const { page, total } = checkedSortWhole()
        return { ids: page.map((r) => r.id), total }
      }
    }
  ]
}

const WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['_start=0', 0],
  ['_start=1000', 1000],
  ['_start=19975 (ends at 20,000)', 19_975],
  ['_start=500000', 500_000],
  ['the last page', N - PAGE]
]

/** Every order at every window, and every record at one instant; the collections are built here, once. */
export const cases = (): Promise<ReadonlyArray<Case>> => {
  const pool = collection((j) => new Date(START + j * 100 + ((j * 37) % 100)).toISOString())
  const sameInstant = new Date(START).toISOString()
  const shapes: ReadonlyArray<readonly [string, ReadonlyArray<Transaction>]> = [
    ...orders().map(([title, rank]) => [title, Array.from({ length: N }, (_, i) => pool[rank(i)] as Transaction)] as const),
    ['all at one instant', collection(() => sameInstant)]
  ]
  return Promise.resolve(
    shapes.flatMap(([title, records]) =>
      WINDOWS.map(([window, start]): Case => ({
        suite: 'worst shapes',
        title: `25 of 1,000,000, ${title}, ${window}`,
        contenders: contenders(records, start),
        goals: [{ against: 'filter + sort + slice', atMost: 1.5 }],
        iterations: ITERATIONS
      }))
    )
  )
}
