/**
 * /v1/budgets: the company's budgets, one budget, its update and its money operations. Each
 * route: look up (store), decide (facade), persist (store), reply.
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
  respondBudgetUpdate,
  respondIndex,
  respondTopUp,
  respondWithdraw
} from '../../index'
import { map } from '../../decision/trail'
import { BudgetContext, type BudgetReply, scopedBudget, settleBudget } from '../../facade/budget-context'
import { respondWith } from '../../facade/context'
import * as store from '../../store/store'
import { type Env, rawBody, rawQuery, send } from '../reply'
import type { RouteDeps } from './deps'

/** GET /v1/budgets/{id}: the budget in the caller's company, as of today (contract section 4). */
const respondBudget: (context: BudgetContext) => BudgetReply = respondWith(BudgetContext, (c) =>
  settleBudget(c.request_id, map(({ budget }: { readonly budget: Budget }) => budget)(scopedBudget(c)))
)

/** The update and the three money operations: one transaction each, the budget locked. */
const mutations = [
  ['PATCH', '/:id', respondBudgetUpdate, null],
  ['POST', '/:id/top_up', respondTopUp, 'money'],
  ['POST', '/:id/withdraw', respondWithdraw, 'money'],
  ['PATCH', '/:id/amount', respondAmount, 'money']
] as const

export const budgetRoutes = ({ db, lookup, mutate }: RouteDeps): Hono<Env> => {
  const budgets = new Hono<Env>()

  budgets.get('/', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(headers)
    const company = headerOf(headers, 'company-id')
    // Scoped to the company named; the facade refuses a caller who is not its member.
    const found = company === undefined ? [] : await store.companyBudgets(db, company)
    const records = found.map(({ budget, time_zone }) =>
      advanceBudget(budget as unknown as Budget, lookup.todayIn(time_zone) as Parameters<typeof advanceBudget>[1])
    )
    return send(
      respondIndex({
        request: { headers, query: rawQuery(c.req.url) },
        session,
        endpoint: endpoints.budgets,
        records,
        request_id: c.get('requestId')
      })
    )
  })

  budgets.get('/:id', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(headers)
    const found = await store.findBudget(db, c.req.param('id'))
    return send(
      respondBudget({
        request: { headers },
        session,
        budget: found?.budget ?? null,
        today: lookup.todayIn(found?.time_zone ?? null),
        request_id: c.get('requestId')
      })
    )
  })

  for (const [method, path, respond, money] of mutations)
    budgets.on(method, path, async (c) => {
      const headers = c.req.raw.headers
      const { session, keySha256 } = await lookup.sessionOf(headers)
      const body = await rawBody(c)
      return mutate(c, money === null ? null : { keySha256 }, body, async (tx) => {
        const found = await store.lockBudget(tx, c.req.param('id'))
        const reply = respond({
          request: { headers, body },
          session,
          budget: found?.budget ?? null,
          today: lookup.todayIn(found?.time_zone ?? null),
          request_id: c.get('requestId'),
          ...(money === null && found !== null ? { company_member_ids: await lookup.membersOf(tx, found.budget.company_id) } : {})
        })
        if (reply.status === 200) await store.saveBudget(tx, reply.budget)
        return reply
      })
    })

  return budgets
}
