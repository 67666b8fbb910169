// The stored budget of stored.ts as CommonJS: 'budget-rules' resolves to dist/index.d.cts.
import { respondBudget, type StoredBudget } from 'budget-rules'

export function nameOf(
  id: string,
  createdOn: string,
  balanceCents: number,
  session: Parameters<typeof respondBudget>[0]['session']
): string | null {
  const budget: StoredBudget = {
    id,
    company_id: 'c-1',
    name: 'Team lunch',
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'funded',
    manager_id: null,
    co_manager_id: null,
    status: 'open',
    created_on: createdOn,
    ends_on: null,
    recurrence_unit: null,
    recurrence_every: null,
    base_amount_cents: null,
    recurrence_starts_on: null,
    period_starts_on: createdOn,
    period_ends_on: null,
    period_amount_cents: null,
    balance_cents: balanceCents
  }
  const reply = respondBudget({ request: { headers: {} }, session, budget, today: '2026-11-22', request_id: 'req-1' })
  return reply.status === 200 ? reply.body.name : null
}
