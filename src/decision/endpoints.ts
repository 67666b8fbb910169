/**
 * The names of the decisions a facade makes, one per facade and index endpoint: what a
 * decision record's `endpoint` says, what `budget-rules decide` and `replay` read, and the
 * conformance kit's scenario names.
 *
 * @example
 * decisionEndpoints.slice(0, 3) //=> ['budget.get', 'budget.update', 'budget.top_up']
 *
 * @since 0.4.0
 */

/**
 * Every decision endpoint, in the order of the API's operations.
 *
 * @example
 * decisionEndpoints.includes('index.decisions') //=> true
 *
 * @category constants
 * @since 0.4.0
 */
export const decisionEndpoints = [
  'budget.get',
  'budget.update',
  'budget.top_up',
  'budget.withdraw',
  'budget.amount',
  'index.budgets',
  'index.bank_transactions',
  'transaction.authorize',
  'recipient.enroll',
  'index.companies',
  'role.assign',
  'index.decisions'
] as const

/**
 * The name of a decision: which facade decided.
 *
 * @example
 * const endpoint: DecisionEndpoint = 'budget.update'
 * endpoint //=> 'budget.update'
 *
 * @category model
 * @since 0.4.0
 */
export type DecisionEndpoint = (typeof decisionEndpoints)[number]

/**
 * Whether `u` names a decision endpoint: false of anything but one of these strings, since
 * `includes` compares without coercion.
 *
 * @example
 * isDecisionEndpoint('budget.top_up') //=> true
 * isDecisionEndpoint('budget.close') //=> false
 *
 * @category refinements
 * @since 0.4.0
 */
export const isDecisionEndpoint = (u: unknown): u is DecisionEndpoint => (decisionEndpoints as ReadonlyArray<unknown>).includes(u)
