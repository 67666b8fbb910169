/**
 * /v1/budgets: the company's budgets, one budget, its update and its money operations. Each
 * route: the caller scoped first (R-112: nothing is read for a stranger to the company), then look
 * up (store), decide (facade), persist (store), record, reply.
 *
 * @since 0.3.0
 */
import { Hono } from 'hono'
import {
  endpoints,
  planIndex,
  planScope,
  respondAmount,
  respondBudget,
  respondBudgetIndex,
  respondBudgetUpdate,
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
    const request = { headers: c.req.raw.headers, query: rawQuery(c.req.url) }
    const context = { request, session: c.get('session'), endpoint: endpoints.budgets, request_id: c.get('requestId') }
    const plan = planIndex(context)
    if (plan._tag === 'Reply') return answer(c, 'index.budgets', context, plan.reply)
    // A Page plan: company-id names a company of the caller's.
    const found = await store.companyBudgets(db, c.req.header('company-id') as string)
    const today = lookup.todayIn(found[0]?.time_zone ?? null)
    return answer(c, 'index.budgets', context, respondBudgetIndex({ ...context, budgets: found.map((f) => f.budget), today }))
  })

  budgets.get('/:id', async (c) => {
    const id = c.req.param('id')
    const context = { request: { headers: c.req.raw.headers }, session: c.get('session'), request_id: c.get('requestId') }
    const scope = planScope(context)
    const found = scope._tag === 'Member' ? await store.findBudget(db, id, scope.company_id) : null
    const decided = { ...context, budget: found?.budget ?? null, today: lookup.todayIn(found?.time_zone ?? null) }
    return answer(c, 'budget.get', decided, scope._tag === 'Reply' ? scope.reply : respondBudget(decided), id)
  })

  for (const [method, path, endpoint, respond, money] of mutations)
    budgets.on(method, path, async (c) => {
      const session = c.get('session')
      const body = await rawBody(c)
      const id = c.req.param('id')
      const request = { headers: c.req.raw.headers, body }
      const scope = planScope({ request, session, request_id: c.get('requestId') })
      if (scope._tag === 'Reply')
        return answer(
          c,
          endpoint,
          { request, session, budget: null, today: lookup.todayIn(null), request_id: c.get('requestId') },
          scope.reply,
          id
        )
      const unit = {
        endpoint,
        idempotent: money === null ? null : { keySha256: c.get('knownKey') },
        actor_id: session.user?.id ?? null,
        resource_id: id
      }
      return mutate(c, unit, body, async (tx) => {
        const found = await store.lockBudget(tx, id, scope.company_id)
        const context = {
          request,
          session,
          budget: found?.budget ?? null,
          today: lookup.todayIn(found?.time_zone ?? null),
          request_id: c.get('requestId'),
          ...(money === null && found !== null ? { company_member_ids: await lookup.membersOf(tx, scope.company_id) } : {})
        }
        const reply = respond(context)
        if (reply.status === 200) await store.saveBudget(tx, reply.budget)
        return { reply, record: log.decided(c, endpoint, context, reply, id) }
      })
    })

  return budgets
}
