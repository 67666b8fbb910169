/**
 * The requests of the decision cases, as a server hands them over: the raw headers and body,
 * the session it resolved from the key, the budget it looked up, the company's today. Each is
 * built once and reused across iterations: building them is the server's cost, not the
 * decision's.
 */
import type { BudgetContext } from '../../src/index'

const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }
const today = '2026-11-22'

/** u-1, admin of c-1, and a member of another company. */
const admin = {
  user: { id: 'u-1', email_verified: true },
  memberships: {
    'c-1': { role: 'admin' as const, permissions: [] },
    'c-2': { role: 'member' as const, permissions: ['transactions_read'] }
  }
}

/** u-7, a plain member of c-1 who manages the Team lunch budget. */
const manager = {
  user: { id: 'u-7', email_verified: true },
  memberships: { 'c-1': { role: 'member' as const, permissions: ['transactions_read'] } }
}

/** Monthly from 2025-10-18, the period in progress 2026-11-18..2026-12-18 on today. */
const teamLunch = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Team lunch',
  description: null,
  access: 'everyone' as const,
  currency: 'CLP',
  mode: 'funded' as const,
  manager_id: 'u-7',
  co_manager_id: 'u-8',
  status: 'open' as const,
  created_on: '2025-10-18',
  ends_on: '2027-06-30',
  recurrence_unit: 'month' as const,
  recurrence_every: 1,
  base_amount_cents: 50000,
  recurrence_starts_on: '2025-10-18',
  period_starts_on: '2026-11-18',
  period_ends_on: '2026-12-18',
  period_amount_cents: 50000,
  balance_cents: 20000
}

/**
 * Monthly from 2025-03-14, stored as the server last wrote it: its period in progress ended on
 * 2026-08-14, 100 days before today, with an amount of its own; rolled forward, the period in
 * progress is 2026-11-14..2026-12-14 with the base amount.
 */
const travel = {
  ...teamLunch,
  id: 'b-2',
  name: 'Travel',
  description: 'Flights and hotels',
  mode: 'tracking' as const,
  manager_id: 'u-9',
  co_manager_id: null,
  ends_on: null,
  base_amount_cents: 80000,
  created_on: '2025-03-14',
  recurrence_starts_on: '2025-03-14',
  period_starts_on: '2026-07-14',
  period_ends_on: '2026-08-14',
  period_amount_cents: 65000,
  balance_cents: null
}

const context = (requestId: string, session: BudgetContext['session'], budget: BudgetContext['budget'], body: string) =>
  ({
    request: { headers, body },
    session,
    budget,
    today,
    request_id: requestId,
    company_member_ids: ['u-1', 'u-7', 'u-8', 'u-9']
  }) satisfies BudgetContext

/** The five requests of the decision suite. */
export const contexts = {
  adminRenames: context('req-a', admin, teamLunch, '{"budget":{"name":"Team offsite"}}'),
  managerDescribes: context('req-b', manager, teamLunch, '{"budget":{"description":"Lunch on the last Friday"}}'),
  managerChangesManager: context('req-c', manager, teamLunch, '{"budget":{"name":"Team lunch","manager_id":"u-8"}}'),
  adminInvalid: context(
    'req-d',
    admin,
    teamLunch,
    '{"budget":{"name":"  ","ends_on":"2026-02-30","base_amount_cents":-500,"recurrence_unit":"month"}}'
  ),
  adminRenamesLapsed: context('req-e', admin, travel, '{"budget":{"name":"Travel 2027"}}')
}
