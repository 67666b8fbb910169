// Decision records typed by endpoint (issue 38): the context must be the one the named
// endpoint's facade takes, so that recording one decision as another is a type error.
import { respondBudgetUpdate, respondIndex, type BudgetContext, type IndexContext } from 'budget-rules'
import { decisionRecord } from 'budget-rules/decisions'

export function record(budget: BudgetContext, index: IndexContext) {
  const meta = { at: '2026-11-22T12:00:00Z', key_id: null, method: 'PATCH', path: '/v1/budgets/b-1' }
  const update = decisionRecord('budget.update', budget, respondBudgetUpdate(budget), meta)
  const page = decisionRecord('index.bank_transactions', index, respondIndex(index), meta)
  // @ts-expect-error: a budget's context is not a role assignment's
  const asRole = decisionRecord('role.assign', budget, respondBudgetUpdate(budget), meta)
  // @ts-expect-error: an index's context is not a budget's
  const asUpdate = decisionRecord('budget.update', index, respondIndex(index), meta)
  return [update, page, asRole, asUpdate]
}
