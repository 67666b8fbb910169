/**
 * Who may change what in a budget (spec section 5, R-21): full budget rights (role owner or
 * admin, or the permission `budgets_manage`) may change every update field; the group's manager
 * or co-manager may change name, description, access and ends_on; anyone else, nothing.
 *
 * Law: `permittedUpdateFields(c, b)` is a subset of `updateFields`, and contains `manager_id`
 * or a recurrence field only when `hasFullBudgetRights(c)`.
 *
 * @example
 * permittedUpdateFields({ user_id: 'u-7', role: 'member', permissions: [] }, budget)
 * //=> ['name', 'description', 'access', 'ends_on'] when budget.manager_id === 'u-7'
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { typeError } from '../json/describe'
import type { Budget, UpdateField } from './model'
import { updateFields } from './model'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * @category model
 * @since 0.1.0
 */
export type Role = 'owner' | 'admin' | 'member'

/**
 * @category codecs
 * @since 0.1.0
 */
export const Role = /*#__PURE__*/ t.keyof({ owner: null, admin: null, member: null }, 'Role')

/**
 * The session's member view of one company.
 *
 * @category model
 * @since 0.1.0
 */
export interface Caller {
  readonly user_id: string
  readonly role: Role
  readonly permissions: ReadonlyArray<string>
}

/**
 * What a caller may do to one budget.
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetRights = 'full' | 'manager' | 'none'

const MANAGER_FIELDS: ReadonlyArray<UpdateField> = ['name', 'description', 'access', 'ends_on']

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
  switch (budgetRights({ user_id, role, permissions }, { manager_id, co_manager_id })) {
    case 'full':
      return [...updateFields]
    case 'manager':
      return [...MANAGER_FIELDS]
    case 'none':
      return []
  }
}
