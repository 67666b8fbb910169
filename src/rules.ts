/**
 * budget-rules/rules: the typed layer under the facades, in fp-ts and io-ts style: codecs at the
 * boundary, smart constructors, and one function per rule returning an `Either` or a `Trail`
 * (the rules consulted and the problem or value reached). The facades of the package root are
 * built from these; use them to build a facade of your own or to test a rule alone.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 * import { decodeFilter } from 'budget-rules/rules'
 * import { either } from 'fp-ts'
 *
 * either.isRight(decodeFilter(endpoints.bankTransactions, 'amount[$gte]', '1000')) //=> true
 *
 * @since 0.1.0
 */

// -- authentication and scope (contract section 4)
export { Session, Role, authenticate, identify, budgetInScope, bearerKey, type Scope, type Identity } from './auth/session'
export { Request, HeadersCodec } from './http/request'
export { headerOf, type HeaderValue, type HeadersLike } from './http/headers'

// -- the budget: model, stored budgets, permissions, update, money, periods
export { Budget } from './budget/stored'
export {
  BudgetFields,
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
export {
  hasFullBudgetRights,
  budgetRights,
  fieldPermissions,
  type BudgetRights,
  type FieldPermission
} from './budget/permissions'
export { decideUpdate, authorizeUpdate, type UpdateRequest } from './budget/update'
export { validateUpdate, fieldMessages, type Changes } from './budget/validation'
export { reopen } from './budget/lifecycle'
export { decodeUpdateBody, type Sent } from './budget/patch'
export { changeRecurrence, type RecurrenceSettings } from './budget/recurrence-change'
export { scheduleOf, MAX_UPCOMING_PERIODS, type UpcomingPeriod } from './budget/advance'
export { BudgetContext as BudgetContextCodec } from './facade/budget-context'
export { IndexContext as IndexContextCodec } from './facade/index-endpoint'
export type { BankTransaction } from './facade/authorize-transaction'
export { authorizeMoney, decodeMoneyBody, moneyStatus, applyMoney, moneyMessages, type MoneyOperation } from './budget/money'
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

// -- calendar dates and instants
export { CalendarDate } from './calendar/codec'
export { isCalendarDate, addDays, daysInMonth, isLeapYear, toDayNumber, fromDayNumber } from './calendar/date'
export { parseInstant, compareInstants, type Instant } from './calendar/instant'

// -- index endpoints (contract section 8)
export { EndpointCodec } from './facade/index-endpoint'
export { fieldOf, spellOrder, type FieldType, type OrderCase, type Envelope } from './paging/endpoint'
export {
  decodeWindow,
  checkWindowSize,
  DEFAULT_WINDOW_SIZE,
  MAX_WINDOW_SIZE,
  RECOMMENDED_WINDOW_SIZE,
  type Order,
  type Sort,
  type PageWindow
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

// -- problems, replies and the rules catalogue
/**
 * Why a request is refused, as data: one constructor and one type per reply the spec names,
 * each carrying the rule that refused and a detail for the log.
 *
 * @example
 * problem.notFound('budget.scope', 'no budget with that id') //=> { _tag: 'NotFound', rule: 'budget.scope', detail: 'no budget with that id' }
 */
export * as problem from './decision/problem'
export type { Problem, FieldError } from './decision/problem'
export {
  problemReply,
  statusAndBody,
  statuses,
  reply,
  messages,
  JSON_CONTENT_TYPE,
  type AnyReply,
  type ReplyOf
} from './reply/reply'
export { rules, type RuleId, type RuleDescription } from './decision/rules'
export type { Trail } from './decision/trail'

// -- the client's building blocks
export { kindOf, anyHeader, retryAfterSeconds, type ProblemKind, type AnyHeaders } from './client/error'
export { retryPolicy, type RetryInput } from './client/retry'
export type { QuerySpec, FilterSpec } from './client/query'
export { parseHttpDate } from './http/date'

// -- banking and company rules
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
