/**
 * The API's routes, as data, written once (issue 28): each operation's id, the decision it asks
 * of a facade, its method and path, whether it takes company-id and an Idempotency-Key, the
 * wrapper of its body, its success, and the index endpoint it pages. The reference server mounts
 * its routes from this table, the OpenAPI document (`budget-rules/openapi`) describes them with
 * the schemas and rules it adds, and the react-admin data provider reads its paths, wrappers and
 * keys here, so that no two of them can say two things of one route.
 *
 * @example
 * route('topUpBudget').path //=> '/v1/budgets/{id}/top_up'
 * pathOf(route('authorizeBankTransaction'), { id: 'tx 1' }) //=> '/v1/banking/bank_transactions/tx%201/authorize'
 *
 * @since 0.4.0
 */
import type { DecisionEndpoint } from '../decision/endpoints'
import { type Endpoint, endpoints } from '../paging/endpoint'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One route of the API.
 *
 * @example
 * const r: Route = route('updateBudget')
 * r.body //=> { wrapper: 'budget' }
 *
 * @category model
 * @since 0.4.0
 */
export interface Route {
  readonly operationId: OperationId
  /** The decision a facade makes for it (what its decision records name). */
  readonly endpoint: DecisionEndpoint
  readonly method: 'get' | 'post' | 'patch'
  /** The path as OpenAPI writes it, parameters in braces. */
  readonly path: string
  /** Whether the request carries `company-id`. */
  readonly company: boolean
  /** The request body and the wrapper key it goes under (null: the bare object), or null for none. */
  readonly body: { readonly wrapper: string | null } | null
  /** Whether the server claims an `Idempotency-Key` for it, replaying the first reply. */
  readonly idempotent: boolean
  readonly success: 200 | 201
  /** The index endpoint it pages, filters and sorts, or null. */
  readonly index: Endpoint | null
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

const item = { company: true, body: null, idempotent: false, success: 200, index: null } as const
const money = (operationId: OperationId, endpoint: DecisionEndpoint, method: Route['method'], path: string): Route => ({
  operationId,
  endpoint,
  method,
  path,
  company: true,
  body: { wrapper: null },
  idempotent: true,
  success: 200,
  index: null
})
const list = (operationId: OperationId, endpoint: DecisionEndpoint, index: Endpoint): Route => ({
  operationId,
  endpoint,
  method: 'get',
  path: index.path,
  company: index.requiresCompany,
  body: null,
  idempotent: false,
  success: 200,
  index
})

/**
 * Every operation's id, in the order of the spec.
 *
 * @example
 * operationIds.length //=> 12
 *
 * @category constants
 * @since 0.4.0
 */
export const operationIds = [
  'updateBudget',
  'topUpBudget',
  'withdrawFromBudget',
  'setBudgetAmount',
  'getBudget',
  'listBudgets',
  'listBankTransactions',
  'authorizeBankTransaction',
  'createBankRecipient',
  'listCompanies',
  'assignRole',
  'listDecisions'
] as const

/**
 * The id of an operation.
 *
 * @example
 * const id: OperationId = 'getBudget'
 * id //=> 'getBudget'
 *
 * @category model
 * @since 0.4.0
 */
export type OperationId = (typeof operationIds)[number]

/**
 * Every route the reference server serves, in the order of {@link operationIds}.
 *
 * @example
 * routes.map((r) => `${r.method.toUpperCase()} ${r.path}`).slice(0, 2)
 * //=> ['PATCH /v1/budgets/{id}', 'POST /v1/budgets/{id}/top_up']
 *
 * @category constants
 * @since 0.4.0
 */
export const routes: ReadonlyArray<Route> = [
  {
    ...item,
    operationId: 'updateBudget',
    endpoint: 'budget.update',
    method: 'patch',
    path: '/v1/budgets/{id}',
    body: { wrapper: 'budget' }
  },
  money('topUpBudget', 'budget.top_up', 'post', '/v1/budgets/{id}/top_up'),
  money('withdrawFromBudget', 'budget.withdraw', 'post', '/v1/budgets/{id}/withdraw'),
  money('setBudgetAmount', 'budget.amount', 'patch', '/v1/budgets/{id}/amount'),
  { ...item, operationId: 'getBudget', endpoint: 'budget.get', method: 'get', path: '/v1/budgets/{id}' },
  list('listBudgets', 'index.budgets', endpoints.budgets),
  list('listBankTransactions', 'index.bank_transactions', endpoints.bankTransactions),
  {
    ...item,
    operationId: 'authorizeBankTransaction',
    endpoint: 'transaction.authorize',
    method: 'post',
    path: '/v1/banking/bank_transactions/{id}/authorize',
    idempotent: true
  },
  {
    ...item,
    operationId: 'createBankRecipient',
    endpoint: 'recipient.enroll',
    method: 'post',
    path: '/v1/banking/bank_recipients',
    body: { wrapper: 'bank_recipient' },
    idempotent: true,
    success: 201
  },
  list('listCompanies', 'index.companies', endpoints.companies),
  {
    ...item,
    operationId: 'assignRole',
    endpoint: 'role.assign',
    method: 'patch',
    path: '/v1/companies/{id}/memberships/{user_id}',
    body: { wrapper: null }
  },
  list('listDecisions', 'index.decisions', endpoints.decisions)
]

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The route of an operation.
 *
 * @example
 * route('createBankRecipient').body //=> { wrapper: 'bank_recipient' }
 *
 * @category utils
 * @since 0.4.0
 */
export const route = (operationId: OperationId): Route => routes.find((r) => r.operationId === operationId) as Route

/**
 * A route's path with its parameters filled in, each encoded as a path segment.
 *
 * @example
 * pathOf(route('assignRole'), { id: 'c-acme', user_id: 'u/1' }) //=> '/v1/companies/c-acme/memberships/u%2F1'
 *
 * @category utils
 * @since 0.4.0
 */
export const pathOf = (r: Route, parameters: Readonly<Record<string, string>>): string =>
  r.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ''))
