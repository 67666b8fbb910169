/**
 * What a server hands the facades, as types alone: the contexts, the session, the budget, and
 * the shapes a server stores and builds from its rows.
 *
 * The contexts, the session and the budget are each a codec and a type of one name in their
 * modules (io-ts style). The package root exports the types only, so each is declared here again
 * as a type alias: the declaration bundler (tsup, rollup-plugin-dts) drops the `type` of a
 * re-export, and a bare `export type { Budget }` at the root was declared as the codec too, a
 * value the built module does not have (R-104, ADR 0128).
 *
 * @since 0.5.0
 */
import type { Session as SessionOf } from '../auth/session'
import type { BudgetJson } from '../budget/model'
import type { Budget as BudgetOf } from '../budget/stored'
import type { AuthorizeTransactionContext as AuthorizeTransactionContextOf } from './authorize-transaction'
import type { BankRecipientContext as BankRecipientContextOf } from './bank-recipient'
import type { BudgetContext as BudgetContextOf } from './budget-context'
import type { IndexContext as IndexContextOf } from './index-endpoint'
import type { RoleAssignmentContext as RoleAssignmentContextOf } from './role-assignment'

/**
 * A budget (balance group), contract section 2, as the facades give it back: its dates checked.
 *
 * @example
 * import { advanceBudget } from 'budget-rules'
 *
 * const rolled: Budget = advanceBudget(budget, '2027-01-20')
 * rolled.period_starts_on //=> '2027-01-18'
 *
 * @category model
 * @since 0.1.0
 */
export type Budget = BudgetOf

/**
 * The user an API key resolved to (null: unknown, revoked or absent key) and their memberships,
 * by company id (contract section 2).
 *
 * @example
 * import { respondBudget } from 'budget-rules'
 *
 * const nobody: Session = { user: null, memberships: {} }
 * respondBudget({ request: { headers }, session: nobody, budget: null, today: '2026-11-22', request_id: 'req-1' }).status //=> 401
 *
 * @category model
 * @since 0.1.0
 */
export type Session = SessionOf

/**
 * What a server hands a budget facade (`respondBudget`, `respondBudgetUpdate`, `respondTopUp`,
 * `respondWithdraw`, `respondAmount`).
 *
 * @example
 * import { respondBudget } from 'budget-rules'
 *
 * const context: BudgetContext = { request: { headers }, session, budget: null, today: '2026-11-22', request_id: 'req-1' }
 * respondBudget(context).status //=> 404
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetContext = BudgetContextOf

/**
 * What a server hands `respondIndex`: the request, the session, the endpoint's description and
 * its records, already scoped to the company.
 *
 * @example
 * import { endpoints, respondIndex } from 'budget-rules'
 *
 * const context: IndexContext = { request: { headers, query: '_start=2&_end=4' }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-1' }
 * respondIndex(context).body //=> [records[2]]
 *
 * @category model
 * @since 0.1.0
 */
export type IndexContext = IndexContextOf

/**
 * What a server hands `respondAuthorizeTransaction`.
 *
 * @example
 * import { respondAuthorizeTransaction } from 'budget-rules'
 *
 * const context: AuthorizeTransactionContext = { request: { headers }, session, transaction: null, request_id: 'req-1' }
 * respondAuthorizeTransaction(context).status //=> 404
 *
 * @category model
 * @since 0.1.0
 */
export type AuthorizeTransactionContext = AuthorizeTransactionContextOf

/**
 * What a server hands `respondBankRecipient`.
 *
 * @example
 * import { respondBankRecipient } from 'budget-rules'
 *
 * const context: BankRecipientContext = { request: { headers, body: '{"rut":"12.345.678-5"}' }, session, bank_ids: ['bank-1'], enrolled: [], request_id: 'req-1' }
 * respondBankRecipient(context).status //=> 400
 *
 * @category model
 * @since 0.1.0
 */
export type BankRecipientContext = BankRecipientContextOf

/**
 * What a server hands `respondRoleAssignment`.
 *
 * @example
 * import { respondRoleAssignment } from 'budget-rules'
 *
 * const context: RoleAssignmentContext = { request: { headers, body: '{"role":"admin"}' }, session, user_id: 'u-9', request_id: 'req-1', company_member_ids: ['u-1', 'u-2'] }
 * respondRoleAssignment(context).status //=> 404
 *
 * @category model
 * @since 0.1.0
 */
export type RoleAssignmentContext = RoleAssignmentContextOf

/**
 * A budget as a server stores it and passes it as `budget`: plain JSON, its dates strings
 * (`YYYY-MM-DD`), its amounts numbers of cents, no brand. The facades check it when they read it.
 *
 * @example
 * import { respondBudget } from 'budget-rules'
 *
 * const row = { ...budget, name: 'Travel', created_on: '2025-10-18' }
 * const stored: StoredBudget = row
 * respondBudget({ request: { headers }, session, budget: stored, today: '2026-11-22', request_id: 'req-1' }).status //=> 200
 *
 * @category model
 * @since 0.5.0
 */
export type StoredBudget = Readonly<BudgetJson>

/**
 * A bank transaction as a server stores it and passes it as `transaction`: `status` is the
 * string its column holds (any value but `pending` or `authorized` is a 500), `created_at` and
 * `updated_at` ISO 8601 strings, not `Date`s.
 *
 * @example
 * import { respondAuthorizeTransaction } from 'budget-rules'
 *
 * const stored: StoredBankTransaction = { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'pending', created_at: '2026-11-20T09:00:00Z' }
 * respondAuthorizeTransaction({ request: { headers }, session, transaction: stored, request_id: 'req-1' }).status //=> 200
 *
 * @category model
 * @since 0.5.0
 */
export type StoredBankTransaction = NonNullable<AuthorizeTransactionContextOf['transaction']>

/**
 * A bank recipient a company has enrolled, as a server stores it and passes it in `enrolled`.
 *
 * @example
 * import { respondBankRecipient } from 'budget-rules'
 *
 * const enrolled: ReadonlyArray<StoredBankRecipient> = [{ rut: '12.345.678-5', bank_id: 'bank-1', account_number: '0012-3456' }]
 * respondBankRecipient({ request: { headers, body: '{"bank_recipient":{"rut":"12345678-5","account_number":"00123456","bank_id":"bank-1","name":"Ana"}}' },
 *   session, bank_ids: ['bank-1'], enrolled, request_id: 'req-1' }).status
 * //=> 409
 *
 * @category model
 * @since 0.5.0
 */
export type StoredBankRecipient = BankRecipientContextOf['enrolled'][number]
