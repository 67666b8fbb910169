/**
 * Filters of an index query, `field[$op]=value` (or `field=value` for `$eq`), parsed into a
 * small typed tree and compiled to a predicate over records (contract section 8, R-42).
 *
 * Values are typed by the endpoint's field: an integer is a base-10 integer, an instant an
 * ISO-8601 date-time with an offset (compared as the moment it names), an enum one of its
 * values. `$gt $gte $lt $lte` apply to integer and instant fields only; `$in` and `$nin` take a
 * JSON array literal of at most 500 values. Only the endpoint's own fields and the eight
 * operators exist: there is no generic nested parser to pollute.
 *
 * Law: `compileFilter(f)(value)` is true exactly when the filter holds of the value, as a naive
 * evaluator over the same typed values says.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeFilter(endpoints.bankTransactions, 'amount[$gte]', '1000')
 * //=> right({ field: 'amount', type: { type: 'integer' }, op: '$gte', values: [1000] })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { compareInstants, type Instant, instantSlot, parseInstant, readInstant } from '../calendar/instant'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import { holdsNul } from '../json/value'
import { type Endpoint, type FieldType, fieldOf } from './endpoint'
import { loneSurrogateInQuery, nulInQuery } from './query'
import { isWellFormedText } from '../json/well-formed'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The eight filter operators: equality, order (integer and instant fields only) and membership
 * in a list.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeFilter(endpoints.bankTransactions, 'amount[$like]', '1')
 * //=> left({ _tag: 'BadRequest', rule: 'page.filter', message: '$like is not an operator', detail: '$like is not an operator' })
 *
 * @category model
 * @since 0.1.0
 */
export type Operator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin'

/**
 * Every {@link Operator}.
 *
 * @example
 * operators //=> ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']
 *
 * @category model
 * @since 0.1.0
 */
export const operators: ReadonlyArray<Operator> = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']

/**
 * A typed value of a field: a number for `integer`, an {@link Instant} for `instant`, a string
 * otherwise.
 *
 * @example
 * fieldValue({ type: 'instant' }, '2026-11-22T10:00:00Z') //=> { seconds: 1795341600, nanos: 0 }
 *
 * @category model
 * @since 0.1.0
 */
export type FieldValue = number | string | Instant

/**
 * One filter: `values` holds one value, or the list of `$in` / `$nin`.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeFilter(endpoints.bankTransactions, 'status[$in]', '["pending","authorized"]')
 * //=> right({ field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$in', values: ['pending', 'authorized'] })
 *
 * @category model
 * @since 0.1.0
 */
export interface Filter {
  readonly field: string
  readonly type: FieldType
  readonly op: Operator
  readonly values: ReadonlyArray<FieldValue>
}

/**
 * The most values a `$in` or `$nin` list may hold.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeFilter(endpoints.bankTransactions, 'amount[$in]', JSON.stringify(Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => i)))
 * //=> left({ _tag: 'BadRequest', rule: 'page.filter', message: 'amount[$in] holds more than 500 values', detail: 'amount[$in] holds more than 500 values' })
 *
 * @category constants
 * @since 0.1.0
 */
export const MAX_LIST_VALUES = 500

const ORDERED: ReadonlyArray<Operator> = ['$gt', '$gte', '$lt', '$lte']
const UNORDERED: ReadonlyArray<Operator> = /*#__PURE__*/ operators.filter((op) => !ORDERED.includes(op))

/**
 * The operators a field of type `type` takes: all eight on integer and instant fields, equality
 * and membership on the others but `json`, which takes none.
 *
 * @example
 * operatorsOf({ type: 'integer' }) //=> ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']
 * operatorsOf({ type: 'enum', values: ['authorized', 'pending'] }) //=> ['$eq', '$ne', '$in', '$nin']
 * operatorsOf({ type: 'json' }) //=> []
 *
 * @category model
 * @since 0.3.0
 */
export const operatorsOf = (type: FieldType): ReadonlyArray<Operator> =>
  type.type === 'integer' || type.type === 'instant' ? operators : type.type === 'json' ? [] : UNORDERED

/**
 * Why `op` cannot filter `field`, of type `type`, or null when it can: the words of the
 * service's 400, which the react-admin provider gives too before it sends anything.
 *
 * @example
 * operatorProblem('status', { type: 'enum', values: ['authorized', 'pending'] }, '$gt')
 * //=> '$gt applies to integer and instant fields, not status'
 * operatorProblem('rules', { type: 'json' }, '$eq') //=> 'rules cannot be filtered'
 * operatorProblem('amount', { type: 'integer' }, '$gt') //=> null
 *
 * @category rules
 * @since 0.4.0
 */
export const operatorProblem = (field: string, type: FieldType, op: Operator): string | null =>
  type.type === 'json'
    ? `${field} cannot be filtered`
    : operatorsOf(type).includes(op)
      ? null
      : `${op} applies to integer and instant fields, not ${field}`

const FILTER_KEY = /^([A-Za-z][A-Za-z0-9_]*)(?:\[(\$[a-z]+)\])?$/

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

const INTEGER = /^-?\d+$/

/**
 * The typed value of `u` for a field of type `type`, or `null` when it is not one (a `json`
 * field holds no value a filter compares). Query text and record values go through the same
 * function, so both sides compare alike.
 *
 * @example
 * fieldValue({ type: 'integer' }, 1000) //=> 1000
 * fieldValue({ type: 'integer' }, 10.5) //=> null
 * fieldValue({ type: 'enum', values: ['pending'] }, 'Pending') //=> null
 * fieldValue({ type: 'json' }, { a: 1 }) //=> null
 *
 * @category utils
 * @since 0.1.0
 */
export const fieldValue = (type: FieldType, u: unknown): FieldValue | null => {
  switch (type.type) {
    case 'integer':
      return typeof u === 'number' && Number.isSafeInteger(u) ? u : null
    case 'instant':
      return typeof u === 'string' ? parseInstant(u) : null
    case 'enum':
      return typeof u === 'string' && type.values.includes(u) ? u : null
    case 'id':
      return typeof u === 'string' && u !== '' ? u : null
    case 'string':
      return typeof u === 'string' ? u : null
    case 'json':
      return null
  }
}

const textValue = (type: FieldType, text: string): FieldValue | null =>
  type.type === 'integer' ? (INTEGER.test(text) ? fieldValue(type, Number(text)) : null) : fieldValue(type, text)

/**
 * Orders two values of a field of type `type`: numbers by value, instants by moment, strings
 * by UTF-16 code units (the same in every locale).
 *
 * @example
 * import { parseInstant } from 'budget-rules/rules'
 *
 * compareValues({ type: 'string' })('B', 'a') //=> -1
 * compareValues({ type: 'instant' })(parseInstant('2026-11-22T10:00:00Z')!, parseInstant('2026-11-22T07:00:00-03:00')!) //=> 0
 *
 * @category utils
 * @since 0.1.0
 */
export const compareValues = (type: FieldType): ((a: FieldValue, b: FieldValue) => number) =>
  type.type === 'integer' ? byNumber : type.type === 'instant' ? byMoment : byCodeUnits

const byNumber = (a: FieldValue, b: FieldValue): number => (a as number) - (b as number)
const byMoment = (a: FieldValue, b: FieldValue): number => compareInstants(a as Instant, b as Instant)
const byCodeUnits = (a: FieldValue, b: FieldValue): number => (a < b ? -1 : a > b ? 1 : 0)

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const bad = (detail: string): E.Either<Problem, never> => E.left(problem.badRequest('page.filter', detail))

const listValues = (type: FieldType, key: string, text: string): E.Either<Problem, ReadonlyArray<FieldValue>> => {
  let list: unknown
  try {
    list = JSON.parse(text)
  } catch {
    return bad(`${key} must be a JSON array`)
  }
  if (!Array.isArray(list)) return bad(`${key} must be a JSON array`)
  if (list.length > MAX_LIST_VALUES) return bad(`${key} holds more than ${MAX_LIST_VALUES} values`)
  const values: Array<FieldValue> = []
  for (const item of list as ReadonlyArray<unknown>) {
    // A JSON escape (`"\u0000"`, `"\ud800"`) gets past the query's own checks.
    if (typeof item === 'string' && holdsNul(item)) return E.left(nulInQuery('page.filter'))
    if (typeof item === 'string' && !isWellFormedText(item)) return E.left(loneSurrogateInQuery('page.filter'))
    const v = fieldValue(type, item)
    if (v === null) return bad(`${key} holds a value that is not ${describeFieldType(type)}`)
    values.push(v)
  }
  return E.right(values)
}

/**
 * What a value of a field of type `type` must be, in the words of a 400's message.
 *
 * @example
 * describeFieldType({ type: 'enum', values: ['authorized', 'pending'] }) //=> 'one of authorized, pending'
 *
 * @category utils
 * @since 0.3.0
 */
export const describeFieldType = (type: FieldType): string =>
  type.type === 'integer'
    ? 'an integer'
    : type.type === 'instant'
      ? 'an ISO-8601 date-time with an offset'
      : type.type === 'enum'
        ? `one of ${type.values.join(', ')}`
        : type.type === 'id'
          ? 'an id'
          : type.type === 'json'
            ? 'a JSON value'
            : 'a string'

/**
 * The filter of one query parameter, or the 400 of an unknown field or operator, an operator
 * the field does not take, or a value of the wrong type.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeFilter(endpoints.bankTransactions, 'status[$gt]', 'pending')
 * //=> left({ _tag: 'BadRequest', rule: 'page.filter', message: '$gt applies to integer and instant fields, not status', detail: '$gt applies to integer and instant fields, not status' })
 *
 * @category rules
 * @since 0.1.0
 */
export const decodeFilter = (endpoint: Endpoint, key: string, text: string): E.Either<Problem, Filter> => {
  const m = FILTER_KEY.exec(key)
  const field = m?.[1]
  const type = field === undefined ? undefined : fieldOf(endpoint, field)
  if (field === undefined || type === undefined) return bad(`${key} is not a field of ${endpoint.path}`)
  const op = (m?.[2] ?? '$eq') as Operator
  if (!operators.includes(op)) return bad(`${op} is not an operator`)
  const refused = operatorProblem(field, type, op)
  if (refused !== null) return bad(refused)
  if (op === '$in' || op === '$nin')
    return E.map((values: ReadonlyArray<FieldValue>) => ({ field, type, op, values }))(listValues(type, key, text))
  const value = textValue(type, text)
  return value === null ? bad(`${key} must be ${describeFieldType(type)}`) : E.right({ field, type, op, values: [value] })
}

/**
 * The predicate of a filter over a record's value, built once and applied to every record.
 *
 * @example
 * const pending = compileFilter({ field: 'status', type: { type: 'enum', values: ['authorized', 'pending'] }, op: '$eq', values: ['pending'] })
 * pending('pending') //=> true
 *
 * @category utils
 * @since 0.1.0
 */
export const compileFilter = (filter: Filter): ((value: FieldValue) => boolean) => {
  const compare = compareValues(filter.type)
  const values = filter.values
  const first = values[0]
  switch (filter.op) {
    case '$in':
      return memberOf(filter.type, values)
    case '$nin': {
      const member = memberOf(filter.type, values)
      return (v) => !member(v)
    }
    default:
      if (first === undefined) return () => false
      switch (filter.op) {
        case '$eq':
          return (v) => compare(v, first) === 0
        case '$ne':
          return (v) => compare(v, first) !== 0
        case '$gt':
          return (v) => compare(v, first) > 0
        case '$gte':
          return (v) => compare(v, first) >= 0
        case '$lt':
          return (v) => compare(v, first) < 0
        case '$lte':
          return (v) => compare(v, first) <= 0
      }
  }
}

/**
 * Membership in a `$in` / `$nin` list by hashing, so a record costs the same whatever the
 * list's length: instants by their seconds, then nanoseconds; other values as they are.
 */
const memberOf = (type: FieldType, values: ReadonlyArray<FieldValue>): ((value: FieldValue) => boolean) => {
  if (type.type === 'instant') {
    const moments = new Map<number, Set<number>>()
    for (const v of values as ReadonlyArray<Instant>) {
      const nanos = moments.get(v.seconds) ?? new Set<number>()
      nanos.add(v.nanos)
      moments.set(v.seconds, nanos)
    }
    return (v) => moments.get((v as Instant).seconds)?.has((v as Instant).nanos) === true
  }
  const set = new Set<FieldValue>(values)
  return (v) => set.has(v)
}

/**
 * The test of a filter on the value a record holds for its field, built once and applied to
 * every record: 1 when the value is of the field's type and the filter holds of it, 0 when it
 * does not hold, -1 when it is not of the field's type (the server's fault, R-18). An instant is
 * read without allocating (see {@link readInstant}). On a nullable field, null equals no value:
 * `$ne` and `$nin` hold of it, the other operators do not (SQL's `IS DISTINCT FROM`).
 *
 * @example
 * const after = compileRecordTest({ field: 'created_at', type: { type: 'instant' }, op: '$gt', values: [{ seconds: 1795341600, nanos: 0 }] })
 * after('2026-11-22T10:00:00.5Z') //=> 1
 * after('2026-11-22T07:00:00-03:00') //=> 0
 * after('2026-11-22') //=> -1
 * compileRecordTest({ field: 'resource_id', type: { type: 'id', nullable: true }, op: '$ne', values: ['b-1'] })(null) //=> 1
 *
 * @category utils
 * @since 0.1.0
 */
export const compileRecordTest = (filter: Filter): ((u: unknown) => -1 | 0 | 1) => {
  const test = compileValueTest(filter)
  if (filter.type.nullable !== true) return test
  const ofNull = filter.op === '$ne' || filter.op === '$nin' ? 1 : 0
  return (u) => (u === null ? ofNull : test(u))
}

/** {@link compileRecordTest} of a value that is not null. */
const compileValueTest = (filter: Filter): ((u: unknown) => -1 | 0 | 1) => {
  const holds = compileFilter(filter)
  const type = filter.type
  if (type.type === 'instant') {
    const moment = instantSlot()
    return (u) => (typeof u !== 'string' || !readInstant(u, moment) ? -1 : holds(moment) ? 1 : 0)
  }
  return (u) => {
    const value = fieldValue(type, u)
    return value === null ? -1 : holds(value) ? 1 : 0
  }
}
