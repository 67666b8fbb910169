import fc from 'fast-check'
import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/paging/endpoint'
import type { Filter } from '../../src/paging/filter'
import { selectPage } from '../../src/paging/select'
import { runs } from '../runs'

const tx = endpoints.bankTransactions

// A window nearer the end of the collection than its start is ranked from the end, for speed
// only (selectPage's JSDoc): its page must be the page ranked from the start, the window's slice
// of the first `end` matches, with the same total and the same 500 for a record of the page
// whose field is not of its type, duplicates and ties included.
describe('selectPage from the end is selectPage from the start', () => {
  const record = fc.record({
    id: fc.constantFrom('tx-1', 'tx-2', 'tx-3', 'tx-4'),
    amount: fc.integer({ min: -3, max: 3 }),
    status: fc.constantFrom('authorized', 'pending'),
    created_at: fc.constantFrom(
      '2026-11-22T10:00:00Z',
      '2026-11-22T07:00:00-03:00',
      '2026-11-22T10:00:00.5Z',
      '2026-11-21T23:59:59Z'
    ),
    malformed: fc.nat(5).map((n) => n === 0)
  })
  const pending: Filter = { field: 'status', type: tx.fields.status as Filter['type'], op: '$eq', values: ['pending'] }
  /** An updated_at that names the record's position, so that a record of a page tells where it came from. */
  const updatedAt = (position: number) =>
    `2026-11-22T${String(Math.floor(position / 60)).padStart(2, '0')}:${String(position % 60).padStart(2, '0')}:00Z`

  it('gives the same page, total and 500 for every window', () => {
    let fromEnd = 0
    let malformedPages = 0
    let pages = 0
    let total = 0
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 60 }),
        fc.constantFrom('amount', 'created_at', 'id'),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.boolean(),
        fc.nat(70),
        fc.nat(30),
        (drawn, field, order, filtered, startRaw, size) => {
          const start = startRaw % (drawn.length + 2)
          const filters = filtered ? [pending] : []
          const sort = { field, order }
          const end = start + size
          // Some records' updated_at is not an instant: a 500 when one is on the page only.
          const records = drawn.map(({ malformed, ...r }, i) => ({ ...r, updated_at: malformed ? 'yesterday' : updatedAt(i) }))
          // From the start, over the same records all well formed: the order of the first `end` matches.
          const whole = selectPage(
            tx,
            drawn.map((d, i) => ({
              id: d.id,
              amount: d.amount,
              status: d.status,
              created_at: d.created_at,
              updated_at: updatedAt(i)
            })),
            filters,
            sort,
            { start: 0, end }
          )
          const positions = either.isRight(whole)
            ? whole.right.page
                .slice(start)
                .map((r) => drawn.findIndex((_, i) => updatedAt(i) === (r as { updated_at: string }).updated_at))
            : []
          const bad = positions.find((i) => (drawn[i] as { malformed: boolean }).malformed)
          const expected =
            bad === undefined
              ? either.map(({ total }: { total: number }) => ({ page: positions.map((i) => records[i]), total }))(whole)
              : either.left({
                  _tag: 'InternalError',
                  rule: 'page.records',
                  detail: `record ${bad} has no valid updated_at`,
                  mistake: `records[${bad}].updated_at is "yesterday", not an ISO-8601 date-time with an offset`
                })
          expect(selectPage(tx, records, filters, sort, { start, end })).toEqual(expected)
          total++
          if (bad !== undefined) malformedPages++
          else if (positions.length > 0) pages++
          if (records.length - start < Math.min(end, records.length)) fromEnd++
        }
      ),
      { numRuns: runs(1000) }
    )
    // Most windows are ranked from the end; some pages hold a record that is the server's fault.
    expect(fromEnd / total).toBeGreaterThanOrEqual(0.5)
    expect(malformedPages / total).toBeGreaterThanOrEqual(0.1)
    expect(pages / total).toBeGreaterThanOrEqual(0.2)
  })
})
