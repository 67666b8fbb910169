/**
 * A reply as a Web `Response` (the Fetch API's), which Hono handlers return, Fastify 5 sends
 * (`reply.send(response)`) and a Worker or `Deno.serve` answers with. `Response` is a
 * global of Node 20 and of browsers; this module creates one and does nothing else with it.
 *
 * @since 0.5.0
 */
import type { ReplyOf } from './reply'

/**
 * `reply` as a `Response`: its status, its headers, and its body as JSON text, or no body when
 * the body is `null` (a 204, a bare 401 or 403). The reasons stay out: they are for logs.
 *
 * @example
 * import { respondBudget } from 'budget-rules'
 *
 * const response = toResponse(respondBudget({ request: { headers }, session, budget: null, today: '2026-11-22', request_id: 'req-1' }))
 * response.status //=> 404
 * response.headers.get('content-type') //=> 'application/json; charset=utf-8'
 * response.headers.get('x-request-id') //=> 'req-1'
 * toResponse({ status: 204, headers: { 'X-Request-Id': 'req-2' }, body: null, reasons: [] }).body //=> null
 *
 * @category utils
 * @since 0.5.0
 */
export const toResponse = (reply: ReplyOf<number, unknown>): Response =>
  new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers })
