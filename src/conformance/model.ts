/**
 * The model of a server of the budgets API over a sequence of requests: what the
 * server holds (the budget as its last accepted change left it, today, the caller, the company's
 * members and bank transactions, the replies kept for Idempotency-Keys), and the reply to each
 * request as the library decides it on that state. The decisions are the library's facades; the
 * model only keeps what they return, as a server does: the budget of a 200, and the reply of a
 * money operation under its Idempotency-Key (ADR 0100: replayed for the same request, a 422 for
 * another).
 *
 * @since 0.4.0
 */
import type { OtherCompany, ScenarioRequest } from '../arbitraries/scenario'
import type { Session } from '../auth/session'
import { advance } from '../budget/advance'
import type { Budget } from '../budget/stored'
import type { CalendarDate } from '../calendar/date'
import { map } from '../decision/trail'
import { BudgetContext, type BudgetReply, scopedBudget, settleBudget } from '../facade/budget-context'
import { respondBudgetUpdate } from '../facade/budget-update'
import { respondWith } from '../facade/context'
import { respondIndex } from '../facade/index-endpoint'
import { respondAmount, respondTopUp, respondWithdraw } from '../facade/money'
import { headerOf } from '../http/headers'
import { endpoints } from '../paging/endpoint'
import { JSON_CONTENT_TYPE } from '../reply/reply'
import { type ExpectedReply, REQUEST_ID } from './expected'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A reply kept for an Idempotency-Key: the request it was claimed by (method, path, company-id
 * and body: its fingerprint) and the reply it got.
 */
export interface KeptReply {
  readonly fingerprint: string
  readonly reply: ExpectedReply
}

/**
 * What the server holds between two requests of a sequence.
 *
 * @example
 * const held = { today: '2026-11-22', session, budget, company_member_ids: [], records: [], kept: new Map() }
 * held.kept.size //=> 0
 *
 * @category model
 * @since 0.4.0
 */
export interface ServerState {
  readonly today: string
  readonly session: Session
  /** The budget as stored: the last 200 of a change, else as seeded (brought to today when read). */
  readonly budget: Budget | null
  readonly company_member_ids: ReadonlyArray<string>
  readonly records: ReadonlyArray<Readonly<Record<string, unknown>>>
  /** The other companies (R-94): their budgets change only by their own members' requests. */
  readonly others?: ReadonlyArray<OtherCompany>
  /** The replies kept for Idempotency-Keys, by key. */
  readonly kept: ReadonlyMap<string, KeptReply>
}

/** A reply of the model: the library's, and whether it is one kept for an Idempotency-Key, sent again. */
export interface ModelReply extends ExpectedReply {
  readonly replayed: boolean
}

/** The endpoints of a sequence: the conformance endpoints, and the reads. */
export type SequenceEndpoint =
  | 'budget.update'
  | 'budget.top_up'
  | 'budget.withdraw'
  | 'budget.amount'
  | 'budget.read'
  | 'index.budgets'
  | 'index.bank_transactions'
  | 'index.decisions'

// -------------------------------------------------------------------------------------
// routes
// -------------------------------------------------------------------------------------

/** The budget routes: the path's id, then the operation, for each method. */
const BUDGET_PATH = /^\/v1\/budgets\/([^/?]+)(\/top_up|\/withdraw|\/amount)?$/

/**
 * The endpoint a request goes to and the budget id of its path, or null for a route the model
 * does not know.
 */
export const routeOf = (
  method: string,
  path: string
): { readonly endpoint: SequenceEndpoint; readonly id: string | null } | null => {
  const bare = path.split('?')[0] as string
  if (method === 'GET' && bare === endpoints.budgets.path) return { endpoint: 'index.budgets', id: null }
  if (method === 'GET' && bare === endpoints.bankTransactions.path) return { endpoint: 'index.bank_transactions', id: null }
  if (method === 'GET' && bare === endpoints.decisions.path) return { endpoint: 'index.decisions', id: null }
  const found = BUDGET_PATH.exec(bare)
  if (found === null) return null
  const id = decodeURIComponent(found[1] as string)
  const operation = found[2]
  const endpoint: SequenceEndpoint | null =
    operation === undefined
      ? method === 'GET'
        ? 'budget.read'
        : method === 'PATCH'
          ? 'budget.update'
          : null
      : operation === '/amount'
        ? method === 'PATCH'
          ? 'budget.amount'
          : null
        : method === 'POST'
          ? operation === '/top_up'
            ? 'budget.top_up'
            : 'budget.withdraw'
          : null
  return endpoint === null ? null : { endpoint, id }
}

/** GET /v1/budgets/{id}: the budget in the caller's company, brought to today (contract section 4). */
const respondRead: (context: BudgetContext) => BudgetReply = respondWith(BudgetContext, (c) =>
  settleBudget(c.request_id, map(({ budget }: { readonly budget: Budget }) => budget)(scopedBudget(c)))
)

// -------------------------------------------------------------------------------------
// deciding
// -------------------------------------------------------------------------------------

const MONEY: ReadonlySet<SequenceEndpoint> = new Set(['budget.top_up', 'budget.withdraw', 'budget.amount'])

const problemReply = (status: number, body: unknown): ExpectedReply => ({
  status,
  headers: { 'X-Request-Id': REQUEST_ID, 'Content-Type': JSON_CONTENT_TYPE },
  body,
  reasons: []
})

/** Every budget the server holds: the caller's company's, then the other companies'. */
const budgetsOf = (state: ServerState): ReadonlyArray<Budget> =>
  [state.budget, ...(state.others ?? []).map((o) => o.budget)].filter((b): b is Budget => b !== null)

/** The state with `saved` stored in place of the budget of its id (the caller's company's, or another's). */
const storing = (state: ServerState, saved: Budget): ServerState =>
  state.budget !== null && state.budget.id === saved.id
    ? { ...state, budget: saved }
    : { ...state, others: (state.others ?? []).map((o) => (o.budget?.id === saved.id ? { ...o, budget: saved } : o)) }

/** The bank transactions of a company: another company's own, else the seeded company's. */
const recordsOf = (state: ServerState, company: string | undefined): ServerState['records'] =>
  (state.others ?? []).find((o) => o.company_id === company)?.records ?? state.records

/**
 * The library's reply to a request on the state, without Idempotency-Keys, and the state it
 * leaves. The budget of the path is looked up by its id among every company's (ids are unique
 * across companies): the facades answer another company's as none (row 5). A page of the
 * decision records is the library's refusal, or a 200 whose records the model does not hold
 * (only their company is checked: `foreignIn`).
 */
const decide = (
  state: ServerState,
  endpoint: SequenceEndpoint,
  id: string | null,
  request: ScenarioRequest
): { readonly reply: ExpectedReply; readonly state: ServerState } => {
  const budget = budgetsOf(state).find((b) => b.id === id) ?? null
  const context = {
    request: { headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) },
    session: state.session,
    budget,
    today: state.today,
    request_id: REQUEST_ID
  }
  const changed = (r: BudgetReply): { reply: ExpectedReply; state: ServerState } => {
    const { status, headers, body, reasons } = r
    return { reply: { status, headers, body, reasons }, state: r.status === 200 ? storing(state, r.budget) : state }
  }
  const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : undefined
  const page = (endpoint: (typeof endpoints)[keyof typeof endpoints], records: ReadonlyArray<unknown>) => {
    const { status, headers, body, reasons } = respondIndex({
      request: { headers: request.headers, ...(query === undefined ? {} : { query }) },
      session: state.session,
      endpoint,
      records,
      request_id: REQUEST_ID
    })
    return { reply: { status, headers, body, reasons }, state }
  }
  const company = headerOf(request.headers, 'company-id')
  switch (endpoint) {
    case 'budget.update':
      return changed(respondBudgetUpdate({ ...context, company_member_ids: state.company_member_ids }))
    case 'budget.top_up':
      return changed(respondTopUp(context))
    case 'budget.withdraw':
      return changed(respondWithdraw(context))
    case 'budget.amount':
      return changed(respondAmount(context))
    case 'budget.read':
      return { reply: changed(respondRead(context)).reply, state }
    case 'index.budgets':
      // The company's budgets, each brought to today, as the server hands them over.
      return page(
        endpoints.budgets,
        budgetsOf(state)
          .filter((b) => company !== undefined && b.company_id === company)
          .map((b) => advance(b, state.today as CalendarDate))
      )
    case 'index.bank_transactions':
      return page(endpoints.bankTransactions, recordsOf(state, company))
    case 'index.decisions':
      return page(endpoints.decisions, [])
  }
}

/** The bearer key of a request, as a server reads it to look its caller up. */
const hasBearerKey = (headers: ScenarioRequest['headers']): boolean =>
  /^bearer +\S+ *$/i.test(headerOf(headers, 'authorization') ?? '')

/**
 * The reply to `request` on `state`, and the state it leaves. A money operation with an
 * Idempotency-Key from a known caller claims the key: a key of 0 or over 255 characters is a
 * 400, a key already kept replays its reply (`replayed`) for the same request and is a 422 for
 * another, and a new key keeps the reply it gets. Other requests are the facades' replies. A
 * route the model does not know is a 404.
 *
 * @example
 * const held = { today: '2026-11-22', session, budget, company_member_ids: [], records: [], kept: new Map() }
 * const topUp = { method: 'POST', path: '/v1/budgets/b-1/top_up', headers: { ...headers, 'Idempotency-Key': 'k' }, body: '{"amount_cents":500}' }
 * const first = decideRequest(held, topUp)
 * first.reply.body.balance_cents //=> 20500
 * const again = decideRequest(first.state, topUp)
 * again.reply.replayed //=> true
 * again.reply.body.balance_cents //=> 20500
 *
 * @category utils
 * @since 0.4.0
 */
export const decideRequest = (
  state: ServerState,
  request: ScenarioRequest
): { readonly reply: ModelReply; readonly state: ServerState } => {
  const route = routeOf(request.method, request.path)
  if (route === null)
    return {
      reply: {
        ...problemReply(404, {
          error: 'not_found',
          message: `No route for ${request.method} ${request.path.split('?')[0] as string}`
        }),
        replayed: false
      },
      state
    }
  const key = headerOf(request.headers, 'idempotency-key')
  const claims = MONEY.has(route.endpoint) && key !== undefined && state.session.user !== null && hasBearerKey(request.headers)
  if (!claims) {
    const decided = decide(state, route.endpoint, route.id, request)
    return { reply: { ...decided.reply, replayed: false }, state: decided.state }
  }
  if (key === '' || key.length > 255)
    return {
      reply: {
        ...problemReply(400, { error: 'bad_request', message: 'Idempotency-Key must be 1 to 255 characters' }),
        replayed: false
      },
      state
    }
  const fingerprint = `${request.method} ${request.path.split('?')[0] as string}\n${headerOf(request.headers, 'company-id') ?? ''}\n${request.body ?? ''}`
  const kept = state.kept.get(key)
  if (kept !== undefined)
    return kept.fingerprint === fingerprint
      ? { reply: { ...kept.reply, headers: { ...kept.reply.headers, 'Idempotent-Replayed': 'true' }, replayed: true }, state }
      : {
          reply: {
            ...problemReply(422, { errors: { idempotency_key: ['was already used with another request'] } }),
            replayed: false
          },
          state
        }
  const decided = decide(state, route.endpoint, route.id, request)
  const { reply } = decided
  // A 5xx rolls back, the key with it: a retry runs again.
  const keeps = reply.status < 500
  return {
    reply: { ...reply, replayed: false },
    state: { ...decided.state, kept: keeps ? new Map([...state.kept, [key, { fingerprint, reply }]]) : state.kept }
  }
}
