/**
 * R-128 as issue 36 found it: `{"budget":{"name":"Z\udbff"}}` (the escape as JSON text) was a
 * 200 whose reply and record said `Z\udbff` while PostgreSQL kept `Z\ufffd`. A JSON string that is
 * not well-formed Unicode is refused before anything is decided: a 422 naming the field where a
 * field's rule judges it (a budget's name, description and manager_id, each field of a bank
 * recipient; an enumeration's "is not included in the list"), a 400 `bad_request` anywhere else
 * in the body (a key, a field no rule reads). Every facade that reads a body; whole replies.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type BankRecipientContext,
  respondAmount,
  respondBankRecipient,
  respondBudgetUpdate,
  respondRoleAssignment,
  respondTopUp,
  respondWithdraw,
  type RoleAssignmentContext
} from '../api'
import { adminOnBudget, budget, JSON_HEADERS, patch, refusedUpdate, session } from '../fixtures'
import { runs } from '../runs'

const ILL_FORMED = 'must be well-formed Unicode (no lone surrogate)'
const BAD_BODY = 'The body holds text that is not well-formed Unicode (a lone surrogate)'

const badUpdateBody = {
  status: 400,
  headers: JSON_HEADERS,
  body: { error: 'bad_request', message: BAD_BODY },
  reasons: [
    ...adminOnBudget,
    { rule: 'budget.permission.update', detail: 'full budget rights (role admin)' },
    { rule: 'budget.body.type', detail: BAD_BODY }
  ]
}

describe('respondBudgetUpdate', () => {
  it('the body of issue 36, the escape as JSON text: 422 on name, nothing decided', () => {
    const body = '{"budget":{"name":"Z\\udbff"}}'
    expect(body).toHaveLength(29)
    expect(respondBudgetUpdate(patch('admin', body))).toStrictEqual(refusedUpdate(1, [['name', ILL_FORMED]]))
  })

  it.each<[string, string, string]>([
    ['name', 'A\udc00na', ILL_FORMED],
    ['description', 'Flights \ud83d', ILL_FORMED],
    ['manager_id', 'u-\udbffmember', ILL_FORMED],
    ['access', 'everyone\ud800', 'is not included in the list'],
    ['ends_on', '2027-01-01\ud800', 'is not a valid date (YYYY-MM-DD)'],
    ['recurrence_unit', '\udfff', 'is not included in the list'],
    ['colour', '\ud800', 'is not a field of a budget']
  ])('%s %j: 422 on the field', (field, value, message) => {
    expect(respondBudgetUpdate(patch('admin', { budget: { [field]: value } }))).toStrictEqual(
      refusedUpdate(1, [[field, message]])
    )
  })

  it('manager_id: the text rather than "is not a member of the company" when the members are given', () => {
    const r = respondBudgetUpdate(
      patch('admin', { budget: { manager_id: 'u-member\ud800' } }, budget(), { company_member_ids: ['u-member'] })
    )
    expect(r).toStrictEqual(refusedUpdate(1, [['manager_id', ILL_FORMED]]))
  })

  it('a pair in order is text: an emoji in a name is a 200', () => {
    expect(respondBudgetUpdate(patch('admin', { budget: { name: 'Trips \ud83d\udcb6' } })).status).toBe(200)
  })

  it.each<[string, string]>([
    ['a key of budget', '{"budget":{"na\\udbffme":"Trips"}}'],
    ['a field beside budget', '{"budget":{"name":"Trips"},"note":"\\udbff"}'],
    ['a key beside budget', '{"budget":{"name":"Trips"},"\\ud800":1}'],
    ['an item of an array beside budget', '{"budget":{"name":"Trips"},"tags":["a","\\udc00"]}']
  ])('%s: 400, the body refused', (_, body) => {
    expect(respondBudgetUpdate(patch('admin', body))).toStrictEqual(badUpdateBody)
  })
})

describe('money operations: no text field, so a lone surrogate anywhere is the body 400', () => {
  it.each([
    ['top up', respondTopUp],
    ['withdraw', respondWithdraw],
    ['amount', respondAmount]
  ] as const)('%s', (_, respond) => {
    expect(respond(patch('admin', '{"amount_cents":500,"note":"Z\\udbff"}'))).toStrictEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message: BAD_BODY },
      reasons: [
        ...adminOnBudget,
        { rule: 'money.permission', detail: 'full budget rights (role admin)' },
        { rule: 'money.body', detail: BAD_BODY }
      ]
    })
  })
  // No path of a money body is judged: the key beside amount_cents may spell anything, a phrase
  // with spaces, a wildcard, the empty key, and its lone surrogate is still the body's.
  it.each(['Stryker was here', '*', '', 'amount_cents.note'])('a lone surrogate under the key %j: 400', (key) => {
    const r = respondTopUp(patch('admin', JSON.stringify({ amount_cents: 500, [key]: 'Z\udbff' })))
    expect([r.status, r.body]).toStrictEqual([400, { error: 'bad_request', message: BAD_BODY }])
  })
})

const VALID_RECIPIENT = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-2', name: 'Ana Pérez' }

const enroll = (body: string): BankRecipientContext => ({
  request: { headers: { Authorization: 'Bearer key-1', 'company-id': 'c-1' }, body },
  session: session('admin'),
  bank_ids: ['bank-1', 'bank-2'],
  enrolled: [],
  request_id: 'req-1'
})

const recipientUpTo = [
  { rule: 'auth.bearer', detail: 'key of user u-admin' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role admin' },
  { rule: 'recipient.permission', detail: 'role admin' }
]

describe('respondBankRecipient', () => {
  it.each(['rut', 'account_number', 'bank_id', 'name'])('%s holding a lone surrogate: 422 on it', (field) => {
    const body = JSON.stringify({ bank_recipient: { ...VALID_RECIPIENT, [field]: `${VALID_RECIPIENT[field as 'rut']}\udbff` } })
    expect(respondBankRecipient(enroll(body))).toStrictEqual({
      status: 422,
      headers: JSON_HEADERS,
      body: { errors: { [field]: [ILL_FORMED] } },
      reasons: [
        ...recipientUpTo,
        { rule: 'recipient.body', detail: 'bank_recipient holds 4 keys' },
        { rule: 'recipient.validation', detail: `${field}: ${ILL_FORMED}` }
      ]
    })
  })

  it('a field no rule reads, or a key: 400', () => {
    for (const body of [
      JSON.stringify({ bank_recipient: { ...VALID_RECIPIENT, nickname: 'Z\udbff' } }),
      JSON.stringify({ bank_recipient: VALID_RECIPIENT, '\udbff': true })
    ])
      expect(respondBankRecipient(enroll(body))).toStrictEqual({
        status: 400,
        headers: JSON_HEADERS,
        body: { error: 'bad_request', message: BAD_BODY },
        reasons: [...recipientUpTo, { rule: 'recipient.body', detail: BAD_BODY }]
      })
  })
})

const assign = (body: string): RoleAssignmentContext => ({
  request: { headers: { Authorization: 'Bearer key-1', 'company-id': 'c-1' }, body },
  session: { user: { id: 'u-caller', email_verified: true }, memberships: { 'c-1': { role: 'owner', permissions: [] } } },
  user_id: 'u-2',
  request_id: 'req-1'
})

const roleUpTo = [
  { rule: 'auth.bearer', detail: 'key of user u-caller' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role owner' },
  { rule: 'role.permission', detail: 'role owner' }
]

describe('respondRoleAssignment', () => {
  it('the role holding a lone surrogate: 422 on role, not in the list', () => {
    expect(respondRoleAssignment(assign('{"role":"admin\\udbff"}'))).toStrictEqual({
      status: 422,
      headers: JSON_HEADERS,
      body: { errors: { role: ['is not included in the list'] } },
      reasons: [
        ...roleUpTo,
        { rule: 'role.body', detail: 'a JSON object' },
        { rule: 'role.validation', detail: 'role: is not included in the list' }
      ]
    })
  })

  it('beside the role: 400', () => {
    expect(respondRoleAssignment(assign('{"role":"admin","why":"\\udbff"}'))).toStrictEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message: BAD_BODY },
      reasons: [...roleUpTo, { rule: 'role.body', detail: BAD_BODY }]
    })
  })
})

// -------------------------------------------------------------------------------------
// for any body
// -------------------------------------------------------------------------------------

const LONE = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')

/** A JSON value whose strings are well-formed: objects, arrays, strings, numbers. */
const clean: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 6 }),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 })
  )
})).value

/**
 * `json` with a lone surrogate put in one of its strings (a key or a value, chosen by `at`
 * among them, at `offset`), or a new key holding one added to its top object when it has none.
 */
const spoil = (json: Record<string, unknown>, at: number, offset: number, lone: string): Record<string, unknown> => {
  const spots: Array<() => void> = []
  const insert = (s: string) => s.slice(0, offset % (s.length + 1)) + lone + s.slice(offset % (s.length + 1))
  const visit = (o: Record<string, unknown> | Array<unknown>): void => {
    for (const key of Object.keys(o)) {
      const value = (o as Record<string, unknown>)[key]
      if (typeof value === 'string') spots.push(() => ((o as Record<string, unknown>)[key] = insert(value)))
      if (!Array.isArray(o))
        spots.push(() => {
          const entries = Object.entries(o).map(([k, v]) => [k === key ? insert(k) : k, v] as const)
          for (const k of Object.keys(o)) Reflect.deleteProperty(o, k)
          Object.assign(o, Object.fromEntries(entries))
        })
      if (typeof value === 'object' && value !== null) visit(value as Record<string, unknown>)
    }
  }
  const copy = structuredClone(json)
  visit(copy)
  const spot = spots[at % Math.max(1, spots.length)]
  if (spot === undefined) copy[`extra${lone}`] = 1
  else spot()
  return copy
}

const facades = {
  update: {
    valid: { budget: { name: 'Trips', description: 'Flights', access: 'everyone', manager_id: 'u-manager' } },
    respond: (body: string) => respondBudgetUpdate(patch('admin', body))
  },
  topUp: { valid: { amount_cents: 500 }, respond: (body: string) => respondTopUp(patch('admin', body)) },
  recipient: { valid: { bank_recipient: VALID_RECIPIENT }, respond: (body: string) => respondBankRecipient(enroll(body)) },
  role: { valid: { role: 'admin' }, respond: (body: string) => respondRoleAssignment(assign(body)) }
}

describe('for any body with a lone surrogate in it', () => {
  it('every facade that reads a body refuses it, 400 or 422, never a 2xx', () => {
    const seen = { 400: 0, 422: 0, spoiled: 0, made: 0 }
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(facades) as Array<keyof typeof facades>)),
        fc.dictionary(fc.string({ maxLength: 6 }), clean, { maxKeys: 2 }),
        fc.nat(),
        fc.nat(),
        LONE,
        (name, extra, at, offset, lone) => {
          const { valid, respond } = facades[name]
          // The valid body, with more fields (each at most beside what the facade reads) mixed in.
          const json = spoil({ ...extra, ...structuredClone(valid) }, at, offset, lone)
          const body = JSON.stringify(json)
          seen.made++
          // By construction, the body's text holds a lone surrogate, escaped as JSON writes it.
          if (/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(body)) seen.spoiled++
          const r = respond(body)
          expect([400, 422]).toContain(r.status)
          seen[r.status as 400 | 422]++
          if (r.status === 400) expect(r.body).toStrictEqual({ error: 'bad_request', message: BAD_BODY })
        }
      ),
      { numRuns: runs(500) }
    )
    // Shares of the runs made, not of those asked for: under Stryker a property makes fewer.
    expect(seen.spoiled).toBe(seen.made)
    expect(Math.min(seen[400], seen[422])).toBeGreaterThan(seen.made / 10)
  })
})
