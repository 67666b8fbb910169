/**
 * Tenant isolation (R-94): what of another company a reply to one company holds or counts. The
 * server holds the caller's company and others (`state.others`); a reply to a company may hold
 * none of the others' budgets, records or decision records, nor count them in `Content-Range`
 * or `X-Total-Count`. Each finding names the foreign id, its company, and where it appeared.
 *
 * @since 0.4.0
 */
import type { OtherCompany, ScenarioRequest } from '../arbitraries/scenario'
import type { Budget } from '../budget/stored'
import { respondIndex } from '../facade/index-endpoint'
import { headerOf } from '../http/headers'
import { endpoints } from '../paging/endpoint'
import { bodyValue, type ReceivedReply } from './compare'
import type { ExpectedReply } from './expected'
import { routeOf } from './model'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Something of another company found in a reply: its id (a budget's, a record's, a decision
 * record's, or the company's own id), the company it belongs to, and where it appeared
 * (`body[2].id`, `X-Total-Count`, ...).
 *
 * @example
 * import { checkConformance } from 'budget-rules/conformance'
 *
 * const found = { id: 'tx-001c2', company_id: 'c-2', where: 'body[1].id' }
 * found.where //=> 'body[1].id'
 *
 * @category model
 * @since 0.4.0
 */
export interface Foreign {
  readonly id: string
  readonly company_id: string
  readonly where: string
}

/** What the server holds, by company: the seeded company's budget and records, and the others'. */
export interface Holdings {
  /** The company the state was seeded for (its records are this company's). */
  readonly company_id: string
  readonly budget: Budget | null
  readonly records: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly others?: ReadonlyArray<OtherCompany>
}

/** The most findings a reply reports: the first few name the leak. */
const MAX_FOUND = 8

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** Every object the server holds, with its company: budgets by their own company_id, records by their holder's. */
const objectsOf = (h: Holdings): ReadonlyArray<{ readonly id: string; readonly company_id: string }> => [
  ...(h.budget === null ? [] : [{ id: h.budget.id, company_id: h.budget.company_id }]),
  ...h.records.map((r) => ({ id: String(r.id), company_id: h.company_id })),
  ...(h.others ?? []).flatMap((o) => [
    ...(o.budget === null ? [] : [{ id: o.budget.id, company_id: o.budget.company_id }]),
    ...o.records.map((r) => ({ id: String(r.id), company_id: o.company_id }))
  ])
]

/** The ids of other companies than `company`, and those companies' own ids, each with its company. */
const foreignIds = (h: Holdings, company: string): ReadonlyMap<string, string> => {
  const objects = objectsOf(h)
  const own = new Set(objects.filter((o) => o.company_id === company).map((o) => o.id))
  const foreign = new Map<string, string>()
  for (const o of objects) if (o.company_id !== company && !own.has(o.id)) foreign.set(o.id, o.company_id)
  for (const c of [h.company_id, ...(h.others ?? []).map((o) => o.company_id)]) if (c !== company) foreign.set(c, c)
  return foreign
}

/** The value at `path` (keys and indexes) in a JSON value, or undefined. */
const at = (value: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[k] : undefined),
    value
  )

const spelt = (path: ReadonlyArray<string | number>): string =>
  `body${path.map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_]\w*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('')}`

/** Each string of `value` that is a foreign id where the library's body holds no such string. */
const inBody = (value: unknown, expected: unknown, foreign: ReadonlyMap<string, string>): Array<Foreign> => {
  const found: Array<Foreign> = []
  const walk = (v: unknown, path: Array<string | number>): void => {
    if (found.length >= MAX_FOUND) return
    if (typeof v === 'string') {
      const company = foreign.get(v)
      if (company !== undefined && at(expected, path) !== v) found.push({ id: v, company_id: company, where: spelt(path) })
    } else if (Array.isArray(v))
      v.forEach((x, i) => {
        walk(x, [...path, i])
      })
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...path, k])
  }
  walk(value, [])
  return found
}

/** A total in Content-Range (`0-9/42`, `*\/42`) or X-Total-Count, or null. */
const totalIn = (name: 'Content-Range' | 'X-Total-Count', value: string | undefined): number | null => {
  const text = name === 'Content-Range' ? /\/(\d+)$/.exec(value ?? '')?.[1] : value
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null
}

/** Reads a header of a reply, whether its headers are an object or Fetch `Headers`. */
const header = (reply: ReceivedReply, name: string): string | undefined => {
  const h = reply.headers
  if (typeof (h as { get?: unknown }).get === 'function') return (h as { get(n: string): string | null }).get(name) ?? undefined
  const v = headerOf(h, name)
  return Array.isArray(v) ? v.join(', ') : v
}

/** The records of a page's body: the array, or the `data` of an envelope. */
const pageOf = (body: unknown): ReadonlyArray<{ readonly id?: unknown }> => {
  const data = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data
  return (Array.isArray(data) ? data : []) as ReadonlyArray<{ readonly id?: unknown }>
}

/**
 * The other companies' objects a page's total may have counted: those of the endpoint that match
 * the request's filters, as the library pages them (the first of them, by the request's sort).
 */
const countable = (h: Holdings, company: string, request: ScenarioRequest, expected: ExpectedReply) => {
  const route = routeOf(request.method, request.path)?.endpoint
  const endpoint =
    route === 'index.bank_transactions' ? endpoints.bankTransactions : route === 'index.budgets' ? endpoints.budgets : null
  if (endpoint === null || expected.status !== 200) return null
  const companies = [{ company_id: h.company_id, budget: h.budget, records: h.records }, ...(h.others ?? [])].filter(
    (o) => o.company_id !== company
  )
  const records =
    endpoint === endpoints.budgets
      ? [h.budget, ...(h.others ?? []).map((o) => o.budget)].filter((b): b is Budget => b !== null && b.company_id !== company)
      : companies.flatMap((o) => o.records)
  // The request's filters and sort, not its window: the first of the matching records, wherever the window was.
  const query = request.path.includes('?')
    ? request.path
        .slice(request.path.indexOf('?') + 1)
        .split('&')
        .filter((p) => !/^_(start|end)=/.test(p))
        .join('&')
    : undefined
  // The session of a member of every company: the foreign records' page as the caller's would be.
  const reply = respondIndex({
    request: { headers: request.headers, ...(query === undefined ? {} : { query }) },
    session: { user: { id: 'u-kit', email_verified: true }, memberships: { [company]: { role: 'admin', permissions: [] } } },
    endpoint,
    records,
    request_id: 'kit'
  })
  const page = pageOf(reply.body)
  const byId = new Map(objectsOf(h).map((o) => [o.id, o.company_id]))
  return { ids: page.map((r) => String(r.id)).map((id) => ({ id, company_id: byId.get(id) ?? '' })) }
}

/**
 * What of other companies than the request's a reply holds, counts or acts on (R-94): another
 * company's budget at the path's id answered otherwise than the library's 404; a foreign id
 * (another company's budget, record, or its own id) in the body where the library's reply holds
 * no such value; a total (`Content-Range`, `X-Total-Count`) above the library's that the other
 * companies' matching records account for, naming them; on a page of decision records, a record
 * of another company. Nothing for a request without company-id.
 *
 * @example
 * import { checkConformance } from 'budget-rules/conformance'
 *
 * const held = { company_id: 'c-1', budget: null, records: [], others: [{ company_id: 'c-2', budget: null, records: [{ id: 'tx-9' }] }] }
 * const request = { method: 'GET', path: '/v1/banking/bank_transactions', headers: { 'company-id': 'c-1' }, body: undefined }
 * const expected = { status: 200, headers: {}, body: [], reasons: [] }
 * foreignIn(held, request, expected, { status: 200, headers: {}, body: '[{"id":"tx-9"}]' })
 * //=> [{ id: 'tx-9', company_id: 'c-2', where: 'body[0].id' }]
 *
 * @category utils
 * @since 0.4.0
 */
export const foreignIn = (
  h: Holdings,
  request: ScenarioRequest,
  expected: ExpectedReply,
  actual: ReceivedReply
): ReadonlyArray<Foreign> => {
  const company = headerOf(request.headers, 'company-id')?.trim()
  if (company === undefined || company === '') return []
  const body = bodyValue(actual.body)
  const decisions = routeOf(request.method, request.path)?.endpoint === 'index.decisions'
  const ofOthers: Array<Foreign> = decisions
    ? pageOf(body).flatMap((r, i) => {
        const c = (r as { company_id?: unknown } | null)?.company_id
        return typeof c === 'string' && c !== company
          ? [{ id: String((r as { id?: unknown }).id), company_id: c, where: `body[${i}]` }]
          : []
      })
    : inBody(body, expected.body, foreignIds(h, company))
  // A budget of another company at the path's id: the library's 404, so any other status acted on it.
  const id = routeOf(request.method, request.path)?.id ?? null
  const target = id === null ? undefined : foreignIds(h, company).get(id)
  const acted: Array<Foreign> =
    target !== undefined && expected.status === 404 && actual.status !== 404
      ? [{ id: id as string, company_id: target, where: `the path: status ${actual.status} where the library's is 404` }]
      : []
  const counted: Array<Foreign> = []
  const others = countable(h, company, request, expected)
  for (const name of ['X-Total-Count', 'Content-Range'] as const) {
    const want = totalIn(name, expected.headers[name])
    const got = totalIn(name, header(actual, name))
    // A total above the library's that no foreign record could make is another defect, not a leak.
    if (others === null || want === null || got === null || got <= want || others.ids.length === 0) continue
    counted.push(...others.ids.map((o) => ({ ...o, where: `${name}: ${got}, the company holds ${want}` })))
  }
  return [...acted, ...ofOthers, ...counted].slice(0, MAX_FOUND)
}

/**
 * A finding as one line of a report, its id and company quoted (they are request data).
 *
 * @example
 * foreignLine({ id: 'tx-001c2', company_id: 'c-2', where: 'body[1].id' }) //=> '"tx-001c2" of "c-2" at body[1].id'
 *
 * @category utils
 * @since 0.4.0
 */
export const foreignLine = (f: Foreign): string => `${JSON.stringify(f.id)} of ${JSON.stringify(f.company_id)} at ${f.where}`
