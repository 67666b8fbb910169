import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { decodePageRequest, defineEndpoint, type Endpoint, endpoints, type PageRequest, parseInstant } from '../api'
import { pageQuery, type TableSpec } from '../../src/sql/page-query'
import { instantColumnText, isParsedInstant, isWholeMicrosecond, timestamptzText } from '../../src/sql/timestamp'

/** The instant `text` names; a test's own text that is none fails the test. */
const instant = (text: string) => {
  const parsed = parseInstant(text)
  if (parsed === null) throw new Error(`not an instant: ${text}`)
  return parsed
}

const tx = endpoints.bankTransactions
const TABLE: TableSpec = { table: 'bank_transactions', scope: { company_id: 'c-1' } }

/** The page request of a query string, as planIndex decides it (a 400 or 416 fails the test). */
const requestOf = (query: string, endpoint: Endpoint = tx): PageRequest => {
  const decoded = decodePageRequest(endpoint, query).result
  if (either.isLeft(decoded)) throw new Error(`${query}: ${JSON.stringify(decoded.left)}`)
  return decoded.right
}

/** The rows and count queries of a query string over bank_transactions of company c-1. */
const sql = (query: string, table: TableSpec = TABLE) => pageQuery(tx, requestOf(query), table)

/** The WHERE clause of the count query and its values. */
const where = (query: string) => {
  const { text, values } = sql(query).count
  const at = text.indexOf(' WHERE ')
  return [at < 0 ? '' : text.slice(at + ' WHERE '.length), values]
}

// The select list of bank_transactions, written out: integers as float8, instants as UTC text
// (or at +23:59 / -23:59 on the two UTC days past the library's calendar).
const INSTANT = (c: string) =>
  `CASE WHEN "${c}" < '0001-01-01T00:00:00Z' THEN to_char("${c}" AT TIME ZONE INTERVAL '+23:59', 'YYYY-MM-DD"T"HH24:MI:SS.US"+23:59"')` +
  ` WHEN "${c}" < '10000-01-01T00:00:00Z' THEN to_char("${c}" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` +
  ` ELSE to_char("${c}" AT TIME ZONE INTERVAL '-23:59', 'YYYY-MM-DD"T"HH24:MI:SS.US"-23:59"') END AS "${c}"`
const SELECT_TX = `SELECT "id", "amount"::float8 AS "amount", "status", ${INSTANT('created_at')}, ${INSTANT('updated_at')}`

describe('pageQuery: the queries of a page request', () => {
  it('writes the default request: the company, created_at then id ascending, 25 rows from 0', () => {
    expect(sql('')).toStrictEqual({
      rows: {
        text:
          `${SELECT_TX} FROM "bank_transactions" WHERE "company_id" = $1` +
          ' ORDER BY "bank_transactions"."created_at" ASC, "bank_transactions"."id" COLLATE "C" ASC LIMIT $2 OFFSET $3',
        values: ['c-1', 25, 0]
      },
      count: { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1', values: ['c-1'] }
    })
  })

  it('sorts by the field asked, then id in the same direction; LIMIT is the window size, OFFSET its start', () => {
    expect(sql('_start=100&_end=150&_field=amount&_order=desc').rows).toStrictEqual({
      text:
        `${SELECT_TX} FROM "bank_transactions" WHERE "company_id" = $1` +
        ' ORDER BY "bank_transactions"."amount" DESC, "bank_transactions"."id" COLLATE "C" DESC LIMIT $2 OFFSET $3',
      values: ['c-1', 50, 100]
    })
    expect(sql('_field=updated_at&_start=7&_end=7').rows.text).toContain(
      ' ORDER BY "bank_transactions"."updated_at" ASC, "bank_transactions"."id" COLLATE "C" ASC LIMIT $2 OFFSET $3'
    )
    expect(sql('_field=updated_at&_start=7&_end=7').rows.values).toStrictEqual(['c-1', 0, 7])
  })

  it('writes several scope equalities, or none, ANDed before the filters', () => {
    expect(sql('status=pending', { table: 'bank_transactions', scope: { company_id: 'c-1', ledger: 7 } }).count).toStrictEqual({
      text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1 AND "ledger" = $2 AND "status" = $3::text',
      values: ['c-1', 7, 'pending']
    })
    expect(sql('', { table: 'bank_transactions' })).toStrictEqual({
      rows: {
        text: `${SELECT_TX} FROM "bank_transactions" ORDER BY "bank_transactions"."created_at" ASC, "bank_transactions"."id" COLLATE "C" ASC LIMIT $1 OFFSET $2`,
        values: [25, 0]
      },
      count: { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions"', values: [] }
    })
  })

  it('gives the rows query the count query values, then LIMIT and OFFSET', () => {
    const { rows, count } = sql('_start=3&_end=9&amount[$gte]=10&status[$in]=["pending"]')
    expect(rows.values).toStrictEqual([...count.values, 6, 3])
    expect(rows.text).toContain(' WHERE "company_id" = $1 AND "amount" >= $2::bigint AND "status" = ANY($3::text[]) ORDER BY ')
  })

  it('sorts a string field in code-point order too, and selects it as text', () => {
    const q = pageQuery(endpoints.companies, requestOf('_field=name&_order=desc', endpoints.companies), { table: 'companies' })
    expect(q.rows.text).toBe(
      `SELECT "id", "name", ${INSTANT('created_at')}, ${INSTANT('updated_at')} FROM "companies"` +
        ' ORDER BY "companies"."name" COLLATE "C" DESC, "companies"."id" COLLATE "C" DESC LIMIT $1 OFFSET $2'
    )
  })
})

describe('pageQuery: every operator', () => {
  it.each([
    ['amount=5', '"amount" = $2::bigint', 5],
    ['amount[$eq]=-5', '"amount" = $2::bigint', -5],
    ['amount[$ne]=5', '"amount" <> $2::bigint', 5],
    ['amount[$gt]=9007199254740991', '"amount" > $2::bigint', 9007199254740991],
    ['amount[$gte]=5', '"amount" >= $2::bigint', 5],
    ['amount[$lt]=5', '"amount" < $2::bigint', 5],
    ['amount[$lte]=5', '"amount" <= $2::bigint', 5],
    ['amount[$in]=[1,2,2]', '"amount" = ANY($2::bigint[])', [1, 2, 2]],
    ['amount[$nin]=[1,2]', '"amount" <> ALL($2::bigint[])', [1, 2]],
    ['status=pending', '"status" = $2::text', 'pending'],
    ['status[$ne]=pending', '"status" <> $2::text', 'pending'],
    ['status[$in]=["pending","authorized"]', '"status" = ANY($2::text[])', ['pending', 'authorized']],
    ['status[$nin]=["pending"]', '"status" <> ALL($2::text[])', ['pending']],
    ['id=tx-1', '"id" = $2::text', 'tx-1'],
    ['id[$ne]=tx-1', '"id" <> $2::text', 'tx-1'],
    ['id[$in]=["tx-1","tx-2"]', '"id" = ANY($2::text[])', ['tx-1', 'tx-2']],
    ['id[$nin]=["tx-1"]', '"id" <> ALL($2::text[])', ['tx-1']],
    // An empty $in matches nothing and an empty $nin everything, as in SQL.
    ['amount[$in]=[]', '"amount" = ANY($2::bigint[])', []],
    ['id[$nin]=[]', '"id" <> ALL($2::text[])', []]
  ])('%s', (query, condition, value) => {
    expect(where(query)).toStrictEqual([`"company_id" = $1 AND ${condition}`, ['c-1', value]])
  })

  it.each([
    // Whole microseconds compare as they are, written in UTC whatever the offset sent.
    ['created_at=2026-11-22T07:00:00-03:00', '"created_at" = $2::timestamptz', '2026-11-22T10:00:00.000000Z'],
    ['created_at[$ne]=2026-11-22T10:00:00.000001Z', '"created_at" <> $2::timestamptz', '2026-11-22T10:00:00.000001Z'],
    ['created_at[$gt]=2026-11-22T10:00:00.5%2B05:30', '"created_at" > $2::timestamptz', '2026-11-22T04:30:00.500000Z'],
    ['updated_at[$gte]=2026-11-22T10:00:00.123456000Z', '"updated_at" >= $2::timestamptz', '2026-11-22T10:00:00.123456Z'],
    ['updated_at[$lt]=2026-11-22T10:00Z', '"updated_at" < $2::timestamptz', '2026-11-22T10:00:00.000000Z'],
    ['updated_at[$lte]=1969-12-31T23:59:59.999999Z', '"updated_at" <= $2::timestamptz', '1969-12-31T23:59:59.999999Z'],
    // Between two microseconds: > and >= are > the microsecond before; < and <= are <= it.
    ['created_at[$gt]=2026-11-22T10:00:00.0000001Z', '"created_at" > $2::timestamptz', '2026-11-22T10:00:00.000000Z'],
    ['created_at[$gte]=2026-11-22T10:00:00.000000999Z', '"created_at" > $2::timestamptz', '2026-11-22T10:00:00.000000Z'],
    ['created_at[$lt]=2026-11-22T10:00:00.000001001Z', '"created_at" <= $2::timestamptz', '2026-11-22T10:00:00.000001Z'],
    ['created_at[$lte]=2026-11-22T06:59:59.999999999-03:00', '"created_at" <= $2::timestamptz', '2026-11-22T09:59:59.999999Z']
  ])('%s', (query, condition, value) => {
    expect(where(query)).toStrictEqual([`"company_id" = $1 AND ${condition}`, ['c-1', value]])
  })

  it('makes = of an instant between microseconds false, and <> of one true (no condition)', () => {
    expect(where('created_at=2026-11-22T10:00:00.0000005Z')).toStrictEqual(['"company_id" = $1 AND FALSE', ['c-1']])
    expect(where('created_at[$ne]=2026-11-22T10:00:00.0000005Z')).toStrictEqual(['"company_id" = $1', ['c-1']])
    expect(sql('created_at[$ne]=2026-11-22T10:00:00.0000005Z', { table: 'bank_transactions' }).count.text).toBe(
      'SELECT count(*)::float8 AS "total" FROM "bank_transactions"'
    )
  })

  it('drops list members between microseconds: no row holds them', () => {
    const list = encodeURIComponent(
      JSON.stringify(['2026-11-22T10:00:00.000000001Z', '2026-11-22T07:00:00-03:00', '2026-11-22T10:00:00.5Z'])
    )
    expect(where(`created_at[$in]=${list}`)).toStrictEqual([
      '"company_id" = $1 AND "created_at" = ANY($2::timestamptz[])',
      ['c-1', ['2026-11-22T10:00:00.000000Z', '2026-11-22T10:00:00.500000Z']]
    ])
    expect(where(`updated_at[$nin]=${encodeURIComponent('["2026-11-22T10:00:00.000000001Z"]')}`)).toStrictEqual([
      '"company_id" = $1 AND "updated_at" <> ALL($2::timestamptz[])',
      ['c-1', []]
    ])
  })

  it('keeps a hostile filter value a parameter: the text never holds it', () => {
    const hostile = "'; drop table x; --"
    const { rows, count } = sql(
      `id=${encodeURIComponent(hostile)}&id[$nin]=${encodeURIComponent(JSON.stringify(['tx-1', hostile]))}`
    )
    expect(count).toStrictEqual({
      text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1 AND "id" = $2::text AND "id" <> ALL($3::text[])',
      values: ['c-1', hostile, ['tx-1', hostile]]
    })
    expect(rows.text).not.toContain('drop')
    expect(
      sql(`id=${encodeURIComponent(hostile)}`, { table: 'bank_transactions', scope: { company_id: hostile } }).count
    ).toStrictEqual({
      text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1 AND "id" = $2::text',
      values: [hostile, hostile]
    })
  })
})

describe('pageQuery: names and malformed input (R-19)', () => {
  const request = requestOf('')
  const NAME = 'a lowercase SQL name (a-z, 0-9 and _, not starting with a digit)'

  it.each([
    ['Bank_transactions', '"Bank_transactions"'],
    ['bank-transactions', '"bank-transactions"'],
    ['1bank', '"1bank"'],
    ['bank"; drop table budgets; --', '"bank\\"; drop table budgets; --"'],
    ['public.bank_transactions', '"public.bank_transactions"'],
    ['', '""'],
    [' bank', '" bank"'],
    [42, '42'],
    [null, 'null']
  ])('refuses the table name %j with a TypeError naming it', (table, shown) => {
    expect(() => pageQuery(tx, request, { table } as never)).toThrow(
      new TypeError(`pageQuery: table.table is ${shown}, not ${NAME}`)
    )
  })

  it('refuses a scope column that is not a lowercase SQL name, naming it', () => {
    expect(() => pageQuery(tx, request, { table: 't', scope: { 'company_id = company_id OR 1': 'c-1' } })).toThrow(
      new TypeError(`pageQuery: a key of table.scope is "company_id = company_id OR 1", not ${NAME}`)
    )
    expect(() => pageQuery(tx, request, { table: 't', scope: { Company: 'c-1' } })).toThrow(TypeError)
  })

  it.each([
    [null, 'null'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [['c-1'], 'an array'],
    [true, 'true']
  ])('refuses the scope value %s', (value, shown) => {
    expect(() => pageQuery(tx, request, { table: 't', scope: { company_id: value } as never })).toThrow(
      new TypeError(`pageQuery: table.scope.company_id is ${shown}, not a string or a finite number`)
    )
  })

  it('quotes any field name of the endpoint, a double quote doubled; refuses an empty one or one with NUL', () => {
    const odd = defineEndpoint({
      path: '/v1/odd',
      fields: { id: { type: 'id' }, 'Total "net"': { type: 'integer' }, created_at: { type: 'instant' } },
      sortable: ['created_at', 'Total "net"']
    })
    const q = pageQuery(odd, requestOf('_field=Total "net"'.replaceAll(' ', '+').replaceAll('"', '%22'), odd), { table: 'odd' })
    expect(q.rows.text).toBe(
      `SELECT "id", "Total ""net"""::float8 AS "Total ""net""", ${INSTANT('created_at')} FROM "odd"` +
        ' ORDER BY "odd"."Total ""net""" ASC, "odd"."id" COLLATE "C" ASC LIMIT $1 OFFSET $2'
    )
    for (const name of ['', 'a\u0000b']) {
      const bad = defineEndpoint({
        path: '/v1/bad',
        fields: { id: { type: 'id' }, [name]: { type: 'integer' }, created_at: { type: 'instant' } },
        sortable: ['created_at']
      })
      expect(() => pageQuery(bad, requestOf('', bad), { table: 'bad' })).toThrow(
        new TypeError(`pageQuery: a field of the endpoint is ${JSON.stringify(name)}, not a column name`)
      )
    }
  })

  it.each([
    ['an endpoint of null', [null, request, TABLE], 'endpoint is null, not an object'],
    ['an endpoint without fields', [{ ...tx, fields: undefined }, request, TABLE], 'endpoint.fields is undefined, not an object'],
    ['a request of null', [tx, null, TABLE], 'request is null, not an object'],
    ['a request without a window', [tx, { ...request, window: undefined }, TABLE], 'request.window is undefined, not an object'],
    ['a sort that is a string', [tx, { ...request, sort: 'amount' }, TABLE], 'request.sort is "amount", not an object'],
    ['filters that are not an array', [tx, { ...request, filters: {} }, TABLE], 'request.filters is an object, not an array'],
    ['a filter of null', [tx, { ...request, filters: [null] }, TABLE], 'a filter is null, not an object'],
    ['a table spec that is a string', [tx, request, 'bank_transactions'], 'table is "bank_transactions", not an object'],
    ['a scope that is an array', [tx, request, { table: 't', scope: ['c-1'] }], 'table.scope is an array, not an object']
  ])('throws a TypeError naming %s', (_, args, message) => {
    const [e, r, t] = args as [Endpoint, PageRequest, TableSpec]
    expect(() => pageQuery(e, r, t)).toThrow(new TypeError(`pageQuery: ${message}`))
  })

  const amount = { field: 'amount', type: { type: 'integer' as const } }
  const createdAt = { field: 'created_at', type: { type: 'instant' as const } }
  const status = { field: 'status', type: { type: 'enum' as const, values: ['authorized', 'pending'] } }
  it.each([
    [
      'a window starting at NaN',
      { window: { start: Number.NaN, end: 5 } },
      'request.window.start is NaN, not a whole number >= 0'
    ],
    ['a window starting below 0', { window: { start: -1, end: 5 } }, 'request.window.start is -1, not a whole number >= 0'],
    [
      'a window ending before it starts',
      { window: { start: 5, end: 4 } },
      'request.window.end is 4, not a whole number >= request.window.start (5)'
    ],
    [
      'a window ending at 1.5',
      { window: { start: 0, end: 1.5 } },
      'request.window.end is 1.5, not a whole number >= request.window.start (0)'
    ],
    [
      'a sort by a field not of the endpoint',
      { sort: { field: 'colour', order: 'asc' } },
      'request.sort.field is "colour", not a field of /v1/banking/bank_transactions'
    ],
    [
      'a sort by __proto__',
      { sort: { field: '__proto__', order: 'asc' } },
      'request.sort.field is "__proto__", not a field of /v1/banking/bank_transactions'
    ],
    // A list of one name would read as that name if it were taken as a key.
    [
      'a sort by a list naming a field',
      { sort: { field: ['amount'], order: 'asc' } },
      'request.sort.field is an array, not a field of /v1/banking/bank_transactions'
    ],
    ['an order of DESC', { sort: { field: 'amount', order: 'DESC' } }, 'request.sort.order is "DESC", not asc or desc'],
    [
      'a filter on a field not of the endpoint',
      { filters: [{ ...amount, field: 'colour', op: '$eq', values: [1] }] },
      'a filter field is "colour", not a field of /v1/banking/bank_transactions'
    ],
    [
      'a filter on a list naming a field',
      { filters: [{ ...amount, field: ['amount'], op: '$eq', values: [1] }] },
      'a filter field is an array, not a field of /v1/banking/bank_transactions'
    ],
    [
      'a filter on no field',
      { filters: [{ ...amount, field: 7, op: '$eq', values: [1] }] },
      'a filter field is 7, not a field of /v1/banking/bank_transactions'
    ],
    [
      'an operator that is none',
      { filters: [{ ...amount, op: '$like', values: [1] }] },
      'amount\'s operator is "$like", not an operator'
    ],
    ['values that are not a list', { filters: [{ ...amount, op: '$in', values: 1 }] }, "amount[$in]'s values is 1, not an array"],
    [
      'an integer that is not safe',
      { filters: [{ ...amount, op: '$eq', values: [2 ** 53] }] },
      'a value of amount[$eq] is 9007199254740992, not a safe integer'
    ],
    [
      'an integer given as text',
      { filters: [{ ...amount, op: '$in', values: [1, '2'] }] },
      'a value of amount[$in] is "2", not a safe integer'
    ],
    [
      'an instant given as text',
      { filters: [{ ...createdAt, op: '$gt', values: ['2026-11-22T10:00:00Z'] }] },
      'a value of created_at[$gt] is "2026-11-22T10:00:00Z", not an instant'
    ],
    [
      'an instant of 1e9 nanoseconds',
      { filters: [{ ...createdAt, op: '$gt', values: [{ seconds: 0, nanos: 1e9 }] }] },
      'a value of created_at[$gt] is an object, not an instant'
    ],
    [
      'a status given as a number',
      { filters: [{ ...status, op: '$eq', values: [1] }] },
      'a value of status[$eq] is 1, not a string'
    ],
    ['$eq with no value', { filters: [{ ...amount, op: '$eq', values: [] }] }, "amount[$eq]'s values is an array, not one value"],
    [
      '$lt with two values',
      { filters: [{ ...amount, op: '$lt', values: [1, 2] }] },
      "amount[$lt]'s values is an array, not one value"
    ],
    [
      '$gt on an enum',
      { filters: [{ ...status, op: '$gt', values: ['pending'] }] },
      'status\'s operator is "$gt", not $eq, $ne, $in or $nin (the field is no integer or instant)'
    ]
  ])('throws a TypeError naming the value for %s', (_, overrides, message) => {
    const malformed = { ...request, ...overrides } as unknown as PageRequest
    expect(() => pageQuery(tx, malformed, TABLE)).toThrow(new TypeError(`pageQuery: ${message}`))
  })
})

describe('instants as timestamptz text', () => {
  it.each([
    ['2026-11-22T07:00:00-03:00', '2026-11-22T10:00:00.000000Z'],
    ['2026-11-22T10:00:00.999999999Z', '2026-11-22T10:00:00.999999Z'],
    ['1969-12-31T23:59:59.0000001Z', '1969-12-31T23:59:59.000000Z'],
    ['2024-02-29T23:59:59.5-00:01', '2024-03-01T00:00:59.500000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000Z'],
    // The UTC days past the library's calendar: 1 BC (PostgreSQL has no year 0) and 10000.
    ['0001-01-01T00:00:00+23:59', '0001-12-31T00:01:00.000000Z BC'],
    ['0001-01-01T00:00:00.000001+00:01', '0001-12-31T23:59:00.000001Z BC'],
    ['9999-12-31T23:59:59.999999999-23:59', '10000-01-01T23:58:59.999999Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000000Z']
  ])('writes %s as %s, the microsecond at or before it', (text, expected) => {
    expect(timestamptzText(instant(text))).toBe(expected)
  })

  it('knows the instants the library parses: whole seconds, nanoseconds below 1e9, days 0000-12-31 to 10000-01-01', () => {
    expect(isParsedInstant(parseInstant('0001-01-01T00:00:00+23:59'))).toBe(true)
    expect(isParsedInstant(parseInstant('9999-12-31T23:59:59.999999999-23:59'))).toBe(true)
    expect(isParsedInstant({ seconds: -62135596800 - 86400 - 1, nanos: 0 })).toBe(false)
    expect(isParsedInstant({ seconds: 253402300800 + 86400, nanos: 0 })).toBe(false)
    expect(isParsedInstant({ seconds: 0.5, nanos: 0 })).toBe(false)
    expect(isParsedInstant({ seconds: 0, nanos: -1 })).toBe(false)
    expect(isParsedInstant({ seconds: 0, nanos: 0.5 })).toBe(false)
    expect(isParsedInstant({ seconds: 0 })).toBe(false)
    expect(isParsedInstant(null)).toBe(false)
    expect(isParsedInstant(undefined)).toBe(false)
    expect(isParsedInstant(1795341600)).toBe(false)
    expect(isParsedInstant('2026-11-22T10:00:00Z')).toBe(false)
    expect([isWholeMicrosecond({ seconds: 0, nanos: 5000 }), isWholeMicrosecond({ seconds: 0, nanos: 5001 })]).toStrictEqual([
      true,
      false
    ])
  })

  it('writes a column as ISO text in three ranges, reading neither TimeZone nor DateStyle', () => {
    expect(instantColumnText('t."at"')).toBe(
      `CASE WHEN t."at" < '0001-01-01T00:00:00Z' THEN to_char(t."at" AT TIME ZONE INTERVAL '+23:59', 'YYYY-MM-DD"T"HH24:MI:SS.US"+23:59"')` +
        ` WHEN t."at" < '10000-01-01T00:00:00Z' THEN to_char(t."at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` +
        ` ELSE to_char(t."at" AT TIME ZONE INTERVAL '-23:59', 'YYYY-MM-DD"T"HH24:MI:SS.US"-23:59"') END`
    )
  })
})
