/**
 * Assigning a company role (contract R-70), e.g. PATCH /v1/companies/{id}/memberships/{user_id}
 * with the body `{"role": "admin"}`, as one pure function. The server passes the request as
 * received, the session it resolved from the key, the `user_id` the path names and its request
 * id (and, optionally, the ids of the company's members); it gets back the exact reply.
 *
 * Rules consulted, in order (contract section 4, then R-70; ADR 0070): `auth.bearer`,
 * `auth.email_verified`, `auth.company_header`, `auth.membership`, `role.member` (only when
 * `company_member_ids` is given), `role.permission` (401), `role.body` (400), `role.validation`
 * (422), `role.owner` (403).
 *
 * @example
 * import { respondRoleAssignment } from 'budget-rules'
 *
 * const { reasons, ...reply } = respondRoleAssignment({
 *   request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: '{"role":"admin"}' },
 *   session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'owner', permissions: [] } } },
 *   user_id: 'u-2', request_id: 'req-1'
 * })
 * reply
 * //=> { status: 200, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { user_id: 'u-2', role: 'admin' } }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'role.permission', 'role.body',
 * //    'role.validation', 'role.owner']
 *
 * @since 0.1.0
 */
import { function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, type Caller, Role, type Scope, Session } from '../auth/session'
import { fieldMessages } from '../budget/validation'
import { guardRoleAssignment } from '../company/roles'
import { bind, chain, check, fail, map, of, pass, type Trail } from '../decision/trail'
import { jsonObjectBody } from '../http/body'
import { Request } from '../http/request'
import { ownValue } from '../json/value'
import * as problem from '../decision/problem'
import type { Reply, ReplyOf } from '../reply/reply'
import { respondWith, settle } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A path segment: a user id the server routed on is never empty. */
const UserId = /*#__PURE__*/ new t.Type<string, string, unknown>(
  'UserId',
  (u): u is string => typeof u === 'string' && u !== '',
  (u, c) => (typeof u === 'string' && u !== '' ? t.success(u) : t.failure(u, c, 'user_id must be a non-empty string')),
  t.identity
)

/**
 * The check of what a server hands `respondRoleAssignment`.
 *
 * @example
 * // the path always names a user
 * RoleAssignmentContext.is({ request: { headers }, session, user_id: '', request_id: 'req-1' }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const RoleAssignmentContext = /*#__PURE__*/ t.intersection(
  [
    t.type({ request: Request, session: Session, user_id: UserId, request_id: t.string }),
    t.partial({ company_member_ids: t.array(t.string) })
  ],
  'RoleAssignmentContext'
)

/**
 * What the server hands `respondRoleAssignment`: `user_id` is the user whose role the path
 * names; `company_member_ids`, when given, lets the facade answer 404 for a user who is not a
 * member of the company (ADR 0070).
 *
 * @example
 * respondRoleAssignment({ request: { headers, body: '{"role":"admin"}' }, session, user_id: 'u-9', request_id: 'req-1',
 *   company_member_ids: ['u-1', 'u-2'] }).status
 * //=> 404
 *
 * @category model
 * @since 0.1.0
 */
export interface RoleAssignmentContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly user_id: string
  readonly request_id: string
  readonly company_member_ids?: ReadonlyArray<string>
}

/**
 * The reply to a role assignment: on a 200 the body is `{user_id, role}`, the membership to
 * persist.
 *
 * @example
 * respondRoleAssignment({ request: { headers, body: '{"role":"Admin"}' }, session, user_id: 'u-2', request_id: 'req-1' }).body
 * //=> { errors: { role: ['is not included in the list'] } }
 *
 * @category model
 * @since 0.1.0
 */
export type RoleAssignmentReply = Reply<ReplyOf<200, { readonly user_id: string; readonly role: Role }>>

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Row 5 for memberships: the user the path names is one of the company's members, when known. */
const memberOfCompany = (scope: Scope, userId: string, members: ReadonlyArray<string> | undefined): Trail<null> => {
  if (members === undefined) return of(null)
  return members.includes(userId)
    ? pass('role.member', `user ${userId} is a member of company ${scope.company_id}`, null)
    : fail(problem.notFound('role.member', `user ${userId} is not a member of company ${scope.company_id}`))
}

/** Only an owner or admin assigns roles; anyone else meets the action-level guard's 401. */
const mayAssignRoles = (caller: Caller): Trail<Caller> =>
  caller.role === 'owner' || caller.role === 'admin'
    ? pass('role.permission', `role ${caller.role}`, caller)
    : fail(problem.guardRejected('role.permission', `user ${caller.user_id} (role ${caller.role}) may not assign roles`))

/**
 * The role the body names: exactly one of the three, any other value (another case, spaces, a
 * number) a 422 on `role`. Other keys are ignored.
 */
const sentRole = (body: Readonly<Record<string, unknown>>): Trail<Role> => {
  const role = ownValue(body, 'role')
  if (Role.is(role)) return pass('role.validation', `role ${role}`, role)
  const message = role === undefined || role === null ? fieldMessages.blank : fieldMessages.notInList
  return fail(problem.invalid('role.validation', [{ field: 'role', messages: [message] }]))
}

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * The reply to assigning a company role. Never throws.
 *
 * @example
 * // session: u-1 is an admin of c-1, and only an owner makes owners
 * respondRoleAssignment({ request: { headers, body: '{"role":"owner"}' }, session, user_id: 'u-2', request_id: 'req-1' }).body
 * //=> { error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role' }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondRoleAssignment: (context: RoleAssignmentContext) => RoleAssignmentReply = /*#__PURE__*/ respondWith(
  RoleAssignmentContext,
  (c): RoleAssignmentReply => {
    const trail = fn.pipe(
      authenticate(c.request, c.session),
      chain((scope) => map(() => scope.caller)(memberOfCompany(scope, c.user_id, c.company_member_ids))),
      chain(mayAssignRoles),
      map((caller) => ({ caller })),
      bind('body', () => check('role.body', () => 'a JSON object', jsonObjectBody('role.body', c.request.body, ['role']))),
      bind('role', ({ body }) => sentRole(body)),
      chain(({ caller, role }) =>
        check(
          'role.owner',
          (assigned) => (assigned === 'owner' ? 'an owner assigns the owner role' : `assigning ${assigned} needs no owner`),
          guardRoleAssignment(caller, role)
        )
      )
    )
    return settle(c.request_id, trail, (role) => ({ body: { user_id: c.user_id, role } }))
  }
)
