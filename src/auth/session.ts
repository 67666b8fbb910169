/**
 * Authentication and company scope, the checks every endpoint makes first (contract section
 * 4, R-20), in this order, the first that fails deciding:
 *
 * | # | rule | condition | reply |
 * |---|---|---|---|
 * | 1 | `auth.bearer` | Authorization missing, not `Bearer <key>`, or no user for the key | 401, empty |
 * | 2 | `auth.email_verified` | the user has not verified their email | 401 `email_not_verified` |
 * | 3 | `auth.company_header` | company-id missing or empty where required | 401, empty |
 * | 4 | `auth.membership` | the user is not a member of that company | 404 `not_found` |
 * | 5 | `budget.scope` | the budget is null or another company's | 404, the same bytes as row 4 |
 *
 * @example
 * authenticate({ headers }, session).result
 * //=> right({ company_id: 'c-1', caller: { user_id: 'u-1', role: 'admin', permissions: [] } })
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { isStrings, missing, withGuard } from '../json/guard'
import { either as E } from 'fp-ts'
import type { Reason } from '../decision/rules'
import type { Problem } from '../decision/problem'
import { fail, pass, recordInto, type Trail } from '../decision/trail'
import { headerOf } from '../http/headers'
import type { Request } from '../http/request'
import * as problem from '../decision/problem'
import { hasOwn, isJsonObject } from '../json/value'
import { describeValue } from '../json/describe'
import { isRole, roles } from './role'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A member's role in a company.
 *
 * @example
 * Role.is('admin') //=> true
 * Role.is('Admin') //=> false
 *
 * @category model
 * @since 0.1.0
 */
export type Role = 'owner' | 'admin' | 'member'

/**
 * The io-ts codec of a {@link Role}: exactly `owner`, `admin` or `member` (`./role.ts`).
 *
 * @category codecs
 * @since 0.1.0
 */
export const Role = /*#__PURE__*/ t.keyof(
  /*#__PURE__*/ Object.fromEntries(roles.map((role) => [role, null])) as Record<Role, null>,
  'Role'
)

/**
 * The session's member view of one company.
 *
 * @example
 * authenticate({ headers }, session).result
 * //=> right({ company_id: 'c-1', caller: { user_id: 'u-1', role: 'admin', permissions: [] } })
 *
 * @category model
 * @since 0.1.0
 */
export interface Caller {
  readonly user_id: string
  readonly role: Role
  readonly permissions: ReadonlyArray<string>
}

const sessionCodec = /*#__PURE__*/ t.type(
  {
    user: t.union([t.null, t.type({ id: t.string, email_verified: t.boolean })]),
    memberships: t.record(t.string, t.type({ role: Role, permissions: t.array(t.string) }))
  },
  'Session'
)

const isUser = (u: unknown): boolean => {
  if (!isJsonObject(u)) return false
  const id = u.id
  if (missing(u, 'id', id) || typeof id !== 'string') return false
  const verified = u.email_verified
  return !missing(u, 'email_verified', verified) && typeof verified === 'boolean'
}

const isMembership = (u: unknown): boolean => {
  if (!isJsonObject(u)) return false
  const role = u.role
  if (missing(u, 'role', role) || !isRole(role)) return false
  const permissions = u.permissions
  return !missing(u, 'permissions', permissions) && isStrings(permissions)
}

/**
 * What the server resolved from the API key (contract section 2).
 *
 * @example
 * Session.is({ user: null, memberships: {} }) //=> true
 * Session.is({ user: null, memberships: { 'c-1': { role: 'Admin', permissions: [] } } }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const Session = /*#__PURE__*/ withGuard(
  sessionCodec,
  // Written out for speed: the guard of `sessionCodec`, read for read (test/json/guards.test.ts).
  (u): u is t.TypeOf<typeof sessionCodec> => {
    if (!isJsonObject(u)) return false
    const user = u.user
    if (missing(u, 'user', user) || !(user === null || isUser(user))) return false
    const memberships = u.memberships
    return (
      !missing(u, 'memberships', memberships) &&
      isJsonObject(memberships) &&
      Object.keys(memberships).every((k) => isMembership(memberships[k]))
    )
  }
)

/**
 * The user the key resolved to (null: unknown, revoked or absent key) and their memberships,
 * by company id.
 *
 * @category model
 * @since 0.1.0
 */
export type Session = t.TypeOf<typeof Session>

/**
 * An authenticated caller in the scope of one company.
 *
 * @example
 * authenticate({ headers }, session).result
 * //=> right({ company_id: 'c-1', caller: { user_id: 'u-1', role: 'admin', permissions: [] } })
 *
 * @category model
 * @since 0.1.0
 */
export interface Scope {
  readonly company_id: string
  readonly caller: Caller
}

/**
 * A verified user, before any company is chosen.
 *
 * @example
 * identify({ headers: { Authorization: 'Bearer k' } }, session).result //=> right({ user_id: 'u-1' })
 *
 * @category model
 * @since 0.1.0
 */
export interface Identity {
  readonly user_id: string
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** `Bearer` in any case, then one token of visible characters: the key. */
const BEARER = /^bearer +([!-~]+) *$/i

/**
 * The key of an `Authorization: Bearer <key>` header, as rule `auth.bearer` reads it (scheme in
 * any case, one token of visible ASCII), or undefined: the one reading of a bearer key, for a
 * server that looks the key's session up as for the rules.
 *
 * @example
 * bearerKey({ Authorization: 'bearer  sk_live_7 ' }) //=> 'sk_live_7'
 * bearerKey({ Authorization: 'Bearer sk live' }) //=> undefined
 * bearerKey({}) //=> undefined
 *
 * @category rules
 * @since 0.4.0
 */
export const bearerKey = (headers: Request['headers']): string | undefined => {
  const authorization = headerOf(headers, 'authorization')
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]
}

/**
 * Rows 1 and 2: a bearer key that resolved to a user whose email is verified. Enough for
 * endpoints without company-id (GET /v1/companies).
 *
 * @example
 * identify({ headers: { Authorization: 'Basic k' } }, session).result
 * //=> left({ _tag: 'Unauthenticated', rule: 'auth.bearer', detail: 'Authorization is not of the form "Bearer <key>"' })
 *
 * @category rules
 * @since 0.1.0
 */
export const identify = (request: Request, session: Session): Trail<Identity> => {
  const reasons: Array<Reason> = []
  return { reasons, result: identifyInto(reasons, request, session) }
}

/** {@link identify}, its reasons appended to `reasons`: a facade keeps one list, and no trail is made per step. */
const identifyInto = (reasons: Array<Reason>, request: Request, session: Session): E.Either<Problem, Identity> => {
  const authorization = headerOf(request.headers, 'authorization')
  if (authorization === undefined)
    return recordInto(reasons, fail(problem.unauthenticated('auth.bearer', 'no Authorization header')))
  if (!BEARER.test(authorization))
    return recordInto(reasons, fail(problem.unauthenticated('auth.bearer', 'Authorization is not of the form "Bearer <key>"')))
  const user = session.user
  if (user === null) return recordInto(reasons, fail(problem.unauthenticated('auth.bearer', 'the key resolved to no user')))
  reasons.push({ rule: 'auth.bearer', detail: `key of user ${user.id}` })
  if (!user.email_verified)
    return recordInto(
      reasons,
      fail(problem.emailNotVerified('auth.email_verified', `user ${user.id} has not verified their email`))
    )
  reasons.push({ rule: 'auth.email_verified', detail: 'email verified' })
  return E.right({ user_id: user.id })
}

/**
 * Rows 1 to 4: an authenticated member of the company that company-id names.
 *
 * @example
 * authenticate({ headers: { ...headers, 'company-id': 'c-2' } }, session).result
 * //=> left({ _tag: 'NotFound', rule: 'auth.membership', detail: 'user u-1 is not a member of company c-2' })
 *
 * @category rules
 * @since 0.1.0
 */
export const authenticate = (request: Request, session: Session): Trail<Scope> => {
  const reasons: Array<Reason> = []
  return { reasons, result: authenticateInto(reasons, request, session) }
}

/**
 * {@link authenticate}, its reasons appended to `reasons`: statements over one list, not a chain
 * of trails, as every request passes here.
 *
 * @example
 * const reasons: Array<Reason> = []
 * authenticateInto(reasons, { headers }, session)
 * //=> right({ company_id: 'c-1', caller: { user_id: 'u-1', role: 'admin', permissions: [] } })
 * reasons.map((r) => r.rule) //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership']
 *
 * @category rules
 * @since 0.3.0
 */
export const authenticateInto = (reasons: Array<Reason>, request: Request, session: Session): E.Either<Problem, Scope> => {
  const id = identifyInto(reasons, request, session)
  if (E.isLeft(id)) return id
  const companyId = headerOf(request.headers, 'company-id')?.trim() ?? ''
  if (companyId === '') return recordInto(reasons, fail(problem.unauthenticated('auth.company_header', 'no company-id header')))
  reasons.push({ rule: 'auth.company_header', detail: `company ${companyId}` })
  const membership = hasOwn(session.memberships, companyId) ? session.memberships[companyId] : undefined
  if (membership === undefined)
    return recordInto(
      reasons,
      fail(problem.notFound('auth.membership', `user ${id.right.user_id} is not a member of company ${companyId}`))
    )
  reasons.push({ rule: 'auth.membership', detail: `role ${membership.role}` })
  return E.right({
    company_id: companyId,
    caller: { user_id: id.right.user_id, role: membership.role, permissions: membership.permissions }
  })
}

/**
 * Row 5: the budget the path names exists in the caller's company. Only `company_id` is read:
 * a budget of another company gets the very reply of a budget that does not exist, whatever
 * else it holds, malformed or not.
 *
 * @example
 * const scope = { company_id: 'c-1', caller: { user_id: 'u-1', role: 'admin', permissions: [] } } as const
 * budgetInScope(scope, budget).result //=> right(budget)
 * budgetInScope(scope, { ...budget, company_id: 'c-2' }).result
 * //=> left({ _tag: 'NotFound', rule: 'budget.scope', detail: 'budget b-1 belongs to another company' })
 *
 * @category rules
 * @since 0.1.0
 */
export const budgetInScope = <B extends { readonly id: unknown; readonly company_id: unknown }>(
  scope: Scope,
  budget: B | null
): Trail<B> => {
  if (budget === null) return fail(problem.notFound('budget.scope', 'no budget with that id'))
  const id = typeof budget.id === 'string' ? budget.id : describeValue(budget.id)
  return budget.company_id !== scope.company_id
    ? fail(problem.notFound('budget.scope', `budget ${id} belongs to another company`))
    : pass('budget.scope', `budget ${id}`, budget)
}
