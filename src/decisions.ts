/**
 * budget-rules/decisions: what was decided, kept and decided again (contract section 16). Pure,
 * like the core: `decisionRecord` builds the record of one facade call that a server
 * keeps, with the request masked; `replay` decides a record's case again with the library at hand
 * and compares the replies; `DecisionRecord` is the codec of a record, for whatever reads
 * them back (an export, an API).
 *
 * @example
 * import { respondBudgetUpdate } from 'budget-rules'
 * import { decisionRecord, replay, type DecisionRecord } from 'budget-rules/decisions'
 *
 * const context = { request: { headers, body: '{"budget":{"name":"Trips"}}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }
 * const reply = respondBudgetUpdate(context)
 * const { right: record } = decisionRecord('budget.update', context, reply, { at: '2026-11-22T12:00:00Z', key_id: '3f1a', method: 'PATCH', path: '/v1/budgets/b-1' }) as { right: DecisionRecord }
 * record.changes //=> [{ field: 'name', before: 'Team lunch', after: 'Trips' }]
 * replay(record) //=> { replayable: true, same: true }
 *
 * @since 0.4.0
 */
export { decisionRecord, replayedRecord, DecisionRecord, RecordedReply, Change, type DecisionContexts } from './decisions/record'
export type { FacadeReply, RecordMeta, Unrecordable } from './decisions/record'
export { replay, type ReplayResult, type ComparedReply } from './decisions/replay'
export { decideCase, type Decided, type JsonObject } from './decisions/case'
export { answerCase, type Answer, type AnswerMeta } from './decisions/answer'
export { LIBRARY_VERSION } from './decisions/version'
export { decisionEndpoints, isDecisionEndpoint, type DecisionEndpoint } from './decision/endpoints'
