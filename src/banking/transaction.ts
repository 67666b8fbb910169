/**
 * Authorizing a bank transaction (spec section 7, contract R-71): `pending` becomes
 * `authorized`; an `authorized` one cannot be authorized again (409). Any other status
 * (`declined`, `Pending`, null) is malformed trusted input: this typed rule throws a `TypeError`
 * naming it, which the facade answers with a 500.
 *
 * @example
 * authorizeTransaction({ id: 'tx-1', status: 'pending' }) //=> right({ id: 'tx-1', status: 'authorized' })
 * authorizeTransaction({ id: 'tx-1', status: 'authorized' })
 * //=> left({ _tag: 'Conflict', rule: 'transaction.authorize', message: 'The transaction is already authorized', detail: 'The transaction is already authorized' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { describeValue } from '../json/describe'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'

/**
 * The statuses a bank transaction may have; only a pending one can be authorized.
 *
 * @example
 * authorizeTransaction({ id: 'tx-1', status: 'declined' as TransactionStatus })
 * //=> throws TypeError('authorizeTransaction: status must be pending or authorized, not "declined"')
 *
 * @category model
 * @since 0.1.0
 */
export type TransactionStatus = 'authorized' | 'pending'

/**
 * The transaction authorized, as a new object with its own enumerable fields and `status:
 * 'authorized'`; or the 409 of one already authorized. The status is read once (a getter may
 * answer differently twice). Throws a `TypeError` for any other status.
 *
 * @example
 * authorizeTransaction({ id: 'tx-2', company_id: 'c-1', amount: 800, status: 'pending' })
 * //=> right({ id: 'tx-2', company_id: 'c-1', amount: 800, status: 'authorized' })
 *
 * @category rules
 * @since 0.1.0
 */
export const authorizeTransaction = <T extends { readonly status: TransactionStatus }>(
  transaction: T
): E.Either<Problem, T & { readonly status: 'authorized' }> => {
  const given: unknown = transaction
  if (typeof given !== 'object' || given === null)
    throw new TypeError(`authorizeTransaction: the transaction must be an object, not ${describeValue(given)}`)
  // The rest leaves `status` out without reading it again.
  const { status, ...rest }: { readonly status: unknown } = transaction
  if (status === 'authorized') return E.left(problem.conflict('transaction.authorize', 'The transaction is already authorized'))
  if (status !== 'pending')
    throw new TypeError(`authorizeTransaction: status must be pending or authorized, not ${describeValue(status)}`)
  return E.right({ ...rest, status: 'authorized' } as unknown as T & { readonly status: 'authorized' })
}
