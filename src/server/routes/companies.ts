/**
 * /v1/companies: the caller's companies, and assigning a member's role.
 *
 * @since 0.3.0
 */
import { Hono } from 'hono'
import { endpoints, headerOf, respondIndex, respondRoleAssignment } from '../../index'
import * as store from '../../store/store'
import { type Env, rawBody, rawQuery, send } from '../reply'
import type { RouteDeps } from './deps'

export const companyRoutes = ({ db, lookup, mutate }: RouteDeps): Hono<Env> => {
  const companies = new Hono<Env>()

  companies.get('/', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(headers)
    const records = session.user === null ? [] : await store.userCompanies(db, session.user.id)
    return send(
      respondIndex({
        request: { headers, query: rawQuery(c.req.url) },
        session,
        endpoint: endpoints.companies,
        records,
        request_id: c.get('requestId')
      })
    )
  })

  companies.patch('/:id/memberships/:user_id', async (c) => {
    const headers = c.req.raw.headers
    const { session } = await lookup.sessionOf(headers)
    const body = await rawBody(c)
    const company = c.req.param('id')
    return mutate(c, null, body, async (tx) => {
      // A path naming another company than company-id names no member of the caller's company.
      const members = company === headerOf(headers, 'company-id') ? await lookup.membersOf(tx, company) : []
      const reply = respondRoleAssignment({
        request: { headers, body },
        session,
        user_id: c.req.param('user_id'),
        request_id: c.get('requestId'),
        company_member_ids: [...members]
      })
      if (reply.status === 200) await store.saveRole(tx, company, reply.body.user_id, reply.body.role)
      return reply
    })
  })

  return companies
}
