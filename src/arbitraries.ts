/**
 * budget-rules/arbitraries: the service's data as fast-check arbitraries, for property
 * tests of a server, a client or a UI. fast-check is a peer dependency.
 *
 * @example
 * import { budget } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(budget(), { numRuns: 1, seed: 1 }).length //=> 1
 *
 * @since 0.2.0
 */
export { budget, type BudgetOptions, type Renewal } from './arbitraries/budget'
export { session, caller, type Who } from './arbitraries/session'
export { updateBody, moneyBody, type BodyContext } from './arbitraries/bodies'
export { query, record, errorReply } from './arbitraries/index-endpoint'
export {
  scenario,
  conformanceEndpoints,
  type ConformanceEndpoint,
  type Scenario,
  type ScenarioState,
  type OtherCompany,
  type ScenarioRequest
} from './arbitraries/scenario'
