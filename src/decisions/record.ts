/**
 * The record of one decision: what came in (the case, masked), who asked, which rules
 * decided, what was answered and what changed, built by a pure function from the facade's input
 * and reply, so that any server embedding the library keeps the same records as the reference
 * server does. A record that cannot be built without leaking or losing what decided (a value
 * that is not JSON, a getter that throws) is refused: the caller drops it and counts it.
 *
 * @example
 * import { respondTopUp } from 'budget-rules'
 *
 * const context = { request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }
 * const reply = respondTopUp(context)
 * const { right } = decisionRecord('budget.top_up', context, reply, { at: '2026-11-22T12:00:00Z', key_id: '3f1a', method: 'POST', path: '/v1/budgets/b-1/top_up' }) as { right: DecisionRecord }
 * right.rules.slice(-2) //=> ['money.validation', 'money.apply']
 * right.changes //=> [{ field: 'balance_cents', before: 20000, after: 25000 }]
 * right.case.request //=> { headers: { authorization: 'Bearer key:3f1a', 'company-id': 'c-1' }, body: '{"amount_cents":5000}' }
 *
 * @since 0.4.0
 */
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import { parseInstant } from '../calendar/instant'
import { type DecisionEndpoint, isDecisionEndpoint } from '../decision/endpoints'
import type { Reason } from '../decision/rules'
import { headerOf } from '../http/headers'
import { describeValue } from '../json/describe'
import { isJsonObject, sameJson } from '../json/value'
import type { AuthorizeTransactionContext } from '../facade/authorize-transaction'
import type { BankRecipientContext } from '../facade/bank-recipient'
import type { BudgetContext } from '../facade/budget-context'
import type { BudgetIndexContext } from '../facade/budget-index'
import type { IndexContext, IndexPageContext, IndexQueryContext } from '../facade/index-endpoint'
import type { RoleAssignmentContext } from '../facade/role-assignment'
import { caseOf, indexOf, type JsonObject, type MaskedCase } from './case'
import { keptBody } from './kept-body'
import { passedMembership } from './membership'
import { LIBRARY_VERSION } from './version'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

const nullableString = /*#__PURE__*/ t.union([t.string, t.null])

/** An ISO-8601 instant with its offset, as R-46 reads one. */
const InstantText = /*#__PURE__*/ t.refinement(t.string, (s) => parseInstant(s) !== null, 'Instant')

const HttpStatus = /*#__PURE__*/ t.refinement(t.number, (n) => Number.isInteger(n) && n >= 100 && n <= 599, 'HttpStatus')

const JsonObjectCodec = /*#__PURE__*/ new t.Type<JsonObject>(
  'JsonObject',
  (u): u is JsonObject => isJsonObject(u),
  (u, c) => (isJsonObject(u) ? t.success(u) : t.failure(u, c)),
  t.identity
)

/**
 * A field changed by a decision: its value before and after.
 *
 * @example
 * Change.is({ field: 'name', before: 'Travel', after: 'Trips' }) //=> true
 *
 * @category codecs
 * @since 0.4.0
 */
export const Change = /*#__PURE__*/ t.type({ field: t.string, before: t.unknown, after: t.unknown }, 'Change')

/**
 * The reply a record keeps: status, headers and body as the facade gave them (for an index
 * page, the body is the ids of the page's records).
 *
 * @example
 * RecordedReply.is({ status: 401, headers: { 'X-Request-Id': 'r' }, body: null }) //=> true
 *
 * @category codecs
 * @since 0.4.0
 */
export const RecordedReply = /*#__PURE__*/ t.type(
  { status: HttpStatus, headers: t.record(t.string, t.string), body: t.unknown },
  'RecordedReply'
)

/**
 * The codec of a decision record: what `GET /v1/decisions`, `budget-rules decisions
 * export` and `replay` read. `endpoint` and `rules` are any strings, so that a record of another
 * version of the library still decodes (and replays as not replayable, or differs).
 *
 * @example
 * DecisionRecord.is({ request_id: 'r' }) //=> false
 *
 * @category codecs
 * @since 0.4.0
 */
export const DecisionRecord = /*#__PURE__*/ t.type(
  {
    request_id: t.string,
    at: InstantText,
    company_id: nullableString,
    actor_id: nullableString,
    key_id: nullableString,
    endpoint: t.string,
    method: t.string,
    path: t.string,
    resource_id: nullableString,
    idempotency_key: nullableString,
    replay_of: nullableString,
    status: HttpStatus,
    rules: t.array(t.string),
    case: t.union([JsonObjectCodec, t.null]),
    reply: RecordedReply,
    changes: t.array(Change),
    masked: t.array(t.string),
    erased: t.array(t.string),
    library_version: t.string
  },
  'DecisionRecord'
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The context each decision endpoint's facade takes, so that {@link decisionRecord} is given the
 * context of the endpoint it names: a budget's context recorded as `role.assign`, or an index's
 * as `budget.update`, does not type-check. (The five budget endpoints share one context, so
 * their names are not told apart by type; the record's replay tells them apart.)
 *
 * @example
 * const context: DecisionContexts['budget.top_up'] = { request: { headers, body: '{"amount_cents":100}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }
 * context.today //=> '2026-11-22'
 *
 * @category model
 * @since 0.5.0
 */
export interface DecisionContexts {
  readonly 'budget.get': BudgetContext
  readonly 'budget.update': BudgetContext
  readonly 'budget.top_up': BudgetContext
  readonly 'budget.withdraw': BudgetContext
  readonly 'budget.amount': BudgetContext
  // An index's context: over records in memory, a page from the database, or the query alone.
  readonly 'index.budgets': BudgetIndexContext | IndexContext | IndexPageContext | IndexQueryContext
  readonly 'index.bank_transactions': IndexContext | IndexPageContext | IndexQueryContext
  readonly 'index.companies': IndexContext | IndexPageContext | IndexQueryContext
  readonly 'index.decisions': IndexContext | IndexPageContext | IndexQueryContext
  readonly 'transaction.authorize': AuthorizeTransactionContext
  readonly 'recipient.enroll': BankRecipientContext
  readonly 'role.assign': RoleAssignmentContext
}

/**
 * A decision record: `request_id`; `at`, the instant of the decision; `company_id` as
 * sent, when the caller passed `auth.membership` for it, else null; `actor_id`, the
 * session's user (or null); `key_id`, an id of the API key that cannot be reversed into it (never
 * the key); `endpoint`; `method` and `path` (with its query); `resource_id`; `idempotency_key`;
 * `replay_of`, the request whose reply an Idempotency-Key replayed (then `case` is null: nothing
 * was decided); `status`; `rules`, the reply's rule ids in order; `case`, the facade's input
 * (its body erased to `{ erased: 'body', bytes, sha256 }` for a caller refused before
 * `auth.membership`, or over 16 KiB); `reply`; `changes`; `masked` and `erased`, the paths of the
 * case that were masked or left out; `library_version`.
 *
 * @example
 * const record: DecisionRecord | null = null
 * record //=> null
 *
 * @category model
 * @since 0.4.0
 */
export type DecisionRecord = t.TypeOf<typeof DecisionRecord>

/**
 * What the facade replied, as a record reads it.
 *
 * @example
 * const reply: FacadeReply = { status: 401, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [] }
 * reply.status //=> 401
 *
 * @category model
 * @since 0.4.0
 */
export interface FacadeReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly reasons: ReadonlyArray<Reason>
}

/**
 * What the server knows of a request that the facade's input does not say: when, which key (its
 * id), the request line, and where it applies.
 *
 * @example
 * const meta: RecordMeta = { at: '2026-11-22T12:00:00Z', key_id: null, method: 'GET', path: '/v1/companies' }
 * meta.method //=> 'GET'
 *
 * @category model
 * @since 0.4.0
 */
export interface RecordMeta {
  /** The instant of the decision, ISO-8601 with an offset. */
  readonly at: string
  /** A stable id of the API key that cannot be reversed (the reference server: the first 16 hex digits of its SHA-256), or null. */
  readonly key_id: string | null
  readonly method: string
  /** The path, with its query string. */
  readonly path: string
  /** The resource the request names; by default the budget, transaction or user of the case. */
  readonly resource_id?: string | null
  readonly idempotency_key?: string | null
}

/**
 * Why no record was made.
 *
 * @example
 * decisionRecord('budget.close' as DecisionEndpoint, {}, { status: 200, headers: {}, body: null, reasons: [] }, { at: '2026-11-22T12:00:00Z', key_id: null, method: 'GET', path: '/' })
 * //=> left({ _tag: 'Unrecordable', detail: 'endpoint is "budget.close", not a decision endpoint' })
 *
 * @category model
 * @since 0.4.0
 */
export interface Unrecordable {
  readonly _tag: 'Unrecordable'
  readonly detail: string
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const unrecordable = (detail: string): E.Either<Unrecordable, never> => E.left({ _tag: 'Unrecordable', detail })

/** `build`, or the refusal of what it could not read (a reply that is no object, a getter that throws): never an exception. */
const readWhole = (what: string, build: () => E.Either<Unrecordable, DecisionRecord>): E.Either<Unrecordable, DecisionRecord> => {
  try {
    return build()
  } catch (e) {
    return unrecordable(`${what} could not be read: ${e instanceof Error ? e.message : describeValue(e)}`)
  }
}

/** The ids of an index page's records, whatever its envelope. */
const pageIds = (body: unknown): unknown => {
  const records: unknown = isJsonObject(body) ? body.data : body
  return Array.isArray(records) ? records.map((r: unknown) => (isJsonObject(r) ? r.id : null)) : body
}

/** Each field whose value differs between two objects, in the order of `after`'s keys. */
const fieldChanges = (before: unknown, after: unknown): Array<t.TypeOf<typeof Change>> => {
  if (!isJsonObject(after)) return []
  const old: Readonly<Record<string, unknown>> = isJsonObject(before) ? before : {}
  return Object.keys(after)
    .filter((field) => !sameJson(old[field] ?? null, after[field] ?? null))
    .map((field) => ({ field, before: old[field] ?? null, after: after[field] ?? null }))
}

/** What a successful mutation changed; nothing for a read or a refusal. */
const changesOf = (endpoint: DecisionEndpoint, c: JsonObject, reply: FacadeReply): Array<t.TypeOf<typeof Change>> => {
  const { status, body } = reply
  switch (endpoint) {
    case 'budget.update':
    case 'budget.top_up':
    case 'budget.withdraw':
    case 'budget.amount':
      return status === 200 ? fieldChanges(c.budget, (reply as { readonly budget?: unknown }).budget) : []
    case 'transaction.authorize':
      return status === 200 ? fieldChanges(c.transaction, body) : []
    case 'recipient.enroll':
      return status === 201 ? fieldChanges(null, body) : []
    case 'role.assign':
      // The decision sees the role given, not the one it replaces.
      return status === 200 && isJsonObject(body) ? [{ field: 'role', before: null, after: body.role ?? null }] : []
    default:
      return []
  }
}

/** The resource a case names: the budget, the transaction, the member; none for an index. */
const resourceOf = (c: JsonObject): string | null => {
  const named: unknown = isJsonObject(c.budget) ? c.budget.id : isJsonObject(c.transaction) ? c.transaction.id : c.user_id
  return typeof named === 'string' ? named : null
}

/**
 * The case as a record keeps it: its body, when it has one, kept only for a caller who
 * passed `auth.membership` and within 16 KiB, else erased to its length and digest.
 */
const withKeptBody = (masked: MaskedCase, admitted: boolean): MaskedCase => {
  const request = masked.case.request as JsonObject
  if (typeof request.body !== 'string') return masked
  const body = keptBody(request.body, admitted)
  return body === request.body
    ? masked
    : { ...masked, case: { ...masked.case, request: { ...request, body } }, erased: [...masked.erased, 'case.request.body'] }
}

const sessionUser = (session: unknown): string | null => {
  const user: unknown = isJsonObject(session) ? session.user : null
  return isJsonObject(user) && typeof user.id === 'string' ? user.id : null
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The record of one facade call: the endpoint that decided, the facade's input (`context`, as
 * given to it), its reply, and what the server knows besides (`meta`). Pure: the same arguments
 * give the same record. Refused (`Unrecordable`) when the case cannot be kept whole and masked;
 * never throws.
 *
 * Law: for a record `r` of a facade call, `replay(r)` is `{ replayable: true, same: true }` with
 * the library that made it, but for an index page (its records are not kept).
 *
 * @example
 * import { respondBudgetUpdate } from 'budget-rules'
 *
 * const context = { request: { headers: { ...headers, Authorization: 'Basic dXNlcjpwdw==' }, body: '{}' }, session, budget, today: '2026-11-22', request_id: 'req-2' }
 * const { right } = decisionRecord('budget.update', context, respondBudgetUpdate(context), { at: '2026-11-22T12:00:00Z', key_id: null, method: 'PATCH', path: '/v1/budgets/b-1' }) as { right: DecisionRecord }
 * right.status //=> 401
 * right.actor_id //=> 'u-1'
 * // refused before auth.membership: no company named, the body erased to its length and digest
 * right.company_id //=> null
 * right.case.request
 * //=> { headers: { authorization: 'masked', 'company-id': 'c-1' },
 * //     body: { erased: 'body', bytes: 2, sha256: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a' } }
 * right.erased //=> ['case.request.body']
 *
 * @category constructors
 * @since 0.4.0
 */
export const decisionRecord = <E extends DecisionEndpoint>(
  endpoint: E,
  context: DecisionContexts[E],
  reply: FacadeReply,
  meta: RecordMeta
): E.Either<Unrecordable, DecisionRecord> =>
  readWhole('the reply or the request line', () => {
    if (!isDecisionEndpoint(endpoint)) return unrecordable(`endpoint is ${describeValue(endpoint)}, not a decision endpoint`)
    const masked = caseOf(endpoint, context, meta.key_id)
    if (E.isLeft(masked)) return unrecordable(masked.left)
    const status = reply.status
    const rules = reply.reasons.map((r) => r.rule)
    // a stranger's request (refused before auth.membership) names no company and keeps no body.
    const admitted = passedMembership(rules, status)
    const kept = withKeptBody(masked.right, admitted)
    const c = kept.case
    const headers = (c.request as { readonly headers: Readonly<Record<string, string>> }).headers
    const record: DecisionRecord = {
      request_id: typeof c.request_id === 'string' ? c.request_id : '',
      at: meta.at,
      company_id: admitted ? (headerOf(headers, 'company-id') ?? null) : null,
      actor_id: sessionUser(c.session),
      key_id: meta.key_id,
      endpoint,
      method: meta.method,
      path: meta.path,
      resource_id: meta.resource_id === undefined ? resourceOf(c) : meta.resource_id,
      idempotency_key: meta.idempotency_key ?? null,
      replay_of: null,
      status: reply.status,
      rules,
      case: c,
      reply: {
        status: reply.status,
        headers: { ...reply.headers },
        body: indexOf(endpoint) !== null && reply.status === 200 ? pageIds(reply.body) : reply.body
      },
      changes: changesOf(endpoint, c, reply),
      masked: [...kept.masked],
      erased: [...kept.erased],
      library_version: LIBRARY_VERSION
    }
    return DecisionRecord.is(record) ? E.right(record) : unrecordable('the reply, the instant or the request line is malformed')
  })

/**
 * The record of a reply an Idempotency-Key replayed: nothing was decided, so it has no case and
 * names the request whose reply it is (`replay_of`, R-121).
 *
 * @example
 * const { right } = replayedRecord({ request_id: 'req-9', company_id: 'c-1', actor_id: 'u-1', endpoint: 'budget.top_up', resource_id: 'b-1', replay_of: 'req-1',
 *   reply: { status: 200, headers: { 'X-Request-Id': 'req-9', 'Idempotent-Replayed': 'true' }, body: { id: 'b-1' } } },
 *   { at: '2026-11-22T12:00:00Z', key_id: '3f1a', method: 'POST', path: '/v1/budgets/b-1/top_up', idempotency_key: 'k-1' }) as { right: DecisionRecord }
 * [right.case, right.replay_of, right.rules] //=> [null, 'req-1', []]
 *
 * @category constructors
 * @since 0.4.0
 */
export const replayedRecord = (
  replayed: {
    readonly request_id: string
    readonly company_id: string | null
    readonly actor_id: string | null
    readonly endpoint: DecisionEndpoint
    readonly resource_id: string | null
    readonly replay_of: string
    readonly reply: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: unknown }
  },
  meta: RecordMeta
): E.Either<Unrecordable, DecisionRecord> =>
  readWhole('the replayed reply or the request line', () => {
    const record: DecisionRecord = {
      request_id: replayed.request_id,
      at: meta.at,
      company_id: replayed.company_id,
      actor_id: replayed.actor_id,
      key_id: meta.key_id,
      endpoint: replayed.endpoint,
      method: meta.method,
      path: meta.path,
      resource_id: replayed.resource_id,
      idempotency_key: meta.idempotency_key ?? null,
      replay_of: replayed.replay_of,
      status: replayed.reply.status,
      rules: [],
      case: null,
      reply: { status: replayed.reply.status, headers: { ...replayed.reply.headers }, body: replayed.reply.body },
      changes: [],
      masked: [],
      erased: [],
      library_version: LIBRARY_VERSION
    }
    return DecisionRecord.is(record) ? E.right(record) : unrecordable('the replayed reply or the request line is malformed')
  })
