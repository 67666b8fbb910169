/**
 * The companies' operations: the caller's companies, and assigning a member's role (the caller
 * scoped before anything is read for it, R-112). Mounted by app.ts at the routes of
 * src/api/routes.ts.
 *
 * @since 0.3.0
 */
import { endpoints, planScope, respondIndex, respondRoleAssignment } from '../../index'
import * as store from '../../store/store'
import { rawBody, rawQuery } from '../reply'
import type { Handlers, RouteDeps } from './deps'

export const companyHandlers = ({
  db,
  lookup,
  mutate,
  log,
  answer
}: RouteDeps): Pick<Handlers, 'listCompanies' | 'assignRole'> => ({
  listCompanies: async (c) => {
    const session = c.get('session')
    const records = session.user === null ? [] : await store.userCompanies(db, session.user.id)
    const context = {
      request: { headers: c.req.raw.headers, query: rawQuery(c.req.url) },
      session,
      endpoint: endpoints.companies,
      records,
      request_id: c.get('requestId')
    }
    return answer(c, 'index.companies', context, respondIndex(context))
  },

  assignRole: async (c) => {
    const session = c.get('session')
    const request = { headers: c.req.raw.headers, body: await rawBody(c) }
    const company = c.req.param('id') as string
    const userId = c.req.param('user_id') as string
    const scope = planScope({ request, session, request_id: c.get('requestId') })
    if (scope._tag === 'Reply')
      return answer(
        c,
        'role.assign',
        { request, session, user_id: userId, request_id: c.get('requestId'), company_member_ids: [] },
        scope.reply,
        userId
      )
    const unit = { endpoint: 'role.assign', idempotent: null, actor_id: session.user?.id ?? null, resource_id: userId } as const
    return mutate(c, unit, request.body, async (tx) => {
      // A path naming another company than company-id names no member of the caller's company.
      const members = company === scope.company_id ? await lookup.membersOf(tx, company) : []
      const context = {
        request,
        session,
        user_id: userId,
        request_id: c.get('requestId'),
        company_member_ids: [...members]
      }
      const reply = respondRoleAssignment(context)
      if (reply.status === 200) await store.saveRole(tx, company, reply.body.user_id, reply.body.role)
      return { reply, record: log.decided(c, 'role.assign', context, reply, userId) }
    })
  }
})
