/**
 * A disagreement as a person reads it: the scenario, what differs, the rules behind the
 * library's reply, and how to replay it. Every line is safe to print (R-126): what a request or
 * a server's reply holds shows its controls as `\u` escapes.
 *
 * @since 0.2.0
 */
import type { Scenario, ScenarioState } from '../arbitraries/scenario'
import type { ConformanceResult } from './check'
import type { History, HistoryCheck, HistoryOperation, HistoryResult } from './histories'
import { bodyValue, compareReplies, type Difference } from './compare'
import { routeOf } from './model'
import type { SequenceResult, StepOutcome } from './sequences'
import { safeToPrint } from '../text/safe-to-print'
import { type Foreign, foreignLine } from './tenants'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const pretty = (u: unknown): Array<string> =>
  u === null ? ['(empty)'] : typeof u === 'string' ? [JSON.stringify(u)] : JSON.stringify(u, null, 2).split('\n')

/** A line diff of two texts (longest common subsequence): ` ` kept, `-` expected only, `+` actual only. */
export const lineDiff = (expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): Array<string> => {
  const n = expected.length
  const m = actual.length
  // lcs[i][j]: the longest common subsequence of expected[i..] and actual[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as Array<number>)[j] =
        expected[i] === actual[j]
          ? ((lcs[i + 1] as Array<number>)[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as Array<number>)[j] as number, (lcs[i] as Array<number>)[j + 1] as number)
  const out: Array<string> = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] === actual[j]) {
      out.push(`  ${expected[i++] ?? ''}`)
      j++
    } else if (i < n && (j === m || ((lcs[i + 1] as Array<number>)[j] as number) >= ((lcs[i] as Array<number>)[j + 1] as number)))
      out.push(`- ${expected[i++] ?? ''}`)
    else out.push(`+ ${actual[j++] ?? ''}`)
  }
  return out
}

const describe = (d: Difference): Array<string> =>
  d.part === 'status'
    ? [`status: expected ${String(d.expected)}, actual ${String(d.actual)}`]
    : d.part === 'header'
      ? [`header ${d.name ?? ''}: expected ${JSON.stringify(d.expected)}, actual ${JSON.stringify(d.actual)}`]
      : ['body (- expected, + actual):', ...lineDiff(pretty(d.expected), pretty(d.actual)).map((l) => `  ${l}`)]

// -------------------------------------------------------------------------------------
// reporting
// -------------------------------------------------------------------------------------

/** A body as a person reads it in a report: whole when short, else its start and its length. */
export const shortBody = (body: string | undefined, limit = 300): string =>
  body === undefined ? '(no body)' : body.length <= limit ? body : `${body.slice(0, limit)}... (${body.length} characters)`

const requestLines = (request: Scenario['request'], limit?: number): Array<string> => [
  `  ${request.method} ${request.path}`,
  ...Object.entries(request.headers).map(([k, v]) => `  ${k}: ${v}`),
  ...(request.body === undefined ? ['  (no body)'] : ['', `  ${shortBody(request.body, limit)}`])
]

const stateLines = (state: ScenarioState): Array<string> => [
  `  today: ${state.today}`,
  `  session: ${JSON.stringify(state.session)}`,
  `  budget: ${JSON.stringify(state.budget)}`,
  `  company_member_ids: ${JSON.stringify(state.company_member_ids)}`,
  `  records: ${state.records.length === 0 ? '[]' : ''}`,
  ...state.records.map((r) => `    ${JSON.stringify(r)}`),
  ...(state.others ?? []).flatMap((o) => [
    `  other company ${JSON.stringify(o.company_id)}: budget ${JSON.stringify(o.budget)}, records ${o.records.length === 0 ? '[]' : ''}`,
    ...o.records.map((r) => `    ${JSON.stringify(r)}`)
  ])
]

/** What of another company a reply held or counted (R-94), as lines; none when nothing. */
const foreignLines = (foreign: ReadonlyArray<Foreign>): Array<string> =>
  foreign.length === 0
    ? []
    : ['', "another company's objects in the reply (tenant isolation, R-94):", ...foreign.map((f) => `  ${foreignLine(f)}`)]

/**
 * A check's result as text. For a disagreement: the endpoint and the runs it took, the request
 * (request line, headers, body), the state the server was given, each difference (the status,
 * each differing header, the body as a line diff of pretty JSON, `-` the library's and `+` the
 * server's), the rule ids of the library's reasons (docs/decisions/ explains each), and the
 * seed and path to replay it. For a transport failure (no reply): the error, the request that
 * got none, and the request sent before it (its body cut short when long). For an agreement,
 * one line.
 *
 * @example
 * import { formatDisagreement } from 'budget-rules/conformance'
 *
 * formatDisagreement({ ok: true, runs: 100 }) //=> '100 scenarios, 0 disagreements'
 *
 * @category utils
 * @since 0.2.0
 */
export const formatDisagreement = (result: ConformanceResult): string => {
  if (result.ok) return `${result.runs} scenarios, 0 disagreements`
  if (result.kind === 'transport') {
    const { scenario, previous } = result
    return [
      `No reply to ${scenario.endpoint} after ${result.runs} runs: a transport failure, not a disagreement (the check stopped there, unshrunk)`,
      '',
      `error: ${result.error}`,
      '',
      'request without a reply:',
      ...requestLines(scenario.request),
      '',
      previous === null ? 'no request was sent before it' : `the request sent before it (${previous.endpoint}):`,
      ...(previous === null ? [] : requestLines(previous.request))
    ]
      .map(safeToPrint)
      .join('\n')
  }
  const { scenario, expected, actual } = result
  return [
    `Disagreement on ${scenario.endpoint} (found after ${result.runs} runs, shrunk)`,
    '',
    'request:',
    ...requestLines(scenario.request, Number.POSITIVE_INFINITY),
    '',
    'state:',
    ...stateLines(scenario.state),
    '',
    'differences:',
    ...compareReplies(scenario.endpoint, expected, actual)
      .flatMap(describe)
      .map((l) => `  ${l}`),
    ...foreignLines(result.foreign),
    '',
    `rules of the expected reply: ${expected.reasons.map((r) => r.rule).join(', ')}`,
    `replay: checkConformance({ send, seed: ${result.seed}, path: ${JSON.stringify(result.path)} })`
  ]
    .map(safeToPrint)
    .join('\n')
}

// -------------------------------------------------------------------------------------
// sequences
// -------------------------------------------------------------------------------------

/**
 * A word of a shell command, quoted for sh: in single quotes, each single quote closed, escaped
 * and reopened; a word holding a character a terminal obeys in bash's `$'...'`, where the `\u`
 * escapes safe to print are what the shell sends (R-126), so the line stays runnable.
 */
const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word)
    ? word
    : safeToPrint(word) === word
      ? `'${word.replaceAll("'", `'\\''`)}'`
      : `$'${safeToPrint(word.replaceAll('\\', '\\\\').replaceAll("'", "\\'"))}'`

/** A request as a curl command line. */
export const curlLine = (base: string, method: string, path: string, headers: Readonly<Record<string, string>>, body?: string) =>
  [
    'curl -sS -i -X',
    method,
    shellWord(`${base}${path}`),
    ...Object.entries(headers).map(([k, v]) => `-H ${shellWord(`${k}: ${v}`)}`),
    ...(body === undefined ? [] : [`--data-raw ${shellWord(body)}`])
  ].join(' ')

/** A reply in a few words: its status and its body, compact. */
const replyLine = (status: number, body: unknown): string => `${status} ${body === null ? '(no body)' : JSON.stringify(body)}`

const stepLines = (url: string, went: StepOutcome, n: number, last: boolean): Array<string> => {
  const { step, expected, actual } = went
  if (step.kind === 'day')
    return [
      `# ${n}. days pass: today is ${step.today}`,
      curlLine(url, 'PUT', '/__conformance/state', { 'Content-Type': 'application/json' }, JSON.stringify({ today: step.today }))
    ]
  const { request } = step
  const endpoint = routeOf(request.method, request.path)?.endpoint ?? 'an unknown route'
  const head = `# ${n}. ${endpoint}`
  const command = curlLine(url, request.method, request.path, request.headers, request.body)
  if (expected === null || actual === null) return [`${head}: no reply`, command]
  const replayed = expected.replayed ? ' (replayed)' : ''
  if (!last) return [`${head}: ${expected.status}${replayed}, as expected`, command]
  return [
    `${head}: differs`,
    command,
    `#    expected (the library)${replayed}: ${replyLine(expected.status, expected.body)}`,
    `#    actual (the server): ${replyLine(actual.status, bodyValue(actual.body))}`
  ]
}

/**
 * A sequence check's result as text. For a disagreement: how many sequences it took and how
 * many steps the shrunk one has, the state the server was given, then every step as a runnable
 * `curl` command (the seeding first, days passing as the state route's `{ today }`) with what
 * each got, the last one with the expected and actual replies and each difference (the body as
 * a line diff), the rules of the expected reply, and the call that replays it. For a transport
 * failure: the error, and the steps up to the request that got no reply. For an agreement, one
 * line.
 *
 * @example
 * import { formatSequences } from 'budget-rules/conformance'
 *
 * formatSequences({ ok: true, runs: 100, requests: 1480 }) //=> '100 sequences (1480 requests), 0 disagreements'
 *
 * @category utils
 * @since 0.4.0
 */
export const formatSequences = (result: SequenceResult): string => {
  if (result.ok) return `${result.runs} sequences (${result.requests} requests), 0 disagreements`
  const { url, state, steps } = result
  const seeding = curlLine(
    url,
    'PUT',
    '/__conformance/state',
    { 'Content-Type': 'application/json' },
    JSON.stringify({ state, company_id: 'c-1' })
  )
  const lines = steps.flatMap((went, i) => ['', ...stepLines(url, went, i + 1, i === steps.length - 1)])
  const head =
    result.kind === 'transport'
      ? [
          `No reply at step ${steps.length} of sequence ${result.runs}: a transport failure, not a disagreement (the run stopped there, unshrunk)`,
          '',
          `error: ${result.error}`
        ]
      : [
          `Disagreement at step ${steps.length} of a sequence (found after ${result.runs} sequences, shrunk to ${steps.length} steps)`
        ]
  const last = steps[steps.length - 1]
  const tail =
    result.kind === 'transport' || last?.expected === null || last?.expected === undefined
      ? []
      : [
          '',
          'differences:',
          ...result.differences.flatMap(describe).map((l) => `  ${l}`),
          ...foreignLines(result.foreign),
          '',
          `rules of the expected reply: ${last.expected.reasons.map((r) => r.rule).join(', ') || '(the kept reply of an Idempotency-Key, or the server convention of ADR 0100)'}`,
          `replay: checkSequences({ url, seed: ${result.seed}, path: ${JSON.stringify(result.path)} })`
        ]
  return [
    ...head,
    '',
    'state given:',
    ...stateLines(state),
    '',
    'steps (each a curl command; the first gives the server the state):',
    '',
    '# 0. the state',
    seeding,
    ...lines,
    ...tail
  ]
    .map(safeToPrint)
    .join('\n')
}

// -------------------------------------------------------------------------------------
// histories
// -------------------------------------------------------------------------------------

const ms = (t: number): string => t.toFixed(2)

/** A reply in a few words: its status, the balance it shows or its body, and whether it was replayed. */
const outcome = (reply: { readonly status: number; readonly body: unknown; readonly replayed: boolean } | null): string => {
  if (reply === null) return 'no reply'
  const body = reply.body as { balance_cents?: unknown } | null
  const shown =
    typeof body === 'object' && body !== null && typeof body.balance_cents === 'number'
      ? `balance ${body.balance_cents}`
      : JSON.stringify(reply.body)
  return `${reply.status} ${shown}${reply.replayed ? ' (replayed)' : ''}`
}

/** One operation on one line: its id, times, what it sent and where, and what it got. */
const operationLine = (o: HistoryOperation): string =>
  [
    `#${o.id}`,
    `${ms(o.invoked)}..${o.completed === null ? '?' : ms(o.completed)} ms`,
    o.kind === 'read' ? 'read' : `${o.kind} ${o.amount_cents ?? ''}`,
    ...(o.key === null ? [] : [`key ${o.key}${o.retry_of === null ? '' : ` (again, as #${o.retry_of})`}`]),
    o.url,
    `-> ${o.reply === null ? `unknown (${o.error ?? 'no reply'})` : outcome(o.reply)}`
  ].join('  ')

/** The operations of `ids` as one timeline per client, each in the order invoked. */
const timelines = (history: History, ids: ReadonlyArray<number>, unheard: ReadonlyArray<number>): Array<string> => {
  const ops = ids.map((id) => history.operations[id] as HistoryOperation)
  const clients = [...new Set(ops.map((o) => o.client))].sort((a, b) => a - b)
  return clients.flatMap((c) => [
    `  client ${c}${ops.some((o) => o.client === c && o.kind === 'read') && c === Math.max(...history.operations.map((o) => o.client)) ? ' (the kit, once every client was done)' : ''}`,
    ...ops
      .filter((o) => o.client === c)
      .sort((a, b) => a.invoked - b.invoked)
      .map(
        (o) => `    ${operationLine(o)}${unheard.includes(o.id) ? '  [reply after the end of the part: counted as unknown]' : ''}`
      )
  ])
}

const WHY: Readonly<Record<HistoryCheck, string>> = {
  'balance below zero': 'a reply shows a balance below zero',
  'key applied twice': 'one Idempotency-Key got two replies, neither replayed: it moved the money twice',
  'money not conserved': 'the final balance is not what the operations can add up to, whichever of the unknown ones took effect',
  'no order': 'no order of the operations that respects real time explains every reply'
}

/**
 * A history check's result as text. For a history no order explains: the check that failed,
 * the operations that show it as one timeline per client (times in milliseconds from the start
 * of the run; `?` for a reply that never came), the balance they start from, and for the search
 * the longest order found, the first operation no order explains with the model's budget and
 * reply there, and the balance the server ends with. For an unknown verdict: that the search ran
 * out of time, which is no pass. For a pass: one line of figures.
 *
 * @example
 * import { formatHistory } from 'budget-rules/conformance'
 *
 * const stats = { operations: 231, unknown: 2, refused: 0, retries: 33, replayed: 31, run_ms: 812.4, search_ms: 9.51, explored: 240 }
 * formatHistory({ ok: true, verdict: 'linearizable', history: { operations: [] }, stats })
 * //=> '231 operations (2 unknown, 0 refused, 33 sent again, 31 replayed) in 812 ms: linearizable (search 9.5 ms, 240 configurations)'
 *
 * @category utils
 * @since 0.4.0
 */
export const formatHistory = (result: HistoryResult): string => {
  const { stats, history } = result
  const figures = `${stats.operations} operations (${stats.unknown} unknown, ${stats.refused} refused, ${stats.retries} sent again, ${stats.replayed} replayed) in ${Math.round(stats.run_ms)} ms`
  const search = `search ${stats.search_ms.toFixed(1)} ms, ${stats.explored} configurations`
  if (result.verdict === 'linearizable') return `${figures}: linearizable (${search})`
  if (result.verdict === 'unknown')
    return [
      `${figures}: unknown, the search ran out of time (${search}); this is no pass`,
      `the longest order found explains ${result.longest.length} of the ${stats.operations} operations`
    ].join('\n')
  const ops = history.operations
  const final = ops[ops.length - 1]
  const lines = [
    `${figures}: not linearizable: ${WHY[result.check]}`,
    '',
    `the ${result.witness.length} operations that show it, per client${result.from === null ? '' : `, from a balance of ${String(result.from.balance_cents)}`}:`,
    ...timelines(history, result.witness, result.unheard)
  ]
  if (result.stuck !== null) {
    const stuck = ops[result.stuck] as HistoryOperation
    lines.push(
      '',
      `longest order found (${result.longest.length} operations): ${result.longest.length > 12 ? '..., ' : ''}${result.longest
        .slice(-12)
        .map((id) => `#${ops[id]?.id ?? id}`)
        .join(', ')}`,
      `no order explains #${stuck.id} (client ${stuck.client}): ${operationLine(stuck)}`,
      `  the model's budget there holds ${String(result.state?.balance_cents)}, and the library replies ${outcome(result.expected)}`,
      `  (${search})`
    )
  }
  if (final !== undefined && final.kind === 'read')
    lines.push(
      '',
      `the server ends with ${final.reply === null ? 'no reply to the last read' : outcome(final.reply)} (#${final.id})`
    )
  return lines.map(safeToPrint).join('\n')
}
