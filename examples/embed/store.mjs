// What the three embedding examples (fastify.mjs, express.mjs, hono.mjs) share: an in-memory
// store standing in for a database, and the lookups a server makes before it asks a facade.
// Nothing here decides anything: the facades do.
import { headerOf } from 'budget-rules'

/** The calendar date (YYYY-MM-DD) now in a time zone: a company's "today". */
export const todayIn = (timeZone) => () => {
  const parts = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date())
  const part = (type) => parts.find((p) => p.type === type).value
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** The raw query string of a request target or URL, without '?'; undefined when there is none. */
export const rawQuery = (url) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : undefined)

const nobody = { user: null, memberships: {} }

/**
 * budgets: the stored budgets; sessions: API key -> session; members: company id -> user ids;
 * transactions: company id -> its bank transactions; today: the company's calendar date.
 */
export function createStore({ budgets = [], sessions = {}, members = {}, transactions = {}, today = todayIn('America/Santiago') }) {
  const byId = new Map(budgets.map((b) => [b.id, b]))
  const decisions = []
  return {
    budgets: byId,
    today,
    budget: (id) => byId.get(id) ?? null,
    save: (budget) => void byId.set(budget.id, budget),
    // The decision records kept (express.mjs keeps one per request a facade decides).
    decisions,
    keep: (record) => void decisions.push(record),
    // The session the request's API key resolves to. The facade checks the Authorization header
    // again (auth.bearer); here it is only read to find the key.
    session: (headers) => {
      const key = /^bearer +(\S+) *$/i.exec(headerOf(headers, 'authorization') ?? '')?.[1]
      return (key !== undefined && Object.hasOwn(sessions, key) ? sessions[key] : undefined) ?? nobody
    },
    // A new manager must be a member of the budget's company (a budget of another company is a
    // 404 before this is read).
    members: (budget) => (budget !== null && Object.hasOwn(members, budget.company_id) ? members[budget.company_id] : undefined),
    // The records of an index are scoped to the company by the server, before the facade sees them.
    transactions: (headers) => {
      const company = headerOf(headers, 'company-id')
      return company !== undefined && Object.hasOwn(transactions, company) ? transactions[company] : []
    }
  }
}

/** A small company to run the examples against (`node examples/embed/fastify.mjs`). */
export const demo = {
  budgets: [
    {
      id: 'b-travel', company_id: 'c-acme', name: 'Travel', description: null, access: 'everyone', currency: 'CLP',
      mode: 'funded', manager_id: 'u-marta', co_manager_id: null, status: 'open', created_on: '2025-10-18', ends_on: null,
      recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null,
      period_starts_on: '2025-10-18', period_ends_on: null, period_amount_cents: 1500000, balance_cents: 420000
    }
  ],
  sessions: {
    sk_ana: { user: { id: 'u-ana', email_verified: true }, memberships: { 'c-acme': { role: 'admin', permissions: [] } } },
    sk_marta: { user: { id: 'u-marta', email_verified: true }, memberships: { 'c-acme': { role: 'member', permissions: [] } } }
  },
  members: { 'c-acme': ['u-ana', 'u-marta'] },
  transactions: {
    'c-acme': [
      { id: 'tx-1', amount: 1200, status: 'authorized', created_at: '2026-11-20T12:00:00Z', updated_at: '2026-11-20T12:00:00Z' },
      { id: 'tx-2', amount: 3400, status: 'pending', created_at: '2026-11-21T09:30:00-03:00', updated_at: '2026-11-21T12:30:00Z' }
    ]
  }
}
