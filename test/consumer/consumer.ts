// What a TypeScript server embedding budget-rules writes (ESM, strict, nodenext), with no cast:
// Node's own request headers go in as they are, and a reply narrowed by its status says what it
// holds. `tsc -p test/consumer` must accept it (test/consumer.test.ts).
import type { IncomingHttpHeaders } from 'node:http'
import { endpoints, respondBudgetUpdate, respondIndex, respondTopUp, type BudgetContext } from 'budget-rules'

type Session = BudgetContext['session']
type StoredBudget = NonNullable<BudgetContext['budget']>

/** PATCH /v1/budgets/:id in a plain node:http server: the name to show once the update is saved. */
export function renamed(
  headers: IncomingHttpHeaders,
  body: string,
  session: Session,
  budget: StoredBudget | null
): string | null {
  const reply = respondBudgetUpdate({ request: { headers, body }, session, budget, today: '2026-11-22', request_id: 'req-1' })
  if (reply.status === 200) {
    const name: string = reply.budget.name
    return name
  }
  // @ts-expect-error: only a 200 carries the budget to persist
  reply.budget.name
  return null
}

/** The same with a money operation, the status narrowed by a switch. */
export function balanceAfterTopUp(
  headers: IncomingHttpHeaders,
  body: string,
  session: Session,
  budget: StoredBudget | null
): number | null {
  const reply = respondTopUp({ request: { headers, body }, session, budget, today: '2026-11-22', request_id: 'req-2' })
  switch (reply.status) {
    case 200:
      return reply.budget.balance_cents
    default:
      return null
  }
}

/** A Fetch Request's Headers (Hono, a Worker) go in as well; the reply's headers are strings. */
export function contentRange(
  headers: Headers,
  query: string,
  session: Session,
  records: ReadonlyArray<unknown>
): string | undefined {
  const reply = respondIndex({
    request: { headers, query },
    session,
    endpoint: endpoints.bankTransactions,
    records,
    request_id: 'req-3'
  })
  const range: string | undefined = reply.headers['Content-Range']
  return range
}
