/**
 * `budget-rules decide case.json`: the reply the library gives to one case (a request, the
 * session, and what the server looked up: the budget and `today`, a transaction, ...), and the
 * reasons for it, as a server would decide it. A case is what a decision record keeps,
 * for any decision endpoint; an index case holds its `records`.
 *
 * @example
 * caseEndpoints.slice(0, 5) //=> ['budget.get', 'budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount']
 *
 * @since 0.1.0
 */
import { STATUS_CODES } from 'node:http'
import type { Command } from 'commander'
import { either as E } from 'fp-ts'
import { decideCase as decide, decisionEndpoints } from '../decisions'
import type { AnyReply } from '../reply/reply'
import { describeValue } from '../json/describe'
import { isJsonObject } from '../json/value'
import { CliError, readJsonFile } from './input'
import { safeLinesToPrint, safeToPrint } from '../text/safe-to-print'
import type { Io } from './io'

/**
 * The endpoints a case may name: the decision endpoints, the conformance kit's names.
 *
 * @example
 * caseEndpoints.includes('budget.update') //=> true
 *
 * @since 0.1.0
 */
export const caseEndpoints: ReadonlyArray<string> = decisionEndpoints

/** The request id of a case that names none. */
const DEFAULT_REQUEST_ID = 'req-cli'

/**
 * The reply to a case read from `file`: `{ endpoint, request, session, ..., request_id? }`, the
 * facade's input and its name. Only the endpoint is checked here; the rest is what the server
 * hands the facade, which checks it itself (a malformed one is its 500, reasons saying why).
 *
 * @example
 * (() => { try { return decideCase('case.json', { endpoint: 'budget.close' }) } catch (e) { return String(e).slice(0, 100) } })()
 * //=> 'CliError: case.json: endpoint is "budget.close", not one of budget.get, budget.update, budget.top_up'
 *
 * @since 0.1.0
 */
export const decideCase = (file: string, json: unknown): AnyReply & { readonly budget?: unknown } => {
  if (!isJsonObject(json)) throw new CliError(`${file}: a case is a JSON object, not ${describeValue(json)}`)
  const { endpoint } = json
  if (typeof endpoint !== 'string' || !(caseEndpoints as ReadonlyArray<unknown>).includes(endpoint))
    throw new CliError(`${file}: endpoint is ${describeValue(endpoint)}, not one of ${caseEndpoints.join(', ')}`)
  const decided = decide({ request_id: DEFAULT_REQUEST_ID, ...json })
  if (E.isLeft(decided)) throw new CliError(`${file}: ${decided.left}`)
  const found = decided.right
  if (found._tag === 'Reply') return found.reply
  if (found.plan._tag === 'Reply') return found.plan.reply
  throw new CliError(`${file}: an index case is answered with its records: add "records": [...] to it`)
}

/**
 * A reply as text: the status line, the headers, the body as indented JSON, then the reasons,
 * one per line, the rule ids in a column.
 *
 * @example
 * replyText({ status: 401, headers: { 'X-Request-Id': 'r' }, body: null, reasons: [{ rule: 'auth.bearer', detail: 'no key' }] })
 * //=> 'HTTP/1.1 401 Unauthorized\nX-Request-Id: r\n\nauth.bearer  no key\n'
 *
 * @since 0.1.0
 */
export const replyText = (reply: Pick<AnyReply, 'status' | 'headers' | 'body' | 'reasons'>): string => {
  const width = Math.max(0, ...reply.reasons.map((r) => r.rule.length))
  return [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`.trimEnd(),
    ...Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    ...(reply.body === null ? [] : [...JSON.stringify(reply.body, null, 2).split('\n'), '']),
    ...reply.reasons.map((r) => `${r.rule.padEnd(width)}  ${r.detail}`),
    ''
  ]
    .map(safeToPrint)
    .join('\n')
}

/**
 * A reply as the JSON `decide --json` prints: `{ status, headers, body, reasons, budget? }`.
 *
 * @example
 * replyJson({ status: 401, headers: {}, body: null, reasons: [] }) //=> '{\n  "status": 401,\n  "headers": {},\n  "body": null,\n  "reasons": []\n}\n'
 *
 * @since 0.1.0
 */
export const replyJson = (
  reply: Pick<AnyReply, 'status' | 'headers' | 'body' | 'reasons'> & { readonly budget?: unknown }
): string =>
  `${safeLinesToPrint(
    JSON.stringify(
      {
        status: reply.status,
        headers: reply.headers,
        body: reply.body,
        reasons: reply.reasons,
        ...(reply.budget === undefined ? {} : { budget: reply.budget })
      },
      null,
      2
    )
  )}\n`

/**
 * Adds `decide` to the program.
 *
 * @since 0.1.0
 */
export const decideCommand = (program: Command, io: Io): Command =>
  program
    .command('decide')
    .description(`print the reply and the reasons the library gives to a case (endpoint: ${caseEndpoints.join(', ')})`)
    .argument(
      '<case.json>',
      "a case: { endpoint, request, session, ..., request_id? }, a facade's input as a decision record keeps it"
    )
    .option('--json', 'print { status, headers, body, reasons, budget? } as JSON')
    .action((file: string, options: { json?: boolean }) => {
      const reply = decideCase(file, readJsonFile(file))
      io.out(options.json === true ? replyJson(reply) : replyText(reply))
    })
