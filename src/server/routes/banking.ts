/**
 * /v1/banking: a page of the company's bank transactions (its query run in PostgreSQL),
 * authorizing one, and enrolling a bank recipient.
 *
 * @since 0.3.0
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { endpoints, headerOf, planIndex, respondAuthorizeTransaction, respondBankRecipient, respondIndexPage } from '../../index'
import { pageQuery } from '../../sql/page-query'
import * as store from '../../store/store'
import { type Env, rawBody, rawQuery, send } from '../reply'
import type { RouteDeps } from './deps'

export const bankingRoutes = ({ db, clock, lookup, mutate }: RouteDeps): Hono<Env> => {
  const banking = new Hono<Env>()

  banking.get('/bank_transactions', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(headers)
    const context = {
      request: { headers, query: rawQuery(c.req.url) },
      session,
      endpoint: endpoints.bankTransactions,
      request_id: c.get('requestId')
    }
    const plan = planIndex(context)
    if (plan._tag === 'Reply') return send(plan.reply)
    // A Page plan means company-id named a company of the caller's.
    const companyId = headerOf(headers, 'company-id') as string
    const query = pageQuery(endpoints.bankTransactions, plan.request, {
      table: 'bank_transactions',
      scope: { company_id: companyId }
    })
    // One snapshot for the rows and their count, so they always agree. Without filters the
    // count is the company's, kept by the database (migration 2), not a count of a million rows.
    const { page, total } = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
      const rows = await tx.query(query.rows.text, query.rows.values)
      const count =
        plan.request.filters.length === 0
          ? await tx.query('SELECT COALESCE(sum(total), 0)::float8 AS total FROM bank_transaction_counts WHERE company_id = $1', [
              companyId
            ])
          : await tx.query(query.count.text, query.count.values)
      // Either count query returns one row of one column.
      return { page: rows, total: Number(Object.values(count[0] as Record<string, unknown>)[0]) }
    })
    return send(respondIndexPage({ ...context, page, total }))
  })

  banking.post('/bank_transactions/:id/authorize', async (c) => {
    const headers = c.req.raw.headers
    const { session, keySha256 } = await lookup.sessionOf(headers)
    const body = await rawBody(c)
    return mutate(c, { keySha256 }, body, async (tx) => {
      const transaction = await store.lockTransaction(tx, c.req.param('id'))
      const reply = respondAuthorizeTransaction({
        request: { headers, body },
        session,
        transaction,
        request_id: c.get('requestId')
      })
      if (reply.status === 200) await store.saveTransactionStatus(tx, reply.transaction.id, reply.transaction.status)
      return reply
    })
  })

  banking.post('/bank_recipients', async (c) => {
    const headers = c.req.raw.headers
    const { session, keySha256 } = await lookup.sessionOf(headers)
    const body = await rawBody(c)
    const company = headerOf(headers, 'company-id') ?? ''
    return mutate(c, { keySha256 }, body, async (tx) => {
      // Enrolments of one company one at a time, so that the 409 of a duplicate is never missed.
      await store.lockCompany(tx, company)
      const reply = respondBankRecipient({
        request: { headers, body },
        session,
        bank_ids: [...(await store.bankIds(tx))],
        enrolled: [...(await store.enrolledRecipients(tx, company))],
        request_id: c.get('requestId')
      })
      if (reply.status === 201)
        await store.insertRecipient(tx, {
          id: randomUUID(),
          company_id: company,
          ...reply.recipient,
          created_at: clock().toISOString()
        })
      return reply
    })
  })

  return banking
}
