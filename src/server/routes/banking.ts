/**
 * The banking operations: a page of the company's bank transactions (its query run in
 * PostgreSQL), authorizing one, and enrolling a bank recipient; the caller scoped before anything
 * is read for it. Mounted by app.ts at the routes of src/api/routes.ts.
 *
 * @since 0.3.0
 */
import { randomUUID } from 'node:crypto'
import { endpoints, planScope, respondAuthorizeTransaction, respondBankRecipient } from '../../index'
import * as store from '../../store/store'
import { rawBody } from '../reply'
import type { Handlers, RouteDeps } from './deps'
import { databasePage } from './page'

export const bankingHandlers = (
  deps: RouteDeps
): Pick<Handlers, 'listBankTransactions' | 'authorizeBankTransaction' | 'createBankRecipient'> => {
  const { clock, mutate, log, answer } = deps
  return {
    listBankTransactions: databasePage(deps, 'index.bank_transactions', endpoints.bankTransactions, {
      table: 'bank_transactions',
      // Without filters the count is the company's, kept by the database (migration 2), not a count of a million rows.
      unfilteredCount: 'SELECT COALESCE(sum(total), 0)::float8 AS total FROM bank_transaction_counts WHERE company_id = $1'
    }),

    authorizeBankTransaction: async (c) => {
      const session = c.get('session')
      const request = { headers: c.req.raw.headers, body: await rawBody(c) }
      const id = c.req.param('id') as string
      const scope = planScope({ request, session, request_id: c.get('requestId') })
      if (scope._tag === 'Reply')
        return answer(
          c,
          'transaction.authorize',
          { request, session, transaction: null, request_id: c.get('requestId') },
          scope.reply,
          id
        )
      const unit = {
        endpoint: 'transaction.authorize',
        idempotent: { keySha256: c.get('knownKey') },
        actor_id: session.user?.id ?? null,
        resource_id: id
      } as const
      return mutate(c, unit, request.body, async (tx) => {
        const transaction = await store.lockTransaction(tx, id, scope.company_id)
        const context = { request, session, transaction, request_id: c.get('requestId') }
        const reply = respondAuthorizeTransaction(context)
        if (reply.status === 200) await store.saveTransactionStatus(tx, reply.transaction.id, reply.transaction.status)
        return { reply, record: log.decided(c, 'transaction.authorize', context, reply, id) }
      })
    },

    createBankRecipient: async (c) => {
      const session = c.get('session')
      const request = { headers: c.req.raw.headers, body: await rawBody(c) }
      const scope = planScope({ request, session, request_id: c.get('requestId') })
      if (scope._tag === 'Reply')
        return answer(
          c,
          'recipient.enroll',
          { request, session, bank_ids: [], enrolled: [], request_id: c.get('requestId') },
          scope.reply
        )
      const company = scope.company_id
      const unit = {
        endpoint: 'recipient.enroll',
        idempotent: { keySha256: c.get('knownKey') },
        actor_id: session.user?.id ?? null,
        resource_id: null
      } as const
      return mutate(c, unit, request.body, async (tx) => {
        // Enrolments of one company one at a time, so that the 409 of a duplicate is never missed.
        await store.lockCompany(tx, company)
        const context = {
          request,
          session,
          bank_ids: [...(await store.bankIds(tx))],
          enrolled: [...(await store.enrolledRecipients(tx, company))],
          request_id: c.get('requestId')
        }
        const reply = respondBankRecipient(context)
        const id = reply.status === 201 ? randomUUID() : null
        if (reply.status === 201)
          await store.insertRecipient(tx, {
            id: id as string,
            company_id: company,
            ...reply.recipient,
            created_at: clock().toISOString()
          })
        return { reply, record: log.decided(c, 'recipient.enroll', context, reply, id) }
      })
    }
  }
}
