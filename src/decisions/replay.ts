/**
 * Replay: a recorded case decided again with the library at hand, and the reply compared
 * with the one recorded, status, body, headers and rule ids, so that a team upgrading the rules
 * sees which replies the new version would change before it ships.
 *
 * @example
 * import { respondTopUp } from 'budget-rules'
 * import { decisionRecord, type DecisionRecord } from 'budget-rules/decisions'
 *
 * const context = { request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }
 * const { right } = decisionRecord('budget.top_up', context, respondTopUp(context), { at: '2026-11-22T12:00:00Z', key_id: '3f1a', method: 'POST', path: '/v1/budgets/b-1/top_up' }) as { right: DecisionRecord }
 * replay(right) //=> { replayable: true, same: true }
 * const { same } = replay({ ...right, reply: { ...right.reply, body: { ...right.reply.body as object, balance_cents: 1 } } }) as { same: boolean }
 * same //=> false
 *
 * @since 0.4.0
 */
import { isDecisionEndpoint } from '../decision/endpoints'
import { describeValue } from '../json/describe'
import { isJsonObject, sameJson } from '../json/value'
import type { AnyReply } from '../reply/reply'
import { decideAs, type JsonObject } from './case'
import { isErasedBody, MAX_KEPT_BODY_BYTES } from './kept-body'
import { passedMembership } from './membership'
import type { DecisionRecord } from './record'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A reply as replay compares it: status, headers, body and the rule ids, in order.
 *
 * @example
 * const reply: ComparedReply = { status: 401, headers: { 'X-Request-Id': 'r' }, body: null, rules: ['auth.bearer'] }
 * reply.rules //=> ['auth.bearer']
 *
 * @category model
 * @since 0.4.0
 */
export interface ComparedReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly rules: ReadonlyArray<string>
}

/**
 * What a replay found: the same reply; another one (`expected` as recorded, `actual` as decided
 * now); or nothing to compare, and why (an index page, whose records are not kept; a reply an
 * Idempotency-Key replayed; a member's body over 16 KiB, not kept; an endpoint this version does
 * not know).
 *
 * @example
 * const found: ReplayResult = { replayable: false, reason: 'an index page: its records are not kept' }
 * found.replayable //=> false
 *
 * @category model
 * @since 0.4.0
 */
export type ReplayResult =
  | { readonly replayable: true; readonly same: true }
  | { readonly replayable: true; readonly same: false; readonly expected: ComparedReply; readonly actual: ComparedReply }
  | { readonly replayable: false; readonly reason: string }

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const sameReply = (a: ComparedReply, b: ComparedReply): boolean =>
  a.status === b.status &&
  sameJson(a.headers, b.headers) &&
  sameJson(a.body, b.body) &&
  a.rules.length === b.rules.length &&
  a.rules.every((r, i) => r === b.rules[i])

const notReplayable = (reason: string): ReplayResult => ({ replayable: false, reason })

// -------------------------------------------------------------------------------------
// replay
// -------------------------------------------------------------------------------------

/**
 * Decides a record's case again with this library and compares the reply with the recorded one
 * . Never throws.
 *
 * Law: `replay(r).same` is true for every record `r` this version of the library made, unless
 * `r` is not replayable.
 *
 * @example
 * import { respondIndex, endpoints } from 'budget-rules'
 * import { decisionRecord, type DecisionRecord } from 'budget-rules/decisions'
 *
 * const context = { request: { headers, query: '_end=2' }, session, endpoint: endpoints.bankTransactions, records, request_id: 'req-3' }
 * const { right } = decisionRecord('index.bank_transactions', context, respondIndex(context), { at: '2026-11-22T12:00:00Z', key_id: null, method: 'GET', path: '/v1/banking/bank_transactions?_end=2' }) as { right: DecisionRecord }
 * right.reply.body //=> ['tx-1', 'tx-2']
 * replay(right) //=> { replayable: false, reason: 'an index page: its records are not kept' }
 *
 * @category utils
 * @since 0.4.0
 */
export const replay = (record: DecisionRecord): ReplayResult => {
  try {
    return replayWhole(record)
  } catch (e) {
    // A record read back is plain JSON; what else an embedder hands over may not be.
    return notReplayable(`the record could not be read: ${e instanceof Error ? e.message : describeValue(e)}`)
  }
}

const replayWhole = (record: DecisionRecord): ReplayResult => {
  if (record.case === null)
    return notReplayable(`the reply an Idempotency-Key replayed of ${record.replay_of ?? 'an earlier request'}`)
  if (!isDecisionEndpoint(record.endpoint)) return notReplayable(`endpoint ${record.endpoint} is not one of this version's`)
  const request: unknown = record.case.request
  const body: unknown = isJsonObject(request) ? request.body : undefined
  let c: JsonObject = record.case
  if (isErasedBody(body)) {
    // a member's body over 16 KiB is not kept, so nothing decides it again; a stranger's
    // was refused before it was read, so the request without it decides the same refusal.
    if (passedMembership(record.rules, record.status))
      return notReplayable(`the body, ${body.bytes} bytes, is over the ${MAX_KEPT_BODY_BYTES} a record keeps`)
    const unread: Record<string, unknown> = { ...(request as JsonObject) }
    delete unread.body
    c = { ...record.case, request: unread }
  }
  const found = decideAs(record.endpoint, c)
  if (found._tag === 'Plan' && found.plan._tag === 'Page') return notReplayable('an index page: its records are not kept')
  const now: AnyReply = found._tag === 'Reply' ? found.reply : (found.plan as { readonly reply: AnyReply }).reply
  const actual: ComparedReply = {
    status: now.status,
    headers: now.headers,
    body: now.body,
    rules: now.reasons.map((r) => r.rule)
  }
  const expected: ComparedReply = {
    status: record.reply.status,
    headers: record.reply.headers,
    body: record.reply.body,
    rules: record.rules
  }
  return sameReply(expected, actual) ? { replayable: true, same: true } : { replayable: true, same: false, expected, actual }
}
