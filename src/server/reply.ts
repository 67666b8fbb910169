/**
 * Replies as the server sends them: a facade's reply as a `Response`, and the replies the server
 * writes on its own account (413, 404, 500, 503, an Idempotency-Key's 400 and 422, the 408 and
 * 499 of a body that stopped coming), in the service's shapes. Shared by the middleware, the unit of work and the routes.
 *
 * @since 0.3.0
 */
import type { Context } from 'hono'
import { JSON_CONTENT_TYPE } from '../reply/reply'

/** A reply as the facades give it: a status, headers, a JSON body or null. */
export interface AnyReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

/**
 * What every route and middleware of the app reads: Node's bindings, the request's id, the
 * SHA-256 of its bearer key and the key's id (its first 16 hex digits, what records and logs
 * name; both undefined without a key), the session the key resolves to, and the decision a facade
 * made, for the log line and the metrics.
 */
export type Env = {
  Bindings: import('@hono/node-server').HttpBindings
  Variables: {
    requestId: string
    keySha256: string | undefined
    keyId: string | undefined
    /** The session of the request's key (the API's routes): what every facade is handed. */
    session: import('../index').Session
    /** The key's SHA-256 when the store knows the key, else null: what the rate limit and Idempotency-Keys go by. */
    knownKey: string | null
    decision: import('./decision-log').Noted | undefined
  }
}

/** The seconds a 503 asks a client to wait while the database is away (R-110: within 10). */
export const RETRY_AFTER_UNAVAILABLE_S = 5

/** The seconds a 503 asks a client to wait when its statement met a timeout of R-111 (a lock held, a slow statement). */
export const RETRY_AFTER_BUSY_S = 1

export const send = (reply: AnyReply): Response =>
  new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers })

/** A reply the server writes on its own account, in the service's `{error, message}` shape. */
export const problem = (status: number, requestId: string, error: string, message: string): AnyReply => ({
  status,
  headers: { 'X-Request-Id': requestId, 'Content-Type': JSON_CONTENT_TYPE },
  body: { error, message }
})

/** The raw query string of a URL, without '?'. */
export const rawQuery = (url: string): string => {
  const at = url.indexOf('?')
  return at < 0 ? '' : url.slice(at + 1)
}

/** Decodes UTF-8 keeping a leading BOM, which `Request.text()` drops: the facades refuse a body that starts with one. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/**
 * A request whose body stopped coming: its client left while sending it (499, the status
 * proxies log for a client that closed the request), or the server's request timeout cut it (408,
 * what Node wrote on the wire). The client's fault, never the database's: logged at `info`.
 */
export class BodyNotReceived extends Error {
  constructor(
    readonly status: 408 | 499,
    cause: unknown
  ) {
    super(status === 408 ? 'The request body did not arrive in time' : 'The client closed the request before its body arrived', {
      cause
    })
  }
}

/** The reply logged and counted for a body that stopped coming; no client is left to read it. */
export const bodyNotReceived = (requestId: string, gone: BodyNotReceived): AnyReply =>
  problem(gone.status, requestId, gone.status === 408 ? 'request_timeout' : 'client_closed_request', gone.message)

/**
 * The body as sent; Node hands a request without one as an empty body, which the facades read as
 * none. A read that fails on a request whose body is not all in (Node's `complete`) is the client's
 * (`ECONNRESET` "aborted" from Node's request stream, which names no database).
 */
export const rawBody = async (c: Context<Env>): Promise<string> => {
  try {
    return utf8.decode(await c.req.arrayBuffer())
  } catch (error) {
    const incoming = (c.env as Env['Bindings'] | undefined)?.incoming
    if (incoming === undefined || incoming.complete) throw error
    // Node destroys the socket with this error when its requestTimeout passes, having written a 408.
    const timedOut = (incoming.socket.errored as { code?: unknown } | null)?.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    throw new BodyNotReceived(timedOut ? 408 : 499, error)
  }
}
