/**
 * The decision service's answer to one case (R-130): the facade's reply to it, the budget to
 * persist and the decision record, as `POST /v1/decide` sends them, so that a server in any
 * language gets from the service what a JavaScript server gets by embedding the library. Pure:
 * the instant of the record and the key's id come in from the caller.
 *
 * A case is what `budget-rules decide` reads and a record keeps (R-120): `{ endpoint, request,
 * session, ..., request_id? }`, with `method` and `path` optional (the record's request line;
 * by default the endpoint's route with the case's ids in it, `-` for one it does not hold, such
 * as the id of a budget not found: a server sends the path it was asked then). What is not a case is refused with
 * the path of the field at fault; a case whose content is wrong (a budget without `today`, a role
 * spelled `Admin`) is answered, as the facade answers it: the 500 that names the mistake.
 *
 * @example
 * const c = { endpoint: 'budget.top_up', request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }
 * const { right } = answerCase(c, { at: '2026-11-22T12:00:00Z' }) as { right: Answer }
 * right.status //=> 200
 * right.budget?.balance_cents //=> 25000
 * right.record?.path //=> '/v1/budgets/b-1/top_up'
 * right.record?.changes //=> [{ field: 'balance_cents', before: 20000, after: 25000 }]
 * answerCase({ endpoint: 'budget.close' }, { at: '2026-11-22T12:00:00Z' })
 * //=> left('endpoint is "budget.close", not one of budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, transaction.authorize, recipient.enroll, index.companies, role.assign, index.decisions')
 *
 * @since 0.5.0
 */
import { either as E } from 'fp-ts'
import { type Route, routes } from '../api/routes'
import { bearerKey } from '../auth/session'
import { decisionEndpoints, type DecisionEndpoint, isDecisionEndpoint } from '../decision/endpoints'
import type { Reason } from '../decision/rules'
import { headerOf } from '../http/headers'
import { describeValue, typeError } from '../json/describe'
import { isJsonObject } from '../json/value'
import type { AnyReply } from '../reply/reply'
import { decideAs, type JsonObject } from './case'
import { type DecisionRecord, decisionRecord } from './record'
import { sha256Hex } from './sha256'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The answer to a case: the facade's reply (`status`, `headers`, `body`, `reasons`), the budget
 * to persist (a mutation's 200; else null) and the decision record (null when it cannot be kept
 * whole and masked: a case nested deeper than a record keeps).
 *
 * @example
 * const answer: Answer = { status: 401, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [], budget: null, record: null }
 * answer.status //=> 401
 *
 * @category model
 * @since 0.5.0
 */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly reasons: ReadonlyArray<Reason>
  readonly budget: JsonObject | null
  readonly record: DecisionRecord | null
}

/**
 * What the caller of {@link answerCase} knows besides the case: the instant of the decision,
 * the request id a case without one takes, where the case sits in what was sent (`cases[3]`,
 * named in a refusal), how an API key becomes its id (by default the first 16 hex digits of
 * its SHA-256, as the reference server names keys), and whether the record is made at all
 * (`recorded: false`, for a caller that neither sends nor keeps it: `record` is then null, and
 * nothing is spent on it).
 *
 * @example
 * const meta: AnswerMeta = { at: '2026-11-22T12:00:00Z', request_id: 'req-7', at_path: 'cases[3]' }
 * meta.at_path //=> 'cases[3]'
 * const c = { endpoint: 'budget.get', request: { headers }, session, budget, today: '2026-11-22' }
 * const { right } = answerCase(c, { at: '2026-11-22T12:00:00Z', recorded: false }) as { right: Answer }
 * right.record //=> null
 *
 * @category model
 * @since 0.5.0
 */
export interface AnswerMeta {
  /** The instant of the decision, ISO-8601 with an offset: the record's `at`. */
  readonly at: string
  /** The request id of a case that names none. */
  readonly request_id?: string
  /** Where the case sits in what was sent (`cases[3]`), named in a refusal. */
  readonly at_path?: string
  /** The id of an API key, which a record names instead of the key; by default the first 16 hex digits of its SHA-256. */
  readonly keyId?: (key: string) => string
  /** Whether the record is made (true by default). */
  readonly recorded?: boolean
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const requestOf = (c: JsonObject): JsonObject => (isJsonObject(c.request) ? c.request : {})

/** A path segment as a route writes it, or `-` for an id the case does not give. */
const segment = (u: unknown): string => (typeof u === 'string' && u !== '' ? encodeURIComponent(u) : '-')

const idOf = (o: unknown): string => segment(isJsonObject(o) ? o.id : undefined)

/** What a route's `{id}` names in a case: the company of a membership, the transaction, else the budget. */
const routeId = (endpoint: DecisionEndpoint, c: JsonObject): string =>
  endpoint === 'role.assign'
    ? segment(headerOf(requestOf(c).headers, 'company-id'))
    : idOf(endpoint === 'transaction.authorize' ? c.transaction : c.budget)

/** The request line of the endpoint's route (src/api/routes.ts) for a case: its ids in the path, an index's query after it. */
const requestLine = (endpoint: DecisionEndpoint, c: JsonObject): { readonly method: string; readonly path: string } => {
  const route = routes.find((r) => r.endpoint === endpoint) as Route
  const path = route.path.replace('{id}', routeId(endpoint, c)).replace('{user_id}', segment(c.user_id))
  return { method: route.method.toUpperCase(), path: route.index === null ? path : `${path}${queryOf(c)}` }
}

const queryOf = (c: JsonObject): string => {
  const query = requestOf(c).query
  if (typeof query !== 'string' || query === '') return ''
  return query.startsWith('?') ? query : `?${query}`
}

/** The refusal of what is not a case, naming the field at fault under `at` (empty: the case itself). */
const refuse = (at: string, field: string, why: string): E.Either<string, never> =>
  E.left(`${at === '' ? (field === '' ? 'the case' : field) : field === '' ? at : `${at}.${field}`} ${why}`)

const defaultKeyId = (key: string): string => sha256Hex(key).slice(0, 16)

const META = 'an AnswerMeta: { at: text, request_id?: text, at_path?: text, keyId?: a function, recorded?: a boolean }'

/** Whether `u` is what {@link AnswerMeta} says, read once: the caller's, unlike the case, is typed. */
const isMeta = (u: unknown): u is AnswerMeta => {
  if (typeof u !== 'object' || u === null) return false
  const { at, request_id, at_path, keyId, recorded } = u as Readonly<Record<string, unknown>>
  return (
    typeof at === 'string' &&
    (request_id === undefined || typeof request_id === 'string') &&
    (at_path === undefined || typeof at_path === 'string') &&
    (keyId === undefined || typeof keyId === 'function') &&
    (recorded === undefined || typeof recorded === 'boolean')
  )
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The answer to `c`, a case as parsed from JSON, or why it is not one: not an object, an
 * `endpoint` that is no decision endpoint, a `method` or `path` that is not text, or an index
 * case that asks for a page without its `records`. Any `c` is answered or refused; a `meta`
 * outside its type is a TypeError naming it (R-19).
 *
 * Law: for a case `c` of a facade endpoint, the answer's `status`, `headers`, `body` and
 * `reasons` are the facade's reply to `c`, and its record is `decisionRecord` of that call.
 *
 * @example
 * const c = { endpoint: 'budget.update', request: { headers, body: '{"budget":{"name":"Trips"}}' }, session, budget, today: '2026-11-22' }
 * const { right } = answerCase(c, { at: '2026-11-22T12:00:00Z', request_id: 'req-9' }) as { right: Answer }
 * [right.status, right.headers['X-Request-Id'], right.budget?.name] //=> [200, 'req-9', 'Trips']
 * right.record?.case?.request //=> { headers: { authorization: 'Bearer key:8254c329a92850f6', 'company-id': 'c-1' }, body: '{"budget":{"name":"Trips"}}' }
 * answerCase([], { at: '2026-11-22T12:00:00Z', at_path: 'cases[0]' }) //=> left('cases[0] is an array, not a case (a JSON object)')
 * answerCase({ endpoint: 'index.companies', request: { headers, query: '_start=0&_end=10' }, session }, { at: '2026-11-22T12:00:00Z' })
 * //=> left('records is missing: an index case that asks for a page is answered over its records')
 * answerCase({}, { at: 1 } as never)
 * //=> throws TypeError('answerCase: meta is an object, not an AnswerMeta: { at: text, request_id?: text, at_path?: text, keyId?: a function, recorded?: a boolean }')
 *
 * @category constructors
 * @since 0.5.0
 */
export const answerCase = (c: unknown, meta: AnswerMeta): E.Either<string, Answer> => {
  if (!isMeta(meta)) throw typeError('answerCase', 'meta', meta, META)
  const at = meta.at_path ?? ''
  if (!isJsonObject(c)) return refuse(at, '', `is ${describeValue(c)}, not a case (a JSON object)`)
  const { endpoint, method, path } = c
  if (!isDecisionEndpoint(endpoint))
    return refuse(at, 'endpoint', `is ${describeValue(endpoint)}, not one of ${decisionEndpoints.join(', ')}`)
  if (method !== undefined && typeof method !== 'string') return refuse(at, 'method', `is ${describeValue(method)}, not text`)
  if (path !== undefined && typeof path !== 'string') return refuse(at, 'path', `is ${describeValue(path)}, not text`)
  // The case itself is the context: a facade reads the keys it knows, and a record keeps no other.
  const context: JsonObject = c.request_id === undefined ? { ...c, request_id: meta.request_id ?? '' } : c
  const decided = decideAs(endpoint, context)
  const reply: AnyReply | null =
    decided._tag === 'Reply' ? decided.reply : decided.plan._tag === 'Reply' ? decided.plan.reply : null
  if (reply === null) return refuse(at, 'records', 'is missing: an index case that asks for a page is answered over its records')
  const budget = (reply as { readonly budget?: unknown }).budget
  return E.right({
    status: reply.status,
    headers: reply.headers,
    body: reply.body,
    reasons: reply.reasons,
    budget: isJsonObject(budget) ? budget : null,
    record: meta.recorded === false ? null : recordOf(endpoint, context, reply, meta, method, path)
  })
}

/** The record of a case answered, or null when it cannot be kept whole and masked. */
const recordOf = (
  endpoint: DecisionEndpoint,
  context: JsonObject,
  reply: AnyReply,
  meta: AnswerMeta,
  method: string | undefined,
  path: string | undefined
): DecisionRecord | null => {
  const route = requestLine(endpoint, context)
  const key = bearerKey(requestOf(context).headers as never)
  const record = decisionRecord(endpoint, context as never, reply, {
    at: meta.at,
    key_id: key === undefined ? null : (meta.keyId ?? defaultKeyId)(key),
    method: method ?? route.method,
    path: path ?? route.path
  })
  return E.isRight(record) ? record.right : null
}
