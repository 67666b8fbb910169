/**
 * The middleware of the reference server, one concern each (Hono's `createMiddleware`): the
 * request's id and CORS on every reply, the rate limit shared by every instance, the body limit.
 *
 * @since 0.3.0
 */
import { randomUUID } from 'node:crypto'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import { respondServiceRefusal } from '../index'
import { keyHash } from '../store/seed'
import type { RateLimiter } from './rate-limit'
import { bearerKey, type Env, problem, send } from './reply'

const CORS_EXPOSED = 'Content-Range, X-Total-Count, X-Request-Id, Retry-After'
const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, company-id, Idempotency-Key'
const CORS_ALLOWED_METHODS = 'GET, POST, PATCH, OPTIONS'

/** A fresh X-Request-Id for every request, set on its reply unless the reply has its own. */
export const requestId = () =>
  createMiddleware<Env>(async (c, next) => {
    const id = randomUUID()
    c.set('requestId', id)
    await next()
    if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', id)
  })

/** CORS for browser clients: every reply readable from any origin, its page headers exposed; a preflight answered 204. */
export const cors = () =>
  createMiddleware<Env>(async (c, next) => {
    if (c.req.method === 'OPTIONS')
      c.res = new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
          'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
          'Access-Control-Max-Age': '600'
        }
      })
    else await next()
    c.res.headers.set('Access-Control-Allow-Origin', '*')
    c.res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSED)
  })

/** The contract's 429 once a key (or, without one, the client's address) is over its limit. */
export const rateLimit = ({ admit }: RateLimiter) =>
  createMiddleware<Env>(async (c, next) => {
    const key = bearerKey(c.req.raw.headers)
    const retryAfter = await admit(
      key === undefined ? `address ${String(c.env.incoming.socket.remoteAddress)}` : `key ${keyHash(key)}`
    )
    if (retryAfter === null) return next()
    return send(
      respondServiceRefusal({ refusal: { kind: 'rate_limited', retry_after_s: retryAfter }, request_id: c.get('requestId') })
    )
  })

/** A 413 before a body over `bytes` is read whole, whether its length is announced or it streams. */
export const bodyLimit = (bytes: number) =>
  honoBodyLimit({
    maxSize: bytes,
    onError: (c) => send(problem(413, String(c.get('requestId')), 'payload_too_large', `The request body exceeds ${bytes} bytes`))
  })
