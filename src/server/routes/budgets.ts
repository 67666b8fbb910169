/**
 * /v1/budgets: the company's budgets, one budget, its update and its money operations. Each
 * route: look up (store), decide (facade), persist (store), record, reply.
 *
 * @since 0.3.0
 */
import { Hono } from 'hono'
import {
  advanceBudget,
  type Budget,
  endpoints,
  headerOf,
  respondAmount,
  respondBudget,
  respondBudgetUpdate,
  respondIndex,
  respondTopUp,
  respondWithdraw
} from '../../index'
import * as store from '../../store/store'
import { type Env, rawBody, rawQuery } from '../reply'
import type { RouteDeps } from './deps'

/** The update and the three money operations: one transaction each, the budget locked. */
const mutations = [
  ['PATCH', '/:id', 'budget.update', respondBudgetUpdate, null],
  ['POST', '/:id/top_up', 'budget.top_up', respondTopUp, 'money'],
  ['POST', '/:id/withdraw', 'budget.withdraw', respondWithdraw, 'money'],
  ['PATCH', '/:id/amount', 'budget.amount', respondAmount, 'money']
] as const

export const budgetRoutes = ({ db, lookup, mutate, log, answer }: RouteDeps): Hono<Env> => {
  const budgets = new Hono<Env>()

  budgets.get('/', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(c.get('keySha256'))
    const company = headerOf(headers, 'company-id')
    // Scoped to the company named; the facade refuses a caller who is not its member.
    const found = company === undefined ? [] : await store.companyBudgets(db, company)
    const records = found.map(({ budget, time_zone }) =>
      advanceBudget(budget as unknown as Budget, lookup.todayIn(time_zone) as Parameters<typeof advanceBudget>[1])
    )
    const context = {
      request: { headers, query: rawQuery(c.req.url) },
      session,
      endpoint: endpoints.budgets,
      records,
      request_id: c.get('requestId')
    }
    return answer(c, 'index.budgets', context, respondIndex(context))
  })

  budgets.get('/:id', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(c.get('keySha256'))
    const found = await store.findBudget(db, c.req.param('id'))
    const context = {
      request: { headers },
      session,
      budget: found?.budget ?? null,
      today: lookup.todayIn(found?.time_zone ?? null),
      request_id: c.get('requestId')
    }
    return answer(c, 'budget.get', context, respondBudget(context), c.req.param('id'))
  })

  for (const [method, path, endpoint, respond, money] of mutations)
    budgets.on(method, path, async (c) => {
      const headers = c.req.raw.headers
      const { session, keySha256 } = await lookup.sessionOf(c.get('keySha256'))
      const body = await rawBody(c)
      const id = c.req.param('id')
      const unit = {
        endpoint,
        idempotent: money === null ? null : { keySha256 },
        actor_id: session.user?.id ?? null,
        resource_id: id
      }
      return mutate(c, unit, body, async (tx) => {
        const found = await store.lockBudget(tx, id)
        const context = {
          request: { headers, body },
          session,
          budget: found?.budget ?? null,
          today: lookup.todayIn(found?.time_zone ?? null),
          request_id: c.get('requestId'),
          ...(money === null && found !== null ? { company_member_ids: await lookup.membersOf(tx, found.budget.company_id) } : {})
        }
        const reply = respond(context)
        if (reply.status === 200) await store.saveBudget(tx, reply.budget)
        return { reply, record: log.decided(c, endpoint, context, reply, id) }
      })
    })

  return budgets
}
