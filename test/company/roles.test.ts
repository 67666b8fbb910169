/**
 * The owner role guard (spec section 5, R-70): only exactly `owner`, `admin` and `member` are
 * roles, and only an owner makes owners. A role outside the type is a TypeError in the typed
 * rule; the 422 belongs to the facade.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Caller, guardRoleAssignment } from '../api'
import { runs } from '../runs'
import { thrown } from '../thrown'

const callerWith = (role: unknown): Caller => ({ user_id: 'u-1', role, permissions: [] }) as unknown as Caller
const OWNER_REQUIRED = {
  _tag: 'Left',
  left: {
    _tag: 'Forbidden',
    rule: 'role.owner',
    error_code: 'roles/owner_required',
    message: 'Only an owner can assign the owner role',
    detail: 'Only an owner can assign the owner role'
  }
}
const ROLE_MESSAGE = 'guardRoleAssignment: role must be exactly owner, admin or member, not '
const CALLER_ROLE_MESSAGE = 'guardRoleAssignment: caller.role must be exactly owner, admin or member, not '

describe('guardRoleAssignment: who may assign which role', () => {
  // caller role, assigned role, result: a table written out, one row per pair.
  it.each<[string, string, object]>([
    ['owner', 'owner', { _tag: 'Right', right: 'owner' }],
    ['owner', 'admin', { _tag: 'Right', right: 'admin' }],
    ['owner', 'member', { _tag: 'Right', right: 'member' }],
    ['admin', 'owner', OWNER_REQUIRED],
    ['admin', 'admin', { _tag: 'Right', right: 'admin' }],
    ['admin', 'member', { _tag: 'Right', right: 'member' }],
    ['member', 'owner', OWNER_REQUIRED],
    ['member', 'admin', { _tag: 'Right', right: 'admin' }],
    ['member', 'member', { _tag: 'Right', right: 'member' }]
  ])('a caller who is %s assigning %s', (callerRole, role, expected) => {
    expect(guardRoleAssignment(callerWith(callerRole), role as never)).toEqual(expected)
  })
})

describe('guardRoleAssignment: values that are not roles are TypeErrors naming them (R-19, R-70)', () => {
  it.each<[unknown, string]>([
    ['Owner', '"Owner"'],
    ['OWNER', '"OWNER"'],
    [' owner', '" owner"'],
    ['owner ', '"owner "'],
    ['admin\n', '"admin\\n"'],
    ['member\u0000', '"member\\u0000"'],
    ['\u043ewner', '"оwner"'], // a Cyrillic o
    ['', '""'],
    ['manager', '"manager"'],
    [null, 'null'],
    [undefined, 'undefined'],
    [1, '1'],
    [['owner'], 'an array'],
    [{ role: 'owner' }, 'an object'],
    [() => 'owner', 'a function'],
    [Symbol('owner'), 'a symbol'],
    [1n, '1n']
  ])('refuses the role %s', (role, shown) => {
    for (const callerRole of ['owner', 'admin', 'member']) {
      const e = thrown(() => guardRoleAssignment(callerWith(callerRole), role as never))
      expect([e instanceof TypeError, (e as Error).message]).toEqual([true, ROLE_MESSAGE + shown])
    }
  })

  it.each<[unknown, string]>([
    ['Owner', '"Owner"'],
    [' owner', '" owner"'],
    [null, 'null'],
    [undefined, 'undefined']
  ])('refuses a caller whose role is %j, whatever the role assigned', (callerRole, shown) => {
    for (const role of ['owner', 'admin', 'member']) {
      const e = thrown(() => guardRoleAssignment(callerWith(callerRole), role as never))
      expect([e instanceof TypeError, (e as Error).message]).toEqual([true, CALLER_ROLE_MESSAGE + shown])
    }
  })

  it('refuses a caller that is not an object', () => {
    for (const [caller, shown] of [
      [null, 'null'],
      [undefined, 'undefined'],
      ['owner', '"owner"']
    ] as const) {
      const e = thrown(() => guardRoleAssignment(caller as never, 'member'))
      expect([e instanceof TypeError, (e as Error).message]).toEqual([
        true,
        `guardRoleAssignment: caller must be an object, not ${shown}`
      ])
    }
  })

  it('takes exactly the three roles among near misses and any string', () => {
    const ROLES = ['owner', 'admin', 'member']
    // Near misses by construction: a role with its case changed, or a character added around it.
    const nearMiss = fc
      .tuple(
        fc.constantFrom(...ROLES),
        fc.constantFrom('upper', 'capital', 'before', 'after'),
        fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u200b', 'x', '"')
      )
      .map(([r, how, c]) =>
        how === 'upper'
          ? r.toUpperCase()
          : how === 'capital'
            ? `${r.charAt(0).toUpperCase()}${r.slice(1)}`
            : how === 'before'
              ? c + r
              : r + c
      )
    const role = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...ROLES) },
      { weight: 1, arbitrary: nearMiss },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }
    )
    const counts = { granted: 0, refused: 0 }
    fc.assert(
      fc.property(role, (r) => {
        const e = thrown(() => guardRoleAssignment(callerWith('owner'), r as never))
        if (ROLES.includes(r)) {
          expect(e).toBeUndefined()
          counts.granted++
        } else {
          expect([e instanceof TypeError, (e as Error).message]).toEqual([true, ROLE_MESSAGE + JSON.stringify(r)])
          counts.refused++
        }
      }),
      { numRuns: runs(300) }
    )
    // Each branch is about half the runs by construction.
    expect(Math.min(counts.granted, counts.refused) / (counts.granted + counts.refused)).toBeGreaterThanOrEqual(0.25)
  })
})
