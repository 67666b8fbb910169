/**
 * Decision records as a person reads them: one record in words (when, who, the
 * request line, the reply, each rule with its one-line meaning from the rules catalogue, which
 * docs/rules.md is generated from, and the changes), a record as a line of a list, and a
 * difference replay found as its request id and a line diff. Pure: the commands print them.
 * Every line is safe to print: what the request carried is hostile, so a value's own
 * controls and line breaks show as `\u` escapes, never as a line of its own.
 *
 * @example
 * replaySummary({ replayed: 3, same: 1, differ: 1, notReplayable: 1 }) //=> '3 replayed, 1 same, 1 differ, 1 not replayable'
 *
 * @since 0.4.0
 */
import { STATUS_CODES } from 'node:http'
import { lineDiff } from '../conformance/report'
import type { ComparedReply, DecisionRecord } from '../decisions'
import { rules } from '../decision/rules'
import { isErasedBody } from '../decisions/kept-body'
import { safeToPrint } from '../text/safe-to-print'

/** The words of a rule: its summary in the catalogue, or a note that this version has no such rule. */
const meaning = (rule: string): string =>
  Object.hasOwn(rules, rule) ? rules[rule as keyof typeof rules].summary : '(not a rule of this version of the library)'

const statusLine = (status: number): string => `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()

const json = (u: unknown): string => JSON.stringify(u)

/** The lines of a labelled block: the label on the first, the others under it. */
const block = (label: string, lines: ReadonlyArray<string>): Array<string> =>
  (lines.length === 0 ? ['none'] : lines).map((line, i) => `${(i === 0 ? label : '').padEnd(9)}${line}`)

/** The request body as the record keeps it: its text, or what was kept of a body it erased. */
const bodyLines = (body: unknown): Array<string> =>
  typeof body === 'string'
    ? [body]
    : isErasedBody(body)
      ? [`a body of ${body.bytes} bytes, not kept (sha256 ${body.sha256})`]
      : []

/**
 * A record in words, as `budget-rules decisions show` prints it.
 *
 * @example
 * recordText({ request_id: 'req-1', at: '2026-11-23T15:00:00.000000Z', company_id: 'c-acme', actor_id: 'u-manager',
 *   key_id: '0a1b2c3d4e5f6071', endpoint: 'budget.update', method: 'PATCH', path: '/v1/budgets/b-travel', resource_id: 'b-travel',
 *   idempotency_key: null, replay_of: null, status: 200, rules: ['auth.bearer', 'budget.update'],
 *   case: { request: { headers: {}, body: '{"budget":{"name":"Trips"}}' } },
 *   reply: { status: 200, headers: {}, body: { name: 'Trips' } }, changes: [{ field: 'name', before: 'Travel', after: 'Trips' }],
 *   masked: ['case.request.headers.authorization'], erased: [], library_version: '0.4.0' }).split('\n').slice(0, 7)
 * //=> ['request  req-1 at 2026-11-23T15:00:00.000000Z (budget.update, budget-rules 0.4.0)',
 * //    'who      u-manager, key 0a1b2c3d4e5f6071, company c-acme',
 * //    'asked    PATCH /v1/budgets/b-travel',
 * //    '         {"budget":{"name":"Trips"}}',
 * //    'replied  200 OK',
 * //    '         {"name":"Trips"}',
 * //    'rules    auth.bearer    Authorization is `Bearer <key>` (scheme in any case, non-empty key) and the key resolved to a user.']
 *
 * @since 0.4.0
 */
export const recordText = (r: DecisionRecord): string => {
  const width = Math.max(0, ...r.rules.map((rule) => rule.length))
  const body = (r.case?.request as { readonly body?: unknown } | undefined)?.body
  return [
    `request  ${r.request_id} at ${r.at} (${r.endpoint}, budget-rules ${r.library_version})`,
    `who      ${r.actor_id ?? 'no user'}, key ${r.key_id ?? 'none'}, company ${r.company_id ?? 'none'}`,
    ...block('asked', [`${r.method} ${r.path}`, ...bodyLines(body)]),
    ...block('replied', [statusLine(r.status), ...(r.reply.body === null ? [] : [json(r.reply.body)])]),
    ...(r.replay_of === null ? [] : [`replays  the reply to ${r.replay_of} (Idempotency-Key ${r.idempotency_key ?? ''})`]),
    ...block(
      'rules',
      r.rules.map((rule) => `${rule.padEnd(width)}  ${meaning(rule)}`)
    ),
    ...block(
      'changes',
      r.changes.map((c) => `${c.field}: ${json(c.before)} -> ${json(c.after)}`)
    ),
    ...block('masked', r.masked),
    ''
  ]
    .map(safeToPrint)
    .join('\n')
}

/**
 * A record as a line of `budget-rules decisions list`: when, the request id, the endpoint, the
 * status, who, what, and the rule that decided.
 *
 * @example
 * recordLine({ request_id: 'req-1', at: '2026-11-23T15:00:00.000000Z', company_id: 'c-acme', actor_id: 'u-manager', key_id: null,
 *   endpoint: 'budget.update', method: 'PATCH', path: '/v1/budgets/b-travel', resource_id: 'b-travel', idempotency_key: null,
 *   replay_of: null, status: 403, rules: ['auth.bearer', 'budget.permission.recurrence'], case: null,
 *   reply: { status: 403, headers: {}, body: null }, changes: [], masked: [], erased: [], library_version: '0.4.0' })
 * //=> '2026-11-23T15:00:00.000000Z  req-1  budget.update  403  u-manager  b-travel  budget.permission.recurrence'
 *
 * @since 0.4.0
 */
export const recordLine = (r: DecisionRecord): string =>
  safeToPrint(
    [r.at, r.request_id, r.endpoint, String(r.status), r.actor_id ?? '-', r.resource_id ?? '-', r.rules.at(-1) ?? '-'].join('  ')
  )

const pretty = (reply: ComparedReply): Array<string> => JSON.stringify(reply, null, 2).split('\n')

/**
 * A difference replay found: the request id, then a line diff of the replies as JSON, `-` as
 * recorded and `+` as decided now.
 *
 * @example
 * differenceText('req-1', { status: 403, headers: {}, body: null, rules: ['budget.permission.recurrence'] },
 *   { status: 200, headers: {}, body: null, rules: ['budget.permission.recurrence'] }).split('\n').slice(0, 3)
 * //=> ['req-1 differs (- recorded, + decided now):', '    {', '  -   "status": 403,']
 *
 * @since 0.4.0
 */
export const differenceText = (requestId: string, expected: ComparedReply, actual: ComparedReply): string =>
  [`${requestId} differs (- recorded, + decided now):`, ...lineDiff(pretty(expected), pretty(actual)).map((l) => `  ${l}`), '']
    .map(safeToPrint)
    .join('\n')

/**
 * The counts of a replay run.
 *
 * @example
 * const counts: ReplayCounts = { replayed: 0, same: 0, differ: 0, notReplayable: 0 }
 * counts.replayed //=> 0
 *
 * @since 0.4.0
 */
export interface ReplayCounts {
  replayed: number
  same: number
  differ: number
  notReplayable: number
}

/**
 * The last line of `budget-rules replay`.
 *
 * @example
 * replaySummary({ replayed: 20000, same: 19990, differ: 10, notReplayable: 0 }) //=> '20000 replayed, 19990 same, 10 differ, 0 not replayable'
 *
 * @since 0.4.0
 */
export const replaySummary = (c: ReplayCounts): string =>
  `${c.replayed} replayed, ${c.same} same, ${c.differ} differ, ${c.notReplayable} not replayable`
