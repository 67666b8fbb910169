import { describe, expect, it } from 'vitest'
import { buildQuery, endpoints, liveFeedQuery, liveFeedStart, nextLiveCursor } from '../api'

const tx = endpoints.bankTransactions
const T = '2026-11-22T10:00:00Z'

/** A function carrying the properties of `fields`: an object to `typeof` only as a function. */
const functionWith = (fields: object): unknown => Object.assign(() => 0, fields)

// a client function never throws; what is not of its type is left out, and only that.
describe('buildQuery leaves out only the parts that are not of their type', () => {
  it.each<[string, unknown]>([
    ['true', true],
    ['an object', {}],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a list holding an object', ['pending', {}]]
  ])('a filter value of %s, keeping the window', (_, value) => {
    expect(buildQuery(tx, { window: { start: 0, end: 10 }, filters: [{ field: 'status', op: '$eq', value } as never] })).toBe(
      '_start=0&_end=10'
    )
  })

  it('a filter that is null, or whose field is not a string, keeping the other filters', () => {
    const filters = [null, { field: 5, op: '$eq', value: 'x' }, { field: 'status', op: '$eq', value: 'pending' }] as never
    expect(buildQuery(tx, { window: { start: 0, end: 10 }, filters })).toBe('_start=0&_end=10&status=pending')
  })

  it('a window that is null, keeping the order', () => {
    expect(buildQuery(tx, { window: null, order: 'desc' } as never)).toBe('_order=desc')
  })

  it('a spec that is a function, even one holding a window', () => {
    expect(buildQuery(tx, functionWith({ window: { start: 0, end: 5 } }) as never)).toBe('')
  })

  it('spells the order in lower case when the endpoint is not an object', () => {
    expect(buildQuery(null as never, { order: 'desc' })).toBe('_order=desc')
  })
})

describe('liveFeedQuery given values outside its types', () => {
  it('reads a size of 0 as the default page of 25', () => {
    expect(liveFeedQuery(tx, liveFeedStart, 0)).toBe('_start=0&_end=25&_order=asc&_field=created_at')
  })

  it('reads a function holding cursor fields as the start', () => {
    expect(liveFeedQuery(tx, functionWith({ after: T, seen_at_after: 5 }) as never, 10)).toBe(
      '_start=0&_end=10&_order=asc&_field=created_at'
    )
  })
})

// the cursor after a page, from its last record.
describe('nextLiveCursor given pages and cursors outside its types', () => {
  it('counts only the records that hold a created_at of their own: null and functions hold none', () => {
    expect(nextLiveCursor(liveFeedStart, [null, { created_at: T }] as never)).toEqual({ after: T, seen_at_after: 1 })
    expect(nextLiveCursor(liveFeedStart, [functionWith({ created_at: T }), { created_at: T }] as never)).toEqual({
      after: T,
      seen_at_after: 1
    })
  })

  it('starts a new count when the cursor holds text that is no instant', () => {
    expect(nextLiveCursor({ after: 'soon', seen_at_after: 3 }, [{ created_at: T }])).toEqual({ after: T, seen_at_after: 1 })
  })

  it('adds to the count only when the whole page is at the cursor moment', () => {
    const earlier = '2026-11-22T09:00:00Z'
    expect(nextLiveCursor({ after: T, seen_at_after: 2 }, [{ created_at: earlier }, { created_at: T }])).toEqual({
      after: T,
      seen_at_after: 1
    })
    expect(
      nextLiveCursor({ after: T, seen_at_after: 2 }, [{ created_at: T }, { created_at: '2026-11-22T07:00:00-03:00' }])
    ).toEqual({ after: '2026-11-22T07:00:00-03:00', seen_at_after: 4 })
  })
})
