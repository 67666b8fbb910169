import { describe, expect, it } from 'vitest'
import { endpoints } from '../api'
import { index } from '../paging/fixtures'

/** Companies c-0..c-(n-1), created a month apart, in that order. */
const companies = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `c-${i}`,
    name: `Company ${i}`,
    created_at: `2026-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`,
    updated_at: `2026-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`
  }))

/** The cursors of GET /v1/companies for `query` over `n` companies. */
const cursorsOf = (query: string, n: number): unknown => {
  const r = index(query, companies(n), endpoints.companies, { request: { headers: { Authorization: 'Bearer k' }, query } })
  return r.status === 200 ? (r.body as { readonly cursors: unknown }).cursors : r
}

// ADR 0042: the {data, cursors} body of GET /v1/companies; each cursor is the query of the window
// before or after, of the same size, or null when there is none.
describe('the cursors of the companies endpoint', () => {
  it('starts the previous window at 0 when fewer records than a window lie before', () => {
    expect(cursorsOf('_start=1&_end=3', 5)).toEqual({
      previous: '_start=0&_end=1&_order=asc&_field=created_at',
      next: '_start=3&_end=5&_order=asc&_field=created_at'
    })
  })

  it('has no next cursor when the window ends exactly at the last record', () => {
    expect(cursorsOf('_start=2&_end=4', 4)).toEqual({ previous: '_start=0&_end=2&_order=asc&_field=created_at', next: null })
  })

  it('has neither cursor for an empty window, which would walk nowhere', () => {
    expect(cursorsOf('_start=2&_end=2', 5)).toEqual({ previous: null, next: null })
  })
})
