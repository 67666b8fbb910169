/**
 * The middleware of the reference server, one concern each (Hono's `createMiddleware`): the
 * request's id and CORS on every reply, the bearer key hashed once, each request logged and
 * counted, the rate limit shared by every instance, the body limit.
 *
 * @since 0.3.0
 */
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { Logger } from 'pino'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import { headerOf } from '../http/headers'
import { logRequest } from './log'
import type { Metrics } from './metrics'
import { bearerKey } from '../auth/session'
import { respondServiceRefusal } from '../index'
import { keyHash, keyIdOf } from '../store/keys'
import type { Lookup } from './lookup'
import type { RateLimiter } from './rate-limit'
import { type Env, problem, send } from './reply'

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

/**
 * The request's bearer key, read as the rules read it, hashed once: its SHA-256 (what the store
 * knows a key by) and its id (what records and log lines name). Neither when there is no key.
 */
export const apiKey = () =>
  createMiddleware<Env>(async (c, next) => {
    const key = bearerKey(c.req.raw.headers)
    if (key !== undefined) {
      const sha256 = keyHash(key)
      c.set('keySha256', sha256)
      c.set('keyId', keyIdOf(sha256))
    }
    await next()
  })

/**
 * The route a request matched, as its pattern (`/v1/budgets/:id`), or `unmatched`: never the raw
 * path. The handler's route is the last one matched that is not a middleware (`app.use`, whose
 * method is ALL), whether or not a middleware answered first (a 429).
 */
const routeOf = (c: Parameters<Parameters<typeof createMiddleware<Env>>[0]>[0]): string =>
  matchedRoutes(c)
    .filter((r) => r.method !== 'ALL')
    .at(-1)?.path ?? 'unmatched'

/**
 * Each request's JSON log line and its metrics, once it is answered: the route's
 * pattern, the status, the time taken, and what the decision log noted of its decision.
 */
export const observe = (logger: Logger, metrics: Metrics) =>
  createMiddleware<Env>(async (c, next) => {
    const started = performance.now()
    await next()
    const seconds = (performance.now() - started) / 1000
    const route = routeOf(c)
    const status = c.res.status
    const decision = c.get('decision')
    metrics.request(c.req.method, route, status, seconds)
    const rule = decision?.rules.at(-1)
    if (decision !== undefined && rule !== undefined) metrics.decision(decision.endpoint, status, rule)
    logRequest(logger, {
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 1e6) / 1000,
      actor_id: decision?.actor_id ?? null,
      key_id: c.get('keyId') ?? null,
      company_id: headerOf(c.req.raw.headers, 'company-id') ?? null,
      rules: decision?.rules ?? []
    })
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

/**
 * The session the request's key resolves to, looked up once for the API's routes under the
 * conformance hook (no rate limit there; {@link admission} otherwise): the facades' input, and
 * whether the key claims Idempotency-Keys.
 */
export const session = ({ sessionOf }: Lookup) =>
  createMiddleware<Env>(async (c, next) => {
    const found = await sessionOf(c.get('keySha256'))
    c.set('session', found.session)
    c.set('knownKey', found.keySha256)
    await next()
  })

/**
 * The client's address: the socket's, or with `trustProxy` (TRUST_PROXY=1, behind a proxy that
 * sets it) the first hop of X-Forwarded-For.
 */
const clientAddress = (c: Parameters<Parameters<typeof createMiddleware<Env>>[0]>[0], trustProxy: boolean): string => {
  const forwarded = trustProxy ? headerOf(c.req.raw.headers, 'x-forwarded-for')?.split(',')[0]?.trim() : undefined
  return forwarded === undefined || forwarded === '' ? String(c.env.incoming.socket.remoteAddress) : forwarded
}

/**
 * The key's session and the contract's 429 once a caller is over its limit, found in one
 * statement: a key the store knows is counted as itself; a missing, malformed or unknown one as
 * the client's address, so that guessing keys is limited like any other request and an unknown
 * key makes no row of its own.
 */
export const admission = ({ admit }: RateLimiter, trustProxy: boolean, onRefused: () => void) =>
  createMiddleware<Env>(async (c, next) => {
    const admitted = await admit(c.get('keySha256'), clientAddress(c, trustProxy))
    c.set('session', admitted.session)
    c.set('knownKey', admitted.keySha256)
    if (admitted.retryAfter === null) return next()
    onRefused()
    return send(
      respondServiceRefusal({
        refusal: { kind: 'rate_limited', retry_after_s: admitted.retryAfter },
        request_id: c.get('requestId')
      })
    )
  })

export const bodyLimit = (bytes: number) =>
  honoBodyLimit({
    maxSize: bytes,
    onError: (c) => send(problem(413, String(c.get('requestId')), 'payload_too_large', `The request body exceeds ${bytes} bytes`))
  })
