import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/paging/endpoint'
import { firstK, plainPage, selectPage } from '../../src/paging/select'
import { logged } from './fixtures'

const tx = endpoints.bankTransactions
const companies = endpoints.companies

/** The 500 of a record the server passed malformed: the detail for the log, the mistake for the message. */
const mistaken = (detail: string, mistake: string) =>
  either.left({ _tag: 'InternalError', rule: 'page.records', detail, mistake })

const transaction = (id: string, amount: unknown, created_at: unknown = '2026-11-22T10:00:00Z') => ({
  id,
  amount,
  status: 'pending',
  created_at,
  updated_at: '2026-11-22T10:00:00Z'
})
const company = (id: string, name: unknown) => ({
  id,
  name,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z'
})

// A record whose sort value is malformed is the server's fault wherever it would sort: the page
// of one record leaves it out, and the reply is still the 500 naming it.
describe('selectPage: a malformed sort value off the page', () => {
  it.each<[string, ReadonlyArray<unknown>, string, string, string]>([
    [
      'an amount that is not whole',
      [transaction('tx-0', 1), transaction('tx-1', 1.5)],
      'amount',
      'record 1 has no valid amount',
      'records[1].amount is 1.5, not an integer'
    ],
    [
      'an amount past 2^53',
      [transaction('tx-0', 1), transaction('tx-1', 2 ** 53)],
      'amount',
      'record 1 has no valid amount',
      'records[1].amount is 9007199254740992, not an integer'
    ],
    [
      'an amount that is text',
      [transaction('tx-0', 1), transaction('tx-1', '2')],
      'amount',
      'record 1 has no valid amount',
      'records[1].amount is "2", not an integer'
    ],
    [
      'an amount that is NaN',
      [transaction('tx-0', 1), transaction('tx-1', Number.NaN)],
      'amount',
      'record 1 has no valid amount',
      'records[1].amount is NaN, not an integer'
    ],
    [
      'an instant that is a number',
      [transaction('tx-0', 1), transaction('tx-1', 1, 7)],
      'created_at',
      'record 1 has no valid created_at',
      'records[1].created_at is 7, not an ISO-8601 date-time with an offset'
    ],
    [
      'an instant that is empty',
      [transaction('tx-0', 1, ''), transaction('tx-1', 1, '')],
      'created_at',
      'record 0 has no valid created_at',
      'records[0].created_at is "", not an ISO-8601 date-time with an offset'
    ],
    [
      'an instant on no calendar',
      [transaction('tx-0', 1), transaction('tx-1', 1, '2026-02-30T00:00:00Z')],
      'created_at',
      'record 1 has no valid created_at',
      'records[1].created_at is "2026-02-30T00:00:00Z", not an ISO-8601 date-time with an offset'
    ]
  ])('%s', (_, records, field, detail, mistake) => {
    for (const order of ['asc', 'desc'] as const) {
      expect(selectPage(tx, records, [], { field, order }, { start: 0, end: 1 })).toEqual(mistaken(detail, mistake))
    }
  })

  it('a name that is not text', () => {
    const records = [company('c-1', 'Acme'), company('c-2', 3)]
    for (const order of ['asc', 'desc'] as const) {
      expect(selectPage(companies, records, [], { field: 'name', order }, { start: 0, end: 1 })).toEqual(
        mistaken('record 1 has no valid name', 'records[1].name is 3, not a string')
      )
    }
  })
})

describe('plainPage: the rows a database found, as the page', () => {
  it('keeps the fields of the endpoint, drops the others and those left undefined', () => {
    const rows = [
      { ...company('c-1', 'Acme'), extra: 1 },
      { id: 'c-2', name: 'Beta', created_at: undefined }
    ]
    expect(plainPage(companies, rows)).toEqual(either.right([company('c-1', 'Acme'), { id: 'c-2', name: 'Beta' }]))
  })

  it('reads a class instance as the plain object it stands for', () => {
    class Row {
      readonly id = 'c-1'
      get name(): string {
        return 'Acme'
      }
    }
    const page = plainPage(companies, [new Row()])
    expect(page).toEqual(either.right([{ id: 'c-1', name: 'Acme' }]))
    expect(either.isRight(page) && Object.getPrototypeOf(page.right[0])).toBe(Object.prototype)
  })

  // The rows come as respondIndexPage's `page`: the message names them so.
  it.each<[string, ReadonlyArray<unknown>, string, string]>([
    ['null', [company('c-1', 'Acme'), null], 'record 1 has no valid shape', 'page[1] is null, not an object'],
    ['an array', [['c-1', 'Acme']], 'record 0 has no valid shape', 'page[0] is an array, not an object'],
    ['a number', [7], 'record 0 has no valid shape', 'page[0] is 7, not an object'],
    ['text', ['c-1'], 'record 0 has no valid shape', 'page[0] is "c-1", not an object'],
    [
      'an id that is not text',
      [company('c-1', 'Acme'), { ...company('c-2', 'Beta'), id: 2 }],
      'record 1 has no valid id',
      'page[1].id is 2, not a string'
    ],
    ['no id', [{ name: 'Acme' }], 'record 0 has no valid id', 'page[0].id is undefined, not a string'],
    [
      'a field of the wrong type',
      [company('c-1', 'Acme'), company('c-2', ['Beta'])],
      'record 1 has no valid name',
      'page[1].name is an array, not a string'
    ],
    [
      'an instant that is not one',
      [{ ...company('c-1', 'Acme'), updated_at: 'yesterday' }],
      'record 0 has no valid updated_at',
      'page[0].updated_at is "yesterday", not an ISO-8601 date-time with an offset'
    ]
  ])('is a 500 naming the first row that is malformed: %s', (_, rows, detail, mistake) => {
    expect(plainPage(companies, rows)).toEqual(mistaken(detail, mistake))
  })

  it('names the null a nullable field also takes', () => {
    expect(plainPage(endpoints.decisions, [{ id: 'd-1', request_id: 'req-1', company_id: 5 }])).toEqual(
      mistaken('record 0 has no valid company_id', 'page[0].company_id is 5, not an id or null')
    )
  })

  it('is an empty page for no rows', () => {
    expect(plainPage(companies, [])).toEqual(either.right([]))
  })
})

// firstK is O(n log k) (its JSDoc): a window far shorter than the collection is found with about
// one comparison per item, where sorting the whole collection takes about n log2 n.
describe('firstK compares each item about once when k is small', () => {
  const items = Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 4093)

  it.each([1, 10, 100])('k = %i', (k) => {
    let comparisons = 0
    const page = firstK(items, k, (a, b) => {
      comparisons++
      return a - b
    })
    expect(page).toEqual([...items].sort((a, b) => a - b).slice(0, k))
    // A sort of 4,096 items makes about 45,000 comparisons.
    expect(comparisons).toBeLessThan(items.length * 2 + k * 40)
  })
})

describe('firstK with a window far shorter than the items', () => {
  it('keeps the first by the comparator among strings', () => {
    const letters = [
      'q',
      'w',
      'e',
      'r',
      't',
      'y',
      'u',
      'i',
      'o',
      'p',
      'a',
      's',
      'd',
      'f',
      'g',
      'h',
      'j',
      'k',
      'l',
      'z',
      'x',
      'c',
      'v',
      'b',
      'n',
      'm'
    ]
    expect(firstK(letters, 2, (a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(['a', 'b'])
  })

  it.each([4, 5])('compares only items given, so a comparator may read their fields (k = %i)', (k) => {
    const items = Array.from({ length: 200 }, (_, i) => ({ v: (i * 37) % 200 }))
    expect(firstK(items, k, (a, b) => a.v - b.v)).toEqual(Array.from({ length: k }, (_, v) => ({ v })))
  })
})

// firstK's law holds for any k, as Array.prototype.slice reads it (NaN and text that is no number
// as 0, a fraction cut to its whole part): a k that is not a whole number once overflowed the stack
// in the ranking, or wrote past its slots.
describe('firstK with a k that is not a whole number', () => {
  const items = Array.from({ length: 40 }, (_, i) => (i * 7) % 40)

  it.each([
    [Number.NaN, []],
    ['{}', []],
    [1.5, [0]],
    [2.5, [0, 1]],
    ['3', [0, 1, 2]]
  ])('k = %s', (k, expected) => {
    expect(firstK(items, k as number, (a, b) => a - b)).toEqual(expected)
  })
})

// firstK reads its items as the law does, by spreading them: an array-like that is not iterable
// throws a TypeError at once (it was once read by index, up to a length of 2 ** 32 - 1).
describe('firstK on items that are not an array', () => {
  const cmp = (a: number, b: number) => a - b

  it('throws a TypeError for an array-like', () => {
    expect(() => firstK({ length: 2 ** 32 - 1 } as unknown as ReadonlyArray<number>, 76, cmp)).toThrow(TypeError)
  })

  it('ranks an iterable as the array it spreads to', () => {
    const items = new Set(Array.from({ length: 40 }, (_, i) => (i * 7) % 40))
    expect(firstK(items as unknown as ReadonlyArray<number>, 3, cmp)).toEqual([0, 1, 2])
  })
})

describe('plainPage reads each field of a row once (R-18)', () => {
  it('reads the id once, with the other fields', () => {
    const reads: Array<string | symbol> = []
    const row = logged(company('c-1', 'Acme'), reads)
    expect(plainPage(companies, [row])).toEqual(either.right([company('c-1', 'Acme')]))
    expect(reads).toEqual(['id', 'name', 'created_at', 'updated_at'])
  })
})

describe('selectPage given a collection or a window from elsewhere', () => {
  const ten = Array.from({ length: 10 }, (_, i) => transaction(`tx-${i}`, i))

  it('reads an array-like of no length as empty', () => {
    for (const length of [-5, Number.NaN, 0]) {
      expect(selectPage(tx, { length } as never, [], { field: 'amount', order: 'asc' }, { start: 0, end: 5 })).toEqual(
        either.right({ page: [], total: 0 })
      )
    }
  })

  it('gives an empty page for a window that ends before the first record, with the total', () => {
    expect(selectPage(tx, ten, [], { field: 'amount', order: 'asc' }, { start: 0, end: -3 })).toEqual(
      either.right({ page: [], total: 10 })
    )
  })

  it('reads the id once when it is the sort field too (R-18)', () => {
    const reads: Array<string | symbol> = []
    const record = logged(transaction('tx-1', 5), reads)
    expect(selectPage(tx, [record], [], { field: 'id', order: 'desc' }, { start: 0, end: 1 })).toEqual(
      either.right({ page: [transaction('tx-1', 5)], total: 1 })
    )
    expect(reads).toEqual(['id', 'amount', 'status', 'created_at', 'updated_at'])
  })
})
