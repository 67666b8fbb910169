/**
 * The operations the reference server serves, as data: method and path, the rules its facade
 * consults (whose kinds of problem give the statuses it can return), its request body, its
 * success, and what the server adds around the facade (an Idempotency-Key, a body limit). The
 * API's OpenAPI document (./document.ts) is built from this table and the rules catalogue;
 * test/openapi/operations.test.ts checks that every reply a facade gives names only rules of its
 * operation, and test/server checks that the server's routes are these.
 *
 * @example
 * operations.find((o) => o.operationId === 'topUpBudget')?.path //=> '/v1/budgets/{id}/top_up'
 *
 * @since 0.3.0
 */
import { Role } from '../auth/session'
import { BudgetFields, updateFields } from '../budget/model'
import type { RuleId } from '../decision/rules'
import { type Endpoint, endpoints } from '../paging/endpoint'
import { type JsonSchema, schemaOfCodec, schemaOfRecord } from './schema'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A request body: its JSON Schema, under the wrapper key the service requires when it has one.
 *
 * @example
 * operations.find((o) => o.operationId === 'updateBudget')?.body?.wrapper //=> 'budget'
 *
 * @category model
 * @since 0.3.0
 */
export interface OperationBody {
  readonly wrapper: string | null
  readonly schema: JsonSchema
}

/**
 * One operation of the API: where it is, which rules decide its replies, what it takes and gives.
 *
 * @example
 * operations.find((o) => o.operationId === 'listBankTransactions')?.index?.path //=> '/v1/banking/bank_transactions'
 *
 * @category model
 * @since 0.3.0
 */
export interface Operation {
  readonly operationId: string
  readonly method: 'get' | 'post' | 'patch'
  /** The path as OpenAPI writes it, parameters in braces. */
  readonly path: string
  readonly summary: string
  readonly tag: 'budgets' | 'banking' | 'companies' | 'decisions'
  /** The rules the facade consults, in any order: each one's kinds of problem are replies it can give. */
  readonly rules: ReadonlyArray<RuleId>
  /** Whether the request carries `company-id`. */
  readonly company: boolean
  /** The request body, or null for none. */
  readonly body: OperationBody | null
  /** Whether the server claims an `Idempotency-Key` for it, replaying the first reply. */
  readonly idempotent: boolean
  /** The success: its status, and its body's (or, on an index, each record's) schema and the name it has in `components.schemas`. */
  readonly success: {
    readonly status: 200 | 201
    readonly name: string
    readonly schema: JsonSchema
    readonly description: string
  }
  /** The index endpoint it pages, filters and sorts, or null. */
  readonly index: Endpoint | null
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/** What every facade checks first (contract section 4, rows 1 to 4, and the server's input). */
const identified: ReadonlyArray<RuleId> = [
  'server.input',
  'server.unexpected',
  'auth.bearer',
  'auth.email_verified',
  'auth.company_header',
  'auth.membership'
]

/** A budget the path names, in the caller's company, brought to today. */
const scopedBudget: ReadonlyArray<RuleId> = [...identified, 'budget.scope', 'budget.stored', 'budget.advance']

const paged: ReadonlyArray<RuleId> = [
  ...identified,
  'page.query',
  'page.window',
  'page.filter',
  'page.size',
  'page.records',
  'page.slice',
  'page.headers'
]

const money: ReadonlyArray<RuleId> = [
  ...scopedBudget,
  'money.permission',
  'money.body',
  'money.status',
  'money.validation',
  'money.apply'
]

const update = BudgetFields.props

const moneyBody = (minimum: number): OperationBody => ({
  wrapper: null,
  schema: {
    type: 'object',
    properties: { amount_cents: { type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER } },
    required: ['amount_cents']
  }
})

const recipient: JsonSchema = {
  type: 'object',
  properties: {
    rut: { type: 'string' },
    account_number: { type: 'string' },
    bank_id: { type: 'string' },
    name: { type: 'string' }
  },
  required: ['rut', 'account_number', 'bank_id', 'name']
}

const transaction = /*#__PURE__*/ schemaOfRecord(endpoints.bankTransactions)

/** The bodies of the successes, by the name they have in the document. */
const schemas = {
  Budget: /*#__PURE__*/ schemaOfCodec(BudgetFields),
  /** A budget as GET /v1/budgets lists it: the fields its endpoint filters and sorts on. */
  BudgetSummary: /*#__PURE__*/ schemaOfRecord(endpoints.budgets),
  BankTransaction: transaction,
  AuthorizedBankTransaction: {
    ...transaction,
    properties: { ...(transaction['properties'] as object), company_id: { type: 'string' } },
    required: ['id', 'company_id', 'status']
  },
  BankRecipient: { ...recipient, additionalProperties: false },
  Company: /*#__PURE__*/ schemaOfRecord(endpoints.companies),
  /** A decision record, its request id also as `id`. */
  DecisionRecord: /*#__PURE__*/ schemaOfRecord(endpoints.decisions),
  RoleAssignment: {
    type: 'object',
    properties: { user_id: { type: 'string' }, role: /*#__PURE__*/ schemaOfCodec(Role) },
    required: ['user_id', 'role'],
    additionalProperties: false
  }
} as const satisfies Record<string, JsonSchema>

const budget = { status: 200, name: 'Budget', schema: schemas.Budget, description: 'The budget, as of today' } as const

/** A money operation: full rights, an amount in cents, an Idempotency-Key, the budget back. */
const moneyOperation = (
  operationId: string,
  method: Operation['method'],
  path: string,
  summary: string,
  minimum: number
): Operation => ({
  operationId,
  method,
  path,
  summary,
  tag: 'budgets',
  rules: money,
  company: true,
  body: moneyBody(minimum),
  idempotent: true,
  success: budget,
  index: null
})

/**
 * Every operation the reference server serves (`budget-rules serve`), in the order of the spec.
 *
 * @example
 * operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).slice(0, 2)
 * //=> ['PATCH /v1/budgets/{id}', 'POST /v1/budgets/{id}/top_up']
 *
 * @category constants
 * @since 0.3.0
 */
export const operations: ReadonlyArray<Operation> = [
  {
    operationId: 'updateBudget',
    method: 'patch',
    path: '/v1/budgets/{id}',
    summary: 'Update a budget',
    tag: 'budgets',
    rules: [
      ...scopedBudget,
      'budget.permission.update',
      'budget.body.type',
      'budget.body.wrapper',
      'budget.permission.manager',
      'budget.permission.recurrence',
      'budget.status.closed',
      'budget.validation',
      'budget.update',
      'budget.reopen',
      'recurrence.turn_on',
      'recurrence.change',
      'recurrence.base',
      'recurrence.stop'
    ],
    company: true,
    body: {
      wrapper: 'budget',
      // The fields an update changes; any other field of the budget may be sent back unchanged.
      schema: {
        type: 'object',
        properties: Object.fromEntries(updateFields.map((f) => [f, schemaOfCodec(update[f])]))
      }
    },
    idempotent: false,
    success: budget,
    index: null
  },
  moneyOperation('topUpBudget', 'post', '/v1/budgets/{id}/top_up', "Add to a funded budget's balance", 1),
  moneyOperation('withdrawFromBudget', 'post', '/v1/budgets/{id}/withdraw', "Remove from a funded budget's balance", 1),
  moneyOperation(
    'setBudgetAmount',
    'patch',
    '/v1/budgets/{id}/amount',
    "Set a tracking budget's planned amount for the period in progress; moves no balance",
    0
  ),
  {
    operationId: 'getBudget',
    method: 'get',
    path: '/v1/budgets/{id}',
    summary: 'A budget, as of today',
    tag: 'budgets',
    rules: scopedBudget,
    company: true,
    body: null,
    idempotent: false,
    success: budget,
    index: null
  },
  {
    operationId: 'listBudgets',
    method: 'get',
    path: endpoints.budgets.path,
    summary: "The company's budgets, each as of today",
    tag: 'budgets',
    rules: [...paged, 'budget.stored', 'budget.advance'],
    company: true,
    body: null,
    idempotent: false,
    success: { status: 200, name: 'BudgetSummary', schema: schemas.BudgetSummary, description: 'The page of budgets' },
    index: endpoints.budgets
  },
  {
    operationId: 'listBankTransactions',
    method: 'get',
    path: endpoints.bankTransactions.path,
    summary: "The company's bank transactions",
    tag: 'banking',
    rules: paged,
    company: true,
    body: null,
    idempotent: false,
    success: {
      status: 200,
      name: 'BankTransaction',
      schema: schemas.BankTransaction,
      description: 'The page of bank transactions'
    },
    index: endpoints.bankTransactions
  },
  {
    operationId: 'authorizeBankTransaction',
    method: 'post',
    path: '/v1/banking/bank_transactions/{id}/authorize',
    summary: 'Authorize a pending bank transaction',
    tag: 'banking',
    rules: [...identified, 'transaction.scope', 'transaction.stored', 'transaction.permission', 'transaction.authorize'],
    company: true,
    body: null,
    idempotent: true,
    success: {
      status: 200,
      name: 'AuthorizedBankTransaction',
      schema: schemas.AuthorizedBankTransaction,
      description: 'The transaction, now authorized'
    },
    index: null
  },
  {
    operationId: 'createBankRecipient',
    method: 'post',
    path: '/v1/banking/bank_recipients',
    summary: 'Enroll a bank recipient',
    tag: 'banking',
    rules: [...identified, 'recipient.permission', 'recipient.body', 'recipient.validation', 'recipient.conflict'],
    company: true,
    body: {
      wrapper: 'bank_recipient',
      schema: recipient
    },
    idempotent: true,
    success: {
      status: 201,
      name: 'BankRecipient',
      schema: schemas.BankRecipient,
      description: 'The recipient as enrolled, normalised'
    },
    index: null
  },
  {
    operationId: 'listCompanies',
    method: 'get',
    path: endpoints.companies.path,
    summary: "The caller's companies",
    tag: 'companies',
    rules: paged,
    company: false,
    body: null,
    idempotent: false,
    success: { status: 200, name: 'Company', schema: schemas.Company, description: 'The page of companies, with its cursors' },
    index: endpoints.companies
  },
  {
    operationId: 'assignRole',
    method: 'patch',
    path: '/v1/companies/{id}/memberships/{user_id}',
    summary: "Assign a member's role in the company",
    tag: 'companies',
    rules: [...identified, 'role.permission', 'role.body', 'role.validation', 'role.owner', 'role.member'],
    company: true,
    body: {
      wrapper: null,
      schema: {
        type: 'object',
        properties: { role: schemaOfCodec(Role) },
        required: ['role']
      }
    },
    idempotent: false,
    success: { status: 200, name: 'RoleAssignment', schema: schemas.RoleAssignment, description: 'The role assigned' },
    index: null
  },
  {
    operationId: 'listDecisions',
    method: 'get',
    path: endpoints.decisions.path,
    summary: "The company's decision records: what each request asked, which rules decided, what changed",
    tag: 'decisions',
    rules: [...paged, 'page.permission'],
    company: true,
    body: null,
    idempotent: false,
    success: { status: 200, name: 'DecisionRecord', schema: schemas.DecisionRecord, description: 'The page of decision records' },
    index: endpoints.decisions
  }
]
