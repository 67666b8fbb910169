/**
 * budget-rules/conformance (R-91..R-93): checks a server against the rules. It generates
 * scenarios (a state the server must hold, a request), sends each to the server, compares the
 * reply with the library's own, and reports the smallest disagreement it finds; over sequences
 * of requests (`checkSequences`), each reply must be the library's on the state the earlier ones
 * left; over concurrent histories (`checkHistories`), some order of the money operations must
 * explain every reply. docs/conformance.md is the guide. fast-check is a peer dependency.
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
export {
  checkSequences,
  DEFAULT_SEQUENCES,
  DEFAULT_COMMANDS,
  type SequenceOptions,
  type SequenceResult,
  type SequenceStep,
  type StepOutcome
} from './conformance/sequences'
export {
  checkHistories,
  checkHistory,
  DEFAULT_CLIENTS,
  DEFAULT_OPERATIONS,
  type History,
  type HistoryCheck,
  type HistoryOperation,
  type HistoryOptions,
  type HistoryResult,
  type HistoryStats
} from './conformance/histories'
export { expectedReply, type ExpectedReply } from './conformance/expected'
export { compareReplies, bodyValue, type ReceivedReply, type Difference } from './conformance/compare'
export { httpSender } from './conformance/http'
export { formatDisagreement, formatSequences, formatHistory } from './conformance/report'
export type { Scenario, ScenarioState, ScenarioRequest, ConformanceEndpoint, OtherCompany } from './arbitraries/scenario'
export { kitEndpoints, endpointsOf, checks, EndpointsError, type KitEndpoint } from './conformance/endpoints'
export { foreignIn, type Foreign } from './conformance/tenants'
export type { SequenceSend } from './conformance/sequences'
