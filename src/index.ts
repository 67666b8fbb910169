/**
 * budget-rules: the rules of a company-finance banking API's budgets (balance groups) and of
 * the conventions its endpoints share, as pure functions.
 *
 * - Facades (`respond*`): a request and the server's data in, the exact reply out.
 * - Rules: typed decisions returning `Either<Problem, _>` or a {@link Trail}.
 *
 * @since 0.1.0
 */
export { respondBudgetUpdate } from './facade/budget-update'
export { respondTopUp, respondWithdraw, respondAmount } from './facade/money'
export { BudgetContext, type BudgetReply } from './facade/budget-context'
export { respondRoleAssignment, type RoleAssignmentContext, type RoleAssignmentReply } from './facade/role-assignment'
export {
  respondAuthorizeTransaction,
  type AuthorizeTransactionContext,
  type AuthorizeTransactionReply,
  type BankTransaction
} from './facade/authorize-transaction'
export { respondBankRecipient, type BankRecipientContext, type BankRecipientReply } from './facade/bank-recipient'
export {
  authorizeMoney,
  decodeMoneyBody,
  moneyStatus,
  applyMoney,
  moneyMessages,
  type MoneyOperation
} from './budget/money'
export { permittedUpdateFields, hasFullBudgetRights, budgetRights, fieldPermissions, type BudgetRights, type FieldPermission } from './budget/permissions'
export { advanceBudget, upcomingPeriods, scheduleOf, MAX_UPCOMING_PERIODS, type UpcomingPeriod } from './budget/advance'
export { Budget } from './budget/stored'
export {
  Cents,
  Every,
  budgetFields,
  updateFields,
  recurrenceFields,
  accessValues,
  type Access,
  type BudgetJson,
  type Mode,
  type BudgetStatus,
  type BudgetField,
  type UpdateField
} from './budget/model'
export { decideUpdate, authorizeUpdate, fieldMessages, type UpdateRequest } from './budget/update'
export { decodeUpdateBody, type Sent } from './budget/patch'
export { changeRecurrence, type RecurrenceSettings } from './budget/recurrence-change'
export {
  boundaryOf,
  indexAt,
  periodAt,
  nextBoundaryAfter,
  recurrenceUnits,
  type RecurrenceUnit,
  type Schedule,
  type Period
} from './recurrence/schedule'
export { CalendarDate } from './calendar/codec'
export {
  isCalendarDate,
  addDays,
  daysInMonth,
  isLeapYear,
  toDayNumber,
  fromDayNumber
} from './calendar/date'
export { Session, Role, authenticate, identify, budgetInScope, type Caller, type Scope, type Identity } from './auth/session'
export { Request, HeadersCodec } from './http/request'
export { headerOf, type Headers as HttpHeaders, type HeaderValue, type HeadersLike } from './http/headers'
/**
 * Why a request is refused, as data: one constructor and one type per reply the spec names,
 * each carrying the rule that refused and a detail for the log.
 *
 * @example
 * problem.conflict('money.status', 'The budget is closed') //=> { _tag: 'Conflict', rule: 'money.status', detail: 'The budget is closed' }
 */
export * as problem from './decision/problem'
export type { Problem, FieldError } from './decision/problem'
export { problemReply, statusAndBody, messages, JSON_CONTENT_TYPE, type Reply, type ReplyOf, type ProblemReply } from './reply/reply'
export { rules, type RuleId, type Reason, type RuleDescription } from './decision/rules'
export type { Trail } from './decision/trail'
export { respondIndex, IndexContext, EndpointCodec, type IndexReply } from './facade/index-endpoint'
export { endpoints, defineEndpoint, fieldOf, spellOrder, type Endpoint, type FieldType, type OrderCase, type Envelope } from './paging/endpoint'
export { nextWindow } from './client/window'
export {
  decodeWindow,
  checkWindowSize,
  DEFAULT_WINDOW_SIZE,
  MAX_WINDOW_SIZE,
  RECOMMENDED_WINDOW_SIZE,
  type PageWindow,
  type Order,
  type Sort
} from './paging/window'
export {
  decodeFilter,
  compileFilter,
  fieldValue,
  compareValues,
  operators,
  MAX_LIST_VALUES,
  type Filter,
  type Operator,
  type FieldValue
} from './paging/filter'
export { decodeQuery, MAX_QUERY_PARAMETERS } from './paging/query'
export { encodeQuery, type QueryParameter } from './http/query-string'
export { decodePageRequest, type PageRequest } from './paging/request'
export { selectPage, firstK } from './paging/select'
export { pageHeaders } from './paging/headers'
export { parseInstant, compareInstants, type Instant } from './calendar/instant'
export {
  buildQuery,
  liveFeedQuery,
  nextLiveCursor,
  liveFeedStart,
  type QuerySpec,
  type FilterSpec,
  type LiveCursor
} from './client/query'
export {
  parseErrorResponse,
  kindOf,
  anyHeader,
  retryAfterSeconds,
  type ParsedProblem,
  type ProblemKind,
  type AnyHeaders
} from './client/error'
export { retryDecision, retryPolicy, type RetryDecision, type RetryInput } from './client/retry'
export { parseHttpDate } from './http/date'
export {
  validateBankRecipient,
  normaliseRut,
  rutCheckDigit,
  recipientMessages,
  type BankRecipient,
  type RecipientContext
} from './banking/recipient'
export { authorizeTransaction, type TransactionStatus } from './banking/transaction'
export { guardRoleAssignment } from './company/roles'
export { nameError, nameMessages, MAX_NAME_LENGTH } from './validation/name'
