import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isRole, roles } from '../../src/auth/role'
import { Role } from '../../src/auth/session'

// The plain check the UI's rules use and the io-ts codec built from the same list.
describe('isRole', () => {
  it('holds of exactly the three roles', () => {
    expect(roles).toEqual(['owner', 'admin', 'member'])
    expect(roles.map(isRole)).toEqual([true, true, true])
  })

  it.each<unknown>([
    'Owner',
    'ADMIN',
    ' member',
    'member ',
    '',
    'toString',
    '__proto__',
    'hasOwnProperty',
    null,
    undefined,
    0,
    ['owner'],
    { role: 'owner' },
    new String('owner'),
    Symbol('owner')
  ])('does not hold of %s', (u) => {
    expect(isRole(u)).toBe(false)
  })

  it('is the codec: the same keys in the same order, the same answer for anything', () => {
    expect(Object.keys(Role.keys)).toEqual(roles)
    expect(Role.name).toBe('Role')
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom<unknown>(...roles, 'Admin', 'constructor'), fc.anything()), (u) => {
        expect(isRole(u)).toBe(Role.is(u))
      })
    )
  })
})
