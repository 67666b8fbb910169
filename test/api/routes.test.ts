/**
 * The route table (src/api/routes.ts): written out by hand here, each route once, so that a
 * change to the table is a change to this list too.
 */
import { describe, expect, it } from 'vitest'
import { operationIds, pathOf, route, routes } from '../../src/api/routes'

describe('the route table', () => {
  it('holds each operation once, in the order of operationIds, with its method, path and success', () => {
    expect(routes.map((r) => [r.operationId, r.method, r.path, r.success, r.idempotent, r.company])).toStrictEqual([
      ['updateBudget', 'patch', '/v1/budgets/{id}', 200, false, true],
      ['topUpBudget', 'post', '/v1/budgets/{id}/top_up', 200, true, true],
      ['withdrawFromBudget', 'post', '/v1/budgets/{id}/withdraw', 200, true, true],
      ['setBudgetAmount', 'patch', '/v1/budgets/{id}/amount', 200, true, true],
      ['getBudget', 'get', '/v1/budgets/{id}', 200, false, true],
      ['listBudgets', 'get', '/v1/budgets', 200, false, true],
      ['listBankTransactions', 'get', '/v1/banking/bank_transactions', 200, false, true],
      ['authorizeBankTransaction', 'post', '/v1/banking/bank_transactions/{id}/authorize', 200, true, true],
      ['createBankRecipient', 'post', '/v1/banking/bank_recipients', 201, true, true],
      ['listCompanies', 'get', '/v1/companies', 200, false, false],
      ['assignRole', 'patch', '/v1/companies/{id}/memberships/{user_id}', 200, false, true],
      ['listDecisions', 'get', '/v1/decisions', 200, false, true]
    ])
    expect(routes.map((r) => r.operationId)).toStrictEqual([...operationIds])
  })

  it('fills a path’s parameters as path segments; a parameter not given is left empty', () => {
    expect(pathOf(route('assignRole'), { id: 'c 1', user_id: 'u/1?' })).toBe('/v1/companies/c%201/memberships/u%2F1%3F')
    expect(pathOf(route('getBudget'), {})).toBe('/v1/budgets/')
  })
})
