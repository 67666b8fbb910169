import { describe, expect, it } from 'vitest'
import { parseInstant } from '../../src/calendar/instant'
import { endpoints } from '../../src/index'
import { decodePageRequest } from '../../src/paging/request'

const tx = endpoints.bankTransactions
const left = (left: object) => ({ _tag: 'Left', left })

// Spec section 4: the request an index query makes, read in the order the rules are consulted.
describe('decodePageRequest', () => {
  it('reads the empty query as the default window, with every rule named', () => {
    expect(decodePageRequest(tx, '')).toEqual({
      reasons: [
        { rule: 'page.query', detail: '0 parameters' },
        { rule: 'page.window', detail: '[0, 25) by created_at asc' },
        { rule: 'page.filter', detail: 'no filters' },
        { rule: 'page.size', detail: '25 records at most' }
      ],
      result: {
        _tag: 'Right',
        right: { window: { start: 0, end: 25 }, sort: { field: 'created_at', order: 'asc' }, filters: [], filterParameters: [] }
      }
    })
  })

  it('separates the page parameters from the filters, and keeps the filters as sent', () => {
    const t = decodePageRequest(
      tx,
      'status=pending&_start=10&_end=30&_order=desc&_field=amount&created_at[$gte]=2026-11-22T07:00:00-03:00'
    )
    expect(t).toEqual({
      reasons: [
        { rule: 'page.query', detail: '6 parameters' },
        { rule: 'page.window', detail: '[10, 30) by amount desc' },
        { rule: 'page.filter', detail: 'status $eq, created_at $gte' },
        { rule: 'page.size', detail: '20 records at most' }
      ],
      result: {
        _tag: 'Right',
        right: {
          window: { start: 10, end: 30 },
          sort: { field: 'amount', order: 'desc' },
          filters: [
            { field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$eq', values: ['pending'] },
            { field: 'created_at', type: { type: 'instant' }, op: '$gte', values: [parseInstant('2026-11-22T10:00:00Z')] }
          ],
          filterParameters: [
            ['status', 'pending'],
            ['created_at[$gte]', '2026-11-22T07:00:00-03:00']
          ]
        }
      }
    })
  })

  it('refuses an underscore parameter the endpoint does not know, before reading the window', () => {
    expect(decodePageRequest(tx, '_start=0&_limit=5')).toEqual({
      reasons: [{ rule: 'page.query', detail: '_limit is not a parameter of /v1/banking/bank_transactions' }],
      result: left({
        _tag: 'BadRequest',
        rule: 'page.query',
        message: '_limit is not a parameter of /v1/banking/bank_transactions',
        detail: '_limit is not a parameter of /v1/banking/bank_transactions'
      })
    })
  })

  it('refuses a bad filter after a good window, and a window of 2,001 records after good filters (416 last)', () => {
    expect(decodePageRequest(tx, '_end=5&amount=x')).toEqual({
      reasons: [
        { rule: 'page.query', detail: '2 parameters' },
        { rule: 'page.window', detail: '[0, 5) by created_at asc' },
        { rule: 'page.filter', detail: 'amount must be an integer' }
      ],
      result: left({
        _tag: 'BadRequest',
        rule: 'page.filter',
        message: 'amount must be an integer',
        detail: 'amount must be an integer'
      })
    })
    const size = 'a window of 2001 records, over the maximum of 2000'
    expect(decodePageRequest(tx, '_start=1&_end=2002&status=pending')).toEqual({
      reasons: [
        { rule: 'page.query', detail: '3 parameters' },
        { rule: 'page.window', detail: '[1, 2002) by created_at asc' },
        { rule: 'page.filter', detail: 'status $eq' },
        { rule: 'page.size', detail: size }
      ],
      result: left({ _tag: 'RangeNotSatisfiable', rule: 'page.size', detail: size, size: 2001, maximum: 2000 })
    })
    expect(decodePageRequest(tx, '_start=1&_end=2001').result._tag).toBe('Right')
  })
})
