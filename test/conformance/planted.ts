/**
 * Servers for the kit's own tests, answering in process (no HTTP) with the library's facades:
 * one that follows the rules, and four each with one planted bug.
 */
import type { ReceivedReply, Scenario } from '../../src/conformance'
import { expectedReply } from '../../src/conformance'
import { respondBudgetUpdate, respondTopUp } from '../../src/index'

export type Server = (s: Scenario) => Promise<ReceivedReply>

/** The reply as a server writes it on the wire: body as text, empty when null. */
const wire = (r: { status: number; headers: Readonly<Record<string, string>>; body: unknown }): ReceivedReply => ({
  status: r.status,
  headers: r.headers,
  body: r.body === null ? '' : JSON.stringify(r.body)
})

const baseContext = (s: Scenario) => ({
  request: { headers: s.request.headers, ...(s.request.body === undefined ? {} : { body: s.request.body }) },
  session: s.state.session,
  budget: s.state.budget,
  today: s.state.today,
  request_id: 'srv-1',
  company_member_ids: s.state.company_member_ids
})

/** A server that embeds the facades as documented. */
export const faithful: Server = (s) => Promise.resolve(wire(expectedReply(s)))

const companyOf = (s: Scenario): string | undefined => s.request.headers['company-id']

/**
 * Lets a manager or co-manager change manager_id: when the budget's manager or co-manager sends
 * a manager_id other than the budget's, it decides as if the caller were an admin.
 */
export const managerMayChangeManager: Server = async (s) => {
  if (s.endpoint !== 'budget.update' || s.state.budget === null) return faithful(s)
  let sent: unknown
  try {
    sent = (JSON.parse(s.request.body ?? '') as { budget?: { manager_id?: unknown } }).budget?.manager_id
  } catch {
    return faithful(s)
  }
  const user = s.state.session.user?.id
  const manages = user !== undefined && (user === s.state.budget.manager_id || user === s.state.budget.co_manager_id)
  if (!manages || sent === undefined || sent === s.state.budget.manager_id) return faithful(s)
  const company = companyOf(s) ?? ''
  const session =
    s.state.session.user === null
      ? s.state.session
      : {
          ...s.state.session,
          memberships: { ...s.state.session.memberships, [company]: { role: 'admin' as const, permissions: [] } }
        }
  return wire(respondBudgetUpdate({ ...baseContext(s), session }))
}

/** Content-Range's last index one too far: `0-2/3` for a page of two. */
export const contentRangeOffByOne: Server = (s) => {
  const r = expectedReply(s)
  const range = /^(\d+)-(\d+)\/(\d+)$/.exec(r.headers['Content-Range'] ?? '')
  if (range === null) return faithful(s)
  return Promise.resolve(
    wire({ ...r, headers: { ...r.headers, 'Content-Range': `${range[1]}-${Number(range[2]) + 1}/${range[3]}` } })
  )
}

/** Retries a top-up (as if the first reply was lost): the top-up is applied twice. */
export const topUpAppliedTwice: Server = async (s) => {
  if (s.endpoint !== 'budget.top_up') return faithful(s)
  const first = respondTopUp(baseContext(s))
  const budget = first.status === 200 && 'budget' in first ? first.budget : s.state.budget
  return wire(respondTopUp({ ...baseContext(s), budget }))
}

/** Leaks existence: another company's budget gets a 403 where the rules say 404. */
export const leaksExistence: Server = (s) => {
  const r = expectedReply(s)
  const company = companyOf(s)
  const member = company !== undefined && Object.hasOwn(s.state.session.memberships, company)
  // Another company's budget at the path's id, held beside the caller's.
  const id = /^\/v1\/budgets\/([^/?]+)/.exec(s.request.path)?.[1]
  const foreign = s.state.others?.some((o) => o.budget !== null && o.budget.id === id && o.company_id !== company) === true
  if (s.endpoint.startsWith('budget.') && r.status === 404 && member && foreign)
    return Promise.resolve(wire({ status: 403, headers: r.headers, body: { error: 'forbidden', message: 'Not your budget' } }))
  return faithful(s)
}
