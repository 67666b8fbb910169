/**
 * The conformance check: scenarios generated, each handed to the server under test, its
 * reply compared with the library's; a disagreement shrunk to a small scenario.
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import { type ConformanceEndpoint, conformanceEndpoints, type Scenario, scenario } from '../arbitraries/scenario'
import { headerOf } from '../http/headers'
import { compareReplies, type ReceivedReply } from './compare'
import { EndpointsError, endpointsOf, type KitEndpoint } from './endpoints'
import { type ExpectedReply, expectedReply } from './expected'
import { disagreementOf, runParameters } from './run'
import { type Foreign, foreignIn } from './tenants'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Hands a scenario to the server under test: make it hold `scenario.state`, send it
 * `scenario.request`, and resolve to its reply (see `httpSender` for a server over HTTP).
 *
 * @example
 * import { checkConformance, expectedReply } from 'budget-rules/conformance'
 *
 * // a server embedding the library's facades answers as it does
 * const send = async (scenario) => expectedReply(scenario)
 * typeof send //=> 'function'
 *
 * @category model
 * @since 0.2.0
 */
export type Send = (scenario: Scenario) => Promise<ReceivedReply>

/**
 * What to check: the server (`send`), how many scenarios (`numRuns`, 200 by default), the seed
 * (random unless given) and, to replay one run, the `path` a disagreement reported; `endpoints`
 * narrows the scenarios to some endpoints (R-95: names of `kitEndpoints`; those a single scenario
 * does not check, such as `budget.get`, are left to `checkSequences`).
 *
 * @example
 * import { checkConformance, expectedReply } from 'budget-rules/conformance'
 *
 * const options = { send: async (scenario) => expectedReply(scenario), numRuns: 5, seed: 7, endpoints: ['budget.top_up'] }
 * checkConformance(options) instanceof Promise //=> true
 *
 * @category model
 * @since 0.2.0
 */
export interface ConformanceOptions {
  readonly send: Send
  readonly numRuns?: number
  readonly seed?: number
  readonly path?: string
  readonly endpoints?: ReadonlyArray<ConformanceEndpoint | KitEndpoint>
}

/**
 * The outcome: every run agreed; or the first disagreement found, shrunk, with both replies and
 * the seed and path that replay it (`checkConformance({ send, seed, path })`); or a `transport`
 * failure: `send` threw or rejected (no reply: a connection reset, a server gone, a seeding
 * refused), and the check stopped there, unshrunk (`runs` the scenarios sent, the last one this),
 * naming the scenario sent before it, which may be what brought the server down.
 *
 * @example
 * import { checkConformance } from 'budget-rules/conformance'
 *
 * const agreed = { ok: true, runs: 100 }
 * agreed.ok //=> true
 *
 * @category model
 * @since 0.2.0
 */
export type ConformanceResult =
  | { readonly ok: true; readonly runs: number }
  | {
      readonly ok: false
      readonly kind: 'disagreement'
      readonly runs: number
      readonly seed: number
      readonly path: string
      readonly scenario: Scenario
      readonly expected: ExpectedReply
      readonly actual: ReceivedReply
      /** What of another company the reply holds or counts, empty when nothing. */
      readonly foreign: ReadonlyArray<Foreign>
    }
  | {
      readonly ok: false
      readonly kind: 'transport'
      readonly runs: number
      readonly seed: number
      readonly scenario: Scenario
      readonly previous: Scenario | null
      readonly error: string
    }

/**
 * The number of scenarios a check runs unless told otherwise (ADR 0091).
 *
 * @example
 * import { DEFAULT_RUNS } from 'budget-rules/conformance'
 *
 * DEFAULT_RUNS //=> 200
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_RUNS = 200

/** What the server holds for a scenario, by company: the request's company is the seeded one. */
const holdingsOf = (s: Scenario) => ({
  company_id: headerOf(s.request.headers, 'company-id')?.trim() ?? '',
  budget: s.state.budget,
  records: s.state.records,
  ...(s.state.others === undefined ? {} : { others: s.state.others })
})

/**
 * The scenarios' endpoints among those given: an Error of one line when a name is unknown, or
 * when none is an endpoint of a single scenario.
 */
const scenarioEndpoints = (given: ReadonlyArray<string>): ReadonlyArray<ConformanceEndpoint> => {
  const known = endpointsOf(given)
  const chosen = conformanceEndpoints.filter((e) => known.includes(e))
  if (chosen.length === 0)
    throw new EndpointsError(
      `no endpoint of ${known.join(', ')} is one a single scenario checks (${conformanceEndpoints.join(', ')}): checkSequences checks the others`
    )
  return chosen
}

/** Thrown by a run whose replies differ, so that fast-check shrinks it and hands it back. */
class Disagreement extends Error {
  constructor(
    readonly expected: ExpectedReply,
    readonly actual: ReceivedReply
  ) {
    super('the server and the library disagree')
  }
}

// -------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------

/**
 * Checks a server against the rules: generates `numRuns` scenarios (`scenario()` of
 * `budget-rules/arbitraries`), hands each to `send`, and compares the reply with the library's
 * own (`expectedReply`) by `compareReplies`: status, body, Content-Range, X-Total-Count,
 * Retry-After, Content-Type and the presence of X-Request-Id. Runs one scenario at a time. On
 * the first disagreement it shrinks the scenario (calling `send` again for each candidate) and
 * resolves to the smallest it found, both replies, and the seed and path to replay it. When
 * `send` throws or rejects it stops there, unshrunk, with a `transport` failure: no reply is no
 * disagreement, and a shrunk scenario would only hide the one sent before it.
 *
 * @example
 * import { checkConformance, expectedReply } from 'budget-rules/conformance'
 *
 * // a server that forgets X-Total-Count on its pages; the promise resolves to
 * // { ok: false, kind: 'disagreement', runs, seed, path, scenario: <an index request>, expected: <a 200>, actual }
 * const send = async (scenario) => {
 *   const { 'X-Total-Count': _, ...headers } = expectedReply(scenario).headers
 *   return { ...expectedReply(scenario), headers }
 * }
 * checkConformance({ send, seed: 1 }) instanceof Promise //=> true
 *
 * @category utils
 * @since 0.2.0
 */
export const checkConformance = async (options: ConformanceOptions): Promise<ConformanceResult> => {
  const { send, numRuns = DEFAULT_RUNS, seed, path } = options
  const endpoints = options.endpoints === undefined ? undefined : scenarioEndpoints(options.endpoints)
  let previous: Scenario | null = null
  let sent = 0
  let failed = false
  let transport: { readonly scenario: Scenario; readonly previous: Scenario | null; readonly error: string } | null = null
  const property = fc.asyncProperty(scenario(endpoints === undefined ? {} : { endpoints }), async (s) => {
    // After a scenario without a reply the server may be gone: the remaining runs do nothing.
    if (transport !== null) return
    const expected = expectedReply(s)
    if (!failed) sent++
    let actual: ReceivedReply
    try {
      actual = await send(s)
    } catch (e) {
      // While shrinking, a candidate without a reply is one that did not fail.
      if (!failed) transport = { scenario: s, previous, error: e instanceof Error ? e.message : String(e) }
      return
    }
    previous = s
    if (
      compareReplies(s.endpoint, expected, actual).length > 0 ||
      foreignIn(holdingsOf(s), s.request, expected, actual).length > 0
    ) {
      failed = true
      throw new Disagreement(expected, actual)
    }
  })
  const details = await fc.check(property, runParameters(numRuns, seed, path))
  const noReply = transport as { scenario: Scenario; previous: Scenario | null; error: string } | null
  if (!details.failed)
    return noReply === null
      ? { ok: true, runs: details.numRuns }
      : { ok: false, kind: 'transport', runs: sent, seed: details.seed, ...noReply }
  const { found, error, runs, seed: failedSeed, path: failedPath } = disagreementOf(details, Disagreement)
  return {
    ok: false,
    kind: 'disagreement',
    runs,
    seed: failedSeed,
    path: failedPath,
    scenario: found,
    expected: error.expected,
    actual: error.actual,
    foreign: foreignIn(holdingsOf(found), found.request, error.expected, error.actual)
  }
}
