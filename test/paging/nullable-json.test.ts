/**
 * Fields that may hold null and fields that carry JSON (the decision records' endpoint, R-121):
 * null equals no filter value ($ne and $nin keep it, the others do not), a json field takes no
 * filter, and both are carried to the page as they are.
 */
import { either as E } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { compileRecordTest, decodeFilter, describeFieldType, type Filter } from '../../src/paging/filter'
import { endpoints, respondIndex } from '../../src/index'
import { pageQuery } from '../../src/sql/page-query'
import { decodePageRequest } from '../../src/paging/request'

const nullableId = { type: 'id', nullable: true } as const
const filter = (op: Filter['op'], values: ReadonlyArray<string>): Filter => ({
  field: 'resource_id',
  type: nullableId,
  op,
  values
})

describe('a nullable field', () => {
  it('null: $ne and $nin hold of it, $eq and $in do not; a value is tested as ever; another type is the server’s fault', () => {
    const table = (['$eq', '$ne', '$in', '$nin'] as const).map((op) => {
      const test = compileRecordTest(filter(op, ['b-1']))
      return [op, test(null), test('b-1'), test('b-2'), test(7)]
    })
    expect(table).toEqual([
      ['$eq', 0, 1, 0, -1],
      ['$ne', 1, 0, 1, -1],
      ['$in', 0, 1, 0, -1],
      ['$nin', 1, 0, 1, -1]
    ])
  })

  it('a field that is not nullable holding null is the server’s fault, as before', () => {
    expect(compileRecordTest({ field: 'id', type: { type: 'id' }, op: '$ne', values: ['x'] })(null)).toBe(-1)
  })

  it('in SQL: $ne is IS DISTINCT FROM, $nin keeps the nulls; $eq and $in are as for any column', () => {
    const where = (query: string) => {
      const planned = decodePageRequest(endpoints.decisions, query).result
      if (E.isLeft(planned)) throw new Error(query)
      const { text, values } = pageQuery(endpoints.decisions, planned.right, {
        table: 'decisions',
        scope: { company_id: 'c-1' }
      }).count
      return [text.slice(text.indexOf(' WHERE ') + 7), values]
    }
    expect(where('resource_id[$ne]=b-1')).toEqual([
      '"company_id" = $1 AND "resource_id" IS DISTINCT FROM $2::text',
      ['c-1', 'b-1']
    ])
    expect(where('resource_id[$nin]=["b-1"]')).toEqual([
      '"company_id" = $1 AND ("resource_id" IS NULL OR "resource_id" <> ALL($2::text[]))',
      ['c-1', ['b-1']]
    ])
    expect(where('resource_id=b-1&endpoint[$in]=["budget.get"]')).toEqual([
      '"company_id" = $1 AND "resource_id" = $2::text AND "endpoint" = ANY($3::text[])',
      ['c-1', 'b-1', ['budget.get']]
    ])
    // A column that is not nullable keeps its plain SQL.
    expect(where('status[$ne]=200')).toEqual(['"company_id" = $1 AND "status" <> $2::bigint', ['c-1', 200]])
  })
})

describe('a json field', () => {
  it('takes no filter: a 400 naming it', () => {
    expect(decodeFilter(endpoints.decisions, 'rules[$in]', '["x"]')).toStrictEqual(
      E.left({ _tag: 'BadRequest', rule: 'page.filter', message: 'rules cannot be filtered', detail: 'rules cannot be filtered' })
    )
    expect(describeFieldType({ type: 'json' })).toBe('a JSON value')
  })

  it('a filter on it handed to the SQL compiler is a TypeError', () => {
    const planned = decodePageRequest(endpoints.decisions, '').result
    if (E.isLeft(planned)) throw new Error('no plan')
    const request = { ...planned.right, filters: [{ field: 'rules', type: { type: 'json' }, op: '$eq', values: ['x'] }] } as never
    expect(() => pageQuery(endpoints.decisions, request, { table: 'decisions' })).toThrow(
      new TypeError('pageQuery: a filter field is "rules", not a field that can be filtered (not json)')
    )
  })

  it('carries any JSON value to the page, and a nullable field its null', () => {
    const record = {
      id: 'r-1',
      request_id: 'r-1',
      at: '2026-11-22T10:00:00Z',
      company_id: 'c-1',
      actor_id: null,
      key_id: null,
      endpoint: 'budget.get',
      method: 'GET',
      path: '/',
      resource_id: null,
      idempotency_key: null,
      replay_of: null,
      status: 401,
      rules: ['auth.bearer'],
      case: { endpoint: 'budget.get' },
      reply: { status: 401, headers: {}, body: null },
      changes: [],
      masked: [],
      erased: [],
      library_version: '0.4.0'
    }
    const reply = respondIndex({
      request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, query: 'resource_id[$ne]=b-1' },
      session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
      endpoint: endpoints.decisions,
      records: [record, { ...record, id: 'r-2', resource_id: 'b-1' }],
      request_id: 'req-1'
    })
    expect([reply.status, reply.body]).toEqual([200, [record]])
  })
})
