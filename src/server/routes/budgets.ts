/**
 * The budgets' operations: the company's budgets, one budget, its update and its money
 * operations. Each: the caller scoped first (R-112: nothing is read for a stranger to the
 * company), then look up (store), decide (facade), persist (store), record, reply. Mounted by
 * app.ts at the routes of src/api/routes.ts.
 *
 * @since 0.3.0
 */
import type { Handler } from 'hono'
import { route } from '../../api/routes'
import {
  type BudgetContext,
  type BudgetReply,
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
import type { Handlers, RouteDeps } from './deps'

export const budgetHandlers = ({
  db,
  lookup,
  mutate,
  log,
  answer
}: RouteDeps): Pick<
  Handlers,
  'listBudgets' | 'getBudget' | 'updateBudget' | 'topUpBudget' | 'withdrawFromBudget' | 'setBudgetAmount'
> => {
  /** The update and the money operations: one transaction each, the budget locked in the caller's company. */
  const mutation =
    (
      operationId: 'updateBudget' | 'topUpBudget' | 'withdrawFromBudget' | 'setBudgetAmount',
      respond: (c: BudgetContext) => BudgetReply
    ): Handler<Env> =>
    async (c) => {
      const { endpoint, idempotent } = route(operationId)
      const session = c.get('session')
      const body = await rawBody(c)
      const id = c.req.param('id') as string
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
        idempotent: idempotent ? { keySha256: c.get('knownKey') } : null,
        actor_id: session.user?.id ?? null,
        resource_id: id
      }
      return mutate(c, unit, body, async (tx) => {
        // The update's manager_id must be a member's (contract section 5): the members are read
        // with the lock, in one statement.
        const updating = operationId === 'updateBudget'
        const withMembers = updating ? await store.lockBudgetWithMembers(tx, id, scope.company_id) : null
        const found = updating ? (withMembers?.found ?? null) : await store.lockBudget(tx, id, scope.company_id)
        const context = {
          request,
          session,
          budget: found?.budget ?? null,
          today: lookup.todayIn(found?.time_zone ?? null),
          request_id: c.get('requestId'),
          ...(withMembers !== null ? { company_member_ids: lookup.seededMembers() ?? withMembers.member_ids } : {})
        }
        const reply = respond(context)
        if (reply.status === 200) await store.saveBudget(tx, reply.budget)
        return { reply, record: log.decided(c, endpoint, context, reply, id) }
      })
    }

  return {
    listBudgets: async (c) => {
      const request = { headers: c.req.raw.headers, query: rawQuery(c.req.url) }
      const context = { request, session: c.get('session'), endpoint: endpoints.budgets, request_id: c.get('requestId') }
      const plan = planIndex(context)
      if (plan._tag === 'Reply') return answer(c, 'index.budgets', context, plan.reply)
      // A Page plan: company-id names a company of the caller's.
      const found = await store.companyBudgets(db, c.req.header('company-id') as string)
      const today = lookup.todayIn(found[0]?.time_zone ?? null)
      return answer(c, 'index.budgets', context, respondBudgetIndex({ ...context, budgets: found.map((f) => f.budget), today }))
    },

    getBudget: async (c) => {
      const id = c.req.param('id') as string
      const context = { request: { headers: c.req.raw.headers }, session: c.get('session'), request_id: c.get('requestId') }
      const scope = planScope(context)
      const found = scope._tag === 'Member' ? await store.findBudget(db, id, scope.company_id) : null
      const decided = { ...context, budget: found?.budget ?? null, today: lookup.todayIn(found?.time_zone ?? null) }
      return answer(c, 'budget.get', decided, scope._tag === 'Reply' ? scope.reply : respondBudget(decided), id)
    },

    updateBudget: mutation('updateBudget', respondBudgetUpdate),
    topUpBudget: mutation('topUpBudget', respondTopUp),
    withdrawFromBudget: mutation('withdrawFromBudget', respondWithdraw),
    setBudgetAmount: mutation('setBudgetAmount', respondAmount)
  }
}
