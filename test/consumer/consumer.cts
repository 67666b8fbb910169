// The same consumer as CommonJS (a .cts file compiles to require()): 'budget-rules' resolves through
// the "require" condition of package.json "exports" to dist/index.d.cts.
import type { IncomingHttpHeaders } from 'node:http'
import { respondBudgetUpdate, type BudgetContext } from 'budget-rules'

export function renamed(
  headers: IncomingHttpHeaders,
  body: string,
  session: BudgetContext['session'],
  budget: BudgetContext['budget']
): string | null {
  const reply = respondBudgetUpdate({ request: { headers, body }, session, budget, today: '2026-11-22', request_id: 'req-1' })
  return reply.status === 200 ? reply.budget.name : null
}
