/**
 * Who calls: sessions as a server resolves them from an API key, and the caller a session
 * gives in one company (contract sections 2 and 4).
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import type { Caller, Role, Session } from '../auth/session'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The callers of the scenarios, by what they may do with budget b-1 of company c-1: `admin`,
 * `owner` and `budgets_manage` have full rights, `manager` and `co_manager` are members
 * named by the budget, `member` is neither.
 *
 * @example
 * import { caller } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(caller(), { numRuns: 30, seed: 1 }).some((c) => c.permissions.includes('budgets_manage'))
 * //=> true
 *
 * @category model
 * @since 0.2.0
 */
export type Who = 'admin' | 'owner' | 'budgets_manage' | 'manager' | 'co_manager' | 'member'

/** Each caller's user id and membership of c-1. */
export const members: {
  readonly [W in Who]: { readonly user_id: string; readonly role: Role; readonly permissions: ReadonlyArray<string> }
} = {
  admin: { user_id: 'u-admin', role: 'admin', permissions: [] },
  owner: { user_id: 'u-owner', role: 'owner', permissions: [] },
  budgets_manage: { user_id: 'u-bm', role: 'member', permissions: ['budgets_manage'] },
  manager: { user_id: 'u-manager', role: 'member', permissions: [] },
  co_manager: { user_id: 'u-comanager', role: 'member', permissions: [] },
  member: { user_id: 'u-member', role: 'member', permissions: [] }
}

/** Every caller, full rights first (so that a failing caller shrinks towards an admin). */
export const who: fc.Arbitrary<Who> = fc.constantFrom('admin', 'owner', 'budgets_manage', 'manager', 'co_manager', 'member')

const role: fc.Arbitrary<Role> = fc.constantFrom('member', 'admin', 'owner')

/** Permissions: none, budgets_manage, or others the budget rules do not read. */
const permissions = fc.subarray(['budgets_manage', 'banking_read', 'cards_manage'])

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/**
 * A caller (`{ user_id, role, permissions }`, contract section 3): every role, with or without
 * `budgets_manage` and permissions the budget rules ignore, user ids drawn from the users
 * budgets name (so a caller is sometimes the manager or co-manager of a {@link budget}).
 *
 * @example
 * import { caller } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * new Set(sample(caller(), { numRuns: 60, seed: 1 }).map((c) => c.role))
 * //=> new Set(['member', 'admin', 'owner'])
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const caller = (): fc.Arbitrary<Caller> =>
  fc.record({
    user_id: fc.constantFrom('u-manager', 'u-comanager', 'u-member', 'u-admin', 'u-owner', 'u-other'),
    role,
    permissions
  })

/**
 * A session (contract section 2): a user with a verified email in most runs, sometimes an
 * unverified one or none (an unknown, revoked or absent key), and memberships of none to all of
 * companies c-1, c-2 and c-3, each any role and permissions.
 *
 * @example
 * import { session } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * const sessions = sample(session(), { numRuns: 100, seed: 1 })
 * sessions.some((s) => s.user === null) && sessions.some((s) => s.user?.email_verified === false)
 * //=> true
 * sessions.every((s) => Object.keys(s.memberships).every((c) => ['c-1', 'c-2', 'c-3'].includes(c)))
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const session = (): fc.Arbitrary<Session> =>
  fc.record({
    user: fc.oneof(
      {
        arbitrary: fc.record({
          id: fc.constantFrom('u-admin', 'u-manager', 'u-member', 'u-other'),
          email_verified: fc.constant(true)
        }),
        weight: 8
      },
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: fc.record({ id: fc.constant('u-member'), email_verified: fc.constant(false) }), weight: 1 }
    ),
    memberships: fc.dictionary(
      fc.constantFrom('c-1', 'c-2', 'c-3'),
      fc.record({ role, permissions: permissions.map((p) => [...p]) }),
      {
        maxKeys: 3,
        noNullPrototype: true
      }
    )
  })
