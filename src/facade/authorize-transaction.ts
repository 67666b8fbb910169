/**
 * POST /v1/banking/bank_transactions/{id}/authorize (contract R-71) as one pure function. The
 * server passes the request as received, the session it resolved from the key, the transaction
 * the path names (looked up in the company that company-id names, or null) and its request id;
 * it gets back the exact reply, and on a 200 the transaction to persist.
 *
 * The transaction may be a plain object, a class instance or an ORM row: its fields
 * (`id`, `company_id`, `amount`, `status`, `created_at`, `updated_at`, the bank transaction of
 * contract section 8 and its company) are read by property access, each once, before anything
 * else; only `company_id` decides the scope, so another company's transaction is the 404 of a
 * missing one whatever else it holds. A status other than `pending` or `authorized` is malformed
 * trusted input (500), decided before `authorizeTransaction` is called (ADR 0071).
 *
 * Rules consulted, in order: `auth.bearer`, `auth.email_verified`, `auth.company_header`,
 * `auth.membership`, `transaction.scope` (404), `transaction.stored` (500),
 * `transaction.permission` (401), `transaction.authorize` (409, or the 200).
 *
 * @example
 * import { respondAuthorizeTransaction } from 'budget-rules'
 *
 * const { reasons, ...reply } = respondAuthorizeTransaction({
 *   request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' } },
 *   session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
 *   transaction: { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'pending' }, request_id: 'req-1'
 * })
 * reply
 * //=> { status: 200, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'authorized' },
 * //     transaction: { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'authorized' } }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'transaction.scope',
 * //    'transaction.stored', 'transaction.permission', 'transaction.authorize']
 *
 * @since 0.1.0
 */
import { function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, type Caller, type Scope, Session } from '../auth/session'
import { authorizeTransaction, type TransactionStatus } from '../banking/transaction'
import { parseInstant } from '../calendar/instant'
import { bind, chain, check, fail, map, pass, type Trail } from '../decision/trail'
import { Request } from '../http/request'
import { describeValue } from '../json/describe'
import * as problem from '../decision/problem'
import type { Reply, ReplyOf } from '../reply/reply'
import { respondWith, settle, StoredObject } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A bank transaction as the library knows it: the fields contract section 8 names, and its
 * company. `amount`, `created_at` and `updated_at` are there when the server's row has them.
 *
 * @example
 * // records[1]: tx-2, pending
 * respondAuthorizeTransaction({ request: { headers }, session, transaction: { ...records[1], company_id: 'c-1' }, request_id: 'req-1' }).transaction
 * //=> { ...records[1], company_id: 'c-1', status: 'authorized' }
 *
 * @category model
 * @since 0.1.0
 */
export interface BankTransaction {
  readonly id: string
  readonly company_id: string
  readonly amount?: number
  readonly status: TransactionStatus
  readonly created_at?: string
  readonly updated_at?: string
}

/** The fields read from the server's transaction, in this order, each once (and what a decision record keeps of it). */
export const transactionFields = ['id', 'company_id', 'amount', 'status', 'created_at', 'updated_at'] as const

type TransactionField = (typeof transactionFields)[number]

/** The fields as read, before they are checked, and those whose getter threw. */
interface TransactionRow {
  readonly values: Readonly<Partial<Record<TransactionField, unknown>>>
  readonly unreadable: ReadonlyArray<TransactionField>
}

/**
 * The check of what a server hands `respondAuthorizeTransaction`; the transaction itself is only
 * required to be an object or null here.
 *
 * @example
 * AuthorizeTransactionContext.is({ request: { headers }, session, transaction: null, request_id: 'req-1' }) //=> true
 *
 * @category codecs
 * @since 0.1.0
 */
export const AuthorizeTransactionContext = /*#__PURE__*/ t.type(
  { request: Request, session: Session, transaction: t.union([t.null, StoredObject]), request_id: t.string },
  'AuthorizeTransactionContext'
)

/**
 * What the server hands `respondAuthorizeTransaction`. `status` is typed as the string a
 * database column gives: any value but `pending` or `authorized` is a 500.
 *
 * @example
 * respondAuthorizeTransaction({ request: { headers }, session, transaction: { id: 'tx-1', company_id: 'c-1', status: 'declined' }, request_id: 'req-1' }).body
 * //=> { error: 'internal_error', message: 'Internal server error: transaction.status is "declined", not pending or authorized' }
 *
 * @category model
 * @since 0.1.0
 */
export interface AuthorizeTransactionContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly transaction: Readonly<Omit<BankTransaction, 'status'> & { readonly status: string }> | null
  readonly request_id: string
}

/**
 * A reply that carries, on a 200, the transaction to persist (status `authorized`).
 *
 * @example
 * respondAuthorizeTransaction({ request: { headers }, session, transaction: { id: 'tx-1', company_id: 'c-1', status: 'authorized' }, request_id: 'req-1' })
 * //=> { status: 409, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { error: 'conflict', message: 'The transaction is already authorized' },
 * //     reasons: [{ rule: 'auth.bearer', detail: 'key of user u-1' }, { rule: 'auth.email_verified', detail: 'email verified' },
 * //               { rule: 'auth.company_header', detail: 'company c-1' }, { rule: 'auth.membership', detail: 'role admin' },
 * //               { rule: 'transaction.scope', detail: 'transaction tx-1' }, { rule: 'transaction.stored', detail: 'status authorized' },
 * //               { rule: 'transaction.permission', detail: 'role admin' },
 * //               { rule: 'transaction.authorize', detail: 'The transaction is already authorized' }] }
 *
 * @category model
 * @since 0.1.0
 */
export type AuthorizeTransactionReply = Reply<
  ReplyOf<200, BankTransaction & { readonly status: 'authorized' }> & {
    readonly transaction: BankTransaction & { readonly status: 'authorized' }
  }
>

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Reads every field once, by property access; a getter that throws leaves its field unreadable. */
const readTransaction = (u: object): TransactionRow => {
  const values: Partial<Record<TransactionField, unknown>> = {}
  const unreadable: Array<TransactionField> = []
  for (const field of transactionFields) {
    try {
      values[field] = (u as Readonly<Record<string, unknown>>)[field]
    } catch {
      unreadable.push(field)
    }
  }
  return { values, unreadable }
}

const malformed = (found: ReadonlyArray<string>) =>
  fail(
    problem.serverMistake(
      'transaction.stored',
      `malformed stored transaction: ${found.join('; ')}`,
      found.map((f) => `transaction.${f}`).join('; ')
    )
  )

/**
 * Row 5: the transaction exists in the caller's company. Only `company_id` is read for it, so a
 * transaction of another company gets the reply of one that does not exist, malformed or not.
 */
const transactionInScope = (scope: Scope, row: TransactionRow | null): Trail<TransactionRow> => {
  if (row === null) return fail(problem.notFound('transaction.scope', 'no transaction with that id'))
  if (row.unreadable.includes('company_id')) return malformed(['company_id could not be read'])
  const id = typeof row.values.id === 'string' ? row.values.id : describeValue(row.values.id)
  return row.values.company_id === scope.company_id
    ? pass('transaction.scope', `transaction ${id}`, row)
    : fail(problem.notFound('transaction.scope', `transaction ${id} belongs to another company`))
}

const isInstant = (u: unknown): boolean => typeof u === 'string' && parseInstant(u) !== null

/**
 * The transaction of a row in scope, as a fresh plain object, or the 500 of a malformed one
 * (every problem named in the reason); nothing is repaired.
 */
const storedTransaction = (row: TransactionRow): Trail<BankTransaction> => {
  const { values: v, unreadable } = row
  const found: Array<string> = unreadable.map((field) => `${field} could not be read`)
  const readable = (field: TransactionField) => !unreadable.includes(field)
  if (readable('id') && typeof v.id !== 'string') found.push(`id is ${describeValue(v.id)}, not a string`)
  if (readable('status') && v.status !== 'pending' && v.status !== 'authorized')
    found.push(`status is ${describeValue(v.status)}, not pending or authorized`)
  if (readable('amount') && v.amount !== undefined && !Number.isSafeInteger(v.amount))
    found.push(`amount is ${describeValue(v.amount)}, not a safe integer`)
  for (const field of ['created_at', 'updated_at'] as const)
    if (readable(field) && v[field] !== undefined && !isInstant(v[field]))
      found.push(`${field} is ${describeValue(v[field])}, not an instant`)
  if (found.length > 0) return malformed(found)
  const transaction: BankTransaction = {
    id: v.id as string,
    company_id: v.company_id as string,
    ...(v.amount === undefined ? {} : { amount: v.amount as number }),
    status: v.status as TransactionStatus,
    ...(v.created_at === undefined ? {} : { created_at: v.created_at as string }),
    ...(v.updated_at === undefined ? {} : { updated_at: v.updated_at as string })
  }
  return pass('transaction.stored', `status ${transaction.status}`, transaction)
}

/** Only an owner or admin authorizes; anyone else meets the action-level guard's 401. */
const mayAuthorize = (caller: Caller, transaction: BankTransaction): Trail<Caller> =>
  caller.role === 'owner' || caller.role === 'admin'
    ? pass('transaction.permission', `role ${caller.role}`, caller)
    : fail(
        problem.guardRejected(
          'transaction.permission',
          `user ${caller.user_id} (role ${caller.role}) may not authorize transaction ${transaction.id}`
        )
      )

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * The reply to POST /v1/banking/bank_transactions/{id}/authorize. Never throws.
 *
 * @example
 * // another company's transaction gets the reply of a missing one
 * respondAuthorizeTransaction({ request: { headers }, session, transaction: { id: 'tx-1', company_id: 'c-2', status: 'pending' }, request_id: 'req-1' }).status
 * //=> 404
 *
 * @category facades
 * @since 0.1.0
 */
export const respondAuthorizeTransaction: (context: AuthorizeTransactionContext) => AuthorizeTransactionReply =
  /*#__PURE__*/ respondWith(AuthorizeTransactionContext, (c): AuthorizeTransactionReply => {
    // Read once, before anything else, so that no getter runs twice.
    const row = c.transaction === null ? null : readTransaction(c.transaction)
    const trail = fn.pipe(
      authenticate(c.request, c.session),
      map((scope) => ({ scope })),
      bind('transaction', ({ scope }) => fn.pipe(transactionInScope(scope, row), chain(storedTransaction))),
      bind('caller', ({ scope, transaction }) => mayAuthorize(scope.caller, transaction)),
      chain(({ transaction }) =>
        fn.pipe(
          check('transaction.authorize', (a) => `transaction ${a.id}: pending -> authorized`, authorizeTransaction(transaction)),
          // The fields keep the order they were read in; the rule's values win.
          map((authorized) => ({ ...transaction, ...authorized }))
        )
      )
    )
    return settle(c.request_id, trail, (transaction) => ({ body: { ...transaction }, extra: { transaction } }))
  })
