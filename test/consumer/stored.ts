// What a server builds from its rows: the stored budget and bank transaction from plain
// strings and numbers, as a database client gives them (dates as text, amounts as numbers), with
// no brand and no cast; and the names the root declares only as types are no values.
import {
  respondAuthorizeTransaction,
  respondBudget,
  type Budget,
  type Session,
  type StoredBankRecipient,
  type StoredBankTransaction,
  type StoredBudget
} from 'budget-rules'

/** A row of the budgets table, read with its dates as text. */
export function budgetOfRow(
  id: string,
  name: string,
  createdOn: string,
  periodEndsOn: string,
  balanceCents: number
): StoredBudget {
  return {
    id,
    company_id: 'c-1',
    name,
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'funded',
    manager_id: 'u-7',
    co_manager_id: null,
    status: 'open',
    created_on: createdOn,
    ends_on: null,
    recurrence_unit: 'month',
    recurrence_every: 1,
    base_amount_cents: 50_000,
    recurrence_starts_on: createdOn,
    period_starts_on: createdOn,
    period_ends_on: periodEndsOn,
    period_amount_cents: 50_000,
    balance_cents: balanceCents
  }
}

/** The budgets of a company by id, as a server keeps them, handed to the read facade. */
export function readBudget(session: Session, budgets: ReadonlyMap<string, StoredBudget>, id: string): string | null {
  const reply = respondBudget({
    request: { headers: { authorization: 'Bearer k', 'company-id': 'c-1' } },
    session,
    budget: budgets.get(id) ?? null,
    today: '2026-11-22',
    request_id: 'req-1'
  })
  if (reply.status !== 200) return null
  const budget: Budget = reply.body
  return budget.name
}

export const budgets = new Map<string, StoredBudget>([
  ['b-1', budgetOfRow('b-1', 'Team lunch', '2026-11-18', '2026-12-18', 20_000)]
])

/** A row of the bank transactions table: its status the column's text, its instants ISO strings. */
export function authorize(session: Session, status: string, createdAt: string, amount: number): number {
  const transaction: StoredBankTransaction = {
    id: 'tx-1',
    company_id: 'c-1',
    amount,
    status,
    created_at: createdAt,
    updated_at: createdAt
  }
  return respondAuthorizeTransaction({
    request: { headers: { authorization: 'Bearer k', 'company-id': 'c-1' } },
    session,
    transaction,
    request_id: 'req-2'
  }).status
}

export const enrolled: ReadonlyArray<StoredBankRecipient> = [
  { rut: '12.345.678-5', bank_id: 'bank-1', account_number: '0012-3456' }
]

export function isBudget(u: unknown): boolean {
  // @ts-expect-error: the root declares Budget as a type only; its codec is in budget-rules/rules
  return Budget.is(u) === true
}
