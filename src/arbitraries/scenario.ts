/**
 * Conformance scenarios: what a server must hold and the request it then receives, over
 * every endpoint the kit checks, reaching every status each may reply with.
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import type { Session } from '../auth/session'
import { advance } from '../budget/advance'
import type { Budget } from '../budget/stored'
import { endpoints } from '../paging/endpoint'
import {
  type BodyContext,
  forbiddenFields,
  invalidFields,
  memberIds,
  moneyBody,
  type Recipe,
  updateText,
  validFields
} from './bodies'
import { budgetState, type BudgetOptions, type BudgetState } from './budget'
import { query, records } from './index-endpoint'
import { members, type Who } from './session'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The endpoints a conformance scenario exercises.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * new Set(sample(scenario(), { numRuns: 100, seed: 1 }).map((s) => s.endpoint)).size
 * //=> 5
 *
 * @category model
 * @since 0.2.0
 */
export type ConformanceEndpoint =
  'budget.update' | 'budget.top_up' | 'budget.withdraw' | 'budget.amount' | 'index.bank_transactions'

/**
 * Every endpoint of {@link ConformanceEndpoint}, in the order scenarios shrink towards.
 *
 * @example
 * import { conformanceEndpoints } from 'budget-rules/arbitraries'
 *
 * conformanceEndpoints.length //=> 5
 *
 * @category model
 * @since 0.2.0
 */
export const conformanceEndpoints: ReadonlyArray<ConformanceEndpoint> = [
  'budget.update',
  'budget.top_up',
  'budget.withdraw',
  'budget.amount',
  'index.bank_transactions'
]

/**
 * What the server under test must hold before the request: `today` (the company's date), the
 * session every request's key resolves to, the one budget (or none), the company's members, and
 * the company's bank transactions.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const [s] = sample(scenario(), { numRuns: 1, seed: 1 })
 * Object.keys(s.state) //=> ['today', 'session', 'budget', 'company_member_ids', 'records', 'others']
 *
 * @category model
 * @since 0.2.0
 */
export interface ScenarioState {
  readonly today: string
  readonly session: Session
  readonly budget: Budget | null
  readonly company_member_ids: ReadonlyArray<string>
  readonly records: ReadonlyArray<Readonly<Record<string, unknown>>>
  /** The other companies the server holds at once: none of theirs may show in a reply. */
  readonly others?: ReadonlyArray<OtherCompany>
}

/**
 * Another company the server holds beside the caller's: its budget (or none) and its bank
 * transactions, which no reply to the caller's company may hold, count or act on.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const [s] = sample(scenario(), { numRuns: 1, seed: 1 })
 * s.state.others.map((o) => o.company_id) //=> ['c-2']
 *
 * @category model
 * @since 0.4.0
 */
export interface OtherCompany {
  readonly company_id: string
  readonly budget: Budget | null
  readonly records: ReadonlyArray<Readonly<Record<string, unknown>>>
}

/**
 * The request as it goes on the wire: method, path with its query string, headers, raw body.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(scenario({ endpoints: ['budget.top_up'] }), { numRuns: 10, seed: 1 }).every((s) => s.request.method === 'POST' && s.request.path === '/v1/budgets/b-1/top_up')
 * //=> true
 *
 * @category model
 * @since 0.2.0
 */
export interface ScenarioRequest {
  readonly method: 'GET' | 'POST' | 'PATCH'
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/**
 * A conformance scenario: the endpoint, the state the server holds, and the request.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const [s] = sample(scenario(), { numRuns: 1, seed: 1 })
 * Object.keys(s) //=> ['endpoint', 'state', 'request']
 *
 * @category model
 * @since 0.2.0
 */
export interface Scenario {
  readonly endpoint: ConformanceEndpoint
  readonly state: ScenarioState
  readonly request: ScenarioRequest
}

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

const KEY = 'Bearer conformance'
const COMPANY = 'c-1'
/** The other company every scenario holds. */
const OTHER = 'c-2'
const INDEX_TODAY = '2026-11-22'

/**
 * The session of a caller of c-1 (`members[who]`, email verified), also an admin of c-2 when
 * `alsoIn`.
 *
 * @example
 * sessionOf('budgets_manage', false)
 * //=> { user: { id: 'u-bm', email_verified: true }, memberships: { 'c-1': { role: 'member', permissions: ['budgets_manage'] } } }
 *
 * @category constructors
 * @since 0.4.0
 */
export const sessionOf = (who: Who, alsoIn: boolean): Session => {
  const { user_id, role, permissions } = members[who]
  return {
    user: { id: user_id, email_verified: true },
    memberships: {
      [COMPANY]: { role, permissions: [...permissions] },
      ...(alsoIn ? { [OTHER]: { role: 'admin' as const, permissions: [] } } : {})
    }
  }
}

/**
 * The budget, naming the caller as its manager or co-manager when the caller is one.
 *
 * @example
 * managedBy(budget, 'co_manager').co_manager_id //=> 'u-comanager'
 * managedBy(budget, 'admin') === budget //=> true
 *
 * @category constructors
 * @since 0.4.0
 */
export const managedBy = (b: Budget, who: Who): Budget =>
  who === 'manager'
    ? { ...b, manager_id: members.manager.user_id }
    : who === 'co_manager'
      ? { ...b, co_manager_id: members.co_manager.user_id }
      : b

const fullRights = fc.constantFrom<Who>('admin', 'owner', 'budgets_manage')
const managers = fc.constantFrom<Who>('manager', 'co_manager')

interface Route {
  readonly method: ScenarioRequest['method']
  readonly path: string
}

const routes: { readonly [E in ConformanceEndpoint]: Route } = {
  'budget.update': { method: 'PATCH', path: '/v1/budgets/b-1' },
  'budget.top_up': { method: 'POST', path: '/v1/budgets/b-1/top_up' },
  'budget.withdraw': { method: 'POST', path: '/v1/budgets/b-1/withdraw' },
  'budget.amount': { method: 'PATCH', path: '/v1/budgets/b-1/amount' },
  'index.bank_transactions': { method: 'GET', path: endpoints.bankTransactions.path }
}

/** Authorization and company-id as a scenario kind sends them (absent when undefined). */
interface Credentials {
  readonly authorization?: string | undefined
  readonly company?: string | undefined
}

const make = (
  endpoint: ConformanceEndpoint,
  state: ScenarioState,
  credentials: Credentials,
  body: string | undefined,
  queryString = ''
): Scenario => {
  const { method, path } = routes[endpoint]
  const headers: Record<string, string> = {}
  if (credentials.authorization !== undefined) headers.Authorization = credentials.authorization
  if (credentials.company !== undefined) headers['company-id'] = credentials.company
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  return { endpoint, state, request: { method, path: queryString === '' ? path : `${path}?${queryString}`, headers, body } }
}

const signedIn: Credentials = { authorization: KEY, company: COMPANY }

/** The ways a request fails authentication (contract section 4 rows 1-4), with the session each goes with. */
interface Refused {
  readonly credentials: Credentials
  readonly session: Session
}
const refusedCredentials: fc.Arbitrary<Refused> = fc.oneof<Array<fc.Arbitrary<Refused>>>(
  fc
    .constantFrom(undefined, 'Basic Y29uZm9ybWFuY2U=', 'Bearer ', 'Bearer', 'Token conformance')
    .map((authorization) => ({ credentials: { authorization, company: COMPANY }, session: sessionOf('admin', false) })),
  fc.constant({ credentials: signedIn, session: { user: null, memberships: {} } }),
  fc.constant({
    credentials: signedIn,
    session: {
      user: { id: 'u-admin', email_verified: false },
      memberships: { [COMPANY]: { role: 'admin' as const, permissions: [] } }
    }
  }),
  fc
    .constantFrom(undefined, '')
    .map((company) => ({ credentials: { authorization: KEY, company }, session: sessionOf('admin', false) })),
  fc.constant({ credentials: { authorization: KEY, company: 'c-3' }, session: sessionOf('admin', true) })
)

const stateOf = (
  s: BudgetState,
  session: Session,
  budget: Budget | null = s.budget,
  foreign: Budget | null = null
): ScenarioState => ({
  today: s.today,
  session,
  budget,
  company_member_ids: memberIds,
  records: [],
  ...(foreign === null ? {} : { others: [{ company_id: OTHER, budget: foreign, records: [] }] })
})

/** The budget as the rules see it on `today`: what valid bodies are drawn against. */
const advanced = (s: BudgetState) => ({ budget: advance(s.budget, s.today), today: s.today })

// -------------------------------------------------------------------------------------
// scenarios by endpoint
// -------------------------------------------------------------------------------------

type Weighted = fc.WeightedArbitrary<Scenario>

/** A body resolved against the budget of the scenario (see `Recipe`). */
type BodyOf = (c: { readonly budget: Budget; readonly today: string }) => string | undefined

/** The refusals every budget endpoint shares: authentication and scope (rows 1-5). */
const budgetRefusals = (endpoint: ConformanceEndpoint, body: fc.Arbitrary<BodyOf>): ReadonlyArray<Weighted> => [
  {
    weight: 3,
    arbitrary: fc
      .tuple(budgetState(), refusedCredentials, body)
      .map(([s, r, text]) => make(endpoint, stateOf(s, r.session), r.credentials, text(advanced(s))))
  },
  {
    // Row 5: no budget of that id in the caller's company, or one of another company (held
    // beside the caller's, R-94), which must get the same 404 (existence is not leaked).
    weight: 3,
    arbitrary: fc
      .tuple(budgetState({ company_id: OTHER }), fullRights, fc.constantFrom(false, false, true), fc.boolean(), body)
      .map(([s, who, none, alsoIn, text]) =>
        make(endpoint, stateOf(s, sessionOf(who, alsoIn), null, none ? null : s.budget), signedIn, text(advanced(s)))
      )
  }
]

const wrap = (fields: fc.Arbitrary<Recipe>): fc.Arbitrary<BodyOf> =>
  fields.map((f) => (c: BodyContext) => JSON.stringify({ budget: f(c) }))

const updateScenario = (): fc.Arbitrary<Scenario> => {
  const e = 'budget.update'
  const unclosed = budgetState({ statuses: ['open', 'closing'] })
  /** A scenario of `who` on the budget (named its manager or co-manager when `who` is one). */
  const by = ([s0, who, body]: readonly [BudgetState, Who, BodyOf]): Scenario => {
    const s = { ...s0, budget: managedBy(s0.budget, who) }
    return make(e, stateOf(s, sessionOf(who, false)), signedIn, body(advanced(s)))
  }
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(unclosed, fullRights, wrap(validFields('full'))).map(by) },
    { weight: 2, arbitrary: fc.tuple(unclosed, managers, wrap(validFields('manager'))).map(by) },
    // Rows 9 and 10: a manager or co-manager changes the manager or the recurrence.
    { weight: 6, arbitrary: fc.tuple(unclosed, managers, wrap(forbiddenFields())).map(by) },
    // Row 6: a member who is neither manager nor co-manager.
    { weight: 1, arbitrary: fc.tuple(budgetState(), fc.constant<Who>('member'), updateText()).map(by) },
    {
      // Rows 7, 8 and 12: invalid values, hostile bodies, no budget.
      weight: 3,
      arbitrary: fc
        .tuple(
          unclosed,
          fullRights,
          fc.oneof(
            { weight: 3, arbitrary: wrap(invalidFields()) },
            { weight: 2, arbitrary: updateText() },
            {
              weight: 1,
              arbitrary: fc.constantFrom(undefined, '', '  ', '{}', '{"budget":null}', '{"other":{"name":"x"}}').map(
                (text): BodyOf =>
                  () =>
                    text
              )
            }
          )
        )
        .map(by)
    },
    // Row 11: a closed budget.
    { weight: 1, arbitrary: fc.tuple(budgetState({ statuses: ['closed'] }), fullRights, wrap(validFields('full'))).map(by) },
    ...budgetRefusals(e, updateText())
  )
}

const moneyScenario = (e: 'budget.top_up' | 'budget.withdraw' | 'budget.amount'): fc.Arbitrary<Scenario> => {
  const mode = e === 'budget.amount' ? 'tracking' : 'funded'
  // A withdrawal within the balance (1 when there is none), so that most pass.
  const amount: fc.Arbitrary<BodyOf> = fc
    .integer({ min: 1, max: 1000 })
    .map(
      (n) => (c) =>
        JSON.stringify({ amount_cents: e === 'budget.withdraw' ? Math.max(1, Math.min(n, c.budget.balance_cents ?? 1)) : n })
    )
  const anyBody: fc.Arbitrary<BodyOf> = moneyBody().map((text) => () => text)
  const options: BudgetOptions = { modes: [mode], statuses: ['open'] }
  const by = ([s0, who, body]: readonly [BudgetState, Who, BodyOf]): Scenario => {
    const s = { ...s0, budget: managedBy(s0.budget, who) }
    return make(e, stateOf(s, sessionOf(who, false)), signedIn, body(advanced(s)))
  }
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(budgetState(options), fullRights, amount).map(by) },
    // Full rights only: the manager and co-manager are refused like any member.
    {
      weight: 1,
      arbitrary: fc.tuple(budgetState(options), fc.constantFrom<Who>('manager', 'co_manager', 'member'), amount).map(by)
    },
    // 400 and 422: a bad amount, or the other mode.
    { weight: 3, arbitrary: fc.tuple(budgetState({ statuses: ['open'] }), fullRights, anyBody).map(by) },
    // 409: closing or closed.
    {
      weight: 1,
      arbitrary: fc.tuple(budgetState({ modes: [mode], statuses: ['closing', 'closed'] }), fullRights, amount).map(by)
    },
    ...budgetRefusals(e, anyBody)
  )
}

const indexScenario = (): fc.Arbitrary<Scenario> => {
  const e = 'index.bank_transactions'
  const endpoint = endpoints.bankTransactions
  const state = (session: Session, rs: ReadonlyArray<Record<string, unknown>>): ScenarioState => ({
    today: INDEX_TODAY,
    session,
    budget: null,
    company_member_ids: memberIds,
    records: rs
  })
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom<Who>('admin', 'owner', 'budgets_manage', 'manager', 'member'), records(endpoint), query(endpoint))
        .map(([who, rs, q]) => make(e, state(sessionOf(who, false), rs), signedIn, undefined, q))
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(refusedCredentials, records(endpoint, 3), query(endpoint))
        .map(([r, rs, q]) => make(e, state(r.session, rs), r.credentials, undefined, q))
    }
  )
}

// -------------------------------------------------------------------------------------
// the other company
// -------------------------------------------------------------------------------------

/**
 * The other company's bank transactions, placed where a page that ignores the company shows
 * them: a twin of most of the caller's records (ids unique across companies, so the twin's id is
 * the record's with `c2` after it, sorting right after it; the same amount, status and instants),
 * and up to three of its own.
 *
 * @example
 * twinsOf([{ id: 'tx-001', amount: 5 }], [1]) //=> [{ id: 'tx-001c2', amount: 5 }]
 *
 * @category constructors
 * @since 0.4.0
 */
export const twinsOf = (
  own: ReadonlyArray<Readonly<Record<string, unknown>>>,
  mask: ReadonlyArray<number>
): Array<Readonly<Record<string, unknown>>> =>
  own.filter((_, i) => (mask[i] ?? 1) !== 0).map((r) => ({ ...r, id: `${String(r.id)}c2` }))

/** The other company's records beside twins: ids `tx-NNNz2`, of no twin's. */
const foreignExtra = records(endpoints.bankTransactions, 3).map((rs) => rs.map((r) => ({ ...r, id: `${String(r.id)}z2` })))

/**
 * The scenario with the other company held beside the caller's: its budget (the one a row-5
 * scenario targets, else the caller's budget copied as `b-2` of c-2, equal in every field a
 * filter reads), and its records (`twinsOf` the caller's, and a few of its own).
 */
const withOther = (arbitrary: fc.Arbitrary<Scenario>): fc.Arbitrary<Scenario> =>
  fc.tuple(arbitrary, fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), foreignExtra).map(([s, mask, extra]) => {
    const { budget } = s.state
    const foreign = s.state.others?.[0]?.budget ?? (budget === null ? null : { ...budget, id: 'b-2', company_id: OTHER })
    const records = [...twinsOf(s.state.records, mask), ...extra]
    return { ...s, state: { ...s.state, others: [{ company_id: OTHER, budget: foreign, records }] } }
  })

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

const WEIGHTS: { readonly [E in ConformanceEndpoint]: number } = {
  'budget.update': 3,
  'budget.top_up': 1,
  'budget.withdraw': 1,
  'budget.amount': 1,
  'index.bank_transactions': 2
}

const scenarioOf = (e: ConformanceEndpoint): fc.Arbitrary<Scenario> =>
  e === 'budget.update' ? updateScenario() : e === 'index.bank_transactions' ? indexScenario() : moneyScenario(e)

/**
 * A conformance scenario (R-91) over the endpoints given (all of {@link conformanceEndpoints}
 * by default; the budget update weighs three, the index two, each money operation one). Most
 * scenarios are requests that pass (`Authorization: Bearer conformance`, company-id `c-1`, a
 * caller with the rights the request needs, a valid body); the others reach each refusal of
 * each endpoint: 401 (no or a malformed key, no user, email not verified, no company-id, no
 * rights), 404 (not a member, no such budget, another company's budget), 400, 403 (a manager
 * changing the manager or the recurrence), 409, 412, 416, 422. No scenario sends an
 * Idempotency-Key. Budgets are those of {@link budget} (b-1), `today` on or after their last
 * advance; records have distinct ids. Every scenario also holds another company, c-2 (R-94, its
 * budget and records in `state.others`), placed where a reply that ignores the company shows it:
 * another company's budget at the path's id (row 5), the caller's budget copied as c-2's `b-2`,
 * twins of the caller's records and a few more.
 *
 * @example
 * import { scenario } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const scenarios = sample(scenario(), { numRuns: 100, seed: 1 })
 * scenarios.filter((s) => s.request.headers.Authorization === 'Bearer conformance').length > 80
 * //=> true
 * scenarios.some((s) => 'Idempotency-Key' in s.request.headers)
 * //=> false
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const scenario = (options: { readonly endpoints?: ReadonlyArray<ConformanceEndpoint> } = {}): fc.Arbitrary<Scenario> => {
  const chosen = options.endpoints ?? conformanceEndpoints
  return withOther(fc.oneof(...chosen.map((e) => ({ arbitrary: scenarioOf(e), weight: WEIGHTS[e] }))))
}
