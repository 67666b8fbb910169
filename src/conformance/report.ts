/**
 * A disagreement as a person reads it: the scenario, what differs, the rules behind the
 * library's reply, and how to replay it.
 *
 * @since 0.2.0
 */
import { compareReplies, type Difference } from './compare'
import type { ConformanceResult } from './check'

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

/**
 * A check's result as text. For a disagreement: the endpoint and the runs it took, the request
 * (request line, headers, body), the state the server was given, each difference (the status,
 * each differing header, the body as a line diff of pretty JSON, `-` the library's and `+` the
 * server's), the rule ids of the library's reasons (docs/decisions/ explains each), and the
 * seed and path to replay it. For an agreement, one line.
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
  const { scenario, expected, actual } = result
  const { request, state } = scenario
  const differences =
    'error' in actual ? [`send failed: ${actual.error}`] : compareReplies(scenario.endpoint, expected, actual).flatMap(describe)
  return [
    `Disagreement on ${scenario.endpoint} (found after ${result.runs} runs, shrunk)`,
    '',
    'request:',
    `  ${request.method} ${request.path}`,
    ...Object.entries(request.headers).map(([k, v]) => `  ${k}: ${v}`),
    ...(request.body === undefined ? ['  (no body)'] : ['', `  ${request.body}`]),
    '',
    'state:',
    `  today: ${state.today}`,
    `  session: ${JSON.stringify(state.session)}`,
    `  budget: ${JSON.stringify(state.budget)}`,
    `  company_member_ids: ${JSON.stringify(state.company_member_ids)}`,
    `  records: ${state.records.length === 0 ? '[]' : ''}`,
    ...state.records.map((r) => `    ${JSON.stringify(r)}`),
    '',
    'differences:',
    ...differences.map((l) => `  ${l}`),
    '',
    `rules of the expected reply: ${expected.reasons.map((r) => r.rule).join(', ')}`,
    `replay: checkConformance({ send, seed: ${result.seed}, path: ${JSON.stringify(result.path)} })`
  ].join('\n')
}
