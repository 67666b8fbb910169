/**
 * What a react-admin call asks of the service, decided before anything is sent: the
 * request to send (method, path with its query, body, which headers), or the refusal of a call
 * the service would refuse for its shape (400) or has no endpoint for (405). Pure: the provider
 * (./provider.ts) does the sending.
 *
 * The query is written by the client entry's `buildQuery` from the endpoint descriptions the
 * server itself pages with, after the checks the service makes of a query's shape: a window of
 * at most 2000 records, a sort field the endpoint sorts by, filters on its fields with the
 * operators and value types it takes. A call that passes them is never refused a 400 or a 416.
 *
 * @example
 * planList('bank_transactions', { pagination: { page: 2, perPage: 50 }, sort: { field: 'amount', order: 'DESC' }, filter: { status: 'pending' } })
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/banking/bank_transactions?_start=50&_end=100&_order=desc&_field=amount&status=pending',
 * //     company: true }
 *
 * @since 0.3.0
 */
import { buildQuery, type FilterSpec } from '../client/query'
import type { Operator } from '../paging/filter'
import { type Endpoint, endpoints, fieldOf, type FieldType } from '../paging/endpoint'
import { describeFieldType, fieldValue, MAX_LIST_VALUES, operators, operatorsOf } from '../paging/filter'
import { MAX_WINDOW_SIZE } from '../paging/window'
import { wellFormed } from '../http/query-string'
import { hasOwn, holdsNul, isJsonObject } from '../json/value'
import { describeValue } from '../json/describe'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A request to send: its method, its path with the query, its JSON body, whether it carries
 * company-id (every endpoint but GET /v1/companies) and an Idempotency-Key (a create).
 *
 * @example
 * planOne('budgets', 'b-travel') //=> { _tag: 'Send', method: 'GET', path: '/v1/budgets/b-travel', company: true }
 *
 * @category model
 * @since 0.3.0
 */
export interface Send {
  readonly _tag: 'Send'
  readonly method: 'GET' | 'PATCH' | 'POST'
  readonly path: string
  readonly body?: string
  readonly company: boolean
  readonly idempotent?: true
}

/**
 * A call refused before sending: 400 for a request the service would refuse for its shape,
 * 405 for a method the service has no endpoint for; `message` names the field or the method.
 *
 * @example
 * planList('budgets', { sort: { field: 'status', order: 'ASC' } })
 * //=> { _tag: 'Refuse', status: 400, message: 'sort.field "status" is not a sort field of /v1/budgets (created_on, name)' }
 *
 * @category model
 * @since 0.3.0
 */
export interface Refuse {
  readonly _tag: 'Refuse'
  readonly status: 400 | 405
  readonly message: string
}

/**
 * What a call comes to: a request, or its refusal.
 *
 * @example
 * planCreate('budgets', { data: { name: 'Travel' } })
 * //=> { _tag: 'Refuse', status: 405, message: 'create is not available on budgets: the service has no endpoint for it' }
 *
 * @category model
 * @since 0.3.0
 */
export type Planned = Send | Refuse

/**
 * The service's resources as react-admin names them, and what each has: an index endpoint
 * (lists, getMany, getOne through the index), GET and PATCH by id with the PATCH body's
 * wrapper, a create with its path and wrapper.
 *
 * @example
 * Object.keys(resources) //=> ['budgets', 'bank_transactions', 'bank_recipients', 'companies', 'decisions']
 *
 * @category model
 * @since 0.3.0
 */
export const resources: Readonly<
  Record<
    string,
    {
      readonly index?: Endpoint
      readonly item?: { readonly path: string; readonly wrapper: string }
      readonly create?: { readonly path: string; readonly wrapper: string }
    }
  >
> = {
  budgets: { index: endpoints.budgets, item: { path: '/v1/budgets', wrapper: 'budget' } },
  bank_transactions: { index: endpoints.bankTransactions },
  bank_recipients: { create: { path: '/v1/banking/bank_recipients', wrapper: 'bank_recipient' } },
  companies: { index: endpoints.companies },
  decisions: { index: endpoints.decisions }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const refuse = (status: 400 | 405, message: string): Refuse => ({ _tag: 'Refuse', status, message })

/**
 * The 405 of a method the service has no endpoint for on `resource`: nothing is sent.
 *
 * @example
 * unavailable('delete', 'budgets')
 * //=> { _tag: 'Refuse', status: 405, message: 'delete is not available on budgets: the service has no endpoint for it' }
 *
 * @category constructors
 * @since 0.3.0
 */
export const unavailable = (method: string, resource: unknown): Refuse =>
  refuse(
    405,
    `${method} is not available on ${typeof resource === 'string' ? resource : describeValue(resource)}: the service has no endpoint for it`
  )

const resourceOf = (resource: unknown) =>
  typeof resource === 'string' && hasOwn(resources, resource) ? resources[resource] : undefined

/** Reads a call's parameters, each once; one that cannot be read (a throwing getter, a proxy) is a 400. */
const read = (params: unknown, plan: (params: Readonly<Record<string, unknown>>) => Planned): Planned => {
  try {
    return isJsonObject(params) ? plan({ ...params }) : refuse(400, `The parameters are ${describeValue(params)}, not an object`)
  } catch {
    return refuse(400, 'The parameters could not be read')
  }
}

/** Why text cannot travel in a query: a NUL, which no store compares, or a lone surrogate, which would arrive as U+FFFD. */
const unsendable = (text: string): string | null =>
  holdsNul(text) ? 'holds a NUL character' : wellFormed(text) !== text ? 'holds a lone surrogate' : null

const INTEGER = /^-?\d+$/

/** The text the service reads for a value of `type` (as buildQuery writes it), or null when it would refuse it. */
const scalarProblem = (key: string, type: FieldType, value: unknown): string | null => {
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value)))
    return `${key} is ${describeValue(value)}, not ${describeFieldType(type)}`
  const text = String(value)
  const why = unsendable(text)
  if (why !== null) return `${key} ${why}`
  const typed = type.type === 'integer' ? (INTEGER.test(text) ? fieldValue(type, Number(text)) : null) : fieldValue(type, text)
  return typed === null ? `${key} is ${describeValue(value)}, not ${describeFieldType(type)}` : null
}

const listProblem = (key: string, type: FieldType, value: unknown): string | null => {
  if (!Array.isArray(value)) return `${key} is ${describeValue(value)}, not a list`
  const list = value as ReadonlyArray<unknown>
  if (list.length > MAX_LIST_VALUES) return `${key} holds ${list.length} values, more than ${MAX_LIST_VALUES}`
  for (const item of list) {
    const why = typeof item === 'string' ? unsendable(item) : null
    if (why !== null) return `${key} ${why}`
    // In a list the service reads JSON values: 1000 for an integer field, not "1000".
    if (fieldValue(type, item) === null) return `${key} holds ${describeValue(item)}, not ${describeFieldType(type)}`
  }
  return null
}

const BRACKETED = /^(.*)\[(.*)\]$/

/**
 * The filter of one react-admin filter entry: `field` (equality, or `$in` for a list) or
 * `field[$op]` as the service spells it; or why the service would refuse it.
 */
const filterOf = (endpoint: Endpoint, key: string, value: unknown): FilterSpec | string => {
  const bracketed = BRACKETED.exec(key)
  const field = bracketed === null ? key : (bracketed[1] as string)
  const type = fieldOf(endpoint, field)
  if (type === undefined) return `${key} is not a field of ${endpoint.path}`
  const op = bracketed === null ? (Array.isArray(value) ? '$in' : '$eq') : (bracketed[2] as string)
  if (!(operators as ReadonlyArray<string>).includes(op)) return `${op} is not an operator`
  if (!operatorsOf(type).includes(op as Operator)) return `${op} applies to integer and instant fields, not ${field}`
  const problem = op === '$in' || op === '$nin' ? listProblem(key, type, value) : scalarProblem(key, type, value)
  return problem ?? { field, op: op as Operator, value: value as FilterSpec['value'] }
}

/** The parameter a filter becomes (buildQuery writes `$eq` as the bare field). */
const parameterOf = (f: FilterSpec): string => (f.op === '$eq' ? f.field : `${f.field}[${f.op}]`)

/**
 * The filter's entries, an operator object spread out: a react-admin input named `amount.$gte`
 * (its forms read a dot or brackets in a name as nesting) sets `{amount: {$gte: 1000}}`, which
 * is `amount[$gte]`.
 */
const entriesOf = (filter: Readonly<Record<string, unknown>>): ReadonlyArray<readonly [string, unknown]> =>
  Object.entries(filter).flatMap(([key, value]) =>
    isJsonObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((op) => op.startsWith('$'))
      ? Object.entries(value).map(([op, v]) => [`${key}[${op}]`, v] as const)
      : [[key, value] as const]
  )

/** The field react-admin sorts by when a component is given no `sort` (`<List>`, `useGetList`, `<ReferenceManyField>`, `<ReferenceInput>`). */
const DEFAULT_SORT_FIELD = 'id'

const isWhole = (u: unknown, least: number): u is number => Number.isSafeInteger(u) && (u as number) >= least

/** The query of a list call on `endpoint`, or the 400 of the part the service would refuse. */
const listQuery = (endpoint: Endpoint, params: Readonly<Record<string, unknown>>): string | Refuse => {
  const { pagination, sort, filter } = params
  let window: { start: number; end: number } | undefined
  if (pagination !== undefined) {
    if (!isJsonObject(pagination)) return refuse(400, `pagination is ${describeValue(pagination)}, not { page, perPage }`)
    const { page, perPage } = pagination
    if (!isWhole(page, 1)) return refuse(400, `pagination.page is ${describeValue(page)}, not a whole number >= 1`)
    if (!isWhole(perPage, 1)) return refuse(400, `pagination.perPage is ${describeValue(perPage)}, not a whole number >= 1`)
    if (perPage > MAX_WINDOW_SIZE)
      return refuse(400, `Requested page size ${perPage} exceeds maximum of ${MAX_WINDOW_SIZE} (pagination.perPage)`)
    const end = page * perPage
    if (!Number.isSafeInteger(end)) return refuse(400, `pagination.page ${page} is past the last record a window can name`)
    window = { start: end - perPage, end }
  }
  let order: 'asc' | 'desc' | undefined
  let field: string | undefined
  if (sort !== undefined) {
    if (!isJsonObject(sort)) return refuse(400, `sort is ${describeValue(sort)}, not { field, order }`)
    const { field: f, order: o } = sort
    if (typeof f !== 'string' || (f !== DEFAULT_SORT_FIELD && !endpoint.sortable.includes(f)))
      return refuse(
        400,
        `sort.field ${describeValue(f)} is not a sort field of ${endpoint.path} (${endpoint.sortable.join(', ')})`
      )
    if (o !== 'ASC' && o !== 'DESC') return refuse(400, `sort.order is ${describeValue(o)}, not ASC or DESC`)
    order = o === 'ASC' ? 'asc' : 'desc'
    // no endpoint sorts by id; react-admin's default sort asks for the endpoint's own order.
    if (f !== DEFAULT_SORT_FIELD) field = f
  }
  if (filter !== undefined && !isJsonObject(filter)) return refuse(400, `filter is ${describeValue(filter)}, not an object`)
  const filters: Array<FilterSpec> = []
  const sent = new Set<string>()
  for (const [key, value] of entriesOf(filter ?? {})) {
    // react-admin leaves an emptied filter input as undefined: no filter.
    if (value === undefined) continue
    const f = filterOf(endpoint, key, value)
    if (typeof f === 'string') return refuse(400, f)
    const parameter = parameterOf(f)
    if (sent.has(parameter)) return refuse(400, `The filter ${parameter} is given twice (as ${key} too)`)
    sent.add(parameter)
    filters.push(f)
  }
  // At most 4 page parameters and one of each field and operator (32 on bank_transactions): far
  // from the 100 parameters a query may hold.
  return buildQuery(endpoint, {
    ...(window === undefined ? {} : { window }),
    ...(order === undefined ? {} : { order }),
    ...(field === undefined ? {} : { field }),
    filters
  })
}

const withQuery = (path: string, query: string): string => (query === '' ? path : `${path}?${query}`)

/** An id as the service spells ids: text, a number written in decimal; or null when it is neither. */
const idText = (id: unknown): string | null =>
  typeof id === 'string' && id !== '' && unsendable(id) === null
    ? id
    : typeof id === 'number' && Number.isSafeInteger(id)
      ? String(id)
      : null

// -------------------------------------------------------------------------------------
// calls
// -------------------------------------------------------------------------------------

/**
 * getList (and getManyReference, once its `target = id` is added to the filter): the index of
 * the resource with `_start = (page - 1) * perPage`, `_end = page * perPage`, `_field`, `_order`
 * in the endpoint's case, and the filters; or the 400 of what the service would refuse. A sort by
 * `id`, react-admin's default, leaves `_field` out: the endpoint's default order.
 *
 * @example
 * // react-admin's default sort: the endpoint's default field, in the order asked
 * planList('companies', { pagination: { page: 1, perPage: 25 }, sort: { field: 'id', order: 'DESC' } })
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/companies?_start=0&_end=25&_order=desc', company: false }
 * planList('bank_transactions', { pagination: { page: 1, perPage: 5000 } })
 * //=> { _tag: 'Refuse', status: 400, message: 'Requested page size 5000 exceeds maximum of 2000 (pagination.perPage)' }
 * planList('companies', { filter: { 'name[$gt]': 'A' } })
 * //=> { _tag: 'Refuse', status: 400, message: '$gt applies to integer and instant fields, not name' }
 * planList('bank_transactions', { filter: { amount: { $lt: 9000 } } })
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/banking/bank_transactions?amount%5B%24lt%5D=9000', company: true }
 * planList('bank_transactions', { filter: { 'amount[$gte]': 1000, id: ['tx-1', 'tx-2'] } })
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/banking/bank_transactions?amount%5B%24gte%5D=1000&id%5B%24in%5D=%5B%22tx-1%22%2C%22tx-2%22%5D', company: true }
 *
 * @category calls
 * @since 0.3.0
 */
export const planList = (resource: string, params: unknown): Planned => {
  const endpoint = resourceOf(resource)?.index
  if (endpoint === undefined) return unavailable('getList', resource)
  return read(params, (p) => {
    const query = listQuery(endpoint, p)
    return typeof query === 'string'
      ? { _tag: 'Send', method: 'GET', path: withQuery(endpoint.path, query), company: endpoint.requiresCompany }
      : query
  })
}

/**
 * getOne: GET `/v1/budgets/{id}`; a resource with an index but no such path is read through its
 * index (`id=<id>`, one record), a missing one is then the service's 404.
 *
 * @example
 * planOne('bank_transactions', 'tx-00001')
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/banking/bank_transactions?_start=0&_end=1&id=tx-00001', company: true }
 * planOne('budgets', '') //=> { _tag: 'Refuse', status: 400, message: 'id is "", not an id' }
 *
 * @category calls
 * @since 0.3.0
 */
export const planOne = (resource: string, id: unknown): Planned => {
  const found = resourceOf(resource)
  if (found?.index === undefined) return unavailable('getOne', resource)
  const text = idText(id)
  if (text === null) return refuse(400, `id is ${describeValue(id)}, not an id`)
  if (found.item !== undefined)
    return { _tag: 'Send', method: 'GET', path: `${found.item.path}/${encodeURIComponent(text)}`, company: true }
  return planList(resource, { pagination: { page: 1, perPage: 1 }, filter: { id: text } })
}

/**
 * getMany: the index with `id[$in]`, in windows of at most 500 ids (the most a `$in` list may
 * hold, well within the 2000 records of a window); the ids once each, in the order given.
 *
 * @example
 * planMany('budgets', ['b-travel', 'b-travel', 'b-marketing'])
 * //=> [{ _tag: 'Send', method: 'GET', path: '/v1/budgets?_start=0&_end=2&id%5B%24in%5D=%5B%22b-travel%22%2C%22b-marketing%22%5D', company: true }]
 * planMany('budgets', []) //=> []
 *
 * @category calls
 * @since 0.3.0
 */
export const planMany = (resource: string, ids: unknown): ReadonlyArray<Send> | Refuse => {
  const endpoint = resourceOf(resource)?.index
  if (endpoint === undefined) return unavailable('getMany', resource)
  if (!Array.isArray(ids)) return refuse(400, `ids is ${describeValue(ids)}, not a list`)
  const texts: Array<string> = []
  for (const id of ids as ReadonlyArray<unknown>) {
    const text = idText(id)
    if (text === null) return refuse(400, `ids holds ${describeValue(id)}, not an id`)
    texts.push(text)
  }
  const distinct = [...new Set(texts)]
  const plans: Array<Send> = []
  for (let at = 0; at < distinct.length; at += MAX_LIST_VALUES) {
    const chunk = distinct.slice(at, at + MAX_LIST_VALUES)
    const query = buildQuery(endpoint, {
      window: { start: 0, end: chunk.length },
      filters: [{ field: 'id', op: '$in', value: chunk }]
    })
    plans.push({ _tag: 'Send', method: 'GET', path: withQuery(endpoint.path, query), company: endpoint.requiresCompany })
  }
  return plans
}

/** Whether two JSON values are the same value (objects by their keys, lists by position). */
const same = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return (
    ka.length === kb.length &&
    ka.every((k) => hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  )
}

/**
 * update: PATCH `/v1/budgets/{id}` with the fields of `data` that differ from `previousData`
 * (all of them without it), under the endpoint's wrapper: `{"budget": {...}}`.
 *
 * @example
 * planUpdate('budgets', { id: 'b-travel', data: { id: 'b-travel', name: 'Trips', access: 'everyone' }, previousData: { id: 'b-travel', name: 'Travel', access: 'everyone' } })
 * //=> { _tag: 'Send', method: 'PATCH', path: '/v1/budgets/b-travel', body: '{"budget":{"name":"Trips"}}', company: true }
 *
 * @category calls
 * @since 0.3.0
 */
export const planUpdate = (resource: string, params: unknown): Planned => {
  const item = resourceOf(resource)?.item
  if (item === undefined) return unavailable('update', resource)
  return read(params, ({ id, data, previousData }) => {
    const text = idText(id)
    if (text === null) return refuse(400, `id is ${describeValue(id)}, not an id`)
    if (!isJsonObject(data)) return refuse(400, `data is ${describeValue(data)}, not an object`)
    const before = isJsonObject(previousData) ? previousData : undefined
    const changes = Object.fromEntries(
      Object.entries(data).filter(
        ([key, value]) => value !== undefined && (before === undefined || !hasOwn(before, key) || !same(value, before[key]))
      )
    )
    return {
      _tag: 'Send',
      method: 'PATCH',
      path: `${item.path}/${encodeURIComponent(text)}`,
      body: JSON.stringify({ [item.wrapper]: changes }),
      company: true
    }
  })
}

/**
 * create: POST `/v1/banking/bank_recipients` with `{"bank_recipient": data}` and an
 * Idempotency-Key, so that a create sent again after a lost reply enrolls no one twice.
 *
 * @example
 * planCreate('bank_recipients', { data: { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-chile', name: 'Ana Pérez' } })
 * //=> { _tag: 'Send', method: 'POST', path: '/v1/banking/bank_recipients', company: true, idempotent: true,
 * //     body: '{"bank_recipient":{"rut":"12.345.678-5","account_number":"0012-3456","bank_id":"bank-chile","name":"Ana Pérez"}}' }
 *
 * @category calls
 * @since 0.3.0
 */
export const planCreate = (resource: string, params: unknown): Planned => {
  const create = resourceOf(resource)?.create
  if (create === undefined) return unavailable('create', resource)
  return read(params, ({ data }) =>
    isJsonObject(data)
      ? {
          _tag: 'Send',
          method: 'POST',
          path: create.path,
          body: JSON.stringify({ [create.wrapper]: data }),
          company: true,
          idempotent: true
        }
      : refuse(400, `data is ${describeValue(data)}, not an object`)
  )
}

/**
 * The service's actions beyond react-admin's methods: POST
 * `/v1/banking/bank_transactions/{id}/authorize` (no body), POST `/v1/budgets/{id}/top_up` and
 * `/withdraw` with `{"amount_cents": n}`; each with an Idempotency-Key, so that a click sent
 * again after a lost reply moves no money twice. An amount that is not a number is the 400 the
 * service would give.
 *
 * @example
 * planAction('top_up', 'b-travel', 5000)
 * //=> { _tag: 'Send', method: 'POST', path: '/v1/budgets/b-travel/top_up', body: '{"amount_cents":5000}', company: true, idempotent: true }
 * planAction('authorize', 'tx-00001')
 * //=> { _tag: 'Send', method: 'POST', path: '/v1/banking/bank_transactions/tx-00001/authorize', company: true, idempotent: true }
 * planAction('withdraw', 'b-travel', '5000') //=> { _tag: 'Refuse', status: 400, message: 'amount_cents is "5000", not a number' }
 *
 * @category calls
 * @since 0.3.0
 */
export const planAction = (action: 'authorize' | 'top_up' | 'withdraw', id: unknown, amount_cents?: unknown): Planned => {
  const text = idText(id)
  if (text === null) return refuse(400, `id is ${describeValue(id)}, not an id`)
  if (action === 'authorize')
    return {
      _tag: 'Send',
      method: 'POST',
      path: `${endpoints.bankTransactions.path}/${encodeURIComponent(text)}/authorize`,
      company: true,
      idempotent: true
    }
  if (typeof amount_cents !== 'number' || !Number.isFinite(amount_cents))
    return refuse(400, `amount_cents is ${describeValue(amount_cents)}, not a number`)
  return {
    _tag: 'Send',
    method: 'POST',
    path: `${endpoints.budgets.path}/${encodeURIComponent(text)}/${action}`,
    body: JSON.stringify({ amount_cents }),
    company: true,
    idempotent: true
  }
}
