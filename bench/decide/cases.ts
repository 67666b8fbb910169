/**
 * The questions of `npm run bench:decide`: "may this caller change these fields of this
 * budget", asked as the update's whole case (what `respondBudgetUpdate` and `POST /v1/decide`
 * take) and, read from that same case, as a policy engine is asked it (a principal, a resource,
 * the fields as actions).
 *
 * The cases cover every combination the permission table (src/budget/permissions.ts) tells
 * apart: role owner, admin or member; with or without the permission `budgets_manage`; the
 * group's manager, its co-manager or neither; a budget open, closing or closed; each of the
 * eight update fields alone, and PATCHes of several fields (the four a manager may change, the
 * three of the recurrence, a manager field with a full-rights field, all eight); plus a
 * permission that grants nothing, a budget with no co-manager, and a budget of another company.
 *
 * Every value sent is valid and differs from the one stored, so that a reply is decided by the
 * permission table, the budget's state and the company scope alone, never by validation:
 * `libraryAllows` reads the reply's status, and `checkCases` makes sure of that premise.
 */
import { permittedUpdateFields, respondBudgetUpdate } from '../../src/index'
import type { BudgetContext, Caller, StoredBudget } from '../../src/index'
import { updateFields, type UpdateField } from '../../src/rules'
import { monthly } from '../../test/fixtures'

/** What `POST /v1/decide` takes: the context `respondBudgetUpdate` takes, and the endpoint. */
export type DecideCase = BudgetContext & { readonly endpoint: 'budget.update' }

/** The caller as a policy engine sees it: the session's membership of the request's company. */
export interface Principal {
  readonly id: string
  readonly role: Caller['role']
  readonly permissions: ReadonlyArray<string>
  /** The company of the request (its `company-id` header), where the role is held. */
  readonly company_id: string
}

/** The budget as a policy engine sees it: the attributes the permission table reads. */
export interface Resource {
  readonly id: string
  readonly company_id: string
  readonly manager_id: string | null
  readonly co_manager_id: string | null
  readonly status: StoredBudget['status']
}

/** One question of the bench. */
export interface BenchCase {
  /** `member + budgets_manage, co-manager, closing: name, access`. */
  readonly title: string
  readonly case: DecideCase
  /** The question read from the case, for the policy engines. */
  readonly principal: Principal
  readonly resource: Resource
  /** The fields the PATCH changes: the engines' actions. */
  readonly fields: ReadonlyArray<UpdateField>
}

const TODAY = '2026-11-22'
const COMPANY = 'c-1'

/** The tests' monthly budget (from 2025-10-18, the period in progress 2026-11-18..2026-12-18). */
const OPEN: StoredBudget = monthly()

/** The budgets by status; each is already as of today, so that advancing it changes nothing the table reads. */
const BUDGETS = {
  open: OPEN,
  // Closing since its closing date, two days ago.
  closing: { ...OPEN, ends_on: '2026-11-20', status: 'closing' },
  closed: { ...OPEN, ends_on: '2026-11-01', status: 'closed' }
} as const satisfies Record<string, StoredBudget>

/** A valid value for each field, different from what every budget above holds. */
const NEW_VALUES: { readonly [F in UpdateField]: unknown } = {
  name: 'Travel 2027',
  description: 'Flights and hotels',
  access: 'members',
  ends_on: '2027-06-30',
  manager_id: 'u-newmanager',
  recurrence_unit: 'week',
  recurrence_every: 2,
  base_amount_cents: 60000
}

const MEMBERS = ['u-owner', 'u-admin', 'u-manager', 'u-comanager', 'u-other', 'u-newmanager']

/** The PATCHes of several fields; one field alone is each of `updateFields`. */
const SEVERAL: ReadonlyArray<ReadonlyArray<UpdateField>> = [
  ['name', 'description', 'access', 'ends_on'],
  ['recurrence_unit', 'recurrence_every', 'base_amount_cents'],
  ['name', 'manager_id'],
  updateFields
]

type Relation = 'manager' | 'co-manager' | 'neither'
const USER: Readonly<Record<Relation, string>> = { manager: 'u-manager', 'co-manager': 'u-comanager', neither: 'u-other' }

interface Asked {
  readonly role: Caller['role']
  readonly permissions: ReadonlyArray<string>
  readonly relation: Relation
  readonly budget: StoredBudget
  readonly fields: ReadonlyArray<UpdateField>
  /** The company the caller belongs to and names in company-id; the budget's by default. */
  readonly company?: string
  readonly note?: string
}

const build = (asked: Asked, index: number): BenchCase => {
  const user = USER[asked.relation]
  const company = asked.company ?? asked.budget.company_id
  const patch: Record<string, unknown> = {}
  for (const field of asked.fields) patch[field] = NEW_VALUES[field]
  const permissions = asked.permissions.length === 0 ? '' : ` + ${asked.permissions.join(' + ')}`
  return {
    title: `${asked.role}${permissions}, ${asked.relation}, ${asked.budget.status}${asked.note ?? ''}: ${asked.fields.join(', ')}`,
    case: {
      endpoint: 'budget.update',
      request: { headers: { Authorization: 'Bearer k', 'company-id': company }, body: JSON.stringify({ budget: patch }) },
      session: {
        user: { id: user, email_verified: true },
        memberships: { [company]: { role: asked.role, permissions: [...asked.permissions] } }
      },
      budget: asked.budget,
      today: TODAY,
      company_member_ids: MEMBERS,
      request_id: `r-${index}`
    },
    principal: { id: user, role: asked.role, permissions: asked.permissions, company_id: company },
    resource: {
      id: asked.budget.id,
      company_id: asked.budget.company_id,
      manager_id: asked.budget.manager_id,
      co_manager_id: asked.budget.co_manager_id,
      status: asked.budget.status
    },
    fields: asked.fields
  }
}

const ROLES = ['owner', 'admin', 'member'] as const
const PERMISSIONS: ReadonlyArray<ReadonlyArray<string>> = [[], ['budgets_manage']]
const RELATIONS: ReadonlyArray<Relation> = ['manager', 'co-manager', 'neither']

/** Every question of the bench, in a fixed order (each principal's cases together). */
export const benchCases = (): ReadonlyArray<BenchCase> => {
  const asked: Array<Asked> = []
  for (const role of ROLES)
    for (const permissions of PERMISSIONS)
      for (const relation of RELATIONS)
        for (const budget of Object.values(BUDGETS))
          for (const fields of [...updateFields.map((f) => [f]), ...SEVERAL])
            asked.push({ role, permissions, relation, budget, fields })
  // A permission other than budgets_manage grants nothing.
  for (const relation of RELATIONS)
    for (const fields of [['name'], ['manager_id'], ['base_amount_cents']] as const)
      asked.push({ role: 'member', permissions: ['transactions_view'], relation, budget: OPEN, fields })
  // No co-manager (null): only the manager manages the group.
  for (const relation of RELATIONS)
    for (const fields of [['ends_on'], ['recurrence_every']] as const)
      asked.push({
        role: 'member',
        permissions: [],
        relation,
        budget: { ...OPEN, co_manager_id: null },
        fields,
        note: ', no co-manager'
      })
  // A budget of another company: not found for anyone, whatever their rights in their own.
  for (const role of ROLES)
    for (const permissions of PERMISSIONS)
      asked.push({
        role,
        permissions,
        relation: 'manager',
        budget: { ...OPEN, company_id: 'c-2' },
        fields: ['name'],
        company: COMPANY,
        note: ', another company'
      })
  return asked.map(build)
}

/** The case as `respondBudgetUpdate` takes it: without `endpoint`, which only the service reads. */
export const contextOf = (c: DecideCase): BudgetContext => {
  const context: Record<string, unknown> = { ...c }
  delete context.endpoint
  return context as unknown as BudgetContext
}

/**
 * The library's answer: allowed when the reply to the PATCH is a 200. The whole reply is what
 * the service and the floor give and what is timed; `permittedUpdateFields` covering every field
 * sent is the same answer for every case here (checked by {@link checkCases}), but it does not
 * see the company scope, which the reply decides first.
 */
export const libraryAllows = (c: BenchCase): boolean => respondBudgetUpdate(contextOf(c.case)).status === 200

/** The rules that may refuse a case of the bench: the scope, the permission table, the closed state. */
const REFUSALS = new Set([
  'budget.scope',
  'budget.permission.update',
  'budget.permission.manager',
  'budget.permission.recurrence',
  'budget.status.closed'
])

/**
 * The bench's premise, checked on every case: a reply is a 200 or a refusal by the scope, the
 * permission table or the closed state (never by validation), and within the company it agrees
 * with `permittedUpdateFields`. Throws at the first case that breaks it: its values would need
 * changing, not the engines.
 */
export const checkCases = (cases: ReadonlyArray<BenchCase>): void => {
  for (const c of cases) {
    const reply = respondBudgetUpdate(contextOf(c.case))
    const deciding = reply.reasons[reply.reasons.length - 1]?.rule ?? ''
    if (reply.status !== 200 && !REFUSALS.has(deciding))
      throw new Error(`${c.title}: refused by ${deciding} (${reply.status}), not by the permission table`)
    if (c.principal.company_id !== c.resource.company_id) continue
    const caller: Caller = { user_id: c.principal.id, role: c.principal.role, permissions: c.principal.permissions }
    const permitted = permittedUpdateFields(caller, c.resource)
    if (c.fields.every((f) => permitted.includes(f)) !== (reply.status === 200))
      throw new Error(`${c.title}: the reply is ${reply.status} but permittedUpdateFields gives ${permitted.join(', ')}`)
  }
}

/** Each principal's cases, cycled to `size`: a batch one principal asks, as Cerbos's API batches. */
export const batchesOf = (cases: ReadonlyArray<BenchCase>, size: number): ReadonlyArray<ReadonlyArray<BenchCase>> => {
  const byPrincipal = new Map<string, Array<BenchCase>>()
  for (const c of cases) {
    const key = JSON.stringify(c.principal)
    byPrincipal.set(key, [...(byPrincipal.get(key) ?? []), c])
  }
  return [...byPrincipal.values()].map((own) => Array.from({ length: size }, (_, i) => own[i % own.length] as BenchCase))
}
