import { describe, expect, it } from 'vitest'
import { bodyValue, compareReplies, type ExpectedReply } from '../../src/conformance'

const page: ExpectedReply = {
  status: 200,
  headers: {
    'X-Total-Count': '2',
    'Content-Range': '0-1/2',
    'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
    'X-Request-Id': 'conformance',
    'Content-Type': 'application/json; charset=utf-8'
  },
  body: [
    { id: 'tx-001', amount: 5, status: 'pending', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00.000Z' },
    { id: 'tx-002', amount: 7, status: 'authorized', created_at: '2026-11-22T10:01:00Z', updated_at: '2026-11-22T07:01:00-03:00' }
  ],
  reasons: []
}

const wire = {
  status: 200,
  headers: {
    'x-total-count': '2',
    'content-range': '0-1/2',
    'x-request-id': 'abc',
    'content-type': 'Application/JSON;Charset=UTF-8'
  },
  body:
    '[{"status":"pending","id":"tx-001","amount":5,"created_at":"2026-11-22T07:00:00-03:00","updated_at":"2026-11-22T10:00:00Z"},' +
    '{"id":"tx-002","amount":7,"status":"authorized","created_at":"2026-11-22T10:01:00.000Z","updated_at":"2026-11-22T10:01:00Z"}]'
}

describe('compareReplies', () => {
  it('agrees with a page whose instants are spelt another way, header names and Content-Type in another case', () => {
    expect(compareReplies('index.bank_transactions', page, wire)).toStrictEqual([])
    expect(compareReplies('index.bank_transactions', page, { ...wire, headers: new Headers(wire.headers) })).toStrictEqual([])
  })

  it('tells a different moment, a different amount, an extra field and a reordered page apart', () => {
    const moved = wire.body.replace('2026-11-22T07:00:00-03:00', '2026-11-22T10:00:00-03:00')
    expect(compareReplies('index.bank_transactions', page, { ...wire, body: moved }).map((d) => d.part)).toStrictEqual(['body'])
    expect(
      compareReplies('index.bank_transactions', page, { ...wire, body: wire.body.replace('"amount":5', '"amount":"5"') })
    ).toHaveLength(1)
    expect(
      compareReplies('index.bank_transactions', page, {
        ...wire,
        body: wire.body.replace('"id":"tx-002"', '"id":"tx-002","x":1')
      })
    ).toHaveLength(1)
    const reversed = JSON.stringify([...(JSON.parse(wire.body) as Array<unknown>)].reverse())
    expect(compareReplies('index.bank_transactions', page, { ...wire, body: reversed })).toHaveLength(1)
  })

  it('compares instants as text outside an index page', () => {
    const budgetReply = { ...page, body: { at: '2026-11-22T10:00:00Z' } }
    expect(compareReplies('budget.update', budgetReply, { ...wire, body: '{"at":"2026-11-22T10:00:00.000Z"}' })).toHaveLength(1)
  })

  it('names each differing header: value headers, Content-Type, X-Request-Id by presence', () => {
    const noId = Object.fromEntries(Object.entries(wire.headers).filter(([k]) => k !== 'x-request-id'))
    expect(
      compareReplies('index.bank_transactions', page, {
        ...wire,
        headers: { ...noId, 'content-range': '0-2/2', 'content-type': 'application/json; charset=latin1', 'retry-after': '1' }
      })
    ).toStrictEqual([
      { part: 'header', name: 'Content-Range', expected: '0-1/2', actual: '0-2/2' },
      { part: 'header', name: 'Retry-After', expected: null, actual: '1' },
      {
        part: 'header',
        name: 'Content-Type',
        expected: 'application/json; charset=utf-8',
        actual: 'application/json; charset=latin1'
      },
      { part: 'header', name: 'X-Request-Id', expected: 'present', actual: 'absent' }
    ])
  })

  it('takes an empty body as null and leaves Content-Type alone when the library sends no body', () => {
    const empty: ExpectedReply = { status: 401, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [] }
    expect(
      compareReplies('budget.top_up', empty, {
        status: 401,
        headers: { 'X-Request-Id': 'x', 'Content-Type': 'text/plain' },
        body: ''
      })
    ).toStrictEqual([])
    expect(compareReplies('budget.top_up', empty, { status: 401, headers: { 'X-Request-Id': 'x' }, body: '{}' })).toStrictEqual([
      { part: 'body', expected: null, actual: {} }
    ])
    expect(compareReplies('budget.top_up', empty, { status: 404, headers: { 'X-Request-Id': 'x' }, body: null })).toStrictEqual([
      { part: 'status', expected: 401, actual: 404 }
    ])
  })
})

describe('bodyValue', () => {
  it('parses JSON text, keeps other text, and takes a parsed value as it is', () => {
    expect([bodyValue(''), bodyValue(undefined), bodyValue('[1]'), bodyValue('oops'), bodyValue({ a: 1 })]).toStrictEqual([
      null,
      null,
      [1],
      'oops',
      { a: 1 }
    ])
  })
})
