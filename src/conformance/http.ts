/**
 * A `send` over HTTP, by the seeding protocol of docs/conformance.md: the state is PUT to the
 * server's `/__conformance/state`, then the request is sent as it is.
 *
 * @since 0.2.0
 */
import type { Scenario } from '../arbitraries/scenario'
import { headerOf } from '../http/headers'
import type { ReceivedReply } from './compare'

/**
 * A `send` for a server at `baseUrl` (no trailing slash needed): for each scenario it PUTs
 * `{ state, company_id }` as JSON to `${baseUrl}/__conformance/state` (company_id: the
 * request's company-id header, or null when it has none) and requires a 204, then sends the
 * request with `fetch` and resolves to `{ status, headers, body }`, the body as text. The
 * server replaces its data with the state, resolves every request's key to `state.session`,
 * and takes `state.today` as today and `state.company_member_ids` as the company's members.
 *
 * @example
 * import { httpSender } from 'budget-rules/conformance'
 *
 * typeof httpSender('http://127.0.0.1:8080') //=> 'function'
 *
 * @category constructors
 * @since 0.2.0
 */
export const httpSender =
  (baseUrl: string) =>
  async (scenario: Scenario): Promise<ReceivedReply> => {
    const base = baseUrl.replace(/\/+$/, '')
    const seeded = await fetch(`${base}/__conformance/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: scenario.state, company_id: headerOf(scenario.request.headers, 'company-id') ?? null })
    })
    const answer = await seeded.text()
    if (seeded.status !== 204)
      throw new Error(`seeding: PUT ${base}/__conformance/state answered ${seeded.status}, not 204: ${answer.slice(0, 200)}`)
    const { method, path, headers, body } = scenario.request
    const reply = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    return { status: reply.status, headers: Object.fromEntries(reply.headers), body: await reply.text() }
  }
