/**
 * The operations the reference server serves, as the document describes them: each route of
 * src/api/routes.ts (method and path, body wrapper, Idempotency-Key, success, index: written
 * there once, for the server and the react-admin provider too) with what only the document says:
 * its summary, the rules its facade consults (whose kinds of problem give the statuses it can
 * return), and the schemas of its body and success. The API's OpenAPI document (./document.ts)
 * is built from this table and the rules catalogue;
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
import { type OperationId, routes } from '../api/routes'
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

const moneyBody = (minimum: number): JsonSchema => ({
  type: 'object',
  properties: { amount_cents: { type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER } },
  required: ['amount_cents']
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

const budget = { name: 'Budget', schema: schemas.Budget, description: 'The budget, as of today' } as const

/** What the document says of an operation beyond its route (src/api/routes.ts): its words, its rules, its schemas. */
interface Described {
  readonly summary: string
  readonly tag: Operation['tag']
  readonly rules: ReadonlyArray<RuleId>
  readonly body?: JsonSchema
  readonly success: Omit<Operation['success'], 'status'>
}

/** A money operation: full rights, an amount in cents, the budget back. */
const moneyOperation = (summary: string, minimum: number): Described => ({
  summary,
  tag: 'budgets',
  rules: money,
  body: moneyBody(minimum),
  success: budget
})

/** Each operation's description, by its id: a route without one does not compile. */
const described: { readonly [K in OperationId]: Described } = {
  updateBudget: {
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
    // The fields an update changes; any other field of the budget may be sent back unchanged.
    body: { type: 'object', properties: Object.fromEntries(updateFields.map((f) => [f, schemaOfCodec(update[f])])) },
    success: budget
  },
  topUpBudget: moneyOperation("Add to a funded budget's balance", 1),
  withdrawFromBudget: moneyOperation("Remove from a funded budget's balance", 1),
  setBudgetAmount: moneyOperation("Set a tracking budget's planned amount for the period in progress; moves no balance", 0),
  getBudget: { summary: 'A budget, as of today', tag: 'budgets', rules: scopedBudget, success: budget },
  listBudgets: {
    summary: "The company's budgets, each as of today",
    tag: 'budgets',
    rules: [...paged, 'budget.stored', 'budget.advance'],
    success: { name: 'BudgetSummary', schema: schemas.BudgetSummary, description: 'The page of budgets' }
  },
  listBankTransactions: {
    summary: "The company's bank transactions",
    tag: 'banking',
    rules: paged,
    success: { name: 'BankTransaction', schema: schemas.BankTransaction, description: 'The page of bank transactions' }
  },
  authorizeBankTransaction: {
    summary: 'Authorize a pending bank transaction',
    tag: 'banking',
    rules: [...identified, 'transaction.scope', 'transaction.stored', 'transaction.permission', 'transaction.authorize'],
    success: {
      name: 'AuthorizedBankTransaction',
      schema: schemas.AuthorizedBankTransaction,
      description: 'The transaction, now authorized'
    }
  },
  createBankRecipient: {
    summary: 'Enroll a bank recipient',
    tag: 'banking',
    rules: [...identified, 'recipient.permission', 'recipient.body', 'recipient.validation', 'recipient.conflict'],
    body: recipient,
    success: { name: 'BankRecipient', schema: schemas.BankRecipient, description: 'The recipient as enrolled, normalised' }
  },
  listCompanies: {
    summary: "The caller's companies",
    tag: 'companies',
    rules: paged,
    success: { name: 'Company', schema: schemas.Company, description: 'The page of companies, with its cursors' }
  },
  assignRole: {
    summary: "Assign a member's role in the company",
    tag: 'companies',
    rules: [...identified, 'role.permission', 'role.body', 'role.validation', 'role.owner', 'role.member'],
    body: { type: 'object', properties: { role: schemaOfCodec(Role) }, required: ['role'] },
    success: { name: 'RoleAssignment', schema: schemas.RoleAssignment, description: 'The role assigned' }
  },
  listDecisions: {
    summary: "The company's decision records: what each request asked, which rules decided, what changed",
    tag: 'decisions',
    rules: [...paged, 'page.permission'],
    success: {
      name: 'DecisionRecord',
      schema: schemas.DecisionRecord,
      // each reader the records of what their rights cover; R-124: never a stranger's.
      description:
        "The page of the decision records the caller may read: an owner's or admin's every record of the company, a budgets_manage member's only the budgets' (budget.* and index.budgets); a request refused before auth.membership names no company and is listed to no one"
    }
  }
}

/**
 * Every operation the reference server serves (`budget-rules serve`), in the order of the spec:
 * each route of src/api/routes.ts with its description.
 *
 * @example
 * operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).slice(0, 2)
 * //=> ['PATCH /v1/budgets/{id}', 'POST /v1/budgets/{id}/top_up']
 *
 * @category constants
 * @since 0.3.0
 */
export const operations: ReadonlyArray<Operation> = /*#__PURE__*/ routes.map((r): Operation => {
  const d = described[r.operationId]
  return {
    operationId: r.operationId,
    method: r.method,
    path: r.path,
    summary: d.summary,
    tag: d.tag,
    rules: d.rules,
    company: r.company,
    body: r.body === null ? null : { wrapper: r.body.wrapper, schema: d.body ?? {} },
    idempotent: r.idempotent,
    success: { status: r.success, ...d.success },
    index: r.index
  }
})
