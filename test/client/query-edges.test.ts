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

// windows, endpoints, cursors and pages outside their types, each left out or read as the start.
describe('buildQuery writes a window only when both of its ends are counts', () => {
  it.each<[string, unknown]>([
    ['a negative start', { start: -1, end: 10 }],
    ['an end that is not whole', { start: 0, end: 1.5 }],
    ['no end', { start: 0 }],
    ['no start', { end: 10 }],
    ['ends written as text', { start: '0', end: '10' }]
  ])('leaves out a window with %s, keeping the order', (_, window) => {
    expect(buildQuery(tx, { window, order: 'asc' } as never)).toEqual('_order=asc')
  })
})

describe('buildQuery reads the order case only from an endpoint that is an object', () => {
  it('spells the order in lower case when the endpoint is undefined', () => {
    expect(buildQuery(undefined as never, { order: 'desc' })).toEqual('_order=desc')
  })

  it('spells the order in lower case when the endpoint is a function, even one asking for upper case', () => {
    expect(buildQuery(functionWith({ orderCase: 'upper' }) as never, { order: 'desc' })).toEqual('_order=desc')
  })
})

describe('a cursor is one exactly when after is null or text and seen_at_after is a count', () => {
  it('keeps the count of a cursor whose after is null', () => {
    expect(liveFeedQuery(tx, { after: null, seen_at_after: 3 }, 10)).toEqual('_start=3&_end=13&_order=asc&_field=created_at')
    expect(nextLiveCursor({ after: null, seen_at_after: 3 }, [])).toEqual({ after: null, seen_at_after: 3 })
  })

  it.each<[string, unknown]>([
    ['a number', 5],
    ['an object', {}],
    ['undefined', undefined]
  ])('reads a cursor whose after is %s as the start', (_, after) => {
    expect(liveFeedQuery(tx, { after, seen_at_after: 3 } as never, 10)).toEqual('_start=0&_end=10&_order=asc&_field=created_at')
    expect(nextLiveCursor({ after, seen_at_after: 3 } as never, [])).toEqual({ after: null, seen_at_after: 0 })
  })
})

describe('nextLiveCursor given text that is no instant', () => {
  it('counts from the last record only those at its moment, after a record whose created_at is no instant', () => {
    expect(nextLiveCursor(liveFeedStart, [{ created_at: 'soon' }, { created_at: T }])).toEqual({ after: T, seen_at_after: 1 })
  })

  it('starts a new count when the last record holds text that is no instant and the cursor an instant', () => {
    expect(nextLiveCursor({ after: T, seen_at_after: 2 }, [{ created_at: 'soon' }])).toEqual({
      after: 'soon',
      seen_at_after: 1
    })
  })
})

describe('nextLiveCursor reads a page only through what an array is', () => {
  /** What a `map` of the page gives when it is called: a page of one record at `T`. */
  const mapToT = () => [T]

  it('leaves the cursor as it was for a page that is not an array, even one with a map of its own', () => {
    const cursor = { after: T, seen_at_after: 2 }
    expect(nextLiveCursor(cursor, { map: mapToT } as never)).toEqual({ after: T, seen_at_after: 2 })
    expect(nextLiveCursor(cursor, { map: mapToT, length: 1 } as never)).toEqual({ after: T, seen_at_after: 2 })
  })

  it('leaves the cursor as it was for an empty array, even one with a map of its own', () => {
    expect(nextLiveCursor({ after: T, seen_at_after: 2 }, Object.assign([], { map: mapToT }))).toEqual({
      after: T,
      seen_at_after: 2
    })
  })

  it('counts only the records of the page, not a property -1 of what its map gives', () => {
    const page = Object.assign([{ created_at: T }], { map: () => Object.assign([T], { '-1': T }) })
    expect(nextLiveCursor(liveFeedStart, page)).toEqual({ after: T, seen_at_after: 1 })
  })
})

// a cursor's fields are read once, so a getter cannot make the second reading differ.
describe('the live feed reads a cursor once', () => {
  /** A cursor whose fields give `first` when first read, then throw or give `later`. */
  const changing = (first: { after: unknown; seen_at_after: unknown }, later?: { after: unknown; seen_at_after: unknown }) => {
    const reads = { after: 0, seen_at_after: 0 }
    const field = (key: 'after' | 'seen_at_after') => () => {
      reads[key]++
      if (reads[key] === 1) return first[key]
      if (later === undefined) throw new Error(`${key} read twice`)
      return later[key]
    }
    return Object.defineProperties(
      {},
      { after: { get: field('after') }, seen_at_after: { get: field('seen_at_after') } }
    ) as never
  }

  it('builds the query from the fields as first read, never throwing', () => {
    expect(liveFeedQuery(tx, changing({ after: T, seen_at_after: 2 }), 10)).toBe(
      '_start=2&_end=12&_order=asc&_field=created_at&created_at%5B%24gte%5D=2026-11-22T10%3A00%3A00Z'
    )
  })

  it('counts on from the fields as first read', () => {
    const cursor = changing({ after: T, seen_at_after: 3 }, { after: T, seen_at_after: '3' })
    expect(nextLiveCursor(cursor, [{ created_at: T }])).toEqual({ after: T, seen_at_after: 4 })
  })
})
