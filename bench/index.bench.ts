/**
 * respondIndex for a 25-record window over 100,000 records, against a full sort-then-slice
 * baseline doing the same key extraction; and decoding a typical query (window plus three
 * filters) against qs.parse alone, which only splits it; and a 500-id `$in` / `$nin` list against
 * no filter. Run: npm run bench
 */
import qs from 'qs'
import { Bench } from 'tinybench'
import { endpoints, respondIndex } from '../src/index'
import { compareValues, decodePageRequest, fieldValue } from '../src/rules'
import { report } from './report'

const N = 100_000
// A deterministic shuffle (an LCG), so every run measures the same collection.
let seed = 42
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
const records = Array.from({ length: N }, (_, i) => {
  const second = next() % 5_000_000
  const at = new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString().replace('.000Z', 'Z')
  return {
    id: `tx-${String(i).padStart(6, '0')}`,
    amount: next() % 100_000,
    status: i % 3 === 0 ? 'pending' : 'authorized',
    created_at: at,
    updated_at: at
  }
})

const context = (query: string) => ({
  request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, query },
  session: { user: { id: 'u', email_verified: true }, memberships: { 'c-1': { role: 'member' as const, permissions: [] } } },
  endpoint: endpoints.bankTransactions,
  records,
  request_id: 'bench'
})

const instant = endpoints.bankTransactions.fields.created_at ?? { type: 'instant' as const }
const byInstant = compareValues(instant)
/** The baseline: the same key extraction, then sort all n and slice the window. */
const sortThenSlice = (start: number, end: number) => {
  const rows = records.map((r) => ({ r, key: fieldValue(instant, r.created_at) ?? 0, id: r.id }))
  rows.sort((a, b) => -(byInstant(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
  return rows.slice(start, end).map((x) => x.r)
}

// Both give the same page before anything is timed.
const page = respondIndex(context('_start=0&_end=25&_order=desc')).body as ReadonlyArray<{ id: string }>
const baseline = sortThenSlice(0, 25)
if (JSON.stringify(page.map((r) => r.id)) !== JSON.stringify(baseline.map((r) => r.id))) throw new Error('pages differ')

const pages = new Bench({ time: 2000, warmupTime: 300 })
pages
  .add('respondIndex, 25 of 100,000 (top-k)', () => respondIndex(context('_start=0&_end=25&_order=desc')))
  .add('sort all 100,000 then slice 25', () => sortThenSlice(0, 25))
  .add('respondIndex, 25 of 100,000 with 2 filters', () =>
    respondIndex(context('_start=0&_end=25&_order=desc&status=pending&amount[$gte]=50000'))
  )
await pages.run()
report('A 25-record window over 100,000 bank transactions (one run)', pages, 'respondIndex, 25 of 100,000 (top-k)')

const typical =
  '_start=0&_end=100&_order=desc&status%5B%24in%5D=%5B%22pending%22%5D&amount%5B%24gte%5D=1000&created_at%5B%24lt%5D=2026-11-22T00%3A00%3A00Z'
const queries = new Bench({ time: 700, warmupTime: 200 })
queries
  .add('decodePageRequest (window, 3 typed filters)', () => decodePageRequest(endpoints.bankTransactions, typical))
  .add('qs.parse alone (no validation)', () => qs.parse(typical))
await queries.run()
report('Decoding a typical index query (one run)', queries, 'decodePageRequest (window, 3 typed filters)')

// $in / $nin cost the same per record whatever the list's length: 500 ids against none.
const ids = Array.from({ length: 500 }, (_, k) => `tx-${String((k * 7919) % N).padStart(6, '0')}`)
const list = encodeURIComponent(JSON.stringify(ids))
const excluded = new Set(ids)
const ninTotal = respondIndex(context(`_end=25&id[$nin]=${list}`)).headers['X-Total-Count']
if (ninTotal !== String(records.filter((r) => !excluded.has(r.id)).length)) throw new Error('$nin total differs')
const lists = new Bench({ time: 2000, warmupTime: 300 })
lists
  .add('respondIndex, 25 of 100,000, no filter', () => respondIndex(context('_start=0&_end=25')))
  .add('respondIndex, 25 of 100,000, id[$nin] of 500 ids', () => respondIndex(context(`_start=0&_end=25&id[$nin]=${list}`)))
  .add('respondIndex, 25 of 100,000, id[$in] of 500 ids', () => respondIndex(context(`_start=0&_end=25&id[$in]=${list}`)))
await lists.run()
report('A list filter of 500 ids over 100,000 bank transactions (one run)', lists, 'respondIndex, 25 of 100,000, no filter')
