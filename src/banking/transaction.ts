/**
 * Authorizing a bank transaction: pending becomes authorized; an authorized one cannot be
 * authorized again (409, spec section 7).
 *
 * @example
 * authorizeTransaction({ id: 'tx-1', status: 'pending' }) //=> right({ id: 'tx-1', status: 'authorized' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as problem from '../reply/problem'
import type { Problem } from '../reply/problem'

/**
 * @category model
 * @since 0.1.0
 */
export type TransactionStatus = 'authorized' | 'pending'

/**
 * @category rules
 * @since 0.1.0
 */
export const authorizeTransaction = <T extends { readonly status: TransactionStatus }>(
  transaction: T
): E.Either<Problem, T & { readonly status: 'authorized' }> =>
  transaction.status === 'authorized'
    ? E.left(problem.conflict('transaction.authorize', 'The transaction is already authorized'))
    : E.right({ ...transaction, status: 'authorized' })
