/**
 * The unit of work of a route that changes data: one transaction around the look-up, the
 * facade's decision and the write, committed unless the reply is a 5xx (rolled back). With an
 * Idempotency-Key (money endpoints, a stored API key), the key is claimed first in the same
 * transaction: a key already used replays its reply (same request) or is refused (another
 * request), and a money operation commits with its idempotency record or not at all.
 *
 * @since 0.3.0
 */
import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import type { Database, Queryable } from '../store/database'
import * as store from '../store/store'
import { JSON_CONTENT_TYPE } from '../reply/reply'
import { type AnyReply, type Env, problem, send } from './reply'

/** A rejection that carries the reply to send once the transaction is rolled back. */
class RolledBack extends Error {
  constructor(readonly reply: AnyReply) {
    super(`rolled back: ${reply.status}`)
  }
}

/**
 * Runs `work` in a transaction for the request of `c`: `idempotent` is null for a route that
 * takes no Idempotency-Key, else the hash of the API key that owns the keys it claims (null for
 * none: a key that resolved to no user claims nothing).
 */
export type Mutate = (
  c: Context<Env>,
  idempotent: { readonly keySha256: string | null } | null,
  body: string,
  work: (tx: Queryable) => Promise<AnyReply>
) => Promise<Response>

/** The reply kept for an Idempotency-Key, again (with this request's id), or the 422 of another request. */
const replay = (requestId: string, kept: store.KeptReply, fingerprint: string): Response =>
  kept.fingerprint === fingerprint && kept.status !== null
    ? new Response(kept.body, {
        status: kept.status,
        headers: { ...kept.headers, 'X-Request-Id': requestId, 'Idempotent-Replayed': 'true' }
      })
    : send({
        status: 422,
        headers: { 'X-Request-Id': requestId, 'Content-Type': JSON_CONTENT_TYPE },
        body: { errors: { idempotency_key: ['was already used with another request'] } }
      })

/** The unit of work over a database, a clock, and how long an Idempotency-Key is remembered. */
export const unitOfWork =
  (db: Database, clock: () => Date, idempotencyTtlHours: number): Mutate =>
  async (c, idempotent, body, work) => {
    const requestId = c.get('requestId')
    const idempotencyKey = c.req.header('idempotency-key')
    const claim =
      idempotent !== null && idempotent.keySha256 !== null && idempotencyKey !== undefined ? idempotent.keySha256 : null
    if (claim !== null && (idempotencyKey === '' || (idempotencyKey as string).length > 255))
      return send(problem(400, requestId, 'bad_request', 'Idempotency-Key must be 1 to 255 characters'))
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n${c.req.header('company-id') ?? ''}\n${body}`)
      .digest('hex')
    try {
      return await db.transaction(async (tx) => {
        if (claim !== null) {
          const now = clock()
          const kept = await store.claimIdempotencyKey(tx, {
            key_sha256: claim,
            idempotency_key: idempotencyKey as string,
            fingerprint,
            now: now.toISOString(),
            expired_before: new Date(now.getTime() - idempotencyTtlHours * 3_600_000).toISOString()
          })
          if (kept !== null) return replay(requestId, kept, fingerprint)
        }
        const reply = await work(tx)
        if (reply.status >= 500) throw new RolledBack(reply)
        if (claim !== null) {
          // A replay gets the id of its own request.
          const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name !== 'X-Request-Id'))
          await store.keepReply(tx, {
            key_sha256: claim,
            idempotency_key: idempotencyKey as string,
            status: reply.status,
            headers,
            body: reply.body === null ? null : JSON.stringify(reply.body)
          })
        }
        return send(reply)
      })
    } catch (e) {
      if (e instanceof RolledBack) return send(e.reply)
      throw e
    }
  }
