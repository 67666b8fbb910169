/**
 * A decoded page request as SQL for PostgreSQL: one parameterized query for the rows of the
 * window and one for the count of every match (contract section 8, ADR 0102). Pure: text and
 * parameters out, no driver in. Identifiers come only from the endpoint's description and the
 * server's {@link TableSpec}, values only as `$n` parameters.
 *
 * Laws, for a table holding one row per record (unique ids, columns named as the endpoint's
 * fields: integers `bigint`, instants `timestamptz`, the rest `text`, none null) and instants
 * of whole microseconds:
 * - the rows, in order, are the records `selectPage` returns for the same request, and the
 *   count its total;
 * - every row is a JSON-ready record of the endpoint's fields, whatever the driver: integers as
 *   numbers, instants as ISO-8601 text in UTC (`2026-11-22T10:00:00.000000Z`).
 *
 * @example
 * import { endpoints, planIndex } from 'budget-rules'
 *
 * const plan = planIndex({ request: { headers, query: '_end=25&status=pending' }, session, endpoint: endpoints.bankTransactions, request_id: 'req-1' })
 * const query = plan._tag === 'Page' ? pageQuery(endpoints.bankTransactions, plan.request, { table: 'bank_transactions', scope: { company_id: 'c-1' } }) : null
 * query?.count
 * //=> { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1 AND "status" = $2::text',
 * //     values: ['c-1', 'pending'] }
 *
 * @since 0.2.0
 */
import { typeError } from '../json/describe'
import { isCount } from '../json/value'
import type { Instant } from '../calendar/instant'
import { type Endpoint, type FieldType, fieldOf } from '../paging/endpoint'
import { type FieldValue, type Filter, type Operator, operators } from '../paging/filter'
import type { PageRequest } from '../paging/request'
import { instantColumnText, isParsedInstant, isWholeMicrosecond, timestamptzText } from './timestamp'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A query: its text, with `$1`, `$2`, ... where its values go, and the values in that order
 * (strings, numbers, and arrays of them for `$in` / `$nin`), as `pg`'s `query(text, values)`
 * and PGlite's `query(text, values)` take them.
 *
 * @example
 * const query: SqlQuery = { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1', values: ['c-1'] }
 * query.values //=> ['c-1']
 *
 * @category model
 * @since 0.2.0
 */
export interface SqlQuery {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
}

/**
 * The two queries of a page: `rows`, the records of the window in order (each a row of the
 * endpoint's fields, JSON-ready), and `count`, one row `{ total }` (a number) counting every
 * match. The count's values are the first values of the rows' query.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const request = { window: { start: 0, end: 10 }, sort: { field: 'amount', order: 'asc' as const }, filters: [], filterParameters: [] }
 * pageQuery(endpoints.bankTransactions, request, { table: 'bank_transactions' }).count
 * //=> { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions"', values: [] }
 *
 * @category model
 * @since 0.2.0
 */
export interface PageQuery {
  readonly rows: SqlQuery
  readonly count: SqlQuery
}

/**
 * Where the endpoint's records live: the table, and the equalities that scope it (the company,
 * R-45: the records of an index are those of the company-id's company), ANDed. Names are
 * lowercase SQL names (`a-z`, `0-9`, `_`, not starting with a digit).
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * const request = { window: { start: 0, end: 10 }, sort: { field: 'amount', order: 'asc' as const }, filters: [], filterParameters: [] }
 * const table: TableSpec = { table: 'bank_transactions', scope: { company_id: 'c-1' } }
 * pageQuery(endpoints.bankTransactions, request, table).count.text
 * //=> 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1'
 *
 * @category model
 * @since 0.2.0
 */
export interface TableSpec {
  readonly table: string
  readonly scope?: Readonly<Record<string, string | number>>
}

// -------------------------------------------------------------------------------------
// names
// -------------------------------------------------------------------------------------

const FN = 'pageQuery'
const SQL_NAME = /^[a-z_][a-z0-9_]*$/

/** `value`, which must be an object (not an array), or a `TypeError` naming it. */
const objectAt = (name: string, value: unknown): object => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw typeError(FN, name, value, 'an object')
  return value
}

/** A table or scope column the server names: a plain lowercase name, nothing to escape. */
const sqlName = (name: string, value: unknown): string => {
  if (typeof value !== 'string' || !SQL_NAME.test(value))
    throw typeError(FN, name, value, 'a lowercase SQL name (a-z, 0-9 and _, not starting with a digit)')
  return `"${value}"`
}

/** A field of the endpoint as a column: double-quoted, a `"` doubled; PostgreSQL takes no NUL. */
const column = (field: string): string => {
  if (field === '' || field.includes('\u0000')) throw typeError(FN, 'a field of the endpoint', field, 'a column name')
  return `"${field.replaceAll('"', '""')}"`
}

/** The type of a field the request names, which the endpoint must have. */
const typeOf = (endpoint: Endpoint, field: unknown, name: string): FieldType => {
  const type = typeof field === 'string' ? fieldOf(endpoint, field) : undefined
  if (type === undefined) throw typeError(FN, name, field, `a field of ${endpoint.path}`)
  return type
}

// -------------------------------------------------------------------------------------
// filters
// -------------------------------------------------------------------------------------

const COMPARISON: Readonly<Record<Exclude<Operator, '$in' | '$nin'>, string>> = {
  $eq: '=',
  $ne: '<>',
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<='
}

/** The SQL type of a field's column, and a check of the values a filter on it holds. */
const columnType = (
  type: FieldType
): { readonly sql: string; readonly holds: (v: FieldValue) => boolean; readonly what: string } =>
  type.type === 'integer'
    ? { sql: 'bigint', holds: Number.isSafeInteger, what: 'a safe integer' }
    : type.type === 'instant'
      ? { sql: 'timestamptz', holds: isParsedInstant, what: 'an instant' }
      : { sql: 'text', holds: (v) => typeof v === 'string', what: 'a string' }

/** Adds a value to the query's values and returns its placeholder. */
type Parameter = (value: unknown, cast: string) => string

/**
 * The conditions of one filter (none when it holds of every row). An instant compares with a
 * column of whole microseconds exactly: `col > x` is `col > floor_us(x)` when `x` is no whole
 * microsecond, `= x` is false, `<> x` true, and such an `x` is no member of any row's list.
 */
const conditions = (endpoint: Endpoint, filter: Filter, parameter: Parameter): ReadonlyArray<string> => {
  const type = typeOf(endpoint, filter.field, 'a filter field')
  const op = filter.op
  const raw: unknown = filter.values
  if (!operators.includes(op)) throw typeError(FN, `${filter.field}'s operator`, op, 'an operator')
  const key = `${filter.field}[${op}]`
  if (type.type === 'json') throw typeError(FN, 'a filter field', filter.field, 'a field that can be filtered (not json)')
  const { sql, holds, what } = columnType(type)
  if (!Array.isArray(raw)) throw typeError(FN, `${key}'s values`, raw, 'an array')
  const values = raw as ReadonlyArray<FieldValue>
  for (const v of values) if (!holds(v)) throw typeError(FN, `a value of ${key}`, v, what)
  const col = column(filter.field)
  if (op === '$in' || op === '$nin') {
    const members =
      type.type === 'instant' ? (values as ReadonlyArray<Instant>).filter(isWholeMicrosecond).map(timestamptzText) : values
    const list = parameter(members, `${sql}[]`)
    // Null is in no list: a nullable column's null is kept by $nin, as the records' filter keeps it.
    return [
      op === '$in'
        ? `${col} = ANY(${list})`
        : type.nullable === true
          ? `(${col} IS NULL OR ${col} <> ALL(${list}))`
          : `${col} <> ALL(${list})`
    ]
  }
  if (values.length !== 1) throw typeError(FN, `${key}'s values`, values, 'one value')
  if (op !== '$eq' && op !== '$ne' && type.type !== 'integer' && type.type !== 'instant')
    throw typeError(FN, `${filter.field}'s operator`, op, '$eq, $ne, $in or $nin (the field is no integer or instant)')
  const value = values[0]
  // Null equals no value: a nullable column's null is kept by $ne, as the records' filter keeps it.
  const compare = op === '$ne' && type.nullable === true ? 'IS DISTINCT FROM' : COMPARISON[op]
  if (type.type !== 'instant') return [`${col} ${compare} ${parameter(value, sql)}`]
  const instant = value as Instant
  if (isWholeMicrosecond(instant)) return [`${col} ${compare} ${parameter(timestamptzText(instant), sql)}`]
  // Between two whole microseconds: no row equals it, and every row is either side of it.
  if (op === '$eq') return ['FALSE']
  if (op === '$ne') return []
  const floor = parameter(timestamptzText(instant), sql)
  return [op === '$gt' || op === '$gte' ? `${col} > ${floor}` : `${col} <= ${floor}`]
}

// -------------------------------------------------------------------------------------
// the page
// -------------------------------------------------------------------------------------

/** A field of a row as the record has it: integers as numbers, instants as ISO-8601 text. */
const output = (field: string, type: FieldType): string => {
  const col = column(field)
  return type.type === 'integer'
    ? `${col}::float8 AS ${col}`
    : type.type === 'instant'
      ? `${instantColumnText(col)} AS ${col}`
      : col
}

/** A sort key: text in code-point order (`COLLATE "C"`), whatever the database's collation. */
const sortKey = (table: string, field: string, type: FieldType): string =>
  // Qualified, so that ORDER BY reads the column and not the output of the same name.
  `${table}.${column(field)}${type.type === 'integer' || type.type === 'instant' ? '' : ' COLLATE "C"'}`

/**
 * The queries of a page request (as `planIndex` decides it) over `table`: the rows of the
 * window, by the sort field then `id` in the same direction, and the count of every match.
 * Throws a `TypeError` naming the value at once (R-19) for a table or scope name that is not a
 * lowercase SQL name, a scope value that is not a string or a finite number, or a request that
 * is not one of the endpoint's.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 * import { parseInstant } from 'budget-rules/rules'
 *
 * const request = {
 *   window: { start: 50, end: 75 }, sort: { field: 'amount', order: 'desc' as const }, filterParameters: [],
 *   filters: [{ field: 'created_at', type: { type: 'instant' as const }, op: '$gte' as const, values: [parseInstant('2026-11-22T07:00:00-03:00')!] }]
 * }
 * const { rows } = pageQuery(endpoints.bankTransactions, request, { table: 'bank_transactions', scope: { company_id: 'c-1' } })
 * rows.text.slice(rows.text.indexOf(' FROM'))
 * //=> ' FROM "bank_transactions" WHERE "company_id" = $1 AND "created_at" >= $2::timestamptz' +
 * //   ' ORDER BY "bank_transactions"."amount" DESC, "bank_transactions"."id" COLLATE "C" DESC LIMIT $3 OFFSET $4'
 * rows.values //=> ['c-1', '2026-11-22T10:00:00.000000Z', 25, 50]
 * pageQuery(endpoints.bankTransactions, request, { table: 'transactions; drop table budgets' })
 * //=> throws TypeError('pageQuery: table.table is "transactions; drop table budgets", not a lowercase SQL name (a-z, 0-9 and _, not starting with a digit)')
 *
 * @category compilers
 * @since 0.2.0
 */
export const pageQuery = (endpoint: Endpoint, request: PageRequest, table: TableSpec): PageQuery => {
  objectAt('endpoint.fields', (objectAt('endpoint', endpoint) as Partial<Endpoint>).fields)
  const { window, sort, filters } = objectAt('request', request) as Partial<PageRequest>
  objectAt('request.window', window)
  objectAt('request.sort', sort)
  if (!Array.isArray(filters)) throw typeError(FN, 'request.filters', filters, 'an array')
  for (const filter of filters as ReadonlyArray<unknown>) objectAt('a filter', filter)
  const relation = sqlName('table.table', (objectAt('table', table) as Partial<TableSpec>).table)
  const values: Array<unknown> = []
  const parameter: Parameter = (value, cast) => {
    values.push(value)
    return cast === '' ? `$${values.length}` : `$${values.length}::${cast}`
  }
  const where: Array<string> = []
  const scope = objectAt('table.scope', table.scope ?? {})
  for (const key of Object.keys(scope)) {
    const value: unknown = (scope as Readonly<Record<string, unknown>>)[key]
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value)))
      throw typeError(FN, `table.scope.${key}`, value, 'a string or a finite number')
    // The column's own type reads the value: no cast.
    where.push(`${sqlName('a key of table.scope', key)} = ${parameter(value, '')}`)
  }
  for (const filter of request.filters) where.push(...conditions(endpoint, filter, parameter))
  const from = ` FROM ${relation}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}`
  const count: SqlQuery = { text: `SELECT count(*)::float8 AS "total"${from}`, values: [...values] }

  const { start, end } = request.window
  if (!isCount(start)) throw typeError(FN, 'request.window.start', start, 'a whole number >= 0')
  if (!isCount(end) || end < start)
    throw typeError(FN, 'request.window.end', end, `a whole number >= request.window.start (${start})`)
  const field = request.sort.field
  const order: unknown = request.sort.order
  const sortType = typeOf(endpoint, field, 'request.sort.field')
  if (order !== 'asc' && order !== 'desc') throw typeError(FN, 'request.sort.order', order, 'asc or desc')
  const direction = order === 'asc' ? 'ASC' : 'DESC'
  const fields = Object.keys(endpoint.fields)
  const select = fields.map((f) => output(f, endpoint.fields[f] as FieldType)).join(', ')
  const orderBy = `${sortKey(relation, field, sortType)} ${direction}, ${sortKey(relation, 'id', { type: 'id' })} ${direction}`
  const limit = `LIMIT ${parameter(end - start, '')} OFFSET ${parameter(start, '')}`
  return { rows: { text: `SELECT ${select}${from} ORDER BY ${orderBy} ${limit}`, values }, count }
}
