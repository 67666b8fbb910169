/**
 * A `send` over HTTP, by the seeding protocol of docs/conformance.md: the state is PUT to the
 * server's `/__conformance/state`, then the request is sent as it is. And the HTTP of the
 * sequences and histories: the state route, a request sent as it is, and why one got no reply.
 *
 * @since 0.2.0
 */
import type { Scenario, ScenarioRequest } from '../arbitraries/scenario'
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

/** How long one request of a sequence may take before it counts as unanswered. */
const REQUEST_TIMEOUT_MS = 30_000

/** A request or a seeding that got no reply, or a seeding refused. */
export class NoReply extends Error {}

/** The code of what a failed fetch met (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...), when it says. */
export const causeCode = (e: unknown): string | undefined => {
  const code = (e as { cause?: { code?: unknown } } | null)?.cause?.code
  return typeof code === 'string' ? code : undefined
}

/** Why a fetch got no reply, in a few words: `timeout`, or its message and the code it met. */
export const whyNoReply = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  if (e.name === 'TimeoutError') return 'timeout'
  const code = causeCode(e)
  return code === undefined ? e.message : `${e.message} (${code})`
}

/** PUTs a body to the state route; a NoReply unless it answers 204. */
export const putState = async (base: string, body: unknown): Promise<void> => {
  let answered: Response
  try {
    answered = await fetch(`${base}/__conformance/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    })
  } catch (e) {
    throw new NoReply(`PUT ${base}/__conformance/state: ${whyNoReply(e)}`)
  }
  const text = await answered.text()
  if (answered.status !== 204)
    throw new NoReply(`PUT ${base}/__conformance/state answered ${answered.status}, not 204: ${text.slice(0, 200)}`)
}

/** Sends a request as it is; its reply with the body as text, or a NoReply. */
export const sendRequest = async (base: string, r: ScenarioRequest): Promise<ReceivedReply> => {
  try {
    const reply = await fetch(`${base}${r.path}`, {
      method: r.method,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    })
    return { status: reply.status, headers: Object.fromEntries(reply.headers), body: await reply.text() }
  } catch (e) {
    throw new NoReply(`${r.method} ${base}${r.path}: ${whyNoReply(e)}`)
  }
}
