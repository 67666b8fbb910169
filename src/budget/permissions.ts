/**
 * Who may change what in a budget (spec section 5, R-21), as one table: full budget rights (role
 * owner or admin, or the permission `budgets_manage`) may change every update field; the group's
 * manager or co-manager may change name, description, access and ends_on; anyone else, nothing.
 * `permittedUpdateFields` and `lockedUpdateFields` (for a UI) and the update decision (rows 9 and
 * 10) all read {@link fieldPermissions}.
 *
 * Law: `permittedUpdateFields(c, b)` is a subset of `updateFields`, and contains `manager_id`
 * or a recurrence field only when `hasFullBudgetRights(c)`.
 *
 * Law: `permittedUpdateFields(c, b)` and the keys of `lockedUpdateFields(c, b)` split
 * `updateFields` in two, and the rule a field is locked by is the rule that refuses a change of
 * that field alone.
 *
 * @example
 * // u-7 manages the budget
 * permittedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, budget)
 * //=> ['name', 'description', 'access', 'ends_on']
 *
 * @since 0.1.0
 */
import { isRole } from '../auth/role'
import type { Caller } from '../auth/session'
import type { RuleId } from '../decision/rules'
import { typeError } from '../json/describe'
import { updateFields } from './fields'
import type { Budget, UpdateField } from './model'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a caller may do to one budget.
 *
 * @example
 * budgetRights({ user_id: 'u-1', role: 'admin', permissions: [] }, budget) //=> 'full'
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetRights = 'full' | 'manager' | 'none'

/**
 * What changing a field takes: the group's manager (or co-manager) may, or only full budget
 * rights may, and then which rule and error code refuse everyone else (rows 9 and 10).
 *
 * @example
 * fieldPermissions.name //=> { needs: 'manager' }
 *
 * @category model
 * @since 0.1.0
 */
export type FieldPermission =
  | { readonly needs: 'manager' }
  | {
      readonly needs: 'full'
      readonly rule: Extract<RuleId, 'budget.permission.manager' | 'budget.permission.recurrence'>
      readonly error_code: string
      /** What the 403 message names: "Only an admin ... can change the <what>". */
      readonly what: string
    }

const MANAGER: FieldPermission = { needs: 'manager' }
const RECURRENCE: FieldPermission = {
  needs: 'full',
  rule: 'budget.permission.recurrence',
  error_code: 'budgets/cannot_change_recurrence',
  what: 'recurrence'
}

/**
 * The one permission table: who may change each update field (spec section 5). Rows 9 and 10
 * are checked in the order their fields first appear here.
 *
 * @example
 * fieldPermissions.manager_id
 * //=> { needs: 'full', rule: 'budget.permission.manager', error_code: 'budgets/cannot_change_manager', what: 'manager' }
 *
 * @category constants
 * @since 0.1.0
 */
export const fieldPermissions: { readonly [F in UpdateField]: FieldPermission } = {
  name: MANAGER,
  description: MANAGER,
  access: MANAGER,
  ends_on: MANAGER,
  manager_id: { needs: 'full', rule: 'budget.permission.manager', error_code: 'budgets/cannot_change_manager', what: 'manager' },
  recurrence_unit: RECURRENCE,
  recurrence_every: RECURRENCE,
  base_amount_cents: RECURRENCE
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Role owner or admin, or permission `budgets_manage`.
 *
 * @example
 * hasFullBudgetRights({ user_id: 'u', role: 'member', permissions: ['budgets_manage'] }) //=> true
 *
 * @category utils
 * @since 0.1.0
 */
export const hasFullBudgetRights = (caller: Caller): boolean =>
  caller.role === 'owner' || caller.role === 'admin' || caller.permissions.includes('budgets_manage')

/**
 * Full budget rights, else the group's manager or co-manager, else none.
 *
 * @example
 * // u-7 manages the budget
 * budgetRights({ user_id: 'u-7', role: 'member', permissions: [] }, budget) //=> 'manager'
 * budgetRights({ user_id: 'u-2', role: 'member', permissions: [] }, budget) //=> 'none'
 *
 * @category utils
 * @since 0.1.0
 */
export const budgetRights = (caller: Caller, budget: Pick<Budget, 'manager_id' | 'co_manager_id'>): BudgetRights =>
  hasFullBudgetRights(caller)
    ? 'full'
    : budget.manager_id === caller.user_id || budget.co_manager_id === caller.user_id
      ? 'manager'
      : 'none'

const isNullableString = (u: unknown): boolean => u === null || typeof u === 'string'

/**
 * The rules that may lock an update field: no budget rights (row 6), a field only full budget
 * rights change (rows 9 and 10), a closed budget (row 11).
 *
 * @example
 * const rule: LockRule = 'budget.status.closed'
 * rule //=> 'budget.status.closed'
 *
 * @category model
 * @since 0.4.0
 */
export type LockRule = Extract<
  RuleId,
  'budget.permission.update' | 'budget.permission.manager' | 'budget.permission.recurrence' | 'budget.status.closed'
>

/** The caller's rights over the budget and whether it is closed, both checked for `fn`. */
const standing = (
  fn: string,
  caller: Caller,
  budget: Pick<Budget, 'manager_id' | 'co_manager_id' | 'status'>
): { readonly rights: BudgetRights; readonly closed: boolean } => {
  const { user_id, role, permissions } = caller
  if (typeof user_id !== 'string') throw typeError(fn, 'caller.user_id', user_id, 'a string')
  if (!isRole(role)) throw typeError(fn, 'caller.role', role, 'owner, admin or member')
  if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string'))
    throw typeError(fn, 'caller.permissions', permissions, 'an array of strings')
  const { manager_id, co_manager_id } = budget
  const status: unknown = budget.status
  if (!isNullableString(manager_id)) throw typeError(fn, 'budget.manager_id', manager_id, 'a string or null')
  if (!isNullableString(co_manager_id)) throw typeError(fn, 'budget.co_manager_id', co_manager_id, 'a string or null')
  if (status !== 'open' && status !== 'closing' && status !== 'closed')
    throw typeError(fn, 'budget.status', status, 'open, closing or closed')
  return { rights: budgetRights({ user_id, role, permissions }, { manager_id, co_manager_id }), closed: status === 'closed' }
}

/** The rule that refuses a change of `field` alone, in the order the update decision checks them; null when none does. */
const lockOf = (field: UpdateField, { rights, closed }: ReturnType<typeof standing>): LockRule | null => {
  if (rights === 'none') return 'budget.permission.update'
  const permission = fieldPermissions[field]
  if (permission.needs === 'full' && rights !== 'full') return permission.rule
  return closed ? 'budget.status.closed' : null
}

/**
 * The update fields this caller may change on this budget, in the spec's order; none on a
 * closed budget, which takes no update. A new array each call. A caller or budget
 * outside its type is a `TypeError`.
 *
 * @example
 * permittedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, { ...budget, status: 'closed' }) //=> []
 * permittedUpdateFields({ user_id: 'u-1', role: 'Admin' as Role, permissions: [] }, budget)
 * //=> throws TypeError('permittedUpdateFields: caller.role is "Admin", not owner, admin or member')
 *
 * @category utils
 * @since 0.1.0
 */
export const permittedUpdateFields = (
  caller: Caller,
  budget: Pick<Budget, 'manager_id' | 'co_manager_id' | 'status'>
): Array<UpdateField> => {
  const stand = standing('permittedUpdateFields', caller, budget)
  return updateFields.filter((field) => lockOf(field, stand) === null)
}

/**
 * Why each update field this caller may not change on this budget is locked, for a UI to say
 * beside the field: the rule (its id in the rules catalogue) that refuses a change of that field
 * alone, checked in the update decision's order. No budget rights lock every field
 * (`budget.permission.update`); then a field only full budget rights change is locked by its
 * rule (`budget.permission.manager`, `budget.permission.recurrence`); then a closed budget locks
 * the rest (`budget.status.closed`). The fields this leaves out are `permittedUpdateFields`. A new
 * object each call; a caller or budget outside its type is a `TypeError`.
 *
 * @example
 * // u-7 manages the budget
 * lockedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, budget)
 * //=> { manager_id: 'budget.permission.manager', recurrence_unit: 'budget.permission.recurrence',
 * //     recurrence_every: 'budget.permission.recurrence', base_amount_cents: 'budget.permission.recurrence' }
 * lockedUpdateFields({ user_id: 'u-1', role: 'admin', permissions: [] }, { ...budget, status: 'closed' }).name
 * //=> 'budget.status.closed'
 * lockedUpdateFields({ user_id: 'u-2', role: 'member', permissions: [] }, budget).ends_on //=> 'budget.permission.update'
 * lockedUpdateFields({ user_id: 'u-1', role: 'admin', permissions: [] }, budget) //=> {}
 *
 * @category utils
 * @since 0.4.0
 */
export const lockedUpdateFields = (
  caller: Caller,
  budget: Pick<Budget, 'manager_id' | 'co_manager_id' | 'status'>
): { [F in UpdateField]?: LockRule } => {
  const stand = standing('lockedUpdateFields', caller, budget)
  const locked: { [F in UpdateField]?: LockRule } = {}
  for (const field of updateFields) {
    const rule = lockOf(field, stand)
    if (rule !== null) locked[field] = rule
  }
  return locked
}
