import { describe, expect, it } from 'vitest'
import { compileFilter, endpoints, selectPage } from '../api'
import { logged } from './fixtures'

const tx = endpoints.bankTransactions
const byCreatedAt = { field: 'created_at', order: 'asc' } as const

const ROW = { id: 'tx-1', amount: 120, status: 'pending', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z' }

// each field of a record is read once, by property access, and the page holds plain objects.
describe('selectPage reads each field of a record once', () => {
  it('reads the query fields while selecting and only the others while building the page', () => {
    const log: Array<string | symbol> = []
    const r = selectPage(tx, [logged(ROW, log)], [], byCreatedAt, { start: 0, end: 5 })
    expect(r).toEqual({ _tag: 'Right', right: { page: [ROW], total: 1 } })
    expect(log).toEqual(['id', 'created_at', 'amount', 'status', 'updated_at'])
  })

  it('gives plain records whose fields a server may change or delete', () => {
    const r = selectPage(tx, [{ ...ROW }], [], byCreatedAt, { start: 0, end: 1 })
    const record = r._tag === 'Right' ? (r.right.page[0] as object) : {}
    expect(Object.getOwnPropertyDescriptor(record, 'amount')).toEqual({
      value: 120,
      writable: true,
      enumerable: true,
      configurable: true
    })
  })

  it('refuses a record whose id is not a string even outside the window (500)', () => {
    const records = [ROW, { ...ROW, id: 'tx-2' }, { ...ROW, id: 7 }]
    expect(selectPage(tx, records, [], byCreatedAt, { start: 0, end: 1 })).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'InternalError',
        rule: 'page.records',
        detail: 'record 2 has no valid id',
        mistake: 'records[2].id is 7, not a string'
      }
    })
  })
})

describe('compileFilter', () => {
  it('is a predicate that holds for nothing when a comparison has no value to compare with', () => {
    const holds = compileFilter({ field: 'amount', type: { type: 'integer' }, op: '$eq', values: [] })
    expect([holds(0), holds(120)]).toEqual([false, false])
  })
})
