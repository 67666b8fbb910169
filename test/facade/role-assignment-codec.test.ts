import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { RoleAssignmentContext as RoleAssignmentCodec } from '../../src/facade/role-assignment'

const CONTEXT = {
  request: { headers: {} },
  session: { user: null, memberships: {} },
  request_id: 'req-r'
}

// the user id a server routed on is a non-empty string; the codec says so.
describe('the user_id a server hands respondRoleAssignment', () => {
  it.each<[string, unknown]>([
    ['empty', ''],
    ['a number', 2],
    ['null', null]
  ])('is refused when %s, saying what it must be', (_, user_id) => {
    const decoded = RoleAssignmentCodec.decode({ ...CONTEXT, user_id })
    expect(either.isLeft(decoded) && decoded.left.map((e) => e.message)).toEqual(['user_id must be a non-empty string'])
  })
})
