/**
 * The endpoints the kit checks, named as decision records name them, and the subset a
 * partial server has: `--endpoints a,b` on the CLI, `endpoints` of `checkConformance`,
 * `checkSequences` and `checkHistories`. A name the kit does not know is one line that lists
 * those it does.
 *
 * @since 0.4.0
 */
import type { DecisionEndpoint } from '../decision/endpoints'

/**
 * Every endpoint the kit checks, in the order of the API's operations: the scenarios' five, and
 * the reads of sequences and histories.
 *
 * @example
 * import { kitEndpoints } from 'budget-rules/conformance'
 *
 * kitEndpoints.length //=> 8
 *
 * @category constants
 * @since 0.4.0
 */
export const kitEndpoints = [
  'budget.get',
  'budget.update',
  'budget.top_up',
  'budget.withdraw',
  'budget.amount',
  'index.budgets',
  'index.bank_transactions',
  'index.decisions'
] as const satisfies ReadonlyArray<DecisionEndpoint>

/**
 * An endpoint the kit checks.
 *
 * @example
 * import { kitEndpoints } from 'budget-rules/conformance'
 *
 * const endpoint: (typeof kitEndpoints)[number] = 'budget.get'
 * endpoint //=> 'budget.get'
 *
 * @category model
 * @since 0.4.0
 */
export type KitEndpoint = (typeof kitEndpoints)[number]

/**
 * Options a check cannot run with (an unknown endpoint, none a check sends to): thrown before any
 * request, its message one line.
 *
 * @example
 * import { endpointsOf } from 'budget-rules/conformance'
 *
 * new EndpointsError('no endpoint').message //=> 'no endpoint'
 *
 * @category model
 * @since 0.4.0
 */
export class EndpointsError extends Error {
  override readonly name = 'EndpointsError'
}

/**
 * The endpoints given, checked: each a name of {@link kitEndpoints}, at least one; an Error of
 * one line (an EndpointsError) naming the first unknown one and listing the known ones otherwise.
 *
 * @example
 * import { endpointsOf } from 'budget-rules/conformance'
 *
 * endpointsOf(['budget.update', 'index.bank_transactions']) //=> ['budget.update', 'index.bank_transactions']
 * (() => { try { return endpointsOf(['budget.close']) } catch (e) { return e.message } })()
 * //=> 'unknown endpoint "budget.close": the kit checks budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, index.decisions'
 *
 * @category constructors
 * @since 0.4.0
 */
export const endpointsOf = (names: ReadonlyArray<string>): ReadonlyArray<KitEndpoint> => {
  const unknown = names.find((n) => !(kitEndpoints as ReadonlyArray<string>).includes(n))
  if (unknown !== undefined)
    throw new EndpointsError(`unknown endpoint ${JSON.stringify(unknown)}: the kit checks ${kitEndpoints.join(', ')}`)
  if (names.length === 0) throw new EndpointsError(`no endpoint named: the kit checks ${kitEndpoints.join(', ')}`)
  return names as ReadonlyArray<KitEndpoint>
}

/**
 * Whether `endpoint` is checked: it is among `endpoints`, or no subset was given.
 *
 * @example
 * import { checks } from 'budget-rules/conformance'
 *
 * checks(undefined, 'budget.get') //=> true
 * checks(['budget.update'], 'budget.get') //=> false
 *
 * @category refinements
 * @since 0.4.0
 */
export const checks = (endpoints: ReadonlyArray<KitEndpoint> | undefined, endpoint: KitEndpoint): boolean =>
  endpoints === undefined || endpoints.includes(endpoint)
