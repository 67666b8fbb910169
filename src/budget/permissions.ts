/**
 * Who may change what in a budget (spec section 5, R-21), as one table: full budget rights (role
 * owner or admin, or the permission `budgets_manage`) may change every update field; the group's
 * manager or co-manager may change name, description, access and ends_on; anyone else, nothing.
 * `permittedUpdateFields` (for a UI) and the update decision (rows 9 and 10) both read
 * {@link fieldPermissions}.
 *
 * Law: `permittedUpdateFields(c, b)` is a subset of `updateFields`, and contains `manager_id`
 * or a recurrence field only when `hasFullBudgetRights(c)`.
 *
 * @example
 * // u-7 manages the budget
 * permittedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, budget)
 * //=> ['name', 'description', 'access', 'ends_on']
 *
 * @since 0.1.0
 */
import { type Caller, Role } from '../auth/session'
import type { RuleId } from '../decision/rules'
import { typeError } from '../json/describe'
import type { Budget, UpdateField } from './model'
import { updateFields } from './model'

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
  const fn = 'permittedUpdateFields'
  const { user_id, role, permissions } = caller
  if (typeof user_id !== 'string') throw typeError(fn, 'caller.user_id', user_id, 'a string')
  if (!Role.is(role)) throw typeError(fn, 'caller.role', role, 'owner, admin or member')
  if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string'))
    throw typeError(fn, 'caller.permissions', permissions, 'an array of strings')
  const { manager_id, co_manager_id } = budget
  const status: unknown = budget.status
  if (!isNullableString(manager_id)) throw typeError(fn, 'budget.manager_id', manager_id, 'a string or null')
  if (!isNullableString(co_manager_id)) throw typeError(fn, 'budget.co_manager_id', co_manager_id, 'a string or null')
  if (status !== 'open' && status !== 'closing' && status !== 'closed')
    throw typeError(fn, 'budget.status', status, 'open, closing or closed')
  if (status === 'closed') return []
  const rights = budgetRights({ user_id, role, permissions }, { manager_id, co_manager_id })
  return rights === 'none' ? [] : updateFields.filter((field) => rights === 'full' || fieldPermissions[field].needs === 'manager')
}
