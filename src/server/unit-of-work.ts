/**
 * The unit of work of a route that changes data: one transaction around the look-up, the
 * facade's decision, the write and the decision's record, committed unless the reply is
 * a 5xx (rolled back, and then only the record kept). With an Idempotency-Key (money endpoints,
 * a stored API key), the key is claimed first in the same transaction: a key already used
 * replays its reply (same request, recorded as a replay of the first) or is refused (another
 * request), and a money operation commits with its idempotency record and its decision record or
 * not at all.
 *
 * @since 0.3.0
 */
import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import type { DecisionEndpoint, DecisionRecord } from '../decisions'
import { IDEMPOTENCY_KEY_MAX_LENGTH, isIdempotencyKey } from '../http/idempotency-key'
import type { Database, Queryable } from '../store/database'
import * as store from '../store/store'
import { JSON_CONTENT_TYPE } from '../reply/reply'
import type { DecisionLog } from './decision-log'
import { type AnyReply, type Env, problem, send } from './reply'

/** A facade's reply and the record of its decision (null when none is kept). */
export interface Decided {
  readonly reply: AnyReply
  readonly record: DecisionRecord | null
}

/** A rejection that carries what to send and keep once the transaction is rolled back. */
class RolledBack extends Error {
  constructor(readonly decided: Decided) {
    super(`rolled back: ${decided.reply.status}`)
  }
}

/** What a route tells the unit of work of its request. */
export interface Unit {
  /** The decision the route asks a facade for. */
  readonly endpoint: DecisionEndpoint
  /**
   * Null for a route that takes no Idempotency-Key, else the hash of the API key that owns the
   * keys it claims (null for none: a key that resolved to no user claims nothing).
   */
  readonly idempotent: { readonly keySha256: string | null } | null
  /** Who asks, and the resource the path names: what the record of a replayed reply says. */
  readonly actor_id: string | null
  readonly resource_id: string | null
}

/** Runs `work` in a transaction for the request of `c`, as {@link Unit} describes it. */
export type Mutate = (c: Context<Env>, unit: Unit, body: string, work: (tx: Queryable) => Promise<Decided>) => Promise<Response>

const ANOTHER_REQUEST = {
  status: 422,
  body: { errors: { idempotency_key: ['was already used with another request'] } }
} as const

/** The unit of work over a database, a clock, how long an Idempotency-Key is remembered, and the decision log. */
export const unitOfWork =
  (db: Database, clock: () => Date, idempotencyTtlHours: number, log: DecisionLog): Mutate =>
  async (c, { endpoint, idempotent, actor_id, resource_id }, body, work) => {
    const requestId = c.get('requestId')
    const idempotencyKey = c.req.header('idempotency-key')
    const claim =
      idempotent !== null && idempotent.keySha256 !== null && idempotencyKey !== undefined ? idempotent.keySha256 : null
    if (claim !== null && !isIdempotencyKey(idempotencyKey as string))
      return send(problem(400, requestId, 'bad_request', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`))
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
            request_id: requestId,
            now: now.toISOString(),
            expired_before: new Date(now.getTime() - idempotencyTtlHours * 3_600_000).toISOString()
          })
          if (kept !== null) {
            if (kept.fingerprint !== fingerprint || kept.status === null)
              return send({ ...ANOTHER_REQUEST, headers: { 'X-Request-Id': requestId, 'Content-Type': JSON_CONTENT_TYPE } })
            // The first reply again, with this request's id; its record names the first request.
            const headers = { ...kept.headers, 'X-Request-Id': requestId, 'Idempotent-Replayed': 'true' }
            const first = { request_id: kept.request_id ?? '', actor_id, resource_id }
            const reply = { status: kept.status, headers, body: kept.body === null ? null : (JSON.parse(kept.body) as unknown) }
            await log.keep(tx, log.replayed(c, endpoint, first, reply))
            return new Response(kept.body, { status: kept.status, headers })
          }
        }
        const decided = await work(tx)
        const { reply } = decided
        if (reply.status >= 500) throw new RolledBack(decided)
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
        await log.keep(tx, decided.record)
        return send(reply)
      })
    } catch (e) {
      if (!(e instanceof RolledBack)) throw e
      // Nothing changed: the record of the refusal is kept on its own.
      await log.keepAlone(e.decided.record)
      return send(e.decided.reply)
    }
  }
