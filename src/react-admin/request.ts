/**
 * What a react-admin call asks of the service (R-101), decided before anything is sent: the
 * request to send (method, path with its query, body, which headers), or the refusal of a call
 * the service would refuse for its shape (400) or has no endpoint for (405). Pure: the provider
 * (./provider.ts) does the sending.
 *
 * The paths, bodies' wrappers and Idempotency-Keys are the route table's (`src/api/routes.ts`,
 * which the server mounts and the OpenAPI document describes). The query is written by the client
 * entry's `buildQuery` from the endpoint descriptions the server itself pages with, after the
 * provider's checks of react-admin's parameters (each named as react-admin spells it), then
 * decoded by the service's own page-request decoder: what it refuses is refused here with the
 * service's status and message (a window over 2000 records is its 416), so a call sent is never
 * refused a 400 or a 416.
 *
 * @example
 * planList('bank_transactions', { pagination: { page: 2, perPage: 50 }, sort: { field: 'amount', order: 'DESC' }, filter: { status: 'pending' } })
 * //=> { _tag: 'Send', method: 'GET', path: '/v1/banking/bank_transactions?_start=50&_end=100&_order=desc&_field=amount&status=pending',
 * //     company: true }
 *
 * @since 0.3.0
 */
import { type OperationId, pathOf, type Route, route } from '../api/routes'
import { buildQuery, type FilterSpec } from '../client/query'
import type { Problem } from '../decision/problem'
import type { Operator } from '../paging/filter'
import { type Endpoint, fieldOf, type FieldType } from '../paging/endpoint'
import { describeFieldType, fieldValue, MAX_LIST_VALUES, operatorProblem, operators } from '../paging/filter'
import { decodePageRequest } from '../paging/request'
import { statusAndBody } from '../reply/reply'
import { isWellFormedText } from '../json/well-formed'
import { hasOwn, holdsNul, isJsonObject, sameJson } from '../json/value'
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
 * A call refused before sending: 400 or 416 for a request the service would refuse for its
 * shape (the service's status), 405 for a method the service has no endpoint for; `message`
 * names the field or the method.
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
  readonly status: 400 | 405 | 416
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
 * The service's resources as react-admin names them, and the operation of the route table each
 * of react-admin's methods is: the index (lists, getMany, getOne through the index when there is
 * no `one`), GET and PATCH by id, a create.
 */
const resources: Readonly<
  Record<
    string,
    { readonly list?: OperationId; readonly one?: OperationId; readonly update?: OperationId; readonly create?: OperationId }
  >
> = {
  budgets: { list: 'listBudgets', one: 'getBudget', update: 'updateBudget' },
  bank_transactions: { list: 'listBankTransactions' },
  bank_recipients: { create: 'createBankRecipient' },
  companies: { list: 'listCompanies' },
  decisions: { list: 'listDecisions' }
}

/** The actions beyond react-admin's methods, as operations of the route table. */
const actions = { authorize: 'authorizeBankTransaction', top_up: 'topUpBudget', withdraw: 'withdrawFromBudget' } as const

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const refuse = (status: 400 | 405, message: string): Refuse => ({ _tag: 'Refuse', status, message })

/** The service's refusal of a page request, with its status and message (a 400 or the 416). */
const refusalOf = (p: Problem): Refuse => {
  const { status, body } = statusAndBody(p)
  return { _tag: 'Refuse', status: status as 400 | 416, message: (body as { readonly message: string }).message }
}

/** The request of `r` with its path's parameters and its body under the route's wrapper. */
const send = (r: Route, parameters: Readonly<Record<string, string>>, body?: unknown): Send => ({
  _tag: 'Send',
  method: r.method.toUpperCase() as Send['method'],
  path: pathOf(r, parameters),
  ...(r.body === null ? {} : { body: JSON.stringify(r.body.wrapper === null ? body : { [r.body.wrapper]: body }) }),
  company: r.company,
  ...(r.idempotent ? { idempotent: true } : {})
})

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

/** The index endpoint of a resource, or undefined when it has none. */
const indexOf = (resource: unknown): Endpoint | undefined => {
  const list = resourceOf(resource)?.list
  return list === undefined ? undefined : (route(list).index ?? undefined)
}

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
  holdsNul(text) ? 'holds a NUL character' : !isWellFormedText(text) ? 'holds a lone surrogate' : null

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
  const refused = operatorProblem(field, type, op as Operator)
  if (refused !== null) return refused
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
  const query = buildQuery(endpoint, {
    ...(window === undefined ? {} : { window }),
    ...(order === undefined ? {} : { order }),
    ...(field === undefined ? {} : { field }),
    filters
  })
  // The service's own decoder has the last word (a window over 2000 records is its 416).
  const decoded = decodePageRequest(endpoint, query).result
  return decoded._tag === 'Left' ? refusalOf(decoded.left) : query
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
 * //=> { _tag: 'Refuse', status: 416, message: 'Requested page size 5000 exceeds maximum of 2000' }
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
  const endpoint = indexOf(resource)
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
  if (indexOf(resource) === undefined) return unavailable('getOne', resource)
  const text = idText(id)
  if (text === null) return refuse(400, `id is ${describeValue(id)}, not an id`)
  const one = resourceOf(resource)?.one
  if (one !== undefined) return send(route(one), { id: text })
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
  const endpoint = indexOf(resource)
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
  const update = resourceOf(resource)?.update
  if (update === undefined) return unavailable('update', resource)
  return read(params, ({ id, data, previousData }) => {
    const text = idText(id)
    if (text === null) return refuse(400, `id is ${describeValue(id)}, not an id`)
    if (!isJsonObject(data)) return refuse(400, `data is ${describeValue(data)}, not an object`)
    const before = isJsonObject(previousData) ? previousData : undefined
    const changes = Object.fromEntries(
      Object.entries(data).filter(
        ([key, value]) => value !== undefined && (before === undefined || !hasOwn(before, key) || !sameJson(value, before[key]))
      )
    )
    return send(route(update), { id: text }, changes)
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
    isJsonObject(data) ? send(route(create), {}, data) : refuse(400, `data is ${describeValue(data)}, not an object`)
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
  if (action === 'authorize') return send(route(actions.authorize), { id: text })
  if (typeof amount_cents !== 'number' || !Number.isFinite(amount_cents))
    return refuse(400, `amount_cents is ${describeValue(amount_cents)}, not a number`)
  return send(route(actions[action]), { id: text }, { amount_cents })
}
