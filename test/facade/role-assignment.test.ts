/**
 * respondRoleAssignment (contract R-70, ADR 0070): contract section 4 rows 1-4, the path's user
 * a member (when the server passes the members), only an owner or admin (401), a JSON object
 * body (400), `role` exactly one of the three (422), `owner` only by an owner (403), then 200
 * `{user_id, role}`. Every row as an example with its whole reply; then a plain model of the
 * decision against the facade; then hostile input.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { respondRoleAssignment, type RoleAssignmentContext } from '../api'
import { RoleAssignmentContext as RoleAssignmentCodec } from '../../src/facade/role-assignment'
import { tally } from '../arbitraries'
import { runs } from '../runs'
import { thrown } from '../thrown'

type Role = 'owner' | 'admin' | 'member'

const REQUEST_ID = 'req-r'
const JSON_HEADERS = { 'X-Request-Id': REQUEST_ID, 'Content-Type': 'application/json; charset=utf-8' }
const EMPTY_HEADERS = { 'X-Request-Id': REQUEST_ID }
const HEADERS = { Authorization: 'Bearer key-1', 'company-id': 'c-1' }

const sessionOf = (role: Role, permissions: ReadonlyArray<string> = []) => ({
  user: { id: 'u-caller', email_verified: true },
  memberships: { 'c-1': { role, permissions: [...permissions] } }
})

const context = (role: Role, body: string | undefined, extra: Partial<RoleAssignmentContext> = {}): RoleAssignmentContext => ({
  request: body === undefined ? { headers: HEADERS } : { headers: HEADERS, body },
  session: sessionOf(role),
  user_id: 'u-2',
  request_id: REQUEST_ID,
  ...extra
})

/** Contract section 4 rows 1-4 passed by a caller of `role` in company c-1. */
const authenticated = (role: Role) => [
  { rule: 'auth.bearer', detail: 'key of user u-caller' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: `role ${role}` }
]

/** Up to the role's value: authenticated, allowed, a JSON object body. */
const upToValue = (role: Role) => [
  ...authenticated(role),
  { rule: 'role.permission', detail: `role ${role}` },
  { rule: 'role.body', detail: 'a JSON object' }
]

const NOT_FOUND = { error: 'not_found', message: 'Not found' }
const GUARD = { message: 'Unauthorized (401)' }
const OWNER_REQUIRED = { error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role' }
const BLANK = "can't be blank"
const NOT_IN_LIST = 'is not included in the list'

describe('respondRoleAssignment: contract section 4 first', () => {
  it('row 1: no Authorization is a 401 with an empty body', () => {
    expect(
      respondRoleAssignment({
        ...context('owner', '{"role":"admin"}'),
        request: { headers: { 'company-id': 'c-1' }, body: '{"role":"admin"}' }
      })
    ).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it('row 1: a key that resolved to no user is a 401 with an empty body', () => {
    expect(respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), session: { user: null, memberships: {} } })).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'the key resolved to no user' }]
    })
  })

  it('row 2: an unverified email is a 401 email_not_verified', () => {
    const session = { user: { id: 'u-caller', email_verified: false }, memberships: sessionOf('owner').memberships }
    expect(respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), session })).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: { error: 'email_not_verified', message: 'Email address not verified' },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'user u-caller has not verified their email' }
      ]
    })
  })

  it('row 3: no company-id is a 401 with an empty body (the endpoint requires it)', () => {
    expect(
      respondRoleAssignment({
        ...context('owner', '{"role":"admin"}'),
        request: { headers: { Authorization: 'Bearer key-1' }, body: '{"role":"admin"}' }
      })
    ).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'no company-id header' }
      ]
    })
  })

  it('row 4: a company the caller is not a member of is a 404', () => {
    expect(
      respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), session: { ...sessionOf('owner'), memberships: {} } })
    ).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'company c-1' },
        { rule: 'auth.membership', detail: 'user u-caller is not a member of company c-1' }
      ]
    })
  })

  it('reads headers given as a Fetch Headers object', () => {
    const r = respondRoleAssignment({
      ...context('owner', '{"role":"admin"}'),
      request: { headers: new Headers(HEADERS), body: '{"role":"admin"}' }
    })
    expect([r.status, r.body]).toEqual([200, { user_id: 'u-2', role: 'admin' }])
  })
})

describe('respondRoleAssignment: row 5, the path names a member (company_member_ids given)', () => {
  it('a user who is not a member is a 404, byte for byte the reply of row 4', () => {
    const r = respondRoleAssignment(context('owner', '{"role":"admin"}', { company_member_ids: ['u-caller', 'u-3'] }))
    expect(r).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [...authenticated('owner'), { rule: 'role.member', detail: 'user u-2 is not a member of company c-1' }]
    })
    const row4 = respondRoleAssignment({
      ...context('owner', '{"role":"admin"}'),
      session: { ...sessionOf('owner'), memberships: {} }
    })
    expect([r.status, r.headers, JSON.stringify(r.body)]).toEqual([row4.status, row4.headers, JSON.stringify(row4.body)])
  })

  it("comes before the caller's rights: a member naming a non-member gets the 404, not the 401", () => {
    const r = respondRoleAssignment(context('member', 'not json', { company_member_ids: [] }))
    expect([r.status, r.reasons.at(-1)]).toEqual([
      404,
      { rule: 'role.member', detail: 'user u-2 is not a member of company c-1' }
    ])
  })

  it('a member passes, and the rule is among the reasons', () => {
    expect(respondRoleAssignment(context('owner', '{"role":"member"}', { company_member_ids: ['u-2'] }))).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: { user_id: 'u-2', role: 'member' },
      reasons: [
        ...authenticated('owner'),
        { rule: 'role.member', detail: 'user u-2 is a member of company c-1' },
        { rule: 'role.permission', detail: 'role owner' },
        { rule: 'role.body', detail: 'a JSON object' },
        { rule: 'role.validation', detail: 'role member' },
        { rule: 'role.owner', detail: 'assigning member needs no owner' }
      ]
    })
  })
})

describe('respondRoleAssignment: row 6, only an owner or admin', () => {
  it.each([[[] as string[]], [['budgets_manage']], [['roles_manage', 'budgets_manage']]])(
    "a member (permissions %j) gets the guard's 401, whatever the body",
    (permissions) => {
      const r = respondRoleAssignment({ ...context('member', 'not even json'), session: sessionOf('member', permissions) })
      expect(r).toEqual({
        status: 401,
        headers: JSON_HEADERS,
        body: GUARD,
        reasons: [
          ...authenticated('member'),
          { rule: 'role.permission', detail: 'user u-caller (role member) may not assign roles' }
        ]
      })
    }
  )
})

describe('respondRoleAssignment: row 7, the body is a JSON object', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'The body is not valid JSON'],
    ['', 'The body is not valid JSON'],
    ['   ', 'The body is not valid JSON'],
    ['{"role": "admin"', 'The body is not valid JSON'],
    ["{'role': 'admin'}", 'The body is not valid JSON'],
    ['admin', 'The body is not valid JSON'],
    ['"admin"', 'The body must be a JSON object'],
    ['["admin"]', 'The body must be a JSON object'],
    ['null', 'The body must be a JSON object'],
    ['42', 'The body must be a JSON object']
  ])('the body %j is a 400', (body, message) => {
    expect(respondRoleAssignment(context('admin', body))).toEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message },
      reasons: [
        ...authenticated('admin'),
        { rule: 'role.permission', detail: 'role admin' },
        { rule: 'role.body', detail: message }
      ]
    })
  })
})

describe('respondRoleAssignment: row 8, role exactly owner, admin or member', () => {
  it.each<[string, string]>([
    ['{}', BLANK],
    ['{"role": null}', BLANK],
    ['{"user_id": "u-2", "roles": "admin"}', BLANK],
    ['{"__proto__": {"role": "owner"}}', BLANK],
    ['{"role": "Owner"}', NOT_IN_LIST],
    ['{"role": "ADMIN"}', NOT_IN_LIST],
    ['{"role": " member"}', NOT_IN_LIST],
    ['{"role": "owner "}', NOT_IN_LIST],
    ['{"role": "admin\\n"}', NOT_IN_LIST],
    ['{"role": "\\u043ewner"}', NOT_IN_LIST],
    ['{"role": ""}', NOT_IN_LIST],
    ['{"role": "manager"}', NOT_IN_LIST],
    ['{"role": 1}', NOT_IN_LIST],
    ['{"role": true}', NOT_IN_LIST],
    ['{"role": ["admin"]}', NOT_IN_LIST],
    ['{"role": {"name": "admin"}}', NOT_IN_LIST]
  ])('the body %s is a 422 on role', (body, message) => {
    expect(respondRoleAssignment(context('owner', body))).toEqual({
      status: 422,
      headers: JSON_HEADERS,
      body: { errors: { role: [message] } },
      reasons: [...upToValue('owner'), { rule: 'role.validation', detail: `role: ${message}` }]
    })
  })

  it('comes before the owner guard: an admin sending "Owner" gets the 422, not the 403', () => {
    expect(respondRoleAssignment(context('admin', '{"role":"Owner"}')).status).toBe(422)
  })
})

describe('respondRoleAssignment: row 9, only an owner makes owners', () => {
  it('an admin assigning owner gets the 403 roles/owner_required', () => {
    expect(respondRoleAssignment(context('admin', '{"role":"owner"}'))).toEqual({
      status: 403,
      headers: JSON_HEADERS,
      body: OWNER_REQUIRED,
      reasons: [
        ...upToValue('admin'),
        { rule: 'role.validation', detail: 'role owner' },
        { rule: 'role.owner', detail: 'Only an owner can assign the owner role' }
      ]
    })
  })
})

describe('respondRoleAssignment: row 10, the assignment', () => {
  it.each<[Role, Role, string]>([
    ['owner', 'owner', 'an owner assigns the owner role'],
    ['owner', 'admin', 'assigning admin needs no owner'],
    ['owner', 'member', 'assigning member needs no owner'],
    ['admin', 'admin', 'assigning admin needs no owner'],
    ['admin', 'member', 'assigning member needs no owner']
  ])('a caller who is %s assigning %s gets 200 {user_id, role}', (caller, role, detail) => {
    expect(respondRoleAssignment(context(caller, JSON.stringify({ role })))).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: { user_id: 'u-2', role },
      reasons: [...upToValue(caller), { rule: 'role.validation', detail: `role ${role}` }, { rule: 'role.owner', detail }]
    })
  })

  it("ignores other keys: the user is the path's, not the body's", () => {
    const r = respondRoleAssignment(context('owner', '{"role":"admin","user_id":"u-9","permissions":["all"]}'))
    expect([r.status, r.body]).toEqual([200, { user_id: 'u-2', role: 'admin' }])
  })
})

describe('respondRoleAssignment: malformed server input is a 500', () => {
  const internal = (detail: string, message: string, requestId = REQUEST_ID) => ({
    status: 500,
    headers: { 'X-Request-Id': requestId, 'Content-Type': 'application/json; charset=utf-8' },
    body: { error: 'internal_error', message },
    reasons: [{ rule: 'server.input', detail }]
  })

  it.each<[string, Partial<Record<keyof RoleAssignmentContext, unknown>>, string, string]>([
    [
      'an empty user_id',
      { user_id: '' },
      'malformed server input at user_id',
      'Internal server error: user_id: user_id must be a non-empty string'
    ],
    [
      'a user_id that is a number',
      { user_id: 2 },
      'malformed server input at user_id',
      'Internal server error: user_id: user_id must be a non-empty string'
    ],
    [
      'company_member_ids not a list',
      { company_member_ids: 'u-2' },
      'malformed server input at company_member_ids',
      'Internal server error: company_member_ids is "u-2", not a list of strings'
    ],
    [
      'company_member_ids with a number',
      { company_member_ids: ['u-2', 3] },
      'malformed server input at company_member_ids',
      'Internal server error: company_member_ids[1] is 3, not a string'
    ],
    [
      'a session whose role is not a role',
      { session: { user: { id: 'u', email_verified: true }, memberships: { 'c-1': { role: 'Owner', permissions: [] } } } },
      'malformed server input at session.memberships.c-1.role',
      'Internal server error: session.memberships.c-1.role is "Owner", not one of owner, admin, member'
    ]
  ])('%s', (_, patch, detail, message) => {
    expect(respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), ...patch } as RoleAssignmentContext)).toEqual(
      internal(detail, message)
    )
  })

  it('the codec of the context tells the same contexts apart as the facade', () => {
    expect(RoleAssignmentCodec.is(context('owner', '{"role":"admin"}', { company_member_ids: ['u-2'] }))).toBe(true)
    expect(RoleAssignmentCodec.is({ ...context('owner', '{"role":"admin"}'), user_id: '' })).toBe(false)
    expect(RoleAssignmentCodec.is({ ...context('owner', '{"role":"admin"}'), user_id: 2 })).toBe(false)
  })

  it('echoes an empty X-Request-Id when request_id is not a string', () => {
    expect(
      respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), request_id: 7 } as unknown as RoleAssignmentContext)
    ).toEqual(internal('malformed server input at request_id', 'Internal server error: request_id is 7, not a string', ''))
  })

  it('a getter that throws is a 500 server.unexpected, never an exception', () => {
    const ctx = { ...context('owner', '{"role":"admin"}') }
    Object.defineProperty(ctx, 'session', {
      enumerable: true,
      get() {
        throw new Error('session store down')
      }
    })
    expect(respondRoleAssignment(ctx)).toEqual({
      ...internal('', 'Internal server error'),
      reasons: [{ rule: 'server.unexpected', detail: 'session store down' }]
    })
  })
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/** How the caller arrives: authenticated, or refused by one of the rows of section 4. */
type Arrival = 'ok' | 'no-authorization' | 'not-bearer' | 'no-user' | 'unverified' | 'no-company' | 'not-member'

/** What the body holds, by construction. */
type Sent =
  | { readonly kind: 'role'; readonly role: Role }
  | { readonly kind: 'blank'; readonly value: null | undefined }
  | { readonly kind: 'not-a-role'; readonly value: unknown }
  | { readonly kind: 'not-an-object'; readonly text: string }
  | { readonly kind: 'not-json'; readonly text: string | undefined }

interface Case {
  readonly arrival: Arrival
  readonly caller: Role
  readonly permissions: ReadonlyArray<string>
  /** undefined: no member list; otherwise whether the path's user is in it. */
  readonly listed: boolean | undefined
  readonly sent: Sent
  readonly others: Readonly<Record<string, unknown>>
}

const roleArb: fc.Arbitrary<Role> = fc.constantFrom('owner', 'admin', 'member')

/** Values that are not roles: near misses by case, spaces and look-alikes, and other JSON types. */
const notARole = fc.oneof(
  fc.constantFrom(
    'Owner',
    'OWNER',
    'Admin',
    'MEMBER',
    ' owner',
    'admin ',
    '\towner',
    'member\n',
    '\u043ewner',
    'adm1n',
    '',
    'manager',
    'owners'
  ),
  fc.string().filter((s) => s !== 'owner' && s !== 'admin' && s !== 'member'),
  fc.integer(),
  fc.boolean(),
  fc.array(roleArb, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('role', 'name'), roleArb)
)

const sentArb: fc.Arbitrary<Sent> = fc.oneof(
  { arbitrary: roleArb.map((role) => ({ kind: 'role' as const, role })), weight: 8 },
  { arbitrary: fc.constantFrom(null, undefined).map((value) => ({ kind: 'blank' as const, value })), weight: 1 },
  { arbitrary: notARole.map((value) => ({ kind: 'not-a-role' as const, value })), weight: 2 },
  {
    arbitrary: fc
      .oneof(
        fc.constant('null'),
        fc.constant('[]'),
        fc.integer().map(String),
        fc.string().map((s) => JSON.stringify(s)),
        fc.array(fc.jsonValue(), { maxLength: 3 }).map((a) => JSON.stringify(a))
      )
      .map((text) => ({ kind: 'not-an-object' as const, text })),
    weight: 1
  },
  {
    arbitrary: fc
      .oneof(
        fc.constant(undefined),
        fc.constantFrom('', ' ', '{', '{"role":', "{'role':'admin'}", 'role=admin', 'undefined', '{"role":"admin",}')
      )
      .map((text) => ({ kind: 'not-json' as const, text })),
    weight: 1
  }
)

/** Keys other than `role`; never `__proto__`, which a literal would turn into a prototype. */
const othersArb = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => k !== 'role' && k !== '__proto__'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 }
)

/**
 * Most runs reach the role: 19 in 20 arrive authenticated, 6 in 7 name a listed user or give no
 * list, 5 in 6 come from an owner or admin, 11 in 13 send a JSON object (about 57% in all).
 */
const caseArb: fc.Arbitrary<Case> = fc.record({
  arrival: fc.oneof(
    { arbitrary: fc.constant<Arrival>('ok'), weight: 19 },
    {
      arbitrary: fc.constantFrom<Arrival>('no-authorization', 'not-bearer', 'no-user', 'unverified', 'no-company', 'not-member'),
      weight: 1
    }
  ),
  caller: fc.oneof(
    { arbitrary: fc.constantFrom<Role>('owner', 'admin'), weight: 5 },
    { arbitrary: fc.constant<Role>('member'), weight: 1 }
  ),
  permissions: fc.subarray(['budgets_manage', 'roles_manage']),
  listed: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constant(true), weight: 3 },
    { arbitrary: fc.constant(false), weight: 1 }
  ),
  sent: sentArb,
  others: othersArb
})

const bodyText = (c: Case): string | undefined => {
  switch (c.sent.kind) {
    case 'role':
      return JSON.stringify({ ...c.others, role: c.sent.role })
    case 'blank':
      return JSON.stringify(c.sent.value === undefined ? c.others : { ...c.others, role: null })
    case 'not-a-role':
      return JSON.stringify({ ...c.others, role: c.sent.value })
    case 'not-an-object':
    case 'not-json':
      return c.sent.text
  }
}

const contextOf = (c: Case): RoleAssignmentContext => {
  const authorization =
    c.arrival === 'no-authorization' ? {} : { Authorization: c.arrival === 'not-bearer' ? 'Basic a2V5' : 'bearer  key-1' }
  const company = c.arrival === 'no-company' ? {} : { 'Company-Id': 'c-1' }
  const body = bodyText(c)
  return {
    request:
      body === undefined ? { headers: { ...authorization, ...company } } : { headers: { ...authorization, ...company }, body },
    session:
      c.arrival === 'no-user'
        ? { user: null, memberships: {} }
        : {
            user: { id: 'u-caller', email_verified: c.arrival !== 'unverified' },
            memberships: { [c.arrival === 'not-member' ? 'c-9' : 'c-1']: { role: c.caller, permissions: [...c.permissions] } }
          },
    user_id: 'u-2',
    request_id: REQUEST_ID,
    ...(c.listed === undefined ? {} : { company_member_ids: c.listed ? ['u-caller', 'u-2'] : ['u-caller'] })
  }
}

/** The model: contract section 4, then R-70 in the order ADR 0070 lists, written from the case. */
const expected = (c: Case): { status: number; body: unknown; rule: string } => {
  switch (c.arrival) {
    case 'no-authorization':
    case 'not-bearer':
    case 'no-user':
      return { status: 401, body: null, rule: 'auth.bearer' }
    case 'unverified':
      return {
        status: 401,
        body: { error: 'email_not_verified', message: 'Email address not verified' },
        rule: 'auth.email_verified'
      }
    case 'no-company':
      return { status: 401, body: null, rule: 'auth.company_header' }
    case 'not-member':
      return { status: 404, body: NOT_FOUND, rule: 'auth.membership' }
    case 'ok':
      break
  }
  if (c.listed === false) return { status: 404, body: NOT_FOUND, rule: 'role.member' }
  if (c.caller === 'member') return { status: 401, body: GUARD, rule: 'role.permission' }
  switch (c.sent.kind) {
    case 'not-json':
      return { status: 400, body: { error: 'bad_request', message: 'The body is not valid JSON' }, rule: 'role.body' }
    case 'not-an-object':
      return { status: 400, body: { error: 'bad_request', message: 'The body must be a JSON object' }, rule: 'role.body' }
    case 'blank':
      return { status: 422, body: { errors: { role: [BLANK] } }, rule: 'role.validation' }
    case 'not-a-role':
      return { status: 422, body: { errors: { role: [NOT_IN_LIST] } }, rule: 'role.validation' }
    case 'role':
      return c.sent.role === 'owner' && c.caller !== 'owner'
        ? { status: 403, body: OWNER_REQUIRED, rule: 'role.owner' }
        : { status: 200, body: { user_id: 'u-2', role: c.sent.role }, rule: 'role.owner' }
  }
}

describe('respondRoleAssignment: properties', () => {
  it('agrees with a plain model of R-70 on status, body, headers and the deciding rule; most runs reach the role', () => {
    const reached = tally()
    const seen = new Set<number>()
    fc.assert(
      fc.property(caseArb, (c) => {
        reached.run()
        const r = respondRoleAssignment(contextOf(c))
        const e = expected(c)
        expect({ status: r.status, body: r.body, rule: r.reasons.at(-1)?.rule }).toEqual(e)
        expect(r.headers).toEqual(e.body === null ? EMPTY_HEADERS : JSON_HEADERS)
        seen.add(r.status)
        if (r.reasons.some((x) => x.rule === 'role.validation')) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
    expect([...seen].sort()).toEqual([200, 401, 403, 404, 400, 422].sort())
  })

  it('a 200 happens exactly when an owner, or an admin for a role other than owner, sends a role', () => {
    const reached = tally()
    fc.assert(
      // Owners in half the runs: two runs in three are granted (owner, or admin for admin or member).
      fc.property(fc.constantFrom<Role>('owner', 'owner', 'admin', 'member'), roleArb, othersArb, (caller, role, others) => {
        reached.run()
        const r = respondRoleAssignment(context(caller, JSON.stringify({ ...others, role })))
        const granted = caller === 'owner' || (caller === 'admin' && role !== 'owner')
        expect(r.status).toBe(granted ? 200 : caller === 'member' ? 401 : 403)
        if (r.status === 200) {
          reached.reach()
          expect(r.body).toEqual({ user_id: 'u-2', role })
        }
      }),
      { numRuns: runs(300) }
    )
    reached.expectShare()
  })
})

describe('respondRoleAssignment: hostile input', () => {
  it('never throws on any body, and answers it with a status of R-70', () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.oneof(
            fc.string(),
            fc.json(),
            fc.jsonValue().map((v) => JSON.stringify({ role: v }))
          ),
          { nil: undefined }
        ),
        roleArb,
        (body, caller) => {
          const r = respondRoleAssignment(context(caller, body))
          expect([200, 400, 401, 403, 422]).toContain(r.status)
        }
      ),
      { numRuns: runs(500) }
    )
  })

  it('never throws on any context: anything but the documented shape is a 500', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const r = thrown(() => respondRoleAssignment(junk as RoleAssignmentContext))
        expect(r).toBeUndefined()
        expect(respondRoleAssignment(junk as RoleAssignmentContext).status).toBe(500)
      }),
      { numRuns: runs(300) }
    )
  })

  it('never throws when any part of a valid context is replaced by any value', () => {
    const keys = ['request', 'session', 'user_id', 'request_id', 'company_member_ids'] as const
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.anything(), (key, value) => {
        const r = respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), [key]: value })
        expect(typeof r.status).toBe('number')
        expect(r.headers['X-Request-Id']).toBe(key === 'request_id' ? (typeof value === 'string' ? value : '') : REQUEST_ID)
      }),
      { numRuns: runs(500) }
    )
  })

  it('a proxy that throws on every trap, anywhere in the context, is a 500', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap')
        },
        ownKeys() {
          throw new Error('trap')
        },
        getOwnPropertyDescriptor() {
          throw new Error('trap')
        },
        has() {
          throw new Error('trap')
        },
        getPrototypeOf() {
          throw new Error('trap')
        }
      }
    )
    for (const ctx of [
      hostile,
      { ...context('owner', '{"role":"admin"}'), session: hostile },
      { ...context('owner', '{"role":"admin"}'), request: hostile },
      { ...context('owner', '{"role":"admin"}'), company_member_ids: hostile }
    ])
      expect(respondRoleAssignment(ctx as RoleAssignmentContext).status).toBe(500)
    // Headers whose keys cannot be listed are malformed server input too.
    expect(respondRoleAssignment({ ...context('owner', '{"role":"admin"}'), request: { headers: hostile } }).status).toBe(500)
  })
})
