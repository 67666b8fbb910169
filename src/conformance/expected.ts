/**
 * The library's own reply to a conformance scenario: the facade of its endpoint, given the
 * scenario's state as the server's data.
 *
 * @since 0.2.0
 */
import type { Scenario } from '../arbitraries/scenario'
import { respondBudgetUpdate } from '../facade/budget-update'
import { respondIndex } from '../facade/index-endpoint'
import { respondAmount, respondTopUp, respondWithdraw } from '../facade/money'
import { endpoints } from '../paging/endpoint'

/**
 * A reply as the library decides it: status, headers, body (a JSON value, null when empty) and
 * the reasons by rule id.
 *
 * @example
 * import { expectedReply } from 'budget-rules/conformance'
 *
 * const scenario = { endpoint: 'budget.top_up', state: { today: '2026-11-22', session, budget, company_member_ids: [], records: [] },
 *   request: { method: 'POST', path: '/v1/budgets/b-1/top_up', headers, body: '{"amount_cents":500}' } }
 * expectedReply(scenario).body.balance_cents //=> 20500
 *
 * @category model
 * @since 0.2.0
 */
export interface ExpectedReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly reasons: ReadonlyArray<{ readonly rule: string; readonly detail: string }>
}

/** The request id the library's replies carry; only its presence is compared. */
export const REQUEST_ID = 'conformance'

/**
 * What the library replies to the scenario's request, with the scenario's state as what the
 * server looked up: the budget of the path (or null), `today`, the company's members, and the
 * company's bank transactions.
 *
 * @example
 * import { expectedReply } from 'budget-rules/conformance'
 *
 * const scenario = { endpoint: 'index.bank_transactions', state: { today: '2026-11-22', session, budget: null, company_member_ids: [], records },
 *   request: { method: 'GET', path: '/v1/banking/bank_transactions?_start=0&_end=1', headers, body: undefined } }
 * expectedReply(scenario).headers['Content-Range'] //=> '0-0/3'
 *
 * @category utils
 * @since 0.2.0
 */
export const expectedReply = (scenario: Scenario): ExpectedReply => {
  // The reply alone: a budget facade's 200 also carries the budget to persist, not on the wire.
  const { status, headers, body, reasons } = decide(scenario)
  return { status, headers, body, reasons }
}

const decide = (scenario: Scenario): ExpectedReply => {
  const { state, request } = scenario
  const budgetContext = {
    request: { headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) },
    session: state.session,
    budget: state.budget,
    today: state.today,
    request_id: REQUEST_ID,
    company_member_ids: state.company_member_ids
  }
  switch (scenario.endpoint) {
    case 'budget.update':
      return respondBudgetUpdate(budgetContext)
    case 'budget.top_up':
      return respondTopUp(budgetContext)
    case 'budget.withdraw':
      return respondWithdraw(budgetContext)
    case 'budget.amount':
      return respondAmount(budgetContext)
    case 'index.bank_transactions': {
      const at = request.path.indexOf('?')
      return respondIndex({
        request: { headers: request.headers, ...(at < 0 ? {} : { query: request.path.slice(at + 1) }) },
        session: state.session,
        endpoint: endpoints.bankTransactions,
        records: state.records,
        request_id: REQUEST_ID
      })
    }
  }
}
