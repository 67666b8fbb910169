/**
 * budget-rules: the rules of a company-finance banking API's budgets (balance groups) and of
 * the conventions its endpoints share, as pure functions.
 *
 * The root holds what a server and a client need (contract section 3): the facades (`respond*`:
 * a request and the server's data in, the exact reply out), the index endpoints' descriptions,
 * the budget utilities a UI needs, and the client functions. The typed rules under the facades
 * are in `budget-rules/rules`; the client functions alone, without fp-ts or io-ts, in
 * `budget-rules/client`.
 *
 * @example
 * import { permittedUpdateFields } from 'budget-rules'
 *
 * permittedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, { manager_id: 'u-7', co_manager_id: null, status: 'open' })
 * //=> ['name', 'description', 'access', 'ends_on']
 *
 * @since 0.1.0
 */

// -- facades: a request and the server's data in, the exact reply out
// (the contexts, the session and the budget as types alone: src/facade/inputs.ts says why)
export type {
  BudgetContext,
  IndexContext,
  AuthorizeTransactionContext,
  BankRecipientContext,
  RoleAssignmentContext,
  Session,
  Budget,
  StoredBudget,
  StoredBankTransaction,
  StoredBankRecipient
} from './facade/inputs'
export { respondBudget } from './facade/budget-read'
export { respondBudgetIndex, type BudgetIndexContext } from './facade/budget-index'
export { respondBudgetUpdate } from './facade/budget-update'
export { respondTopUp, respondWithdraw, respondAmount } from './facade/money'
export type { BudgetReply } from './facade/budget-context'
export {
  respondIndex,
  planIndex,
  respondIndexPage,
  type IndexQueryContext,
  type IndexPageContext,
  type IndexPlan,
  type IndexReply
} from './facade/index-endpoint'
export type { PageRequest } from './paging/request'
export { planScope, type ScopeContext, type ScopePlan } from './facade/scope-plan'
export { respondRoleAssignment, type RoleAssignmentReply } from './facade/role-assignment'
export { respondAuthorizeTransaction, type AuthorizeTransactionReply } from './facade/authorize-transaction'
export { respondBankRecipient, type BankRecipientReply } from './facade/bank-recipient'
export { respondServiceRefusal, type ServiceRefusalContext } from './facade/service-refusal'
export type { Reply, ProblemReply } from './reply/reply'
export type { Reason } from './decision/rules'
export type { Caller } from './auth/session'
export { headerOf, type Headers as HttpHeaders } from './http/headers'

// -- the glue a server writes otherwise: the query a facade takes, the reply as a Web Response
export { rawQuery, type QuerySource } from './http/raw-query'
export { toResponse } from './http/response'

// -- index endpoints
export { endpoints, defineEndpoint, type Endpoint } from './paging/endpoint'

// -- budgets, for a UI
export { permittedUpdateFields, lockedUpdateFields, type LockRule } from './budget/permissions'
export { advanceBudget, upcomingPeriods } from './budget/advance'

// -- the client
export { parseErrorResponse, type ParsedProblem } from './client/error'
export { retryDecision, type RetryDecision } from './client/retry'
export { nextWindow } from './client/window'
export { buildQuery, liveFeedQuery, nextLiveCursor, liveFeedStart, type LiveCursor } from './client/query'
