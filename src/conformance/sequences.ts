/**
 * Conformance over sequences of requests: the server is given a state once, through its
 * test-only state route, then a sequence of requests (updates, top-ups and withdrawals with and
 * without Idempotency-Keys, retries, amount changes, days passing, reads of the budget and of
 * pages) goes to it, and each reply must equal the library's decision on the state the earlier
 * replies produced (./model.ts). The sequence that fails is shrunk to the shortest fast-check
 * finds.
 *
 * @since 0.4.0
 */
import fc from 'fast-check'
import { budgetState } from '../arbitraries/budget'
import { forbiddenFields, invalidFields, memberIds, type Recipe, validFields } from '../arbitraries/bodies'
import { query, records } from '../arbitraries/index-endpoint'
import { managedBy, type ScenarioRequest, type ScenarioState, sessionOf, twinsOf } from '../arbitraries/scenario'
import type { Who } from '../arbitraries/session'
import { advance } from '../budget/advance'
import type { Budget } from '../budget/stored'
import { addDays, type CalendarDate } from '../calendar/date'
import { headerOf } from '../http/headers'
import { endpoints } from '../paging/endpoint'
import { compareReplies, type Difference, type ReceivedReply } from './compare'
import { checks, EndpointsError, endpointsOf, type KitEndpoint } from './endpoints'
import { NoReply, putState, sendRequest } from './http'
import { decideRequest, type ModelReply, routeOf, type ServerState } from './model'
import { disagreementOf, runParameters } from './run'
import { type Foreign, foreignIn } from './tenants'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One step of a sequence: a request sent as it is, or days passing (the server's today set to
 * `today` through its state route, `PUT /__conformance/state` with `{ today }`).
 *
 * @example
 * import { checkSequences } from 'budget-rules/conformance'
 *
 * const step = { kind: 'day', today: '2026-11-23' }
 * step.kind //=> 'day'
 *
 * @category model
 * @since 0.4.0
 */
export type SequenceStep =
  { readonly kind: 'request'; readonly request: ScenarioRequest } | { readonly kind: 'day'; readonly today: string }

/**
 * A step as it went: the library's reply and the server's (both null for days passing; `actual`
 * null for a request that got no reply).
 *
 * @example
 * import { checkSequences } from 'budget-rules/conformance'
 *
 * const went = { step: { kind: 'day', today: '2026-11-23' }, expected: null, actual: null }
 * went.expected //=> null
 *
 * @category model
 * @since 0.4.0
 */
export interface StepOutcome {
  readonly step: SequenceStep
  readonly expected: ModelReply | null
  readonly actual: ReceivedReply | null
}

/**
 * Sends one request to a server in process and resolves to its reply, the body as text:
 * the kit's requests as they are, the state route's `PUT /__conformance/state` among them. A
 * rejection is a request without a reply.
 *
 * @example
 * import { checkSequences } from 'budget-rules/conformance'
 *
 * // Hono: const send = async (r) => { const res = await app.request(r.path, { method: r.method, headers: r.headers, body: r.body })
 * //   return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() } }
 * const send = async (r) => ({ status: 204, headers: {}, body: '' })
 * typeof send //=> 'function'
 *
 * @category model
 * @since 0.4.0
 */
export type SequenceSend = (
  request: Omit<ScenarioRequest, 'method'> & { readonly method: ScenarioRequest['method'] | 'PUT' }
) => Promise<ReceivedReply>

/**
 * What to check: the server at `url` (its conformance hook on), or in process through `send`
 * (R-95; one of the two), how many sequences (`numRuns`, 200 by default) of at most
 * `maxCommands` steps (30 by default), the seed (random unless given) and, to replay a failure,
 * its `path`; `endpoints` (names of `kitEndpoints`) keeps the requests to the endpoints a
 * partial server has.
 *
 * @example
 * import { checkSequences } from 'budget-rules/conformance'
 *
 * const options = { url: 'http://127.0.0.1:8080', numRuns: 200, maxCommands: 30, seed: 7, endpoints: ['budget.update'] }
 * options.numRuns //=> 200
 *
 * @category model
 * @since 0.4.0
 */
export interface SequenceOptions {
  readonly url?: string
  readonly send?: SequenceSend
  readonly numRuns?: number
  readonly maxCommands?: number
  readonly seed?: number
  readonly path?: string
  readonly endpoints?: ReadonlyArray<KitEndpoint>
}

/**
 * The outcome: every sequence agreed (`runs` sequences, `requests` requests in all); or a
 * `disagreement`, the sequence shrunk, its steps up to the one whose reply differs (the last),
 * with the seed and path to replay it; or a `transport` failure: a request (or the state route)
 * got no reply, or the state route refused, and the run stopped there without shrinking (`runs`
 * the sequences sent, the last one this; its steps up to the request that failed, and why).
 *
 * @example
 * import { checkSequences } from 'budget-rules/conformance'
 *
 * const agreed = { ok: true, runs: 100, requests: 1480 }
 * agreed.ok //=> true
 *
 * @category model
 * @since 0.4.0
 */
export type SequenceResult =
  | { readonly ok: true; readonly runs: number; readonly requests: number }
  | {
      readonly ok: false
      readonly kind: 'disagreement'
      readonly runs: number
      readonly seed: number
      readonly path: string
      readonly url: string
      readonly state: ScenarioState
      readonly steps: ReadonlyArray<StepOutcome>
      readonly differences: ReadonlyArray<Difference>
      /** What of another company the last reply holds or counts, empty when nothing. */
      readonly foreign: ReadonlyArray<Foreign>
    }
  | {
      readonly ok: false
      readonly kind: 'transport'
      readonly runs: number
      readonly seed: number
      readonly url: string
      readonly state: ScenarioState
      readonly steps: ReadonlyArray<StepOutcome>
      readonly error: string
    }

/**
 * The sequences a check runs unless told otherwise.
 *
 * @example
 * import { DEFAULT_SEQUENCES } from 'budget-rules/conformance'
 *
 * DEFAULT_SEQUENCES //=> 200
 *
 * @category constants
 * @since 0.4.0
 */
export const DEFAULT_SEQUENCES = 200

/**
 * The most steps of a sequence unless told otherwise.
 *
 * @example
 * import { DEFAULT_COMMANDS } from 'budget-rules/conformance'
 *
 * DEFAULT_COMMANDS //=> 30
 *
 * @category constants
 * @since 0.4.0
 */
export const DEFAULT_COMMANDS = 30

// -------------------------------------------------------------------------------------
// commands
// -------------------------------------------------------------------------------------

/**
 * What a command is resolved against: the model's state, its place, and the requests sent so
 * far with an Idempotency-Key and those that read.
 */
interface Context {
  readonly model: ServerState
  readonly at: number
  readonly keyed: ReadonlyArray<ScenarioRequest>
  readonly reads: ReadonlyArray<ScenarioRequest>
}

/** A step drawn before the state is known, resolved against it (so that both shrink). */
type Command = (c: Context) => SequenceStep

const KEY_HEADERS = { Authorization: 'Bearer conformance', 'company-id': 'c-1' }
const BUDGET = '/v1/budgets/b-1'
/** The other company a sequence's server holds, its budget, and the caller's company. */
const OTHER = 'c-2'
const OTHER_BUDGET = '/v1/budgets/b-2'
const COMPANY = 'c-1'

const request = (
  method: ScenarioRequest['method'],
  path: string,
  body?: string,
  extra: Readonly<Record<string, string>> = {}
): SequenceStep => ({
  kind: 'request',
  request: {
    method,
    path,
    headers: { ...KEY_HEADERS, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...extra },
    body
  }
})

/** The budget as the rules see it today (what bodies are drawn against). */
const asOf = (c: Context): Budget | null =>
  c.model.budget === null ? null : advance(c.model.budget, c.model.today as CalendarDate)

const update: fc.Arbitrary<Command> = fc
  .oneof(
    { weight: 4, arbitrary: validFields('full') },
    { weight: 2, arbitrary: validFields('manager') },
    { weight: 1, arbitrary: invalidFields() },
    { weight: 1, arbitrary: forbiddenFields() }
  )
  .map((recipe: Recipe) => (c: Context) => {
    const budget = asOf(c)
    const fields = budget === null ? { name: 'Renamed' } : recipe({ budget, today: c.model.today })
    return request('PATCH', BUDGET, JSON.stringify({ budget: fields }))
  })

/** A money operation: its amount (or all of the balance, or one cent more), with a new key, none, or a used one. */
const money = (operations: ReadonlyArray<'top_up' | 'withdraw' | 'amount'>): fc.Arbitrary<Command> =>
  fc
    .record({
      operation: fc.constantFrom(...operations),
      amount: fc.integer({ min: 1, max: 1000 }),
      size: fc.constantFrom('drawn', 'drawn', 'all', 'over'),
      key: fc.constantFrom('none', 'new', 'new', 'used'),
      pick: fc.nat()
    })
    .map((m) => (c: Context): SequenceStep => {
      const balance = asOf(c)?.balance_cents ?? null
      const amount =
        m.operation !== 'withdraw' || balance === null || m.size === 'drawn' ? m.amount : m.size === 'all' ? balance : balance + 1
      const body = JSON.stringify({ amount_cents: amount })
      const path = m.operation === 'amount' ? `${BUDGET}/amount` : `${BUDGET}/${m.operation}`
      const method = m.operation === 'amount' ? 'PATCH' : 'POST'
      const used = c.keyed[m.pick % Math.max(1, c.keyed.length)]
      const key =
        m.key === 'none'
          ? undefined
          : m.key === 'used' && used !== undefined
            ? (headerOf(used.headers, 'idempotency-key') as string)
            : `k-${c.at}`
      return request(method, path, body, key === undefined ? {} : { 'Idempotency-Key': key })
    })

/** A request sent with a key before, sent again as it was: its reply replayed (`none` until there is one). */
const retry = (none: Command): fc.Arbitrary<Command> =>
  fc.nat().map(
    (pick) =>
      (c: Context): SequenceStep =>
        c.keyed.length === 0 ? none(c) : { kind: 'request', request: c.keyed[pick % c.keyed.length] as ScenarioRequest }
  )

/**
 * A read sent before (the budget, or a page with its filters), one of the last two, sent
 * again: what it shows must have followed the writes since (`none` until there is one).
 */
const reread = (none: Command): fc.Arbitrary<Command> =>
  fc.nat().map(
    (pick) =>
      (c: Context): SequenceStep =>
        c.reads.length === 0
          ? none(c)
          : { kind: 'request', request: c.reads[c.reads.length - 1 - (pick % Math.min(2, c.reads.length))] as ScenarioRequest }
  )

/** Days passing: one, a few, to the end of the period, to the closing date, or a year or more. */
const days: fc.Arbitrary<Command> = fc
  .oneof(
    fc.constant<'period' | 'ends' | number>(1),
    fc.integer({ min: 2, max: 40 }),
    fc.constantFrom<'period' | 'ends'>('period', 'ends'),
    fc.integer({ min: 366, max: 1500 })
  )
  .map((d) => (c: Context): SequenceStep => {
    const today = c.model.today as CalendarDate
    const budget = asOf(c)
    const target = d === 'period' ? budget?.period_ends_on : d === 'ends' ? budget?.ends_on : null
    const later =
      typeof d === 'number'
        ? addDays(today, d)
        : target !== undefined && target !== null && target > today
          ? target
          : addDays(today, 1)
    return { kind: 'day', today: later ?? today }
  })

const page = (endpoint: (typeof endpoints)['budgets' | 'bankTransactions']): fc.Arbitrary<Command> =>
  query(endpoint).map((q) => () => request('GET', q === '' ? endpoint.path : `${endpoint.path}?${q}`))

/**
 * A page of the company's budgets filtered on a field of the budget, by the value it holds now:
 * what a write or a day passing may make it match or not.
 */
const budgetsByValue: fc.Arbitrary<Command> = fc
  .record({
    field: fc.constantFrom('access', 'access', 'name', 'name', 'status', 'period_starts_on'),
    operator: fc.constantFrom('', '[$ne]'),
    end: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined })
  })
  .map(({ field, operator, end }) => (c: Context): SequenceStep => {
    const budget = asOf(c)
    const value = budget === null ? 'open' : String(budget[field])
    const window = end === undefined ? '' : `&_end=${end}`
    return request(
      'GET',
      `${endpoints.budgets.path}?${field}${encodeURIComponent(operator)}=${encodeURIComponent(value)}${window}`
    )
  })

/**
 * A step of the caller's company sent across tenants: to the other company's budget in
 * the caller's company (`into`: a 404, whatever the request), or as a member of the other
 * company to its own budget and pages (`as`: what makes its budget change and its decision
 * records, which no later reply to the caller's company may show).
 */
const across = (step: SequenceStep, how: 'into' | 'as'): SequenceStep => {
  if (step.kind === 'day') return step
  const path = step.request.path.startsWith(BUDGET) ? OTHER_BUDGET + step.request.path.slice(BUDGET.length) : step.request.path
  const headers = how === 'as' ? { ...step.request.headers, 'company-id': OTHER } : step.request.headers
  return { kind: 'request', request: { ...step.request, path, headers } }
}

/** A page of the caller's company's decision records (R-94: none of another company's). */
const decisions: fc.Arbitrary<Command> = fc
  .option(fc.integer({ min: 1, max: 50 }), { nil: undefined })
  .map((end) => () => request('GET', end === undefined ? endpoints.decisions.path : `${endpoints.decisions.path}?_end=${end}`))

/** A command, the endpoints it sends to (none: days passing), and its share. */
interface Drawn {
  readonly weight: number
  readonly arbitrary: fc.Arbitrary<Command>
  readonly endpoints: ReadonlyArray<KitEndpoint>
}

/**
 * The commands of a sequence over the endpoints checked (every one unless told), drawn in these
 * shares; an Error when no request is left to send.
 */
const commandOf = (chosen: ReadonlyArray<KitEndpoint> | undefined): fc.Arbitrary<Command> => {
  const read: Command = () => request('GET', BUDGET)
  const dayOver: Command = (c) => ({ kind: 'day', today: c.model.today })
  const none = checks(chosen, 'budget.get') ? read : dayOver
  const operations = (['top_up', 'withdraw', 'withdraw', 'amount'] as const).filter((o) =>
    checks(chosen, o === 'amount' ? 'budget.amount' : o === 'top_up' ? 'budget.top_up' : 'budget.withdraw')
  )
  const own: ReadonlyArray<Drawn> = [
    { weight: 4, arbitrary: update, endpoints: ['budget.update'] },
    ...(operations.length === 0
      ? []
      : [{ weight: 5, arbitrary: money(operations), endpoints: ['budget.top_up', 'budget.withdraw', 'budget.amount'] as const }]),
    { weight: 2, arbitrary: fc.constant(read), endpoints: ['budget.get'] },
    { weight: 1, arbitrary: page(endpoints.budgets), endpoints: ['index.budgets'] },
    { weight: 2, arbitrary: budgetsByValue, endpoints: ['index.budgets'] },
    { weight: 1, arbitrary: page(endpoints.bankTransactions), endpoints: ['index.bank_transactions'] }
  ]
  const kept = own.filter((d) => d.endpoints.some((e) => checks(chosen, e)))
  if (kept.length === 0)
    throw new EndpointsError(
      `checkSequences: no request of ${(chosen ?? []).join(', ')} is one a sequence sends (budget.update, budget.top_up, budget.withdraw, budget.amount, budget.get, index.budgets, index.bank_transactions)`
    )
  const sent = fc.oneof(...kept)
  return fc.oneof(
    ...kept,
    { weight: 1, arbitrary: retry(none) },
    { weight: 3, arbitrary: reread(none) },
    { weight: 3, arbitrary: days },
    // Across tenants: into the other company's budget, or as its member.
    {
      weight: 3,
      arbitrary: fc.tuple(sent, fc.constantFrom<'into' | 'as'>('into', 'as')).map(
        ([next, how]) =>
          (c: Context) =>
            across(next(c), how)
      )
    },
    ...(checks(chosen, 'index.decisions') ? [{ weight: 1, arbitrary: decisions }] : [])
  )
}

/**
 * The state a sequence starts from: a budget of c-1 (mostly open), a caller (also an admin of
 * c-2), sometimes bank transactions; and c-2 beside it, its budget b-2 a copy of c-1's,
 * its records twins of c-1's and a few of its own.
 */
const start: fc.Arbitrary<ScenarioState> = fc
  .record({
    s: fc.oneof(
      { weight: 6, arbitrary: budgetState({ statuses: ['open'] }) },
      { weight: 1, arbitrary: budgetState({ statuses: ['closing'] }) },
      { weight: 1, arbitrary: budgetState({ statuses: ['closed'] }) }
    ),
    who: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom<Who>('admin', 'owner', 'budgets_manage') },
      { weight: 2, arbitrary: fc.constantFrom<Who>('manager', 'co_manager') },
      { weight: 1, arbitrary: fc.constant<Who>('member') }
    ),
    records: fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: records(endpoints.bankTransactions, 6) }
    ),
    mask: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 6 }),
    extra: records(endpoints.bankTransactions, 3)
  })
  .map(({ s, who, records, mask, extra }) => {
    const budget = managedBy(s.budget, who)
    return {
      today: s.today,
      session: sessionOf(who, true),
      budget,
      company_member_ids: memberIds,
      records,
      others: [
        {
          company_id: OTHER,
          budget: { ...budget, id: 'b-2', company_id: OTHER },
          records: [...twinsOf(records, mask), ...extra.map((r) => ({ ...r, id: `${String(r.id)}z2` }))]
        }
      ]
    }
  })

// -------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------

/** Thrown by a sequence whose last reply differs, so that fast-check shrinks it and hands it back. */
class Disagreement extends Error {
  constructor(
    readonly steps: ReadonlyArray<StepOutcome>,
    readonly differences: ReadonlyArray<Difference>,
    readonly foreign: ReadonlyArray<Foreign>
  ) {
    super('the server and the library disagree')
  }
}

/**
 * The differences of a step: the kit's comparison, and whether the reply is a replay of a kept
 * one. A page of decision records the model does not hold: its status only (its records'
 * company is checked by `foreignIn`).
 */
const differencesOf = (r: ScenarioRequest, expected: ModelReply, actual: ReceivedReply): ReadonlyArray<Difference> => {
  const endpoint = routeOf(r.method, r.path)?.endpoint ?? 'budget.read'
  const replayed = headerOf(actual.headers, 'Idempotent-Replayed') ?? null
  const want = expected.replayed ? 'true' : null
  const unheld = endpoint === 'index.decisions' && expected.status === 200
  return [
    ...(unheld
      ? actual.status === 200
        ? []
        : [{ part: 'status' as const, expected: 200, actual: actual.status }]
      : compareReplies(endpoint, expected, actual)),
    ...(replayed === want ? [] : [{ part: 'header' as const, name: 'Idempotent-Replayed', expected: want, actual: replayed }])
  ]
}

/**
 * How a run reaches the server: over HTTP at `url`, or through `send`, whose rejections are
 * requests without a reply; the state route's refusal is one too.
 */
const transportOf = (url: string, send: SequenceSend | undefined) => {
  if (send === undefined)
    return { put: (body: unknown) => putState(url, body), exchange: (r: ScenarioRequest) => sendRequest(url, r) }
  const exchange = async (r: Parameters<SequenceSend>[0]): Promise<ReceivedReply> => {
    try {
      return await send(r)
    } catch (e) {
      throw new NoReply(`${r.method} ${r.path}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  const put = async (body: unknown): Promise<void> => {
    const seeding = { method: 'PUT' as const, path: '/__conformance/state', body: JSON.stringify(body) }
    const reply = await exchange({ ...seeding, headers: { 'Content-Type': 'application/json' } })
    if (reply.status !== 204)
      throw new NoReply(`PUT /__conformance/state answered ${reply.status}, not 204: ${String(reply.body).slice(0, 200)}`)
  }
  return { put, exchange }
}

/**
 * Checks a server over sequences of requests. For each of `numRuns` sequences: the
 * server is given the start state once (`PUT url/__conformance/state` with `{ state, company_id:
 * 'c-1' }`: a budget b-1 of c-1, a caller, the company's members, sometimes bank transactions),
 * then each step goes to it in turn, and each reply is compared with the library's decision on
 * the state the earlier replies produced (status, body, the headers the contract fixes, and
 * `Idempotent-Replayed` on a reply kept for an Idempotency-Key). The first sequence that
 * disagrees is shrunk (sent again, shorter, for each candidate) to the shortest fast-check finds.
 * A request that gets no reply stops the run at once, unshrunk: it is reported as what it is, a
 * transport failure, with the requests sent before it.
 *
 * @example
 * import { checkSequences, formatSequences } from 'budget-rules/conformance'
 *
 * // const result = await checkSequences({ url: 'http://127.0.0.1:8080', numRuns: 200 })
 * // console.log(formatSequences(result))
 * formatSequences({ ok: true, runs: 200, requests: 2931 }) //=> '200 sequences (2931 requests), 0 disagreements'
 *
 * @category utils
 * @since 0.4.0
 */
export const checkSequences = async (options: SequenceOptions): Promise<SequenceResult> => {
  const { numRuns = DEFAULT_SEQUENCES, maxCommands = DEFAULT_COMMANDS, seed, path } = options
  if ((options.url === undefined) === (options.send === undefined))
    throw new Error('checkSequences: give the server as url or as send, one of the two')
  const command = commandOf(options.endpoints === undefined ? undefined : endpointsOf(options.endpoints))
  const url = (options.url ?? '').replace(/\/+$/, '')
  const { put, exchange } = transportOf(url, options.send)
  let requests = 0
  let sequences = 0
  let failed = false
  let leaking = false
  let transport: { readonly state: ScenarioState; readonly steps: ReadonlyArray<StepOutcome>; readonly error: string } | null =
    null
  const property = fc.asyncProperty(
    start,
    fc.array(command, { maxLength: maxCommands, size: 'max' }),
    async (state, commands) => {
      // After a request without a reply the server may be gone: the remaining runs do nothing.
      if (transport !== null) return
      if (!failed) sequences++
      const steps: Array<StepOutcome> = []
      const noReply = (e: unknown, step: SequenceStep | null): void => {
        if (!(e instanceof NoReply)) throw e
        // While shrinking, a candidate without a reply is one that did not fail.
        if (!failed)
          transport = {
            state,
            steps: step === null ? steps : [...steps, { step, expected: null, actual: null }],
            error: e.message
          }
      }
      try {
        await put({ state, company_id: COMPANY })
      } catch (e) {
        noReply(e, null)
        return
      }
      let model: ServerState = { ...state, kept: new Map() }
      const keyed: Array<ScenarioRequest> = []
      const reads: Array<ScenarioRequest> = []
      for (const [at, next] of commands.entries()) {
        const step = next({ model, at, keyed, reads })
        if (step.kind === 'day') {
          try {
            await put({ today: step.today })
          } catch (e) {
            noReply(e, step)
            return
          }
          model = { ...model, today: step.today }
          steps.push({ step, expected: null, actual: null })
          continue
        }
        const decided = decideRequest(model, step.request)
        let actual: ReceivedReply
        try {
          requests++
          actual = await exchange(step.request)
        } catch (e) {
          noReply(e, step)
          return
        }
        steps.push({ step, expected: decided.reply, actual })
        const differences = differencesOf(step.request, decided.reply, actual)
        const foreign = foreignIn({ company_id: COMPANY, ...model }, step.request, decided.reply, actual)
        // Once a leak is found, the sequence shrinks to a shorter leak, not to any difference.
        if (leaking ? foreign.length > 0 : differences.length > 0 || foreign.length > 0) {
          leaking = foreign.length > 0
          failed = true
          throw new Disagreement(steps, differences, foreign)
        }
        if (headerOf(step.request.headers, 'idempotency-key') !== undefined) keyed.push(step.request)
        if (step.request.method === 'GET') reads.push(step.request)
        model = decided.state
      }
    }
  )
  const details = await fc.check(property, runParameters(numRuns, seed, path))
  const found = transport as { state: ScenarioState; steps: ReadonlyArray<StepOutcome>; error: string } | null
  if (!details.failed) {
    if (found === null) return { ok: true, runs: details.numRuns, requests }
    return { ok: false, kind: 'transport', runs: sequences, seed: details.seed, url, ...found }
  }
  const { found: state, error, runs, seed: failedSeed, path: failedPath } = disagreementOf(details, Disagreement)
  return {
    ok: false,
    kind: 'disagreement',
    runs,
    seed: failedSeed,
    path: failedPath,
    url,
    state,
    steps: error.steps,
    differences: error.differences,
    foreign: error.foreign
  }
}
