import { either } from 'fp-ts'
import {
  type AuthorizeTransactionReply,
  type BankRecipientReply,
  Budget,
  type BudgetContext,
  type BudgetJson,
  type BudgetReply,
  CalendarDate
} from './api'

const { isRight } = either

/** A date literal, checked. */
export const day = (s: string): CalendarDate => {
  const d = CalendarDate.decode(s)
  if (!isRight(d)) throw new Error(`not a date: ${s}`)
  return d.right
}

export const TODAY = day('2026-11-22')

export const baseBudget: BudgetJson = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Travel',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-manager',
  co_manager_id: 'u-comanager',
  status: 'open',
  created_on: '2025-10-18',
  ends_on: null,
  recurrence_unit: null,
  recurrence_every: null,
  base_amount_cents: null,
  recurrence_starts_on: null,
  period_starts_on: '2025-10-18',
  period_ends_on: null,
  period_amount_cents: 100000,
  balance_cents: 5000
}

/** A budget literal, checked, with `overrides` applied to {@link baseBudget}. */
export const budget = (overrides: Partial<BudgetJson> = {}): Budget => {
  const b = Budget.decode({ ...baseBudget, ...overrides })
  if (!isRight(b)) throw new Error(`not a budget: ${JSON.stringify(overrides)}`)
  return b.right
}

/** Monthly from 2025-10-18, 50,000 cents a period, the period in progress 2026-11-18..2026-12-18. */
export const monthly = (overrides: Partial<BudgetJson> = {}): Budget =>
  budget({
    recurrence_unit: 'month',
    recurrence_every: 1,
    base_amount_cents: 50000,
    recurrence_starts_on: '2025-10-18',
    period_starts_on: '2026-11-18',
    period_ends_on: '2026-12-18',
    period_amount_cents: 50000,
    ...overrides
  })

export type Who = 'admin' | 'owner' | 'budgets_manage' | 'manager' | 'co_manager' | 'member'

const userOf: Record<Who, string> = {
  admin: 'u-admin',
  owner: 'u-owner',
  budgets_manage: 'u-bm',
  manager: 'u-manager',
  co_manager: 'u-comanager',
  member: 'u-member'
}

export const session = (who: Who, company = 'c-1') => ({
  user: { id: userOf[who], email_verified: true },
  memberships: {
    [company]: {
      role: who === 'admin' ? ('admin' as const) : who === 'owner' ? ('owner' as const) : ('member' as const),
      permissions: who === 'budgets_manage' ? ['budgets_manage'] : []
    }
  }
})

export const headers = (company = 'c-1') => ({ Authorization: 'Bearer key-1', 'company-id': company })

/** The context of a PATCH by `who` with `body` (an object is sent as JSON). */
export const patch = (
  who: Who,
  body: unknown,
  b: Budget | null = budget(),
  extra: Partial<BudgetContext> = {}
): BudgetContext => ({
  request: { headers: headers(), body: typeof body === 'string' ? body : JSON.stringify(body) },
  session: session(who),
  budget: b,
  today: TODAY,
  request_id: 'req-1',
  ...extra
})

export const JSON_HEADERS = { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' }

/** The decisions a record can name (contract section 16), written out as the contract lists them: first those of one resource, then the indexes. */
export const RESOURCE_DECISIONS = [
  'budget.get',
  'budget.update',
  'budget.top_up',
  'budget.withdraw',
  'budget.amount',
  'transaction.authorize',
  'recipient.enroll',
  'role.assign'
] as const
export const INDEX_DECISIONS = ['index.budgets', 'index.bank_transactions', 'index.companies', 'index.decisions'] as const

/** The reasons of a member's request for an index page, up to the page size check. */
export const memberPageReasons = (parameters: number, window: string, filters = 'no filters', size = 25) => [
  { rule: 'auth.bearer', detail: 'key of user u-member' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role member' },
  { rule: 'page.query', detail: `${parameters} parameters` },
  { rule: 'page.window', detail: window },
  { rule: 'page.filter', detail: filters },
  { rule: 'page.size', detail: `${size} records at most` }
]

/** Contract section 4 and the budget's rules an admin's request on b-1 passes before its body. */
export const adminOnBudget = [
  { rule: 'auth.bearer', detail: 'key of user u-admin' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role admin' },
  { rule: 'budget.scope', detail: 'budget b-1' },
  { rule: 'budget.stored', detail: 'the stored budget is consistent' },
  { rule: 'budget.advance', detail: 'nothing to roll forward' }
]

/** The reasons of an admin's update of b-1 whose `budget` holds `keys` keys, up to the validation. */
export const adminUpdateUpTo = (keys: number) => [
  ...adminOnBudget,
  { rule: 'budget.permission.update', detail: 'full budget rights (role admin)' },
  { rule: 'budget.body.type', detail: 'a JSON object with a budget object' },
  { rule: 'budget.body.wrapper', detail: `budget holds ${keys} keys` },
  { rule: 'budget.permission.manager', detail: 'full budget rights' },
  { rule: 'budget.permission.recurrence', detail: 'full budget rights' },
  { rule: 'budget.status.closed', detail: 'status open' }
]

/** The whole 422 of an admin's update naming `errors` (field and text, in the order sent). */
export const refusedUpdate = (keys: number, errors: ReadonlyArray<readonly [string, string]>) => ({
  status: 422,
  headers: JSON_HEADERS,
  body: { errors: Object.fromEntries(errors.map(([field, message]) => [field, [message]])) },
  reasons: [
    ...adminUpdateUpTo(keys),
    { rule: 'budget.validation', detail: errors.map(([field, message]) => `${field}: ${message}`).join('; ') }
  ]
})

/** The budget a reply gives to persist: the 200's `budget`, else `undefined`. */
export const budgetOf = (r: BudgetReply): Budget | undefined => (r.status === 200 ? r.budget : undefined)

/** The transaction a reply gives to persist: the 200's `transaction`, else `undefined`. */
export const transactionOf = (r: AuthorizeTransactionReply) => (r.status === 200 ? r.transaction : undefined)

/** The recipient a reply gives to persist: the 201's `recipient`, else `undefined`. */
export const persistedRecipient = (r: BankRecipientReply) => (r.status === 201 ? r.recipient : undefined)
