/**
 * Assigning roles in a company (spec section 5, contract R-70): the roles are exactly `owner`,
 * `admin` and `member` (no other case, no spaces); only an owner may make someone an owner;
 * anyone else gets 403 with a JSON body.
 *
 * A value outside the `Role` type (`'Owner'`, `' owner'`, null) is a `TypeError` naming it
 * the facade that reads a role from a request body answers 422 before calling this rule.
 *
 * @example
 * guardRoleAssignment({ user_id: 'u-1', role: 'admin', permissions: [] }, 'owner')
 * //=> left({ _tag: 'Forbidden', rule: 'role.owner', error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role', detail: 'Only an owner can assign the owner role' })
 * guardRoleAssignment({ user_id: 'u-1', role: 'owner', permissions: [] }, 'Owner' as Role)
 * //=> throws TypeError('guardRoleAssignment: role must be exactly owner, admin or member, not "Owner"')
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { type Caller, Role } from '../auth/session'
import { describeValue } from '../json/describe'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'

/**
 * The role may be assigned by this caller, or the 403. Throws a `TypeError` when `role` or the
 * caller's role is not exactly one of the three roles.
 *
 * @example
 * guardRoleAssignment({ user_id: 'u-1', role: 'admin', permissions: [] }, 'member') //=> right('member')
 *
 * @category rules
 * @since 0.1.0
 */
export const guardRoleAssignment = (caller: Caller, role: Role): E.Either<Problem, Role> => {
  const given: unknown = caller
  if (typeof given !== 'object' || given === null)
    throw new TypeError(`guardRoleAssignment: caller must be an object, not ${describeValue(given)}`)
  const callerRole: unknown = caller.role
  if (!Role.is(callerRole))
    throw new TypeError(
      `guardRoleAssignment: caller.role must be exactly owner, admin or member, not ${describeValue(callerRole)}`
    )
  if (!Role.is(role))
    throw new TypeError(`guardRoleAssignment: role must be exactly owner, admin or member, not ${describeValue(role)}`)
  return role === 'owner' && callerRole !== 'owner'
    ? E.left(problem.forbidden('role.owner', 'roles/owner_required', 'Only an owner can assign the owner role'))
    : E.right(role)
}
