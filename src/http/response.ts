/**
 * A reply as a Web `Response` (the Fetch API's), which Hono handlers return, Fastify 5 sends
 * (`reply.send(response)`) and a Worker or `Deno.serve` answers with. `Response` is a
 * global of Node 20 and of browsers; this module creates one and does nothing else with it.
 *
 * @since 0.5.0
 */
import { typeError } from '../json/describe'

/** What `toResponse` takes: a facade's reply. */
const EXPECTED = 'a reply: a status from 200 to 599, headers of HTTP names and values, a JSON body (null for 204, 205 and 304)'

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
export const toResponse = (reply: {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  /** A reply's reasons: for the server's logs, never sent. */
  readonly reasons?: unknown
}): Response => {
  const r = reply as Partial<Record<'status' | 'headers' | 'body', unknown>> | null | undefined
  // The constructor refuses a status outside 200 to 599 and headers HTTP cannot carry (below);
  // what it would take without a word is refused here: a fractional status (it truncates), no
  // headers, an array of them (read as pairs), no body.
  if (
    r === null ||
    r === undefined ||
    !Number.isInteger(r.status) ||
    r.headers === undefined ||
    Array.isArray(r.headers) ||
    !('body' in r)
  )
    throw typeError('toResponse', 'reply', reply, EXPECTED)
  try {
    return new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers })
  } catch {
    // Headers that HTTP cannot carry, a body JSON cannot write, or one a 204, 205 or 304 cannot have.
    throw typeError('toResponse', 'reply', reply, EXPECTED)
  }
}
