/**
 * The server's side of decision records: each facade's decision becomes a record
 * (`budget-rules/decisions`, masked before it exists), noted on the request for its log line and
 * its metrics, and kept in `decisions`: a mutation's record in the mutation's own transaction (by
 * the unit of work), a read's on its own. With `DECISION_LOG=off` nothing is kept; a record the
 * library refuses to build (it would leak or not replay) is dropped and counted, never kept half.
 *
 * @since 0.4.0
 */
import type { Context } from 'hono'
import { either as E } from 'fp-ts'
import {
  type DecisionContexts,
  type DecisionEndpoint,
  decisionRecord,
  type DecisionRecord,
  type FacadeReply,
  replayedRecord
} from '../decisions'
import { headerOf } from '../index'
import type { Queryable } from '../store/database'
import { insertDecision, insertDecisions, MAX_RECORDS_A_STATEMENT, recordInstant } from '../store/decisions'
import type { Env } from './reply'

/** What a request's log line and metrics say of its decision. */
export interface Noted {
  readonly endpoint: DecisionEndpoint
  readonly actor_id: string | null
  readonly rules: ReadonlyArray<string>
}

/** The decision log of one app. */
export interface DecisionLog {
  /**
   * The record of the decision a facade made for the request of `c` (null when recording is off,
   * or when the record could not be made: counted by `dropped`); the decision is noted on `c`
   * either way. `resource_id` is the resource the path names, when the case may not name it.
   */
  readonly decided: <E extends DecisionEndpoint>(
    c: Context<Env>,
    endpoint: E,
    context: DecisionContexts[E],
    reply: FacadeReply,
    resource_id?: string | null
  ) => DecisionRecord | null
  /** The record of a reply an Idempotency-Key replayed, noted on `c` as the first one's endpoint. */
  readonly replayed: (
    c: Context<Env>,
    endpoint: DecisionEndpoint,
    first: { readonly request_id: string; readonly actor_id: string | null; readonly resource_id: string | null },
    reply: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: unknown }
  ) => DecisionRecord | null
  /** Keeps a record made by `decided` or `replayed` (nothing for null) in the transaction `tx`. */
  readonly keep: (tx: Queryable, record: DecisionRecord | null) => Promise<void>
  /**
   * Keeps a record on its own (a read's, a refusal's that changed nothing): resolved once it is
   * written, with the records of other requests that came while the statement before it ran.
   */
  readonly keepAlone: (record: DecisionRecord | null) => Promise<void>
}

/** What a decision log is built from. */
export interface DecisionLogOptions {
  /** Where records kept on their own go. */
  readonly db: Queryable
  /** Whether records are kept (`DECISION_LOG=off` turns it off). */
  readonly enabled: boolean
  readonly clock: () => Date
  /** Told of each record the library would not build, with why. */
  readonly dropped: (endpoint: DecisionEndpoint, detail: string) => void
}

/** The path with its query string, as the request line had it. */
const pathOf = (c: Context<Env>): string => {
  const url = c.req.url
  const at = url.indexOf('/', url.indexOf('//') + 2)
  return at < 0 ? '/' : url.slice(at)
}

/** The request line and what the server knows of the request besides the facade's input. */
const metaOf = (c: Context<Env>, clock: () => Date) => ({
  at: recordInstant(clock()),
  key_id: c.get('keyId') ?? null,
  method: c.req.method,
  path: pathOf(c),
  idempotency_key: c.req.header('idempotency-key') ?? null
})

const sessionUser = (context: unknown): string | null => {
  const session = (context as { readonly session?: { readonly user?: { readonly id?: unknown } | null } }).session
  const id = session?.user?.id
  return typeof id === 'string' ? id : null
}

/**
 * A group commit of records: each waits for the statement that writes it, and the records that
 * come in the same turn of the event loop, or while one statement runs, go together in the next
 * (up to MAX_RECORDS_A_STATEMENT a statement). Written only for speed: one INSERT of several rows costs little more than one of
 * one, and a read's record was a third of its statements (ADR 0122). A statement that fails
 * fails each of its requests, as their own would have.
 */
const groupWriter = (db: Queryable): ((record: DecisionRecord) => Promise<void>) => {
  let waiting: Array<{ readonly record: DecisionRecord; readonly written: (error: Error | null) => void }> = []
  let writing = false
  const write = async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_RECORDS_A_STATEMENT)
      waiting = waiting.slice(batch.length)
      const error = await insertDecisions(
        db,
        batch.map((w) => w.record)
      ).then(
        () => null,
        (e: unknown) => (e instanceof Error ? e : new Error('the records could not be written', { cause: e }))
      )
      for (const w of batch) w.written(error)
    }
    writing = false
  }
  return (record) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({
        record,
        written: (error) => {
          if (error === null) resolve()
          else reject(error)
        }
      })
      if (!writing) {
        writing = true
        // After the requests already read from their sockets have come this far too: on PGlite,
        // whose statements run one by one without letting the loop turn, nothing else would.
        setImmediate(() => void write())
      }
    })
}

/** The decision log over the options' clock, recording when enabled. */
export const decisionLog = ({ db, enabled, clock, dropped }: DecisionLogOptions): DecisionLog => {
  const writeAlone = groupWriter(db)
  return {
    decided: (c, endpoint, context, reply, resource_id) => {
      c.set('decision', { endpoint, actor_id: sessionUser(context), rules: reply.reasons.map((r) => r.rule) })
      if (!enabled) return null
      const record = decisionRecord(endpoint, context, reply, {
        ...metaOf(c, clock),
        ...(resource_id === undefined ? {} : { resource_id })
      })
      if (E.isRight(record)) return record.right
      dropped(endpoint, record.left.detail)
      return null
    },
    replayed: (c, endpoint, first, reply) => {
      c.set('decision', { endpoint, actor_id: first.actor_id, rules: [] })
      if (!enabled) return null
      const record = replayedRecord(
        {
          request_id: c.get('requestId'),
          company_id: headerOf(c.req.raw.headers, 'company-id') ?? null,
          actor_id: first.actor_id,
          endpoint,
          resource_id: first.resource_id,
          replay_of: first.request_id,
          reply
        },
        metaOf(c, clock)
      )
      if (E.isRight(record)) return record.right
      dropped(endpoint, record.left.detail)
      return null
    },
    keep: async (tx, record) => {
      if (record !== null) await insertDecision(tx, record)
    },
    keepAlone: async (record) => {
      if (record !== null) await writeAlone(record)
    }
  }
}
