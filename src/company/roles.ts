/**
 * Assigning roles in a company (spec section 5): only an owner may make someone an owner;
 * anyone else gets 403 with a JSON body.
 *
 * @example
 * guardRoleAssignment({ user_id: 'u-1', role: 'admin', permissions: [] }, 'owner')
 * //=> left({ _tag: 'Forbidden', rule: 'role.owner', error_code: 'roles/owner_required', ... })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import type { Caller, Role } from '../budget/rights'
import * as problem from '../reply/problem'
import type { Problem } from '../reply/problem'

/**
 * The role may be assigned by this caller, or the 403.
 *
 * @category rules
 * @since 0.1.0
 */
export const guardRoleAssignment = (caller: Caller, role: Role): E.Either<Problem, Role> =>
  role === 'owner' && caller.role !== 'owner'
    ? E.left(problem.forbidden('role.owner', 'roles/owner_required', 'Only an owner can assign the owner role'))
    : E.right(role)
