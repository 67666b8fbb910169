/**
 * `budget-rules decide case.json`: the reply the library gives to one case (a request, the
 * session, the budget and `today`), and the reasons for it, as a server would decide it.
 *
 * @example
 * caseEndpoints //=> ['budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount']
 *
 * @since 0.1.0
 */
import { STATUS_CODES } from 'node:http'
import type { Command } from 'commander'
import { type BudgetContext, type BudgetReply } from '../facade/budget-context'
import { respondBudgetUpdate } from '../facade/budget-update'
import { respondAmount, respondTopUp, respondWithdraw } from '../facade/money'
import { describeValue } from '../json/describe'
import { isJsonObject } from '../json/value'
import { CliError, readJsonFile } from './input'
import type { Io } from './io'

const facades: Readonly<Record<string, (context: BudgetContext) => BudgetReply>> = {
  'budget.update': respondBudgetUpdate,
  'budget.top_up': respondTopUp,
  'budget.withdraw': respondWithdraw,
  'budget.amount': respondAmount
}

/**
 * The endpoints a case may name, by their conformance names.
 *
 * @example
 * caseEndpoints.includes('budget.update') //=> true
 *
 * @since 0.1.0
 */
export const caseEndpoints = Object.keys(facades)

/** The request id of a case that names none. */
const DEFAULT_REQUEST_ID = 'req-cli'

/**
 * The reply to a case read from `file`: `{ endpoint, request, session, budget, today,
 * company_member_ids?, request_id? }`. Only the endpoint is checked here; the rest is what the
 * server hands the facade, which checks it itself (a malformed one is its 500, reasons saying why).
 *
 * @example
 * (() => { try { return decideCase('case.json', { endpoint: 'budget.close' }) } catch (e) { return String(e) } })()
 * //=> 'CliError: case.json: endpoint is "budget.close", not one of budget.update, budget.top_up, budget.withdraw, budget.amount'
 *
 * @since 0.1.0
 */
export const decideCase = (file: string, json: unknown): BudgetReply => {
  if (!isJsonObject(json)) throw new CliError(`${file}: a case is a JSON object, not ${describeValue(json)}`)
  const { endpoint, request_id = DEFAULT_REQUEST_ID, ...context } = json
  const facade = typeof endpoint === 'string' && Object.hasOwn(facades, endpoint) ? facades[endpoint] : undefined
  if (facade === undefined)
    throw new CliError(`${file}: endpoint is ${describeValue(endpoint)}, not one of ${caseEndpoints.join(', ')}`)
  return facade({ ...context, request_id } as unknown as BudgetContext)
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
export const replyText = (reply: Pick<BudgetReply, 'status' | 'headers' | 'body' | 'reasons'>): string => {
  const width = Math.max(0, ...reply.reasons.map((r) => r.rule.length))
  return [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`.trimEnd(),
    ...Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    ...(reply.body === null ? [] : [JSON.stringify(reply.body, null, 2), '']),
    ...reply.reasons.map((r) => `${r.rule.padEnd(width)}  ${r.detail}`),
    ''
  ].join('\n')
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
  reply: Pick<BudgetReply, 'status' | 'headers' | 'body' | 'reasons'> & { readonly budget?: unknown }
): string =>
  `${JSON.stringify(
    {
      status: reply.status,
      headers: reply.headers,
      body: reply.body,
      reasons: reply.reasons,
      ...(reply.budget === undefined ? {} : { budget: reply.budget })
    },
    null,
    2
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
    .argument('<case.json>', 'a case: { endpoint, request, session, budget, today, company_member_ids?, request_id? }')
    .option('--json', 'print { status, headers, body, reasons, budget? } as JSON')
    .action((file: string, options: { json?: boolean }) => {
      const reply = decideCase(file, readJsonFile(file))
      io.out(options.json === true ? replyJson(reply) : replyText(reply))
    })
