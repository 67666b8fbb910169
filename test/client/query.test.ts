import { describe, expect, it } from 'vitest'
import { buildQuery, defineEndpoint, endpoints, liveFeedQuery, liveFeedStart, nextLiveCursor } from '../api'

const tx = endpoints.bankTransactions
const upper = defineEndpoint({
  path: '/v1/upper',
  fields: { id: { type: 'id' }, created_at: { type: 'instant' } },
  sortable: ['created_at'],
  orderCase: 'upper'
})

// The client side of spec section 4: the query a client sends, and the live feed.
describe('buildQuery', () => {
  it('is empty for an empty spec', () => {
    expect(buildQuery(tx, {})).toBe('')
  })

  it('writes the window, order, field and filters in that order, without filters when none are given', () => {
    expect(buildQuery(tx, { window: { start: 0, end: 100 }, order: 'desc', field: 'amount' })).toBe(
      '_start=0&_end=100&_order=desc&_field=amount'
    )
    expect(buildQuery(tx, { filters: [], order: 'asc' })).toBe('_order=asc')
    expect(buildQuery(upper, { order: 'desc' })).toBe('_order=DESC')
  })

  it('writes $eq as the bare field, other operators in brackets, lists as JSON, all percent-encoded', () => {
    expect(
      buildQuery(tx, {
        filters: [
          { field: 'status', op: '$eq', value: 'authorized' },
          { field: 'amount', op: '$gte', value: -5 },
          { field: 'id', op: '$in', value: ['a b', 'c&d'] },
          { field: 'created_at', op: '$lt', value: '2026-11-22T10:00:00+01:00' }
        ]
      })
    ).toBe(
      'status=authorized&amount%5B%24gte%5D=-5&id%5B%24in%5D=%5B%22a%20b%22%2C%22c%26d%22%5D&created_at%5B%24lt%5D=2026-11-22T10%3A00%3A00%2B01%3A00'
    )
  })
})

describe('the live feed (R-46)', () => {
  it('starts at the beginning, and asks for created_at at or after the cursor past the records seen there', () => {
    expect(liveFeedStart).toEqual({ after: null, seen_at_after: 0 })
    expect(liveFeedQuery(tx, liveFeedStart, 50)).toBe('_start=0&_end=50&_order=asc&_field=created_at')
    expect(liveFeedQuery(tx, { after: '2026-11-22T10:00:00Z', seen_at_after: 3 }, 10)).toBe(
      '_start=3&_end=13&_order=asc&_field=created_at&created_at%5B%24gte%5D=2026-11-22T10%3A00%3A00Z'
    )
  })

  const at = (...times: ReadonlyArray<string>) => times.map((created_at, i) => ({ id: `tx-${i}`, created_at }))

  it.each<
    [
      string,
      { after: string | null; seen_at_after: number },
      ReadonlyArray<{ created_at: string }>,
      { after: string | null; seen_at_after: number }
    ]
  >([
    ['an empty page keeps the cursor', { after: 'x', seen_at_after: 2 }, [], { after: 'x', seen_at_after: 2 }],
    [
      'a first page moves to its last moment, counting the records there',
      liveFeedStart,
      at('2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z'),
      { after: '2026-11-22T10:00:00Z', seen_at_after: 2 }
    ],
    [
      'ties spelled differently count as one moment',
      liveFeedStart,
      at('2026-11-22T09:00:00Z', '2026-11-22T07:00:00-03:00', '2026-11-22T10:00:00.000Z'),
      { after: '2026-11-22T10:00:00.000Z', seen_at_after: 2 }
    ],
    [
      "a page all at the cursor's moment adds to the count",
      { after: '2026-11-22T10:00:00Z', seen_at_after: 3 },
      at('2026-11-22T10:00:00.000Z', '2026-11-22T19:00:00+09:00'),
      { after: '2026-11-22T19:00:00+09:00', seen_at_after: 5 }
    ],
    [
      'a page at one moment past the cursor starts a new count',
      { after: '2026-11-22T09:00:00Z', seen_at_after: 3 },
      at('2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z'),
      { after: '2026-11-22T10:00:00Z', seen_at_after: 2 }
    ],
    [
      'the first page all at one moment counts from 0',
      liveFeedStart,
      at('2026-11-22T10:00:00Z'),
      { after: '2026-11-22T10:00:00Z', seen_at_after: 1 }
    ],
    ['text that is no instant is compared as text', liveFeedStart, at('b', 'a', 'a'), { after: 'a', seen_at_after: 2 }]
  ])('%s', (_, cursor, page, expected) => {
    expect(nextLiveCursor(cursor, page)).toEqual(expected)
  })

  it('keeps the cursor for a page whose last record has no created_at text', () => {
    const cursor = { after: '2026-11-22T10:00:00Z', seen_at_after: 1 }
    expect(nextLiveCursor(cursor, [{ created_at: '2026-11-22T11:00:00Z' }, { created_at: 5 }] as never)).toBe(cursor)
    expect(nextLiveCursor(cursor, [{ created_at: '2026-11-22T11:00:00Z' }, null] as never)).toBe(cursor)
  })
})
