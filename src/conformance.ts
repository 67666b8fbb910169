/**
 * budget-rules/conformance: checks a server against the rules. It generates scenarios
 * (a state the server must hold, a request), sends each to the server, compares the reply with
 * the library's own, and reports the smallest disagreement it finds. docs/conformance.md is the
 * guide. fast-check is a peer dependency.
 *
 * @example
 * import { checkConformance, httpSender, formatDisagreement } from 'budget-rules/conformance'
 *
 * // const result = await checkConformance({ send: httpSender('http://127.0.0.1:8080'), numRuns: 1000 })
 * // console.log(formatDisagreement(result))
 * formatDisagreement({ ok: true, runs: 1000 }) //=> '1000 scenarios, 0 disagreements'
 *
 * @since 0.2.0
 */
export { checkConformance, DEFAULT_RUNS, type ConformanceOptions, type ConformanceResult, type Send } from './conformance/check'
export { expectedReply, type ExpectedReply } from './conformance/expected'
export { compareReplies, bodyValue, type ReceivedReply, type Difference } from './conformance/compare'
export { httpSender } from './conformance/http'
export { formatDisagreement } from './conformance/report'
export type { Scenario, ScenarioState, ScenarioRequest, ConformanceEndpoint } from './arbitraries/scenario'
