import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { compileFilter, decodeFilter, endpoints, fieldValue, type FieldType, parseInstant } from '../api'
import { compileRecordTest } from '../../src/paging/filter'

const tx = endpoints.bankTransactions
const companies = endpoints.companies
const bad = (detail: string) => either.left({ _tag: 'BadRequest', rule: 'page.filter', message: detail, detail })

const instant = (text: string) => {
  const i = parseInstant(text)
  if (i === null) throw new Error(`not an instant: ${text}`)
  return i
}

// Spec section 4 and contract section 8: filters of an index endpoint, `field` or `field[$op]`.
describe('decodeFilter', () => {
  it.each<[string, string, string, unknown]>([
    ['an integer', 'amount[$gte]', '-20', { field: 'amount', type: { type: 'integer' }, op: '$gte', values: [-20] }],
    [
      'an enum value',
      'status',
      'pending',
      { field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$eq', values: ['pending'] }
    ],
    ['an id', 'id[$ne]', 'tx-1', { field: 'id', type: { type: 'id' }, op: '$ne', values: ['tx-1'] }],
    [
      'an instant',
      'created_at[$lt]',
      '2026-11-22T07:00:00-03:00',
      { field: 'created_at', type: { type: 'instant' }, op: '$lt', values: [instant('2026-11-22T10:00:00Z')] }
    ],
    ['a list of ids', 'id[$nin]', '["a","b"]', { field: 'id', type: { type: 'id' }, op: '$nin', values: ['a', 'b'] }],
    ['an empty list', 'amount[$in]', '[]', { field: 'amount', type: { type: 'integer' }, op: '$in', values: [] }]
  ])('reads %s', (_, key, text, expected) => {
    expect(decodeFilter(tx, key, text)).toEqual(either.right(expected))
  })

  it('reads any text as a string field value, and a list of strings', () => {
    expect(decodeFilter(companies, 'name', '')).toEqual(
      either.right({ field: 'name', type: { type: 'string' }, op: '$eq', values: [''] })
    )
    expect(decodeFilter(companies, 'name[$in]', '["Acme",""]')).toEqual(
      either.right({ field: 'name', type: { type: 'string' }, op: '$in', values: ['Acme', ''] })
    )
  })

  it.each<[string, string, string, string]>([
    ['a field the endpoint lacks', 'colour', 'red', 'colour is not a field of /v1/banking/bank_transactions'],
    ['an inherited name', '__proto__', 'x', '__proto__ is not a field of /v1/banking/bank_transactions'],
    ['a malformed key', 'amount[gt]', '1', 'amount[gt] is not a field of /v1/banking/bank_transactions'],
    ['an unknown operator', 'amount[$like]', '1', '$like is not an operator'],
    ['an order on an enum', 'status[$gt]', 'pending', '$gt applies to integer and instant fields, not status'],
    ['an order on an id', 'id[$lte]', 'tx-1', '$lte applies to integer and instant fields, not id'],
    ['a decimal', 'amount', '1.5', 'amount must be an integer'],
    ['an integer past 2^53', 'amount', '9007199254740993', 'amount must be an integer'],
    ['a value outside the enum', 'status', 'void', 'status must be one of authorized, pending'],
    ['an empty id', 'id', '', 'id must be an id'],
    [
      'an instant without an offset',
      'created_at',
      '2026-11-22T10:00:00',
      'created_at must be an ISO-8601 date-time with an offset'
    ],
    ['a list that is not JSON', 'amount[$in]', '[1,', 'amount[$in] must be a JSON array'],
    ['a JSON object for a list', 'amount[$in]', '{"0":1}', 'amount[$in] must be a JSON array'],
    ['a JSON number for a list', 'id[$nin]', '5', 'id[$nin] must be a JSON array'],
    ['a list with a text integer', 'amount[$in]', '[1,"2"]', 'amount[$in] holds a value that is not an integer'],
    ['a list with an empty id', 'id[$in]', '["a",""]', 'id[$in] holds a value that is not an id'],
    [
      'a list with a bad instant',
      'created_at[$nin]',
      '["2026-02-30T00:00:00Z"]',
      'created_at[$nin] holds a value that is not an ISO-8601 date-time with an offset'
    ],
    [
      'a list with a bad enum value',
      'status[$in]',
      '["pending","void"]',
      'status[$in] holds a value that is not one of authorized, pending'
    ]
  ])('is a 400 for %s', (_, key, text, detail) => {
    expect(decodeFilter(tx, key, text)).toEqual(bad(detail))
  })

  it('is a 400 for a list of a string field holding a number', () => {
    expect(decodeFilter(companies, 'name[$nin]', '["a",1]')).toEqual(bad('name[$nin] holds a value that is not a string'))
  })

  it('takes 500 values in a list and refuses 501', () => {
    const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `tx-${i}`))
    expect(either.isRight(decodeFilter(tx, 'id[$in]', ids(500)))).toBe(true)
    expect(decodeFilter(tx, 'id[$in]', ids(501))).toEqual(bad('id[$in] holds more than 500 values'))
  })
})

describe('fieldValue: a record value or query value of a field type', () => {
  const enumType: FieldType = { type: 'enum', values: ['a', 'b'] }
  it.each<[string, FieldType, unknown, unknown]>([
    ['an integer', { type: 'integer' }, -3, -3],
    ['a fraction is no integer', { type: 'integer' }, 0.5, null],
    ['an unsafe integer is none', { type: 'integer' }, 2 ** 53, null],
    ['a text integer is none', { type: 'integer' }, '3', null],
    ['an instant', { type: 'instant' }, '2026-11-22T10:00:00.5Z', instant('2026-11-22T10:00:00.500Z')],
    ['a number is no instant', { type: 'instant' }, 1_700_000_000, null],
    ['an enum value', enumType, 'b', 'b'],
    ['a number is no enum value', enumType, 1, null],
    ['an inherited name is no enum value', enumType, 'toString', null],
    ['an id', { type: 'id' }, 'x', 'x'],
    ['an empty id is none', { type: 'id' }, '', null],
    ['a number is no id', { type: 'id' }, 7, null],
    ['a string', { type: 'string' }, '', ''],
    ['null is no string', { type: 'string' }, null, null],
    // A json field holds no value a filter compares: null, not undefined, whatever it holds.
    ['an object in a json field is none', { type: 'json' }, { a: 1 }, null],
    ['a string in a json field is none', { type: 'json' }, 'x', null]
  ])('%s', (_, type, u, expected) => {
    expect(fieldValue(type, u)).toStrictEqual(expected)
  })
})

describe('compileFilter', () => {
  const integer: FieldType = { type: 'integer' }
  const holds = (op: Parameters<typeof compileFilter>[0]['op'], values: ReadonlyArray<number>) => {
    const p = compileFilter({ field: 'amount', type: integer, op, values })
    return [-1, 0, 1, 2].filter((v) => p(v))
  }

  it('compares a record value with the filter value, operator by operator', () => {
    expect({
      $eq: holds('$eq', [1]),
      $ne: holds('$ne', [1]),
      $gt: holds('$gt', [1]),
      $gte: holds('$gte', [1]),
      $lt: holds('$lt', [1]),
      $lte: holds('$lte', [1]),
      $in: holds('$in', [2, -1, 7]),
      $nin: holds('$nin', [2, -1, 7])
    }).toEqual({ $eq: [1], $ne: [-1, 0, 2], $gt: [2], $gte: [1, 2], $lt: [-1, 0], $lte: [-1, 0, 1], $in: [-1, 2], $nin: [0, 1] })
  })

  it('holds for nothing when a single-value operator is given no value, and $nin of nothing for everything', () => {
    expect([holds('$eq', []), holds('$ne', []), holds('$gte', []), holds('$in', []), holds('$nin', [])]).toEqual([
      [],
      [],
      [],
      [],
      [-1, 0, 1, 2]
    ])
  })

  it('compares instants by the moment, whatever their spelling', () => {
    const type: FieldType = { type: 'instant' }
    const list = compileFilter({
      field: 'created_at',
      type,
      op: '$in',
      values: [instant('2026-11-22T10:00:00Z'), instant('2026-11-22T10:00:00.000000001Z')]
    })
    const after = compileFilter({ field: 'created_at', type, op: '$gt', values: [instant('2026-11-22T10:00:00Z')] })
    const moments = [
      '2026-11-22T07:00:00-03:00',
      '2026-11-22T10:00:00.000000001Z',
      '2026-11-22T10:00:00.000000002Z',
      '2026-11-22T09:59:59.999Z'
    ].map(instant)
    expect([moments.map(list), moments.map(after)]).toEqual([
      [true, true, false, false],
      [false, true, true, false]
    ])
  })

  it('compares strings by UTF-16 code units', () => {
    const type: FieldType = { type: 'string' }
    const p = compileFilter({ field: 'name', type, op: '$lt', values: ['b'] })
    expect(['a', 'B', 'b', 'ä', '\ud83d\ude00', ''].map(p)).toEqual([true, true, false, false, false, true])
  })
})

describe('compileRecordTest', () => {
  const test = (key: string, text: string) => {
    const f = decodeFilter(endpoints.bankTransactions, key, text)
    if (either.isLeft(f)) throw new Error(`not a filter: ${key}=${text}`)
    return compileRecordTest(f.right)
  }

  it('tests instants as moments, one after another, and refuses what is not one', () => {
    const after = test('created_at[$gt]', '2026-11-22T10:00:00Z')
    expect(
      [
        '2026-11-22T10:00:00.001Z',
        '2026-11-22T10:00:00.001Z',
        '2026-11-22T07:00:00-03:00',
        '2026-11-22T09:59:59.999Z',
        '2026-11-23T00:00:00+14:00',
        '2026-11-22T10:00:60Z',
        7,
        null
      ].map(after)
    ).toEqual([1, 1, 0, 0, 0, -1, -1, -1])
    const among = test('created_at[$in]', '["2026-11-22T10:00:00Z","2026-11-22T11:00:00.5Z"]')
    expect(['2026-11-22T07:00:00-03:00', '2026-11-22T11:00:00.500Z', '2026-11-22T11:00:00Z'].map(among)).toEqual([1, 1, 0])
  })

  it('refuses an empty text for an instant, first of all or later', () => {
    const before = test('created_at[$lt]', '2026-11-22T10:00:00Z')
    expect(['', '2026-11-22T09:00:00Z', ''].map(before)).toEqual([-1, 1, -1])
  })

  it('tests other values by their type: a value of another type is refused', () => {
    const pending = test('status', 'pending')
    expect(['pending', 'authorized', 'Pending', 1].map(pending)).toEqual([1, 0, -1, -1])
    const notSmall = test('amount[$nin]', '[1,2]')
    expect([0, 1, 2.5, '0'].map(notSmall)).toEqual([1, 0, -1, -1])
  })
})
