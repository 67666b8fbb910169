/**
 * The case of a decision: the facade's whole input as plain JSON, as `budget-rules decide` reads
 * it, `{ endpoint, request, session, ..., request_id }`, so that it can be decided again.
 * Nothing secret is kept: of the request's headers only those a facade reads stay (`Authorization`
 * and `company-id`, the others erased), and the bearer key becomes `Bearer key:<key_id>`, which
 * the rules read as they read any key (masked). An index case keeps no records.
 *
 * @example
 * const { right } = caseOf('budget.top_up', { request: { headers: { ...headers, 'User-Agent': 'curl' }, body: '{"amount_cents":1}' },
 *   session, budget, today: '2026-11-22', request_id: 'req-1' }, '3f1a') as { right: MaskedCase }
 * right.case.request //=> { headers: { authorization: 'Bearer key:3f1a', 'company-id': 'c-1' }, body: '{"amount_cents":1}' }
 * right.masked //=> ['case.request.headers.authorization']
 * right.erased //=> ['case.request.headers.user-agent']
 *
 * @since 0.4.0
 */
import { either as E } from 'fp-ts'
import { bearerKey } from '../auth/session'
import { budgetFields } from '../budget/model'
import { type DecisionEndpoint, isDecisionEndpoint } from '../decision/endpoints'
import { respondAuthorizeTransaction, transactionFields } from '../facade/authorize-transaction'
import { respondBankRecipient } from '../facade/bank-recipient'
import { respondBudget } from '../facade/budget-read'
import { respondBudgetUpdate } from '../facade/budget-update'
import { type IndexPlan, planIndex, respondIndex } from '../facade/index-endpoint'
import { respondAmount, respondTopUp, respondWithdraw } from '../facade/money'
import { respondRoleAssignment } from '../facade/role-assignment'
import { headerOf } from '../http/headers'
import { describeValue } from '../json/describe'
import { isJsonObject } from '../json/value'
import { type Endpoint, endpoints } from '../paging/endpoint'
import type { AnyReply } from '../reply/reply'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A JSON object: what a case is, and what a record holds.
 *
 * @example
 * const o: JsonObject = { a: [1, 'b', null] }
 * o.a //=> [1, 'b', null]
 *
 * @category model
 * @since 0.4.0
 */
export interface JsonObject {
  readonly [key: string]: unknown
}

/**
 * A case with what was masked and erased on the way, each as the path of a record's field.
 *
 * @example
 * const masked: MaskedCase = { case: { endpoint: 'index.companies', request: { headers: {} }, session, request_id: 'r' }, masked: [], erased: [] }
 * masked.case.endpoint //=> 'index.companies'
 *
 * @category model
 * @since 0.4.0
 */
export interface MaskedCase {
  readonly case: JsonObject
  readonly masked: ReadonlyArray<string>
  readonly erased: ReadonlyArray<string>
}

/**
 * A case decided: the reply, or for an index case (its records are not kept) the plan, which is
 * a reply already unless the request asked for a page.
 *
 * @example
 * const { right } = decideCase({ endpoint: 'index.companies', request: { headers: {} }, session, request_id: 'r' }) as { right: Decided }
 * right._tag === 'Plan' && right.plan._tag //=> 'Reply'
 *
 * @category model
 * @since 0.4.0
 */
export type Decided = { readonly _tag: 'Reply'; readonly reply: AnyReply } | { readonly _tag: 'Plan'; readonly plan: IndexPlan }

// -------------------------------------------------------------------------------------
// endpoints
// -------------------------------------------------------------------------------------

/** What each decision is made of besides the request and the session, and who decides it. */
type Kind =
  | {
      readonly _tag: 'Facade'
      readonly facade: (context: never) => AnyReply
      readonly keys: ReadonlyArray<string>
      /** The trusted object read field by field, and its fields. */
      readonly stored?: { readonly key: string; readonly fields: ReadonlyArray<string> }
    }
  | { readonly _tag: 'Index'; readonly endpoint: Endpoint }

const budgetKeys = ['today', 'company_member_ids']
const budgetStored = { key: 'budget', fields: budgetFields }
const budgetFacade = (facade: (context: never) => AnyReply): Kind => ({
  _tag: 'Facade',
  facade,
  keys: budgetKeys,
  stored: budgetStored
})

const kinds: { readonly [E in DecisionEndpoint]: Kind } = {
  'budget.get': /*#__PURE__*/ budgetFacade(respondBudget),
  'budget.update': /*#__PURE__*/ budgetFacade(respondBudgetUpdate),
  'budget.top_up': /*#__PURE__*/ budgetFacade(respondTopUp),
  'budget.withdraw': /*#__PURE__*/ budgetFacade(respondWithdraw),
  'budget.amount': /*#__PURE__*/ budgetFacade(respondAmount),
  'index.budgets': { _tag: 'Index', endpoint: endpoints.budgets },
  'index.bank_transactions': { _tag: 'Index', endpoint: endpoints.bankTransactions },
  'transaction.authorize': {
    _tag: 'Facade',
    facade: respondAuthorizeTransaction,
    keys: [],
    stored: { key: 'transaction', fields: transactionFields }
  },
  'recipient.enroll': { _tag: 'Facade', facade: respondBankRecipient, keys: ['bank_ids', 'enrolled'] },
  'index.companies': { _tag: 'Index', endpoint: endpoints.companies },
  'role.assign': { _tag: 'Facade', facade: respondRoleAssignment, keys: ['user_id', 'company_member_ids'] },
  'index.decisions': { _tag: 'Index', endpoint: endpoints.decisions }
}

/**
 * The index endpoint a decision pages, or null for a facade of one resource.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * indexOf('index.companies') === endpoints.companies //=> true
 * indexOf('budget.update') //=> null
 *
 * @category utils
 * @since 0.4.0
 */
export const indexOf = (endpoint: DecisionEndpoint): Endpoint | null => {
  const kind = kinds[endpoint]
  return kind._tag === 'Index' ? kind.endpoint : null
}

// -------------------------------------------------------------------------------------
// JSON
// -------------------------------------------------------------------------------------

/** Deeper than any case the facades take (a session's memberships are three levels down). */
const MAX_DEPTH = 32

/** Why a value cannot be kept: not JSON, too deep, or unreadable. */
class NotJson extends Error {}

/**
 * A plain JSON copy of `u`, read by property access (own enumerable keys), or a `NotJson`
 * naming what is not JSON: a record keeps exactly what decides again the same, or nothing.
 */
const jsonCopy = (u: unknown, at: string, depth = 0): unknown => {
  if (u === null || typeof u === 'string' || typeof u === 'boolean') return u
  if (typeof u === 'number') {
    if (Number.isFinite(u)) return u
    throw new NotJson(`${at} is ${describeValue(u)}, not JSON`)
  }
  if (typeof u !== 'object') throw new NotJson(`${at} is ${describeValue(u)}, not JSON`)
  if (depth >= MAX_DEPTH) throw new NotJson(`${at} is nested deeper than ${MAX_DEPTH}`)
  if (Array.isArray(u)) return u.map((v: unknown, i) => jsonCopy(v, `${at}[${i}]`, depth + 1))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(u)) {
    const value: unknown = (u as Readonly<Record<string, unknown>>)[key]
    if (value !== undefined) define(copy, key, jsonCopy(value, `${at}.${key}`, depth + 1))
  }
  return copy
}

/**
 * Sets an own enumerable key, as JSON.parse does: by assignment, but `__proto__`, which
 * assignment would take for the prototype (defining every key costs a record a third of its time).
 */
const define = (o: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true })
  else o[key] = value
}

/** A stored object's fields read by name, each once, in order; a value that is no object kept as it is. */
const storedCopy = (u: unknown, fields: ReadonlyArray<string>, at: string): unknown => {
  if (typeof u !== 'object' || u === null) return jsonCopy(u, at)
  const copy: Record<string, unknown> = {}
  for (const field of fields) {
    const value: unknown = (u as Readonly<Record<string, unknown>>)[field]
    if (value !== undefined) define(copy, field, jsonCopy(value, `${at}.${field}`, 1))
  }
  return copy
}

// -------------------------------------------------------------------------------------
// masking
// -------------------------------------------------------------------------------------

/** The headers a facade reads; any other is left out of a case. */
const CASE_HEADERS = ['authorization', 'company-id'] as const

/** What an Authorization header that is no bearer key becomes: still no bearer key to the rules. */
const NOT_A_BEARER = 'masked'

/** The names of the headers given, lower case, as far as they can be listed. */
const headerNames = (headers: unknown): ReadonlyArray<string> => {
  if (typeof headers !== 'object' || headers === null) return []
  const keys = (headers as { readonly keys?: unknown }).keys
  const names: ReadonlyArray<unknown> =
    typeof keys === 'function' ? [...(keys.call(headers) as Iterable<unknown>)] : Object.keys(headers)
  return names.filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase())
}

/**
 * The request's headers as a case keeps them: Authorization as `Bearer key:<key_id>` (or
 * `masked` when it holds no bearer key), company-id as the rules read it, nothing else.
 */
const caseHeaders = (headers: unknown, keyId: string | null) => {
  const kept: Record<string, string> = {}
  const masked: Array<string> = []
  const authorization = headerOf(headers, 'authorization')
  if (authorization !== undefined) {
    kept.authorization = bearerKey(headers as never) === undefined ? NOT_A_BEARER : `Bearer key:${keyId ?? 'unknown'}`
    masked.push('case.request.headers.authorization')
  }
  const company = headerOf(headers, 'company-id')
  if (company !== undefined) kept['company-id'] = company
  const erased = [...new Set(headerNames(headers).filter((n) => !(CASE_HEADERS as ReadonlyArray<string>).includes(n)))]
    .sort()
    .map((n) => `case.request.headers.${n}`)
  return { headers: kept, masked, erased }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** A key of the context, read once. */
const read = (context: object, key: string): unknown => (context as Readonly<Record<string, unknown>>)[key]

/**
 * The case of one facade call: its whole input as plain JSON with the secrets masked, or why it
 * cannot be kept (a value that is not JSON, a getter that throws): then no record is better than
 * one that leaks or decides otherwise. `keyId` is the API key's id, never the key.
 *
 * @example
 * const refused = caseOf('budget.update', { request: { headers }, session, budget: { ...budget, balance_cents: 10n }, today: '2026-11-22', request_id: 'r' }, null)
 * refused //=> left('case.budget.balance_cents is 10n, not JSON')
 *
 * @category constructors
 * @since 0.4.0
 */
export const caseOf = (endpoint: DecisionEndpoint, context: unknown, keyId: string | null): E.Either<string, MaskedCase> => {
  try {
    if (typeof context !== 'object' || context === null) return E.left(`the context is ${describeValue(context)}, not an object`)
    const kind = kinds[endpoint]
    const request = read(context, 'request')
    if (typeof request !== 'object' || request === null) return E.left(`the request is ${describeValue(request)}, not an object`)
    const { headers, masked, erased } = caseHeaders(read(request, 'headers'), keyId)
    const kept: Record<string, unknown> = { headers }
    for (const key of kind._tag === 'Index' ? ['query'] : ['body']) {
      const value = read(request, key)
      if (value !== undefined) kept[key] = jsonCopy(value, `case.request.${key}`)
    }
    const c: Record<string, unknown> = { endpoint, request: kept, session: jsonCopy(read(context, 'session'), 'case.session') }
    if (kind._tag === 'Facade') {
      if (kind.stored !== undefined)
        c[kind.stored.key] = storedCopy(read(context, kind.stored.key), kind.stored.fields, `case.${kind.stored.key}`)
      for (const key of kind.keys) {
        const value = read(context, key)
        if (value !== undefined) c[key] = jsonCopy(value, `case.${key}`)
      }
    }
    c.request_id = jsonCopy(read(context, 'request_id'), 'case.request_id')
    return E.right({ case: c, masked, erased })
  } catch (e) {
    return E.left(
      e instanceof NotJson ? e.message : `the context could not be read: ${e instanceof Error ? e.message : describeValue(e)}`
    )
  }
}

/**
 * Decides a case again with the library at hand: the facade its `endpoint` names over the rest
 * of it. An index case with `records` is answered whole ({@link respondIndex}); without them (a
 * recorded one) it is planned. A case that names no decision endpoint is refused. Never throws.
 *
 * @example
 * const { right } = decideCase({ endpoint: 'budget.get', request: { headers }, session, budget, today: '2026-11-22', request_id: 'r' }) as { right: Decided }
 * right._tag === 'Reply' && right.reply.status //=> 200
 * decideCase({ endpoint: 'budget.close' }) //=> left('endpoint is "budget.close", not a decision endpoint')
 *
 * @category utils
 * @since 0.4.0
 */
export const decideCase = (c: unknown): E.Either<string, Decided> => {
  if (!isJsonObject(c)) return E.left(`a case is a JSON object, not ${describeValue(c)}`)
  let endpoint: unknown
  let context: JsonObject
  try {
    ;({ endpoint, ...context } = c)
  } catch (e) {
    return E.left(`the case could not be read: ${e instanceof Error ? e.message : describeValue(e)}`)
  }
  return isDecisionEndpoint(endpoint)
    ? E.right(decideAs(endpoint, context))
    : E.left(`endpoint is ${describeValue(endpoint)}, not a decision endpoint`)
}

/**
 * Decides the rest of a case (all but `endpoint`) as `endpoint` does: {@link decideCase} once
 * the endpoint is known.
 *
 * @example
 * decideAs('index.companies', { request: { headers: {} }, session, request_id: 'r' })._tag //=> 'Plan'
 *
 * @category utils
 * @since 0.4.0
 */
export const decideAs = (endpoint: DecisionEndpoint, context: JsonObject): Decided => {
  const kind = kinds[endpoint]
  if (kind._tag === 'Facade') return { _tag: 'Reply', reply: kind.facade(context as never) }
  const indexed = { ...context, endpoint: kind.endpoint }
  return Object.hasOwn(context, 'records')
    ? { _tag: 'Reply', reply: respondIndex(indexed as never) }
    : { _tag: 'Plan', plan: planIndex(indexed as never) }
}
