import { describe, expect, it } from 'vitest'
import { respondBudgetUpdate, BudgetContextCodec } from '../api'
import { budget, JSON_HEADERS, monthly, patch, session, TODAY, budgetOf } from '../fixtures'

// The reasons a reply must carry, written out: the rules of contract sections 4 and 5 in the
// order they are consulted (R-30, ADR 0009), each with what it found.
interface Reason {
  readonly rule: string
  readonly detail: string
}

/** Rows 1 to 4 passed by `user`, a member of c-1 with `role`. */
const authenticated = (user: string, role: string): ReadonlyArray<Reason> => [
  { rule: 'auth.bearer', detail: `key of user ${user}` },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: `role ${role}` }
]

/** Row 5 passed by budget b-1, found consistent and brought to today: `advanced` says what rolled. */
const inScope = (advanced = 'nothing to roll forward'): ReadonlyArray<Reason> => [
  { rule: 'budget.scope', detail: 'budget b-1' },
  { rule: 'budget.stored', detail: 'the stored budget is consistent' },
  { rule: 'budget.advance', detail: advanced }
]

/** Rows 1 to 6 passed by an admin (full rights), on budget b-1. */
const asAdmin = (advanced?: string): ReadonlyArray<Reason> => [
  ...authenticated('u-admin', 'admin'),
  ...inScope(advanced),
  { rule: 'budget.permission.update', detail: 'full budget rights (role admin)' }
]

/** Rows 1 to 6 passed by the budget's manager (a member without full rights). */
const asManager = (advanced?: string): ReadonlyArray<Reason> => [
  ...authenticated('u-manager', 'member'),
  ...inScope(advanced),
  { rule: 'budget.permission.update', detail: 'user u-manager manages the group' }
]

/** Rows 7 and 8 passed by a body whose `budget` holds `keys` keys. */
const bodyRead = (keys: number): ReadonlyArray<Reason> => [
  { rule: 'budget.body.type', detail: 'a JSON object with a budget object' },
  { rule: 'budget.body.wrapper', detail: `budget holds ${keys} keys` }
]

/** Rows 9 and 10 passed with full rights. */
const fullRights: ReadonlyArray<Reason> = [
  { rule: 'budget.permission.manager', detail: 'full budget rights' },
  { rule: 'budget.permission.recurrence', detail: 'full budget rights' }
]

/** Rows 9 and 10 passed without full rights: neither manager_id nor the recurrence changes. */
const nothingReserved: ReadonlyArray<Reason> = [
  { rule: 'budget.permission.manager', detail: 'manager_id not changed' },
  { rule: 'budget.permission.recurrence', detail: 'recurrence not changed' }
]

describe('respondBudgetUpdate: authentication and scope (contract section 4)', () => {
  const ok = patch('admin', { budget: { name: 'Trips' } })

  it('row 1: replies 401 with an empty body when Authorization is missing', () => {
    const r = respondBudgetUpdate({ ...ok, request: { headers: { 'company-id': 'c-1' }, body: '{}' } })
    expect(r).toEqual({
      status: 401,
      headers: { 'X-Request-Id': 'req-1' },
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it.each([['Basic abc'], ['Bearer'], ['Bearer '], ['Token key-1'], ['Bearer a b']])(
    'row 1: replies 401 with an empty body when Authorization is %j',
    (authorization) => {
      const r = respondBudgetUpdate({ ...ok, request: { headers: { Authorization: authorization, 'company-id': 'c-1' } } })
      expect([r.status, r.body, r.headers]).toEqual([401, null, { 'X-Request-Id': 'req-1' }])
    }
  )

  it('row 1: accepts the scheme in any case and the header name in any case', () => {
    const r = respondBudgetUpdate({
      ...ok,
      request: { headers: { AUTHORIZATION: 'bEaReR key-1', 'Company-ID': 'c-1' }, body: '{"budget":{"name":"Trips"}}' }
    })
    expect(r.status).toBe(200)
  })

  it('row 1: replies 401 when two spellings of Authorization disagree', () => {
    const r = respondBudgetUpdate({
      ...ok,
      request: { headers: { Authorization: 'Bearer a', authorization: 'Bearer b', 'company-id': 'c-1' }, body: '{}' }
    })
    expect([r.status, r.body]).toEqual([401, null])
  })

  it('row 1: replies 401 when the key resolved to no user', () => {
    const r = respondBudgetUpdate({ ...ok, session: { user: null, memberships: {} } })
    expect([r.status, r.body, r.reasons]).toEqual([401, null, [{ rule: 'auth.bearer', detail: 'the key resolved to no user' }]])
  })

  it('row 2: replies 401 email_not_verified when the user has not verified their email', () => {
    const s = session('admin')
    const r = respondBudgetUpdate({ ...ok, session: { ...s, user: { ...s.user, email_verified: false } } })
    expect(r).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: { error: 'email_not_verified', message: 'Email address not verified' },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-admin' },
        { rule: 'auth.email_verified', detail: 'user u-admin has not verified their email' }
      ]
    })
  })

  it.each([[undefined], [''], ['   ']])('row 3: replies 401 with an empty body when company-id is %j', (company) => {
    const r = respondBudgetUpdate({ ...ok, request: { headers: { Authorization: 'Bearer k', 'company-id': company } } })
    expect([r.status, r.body, r.headers]).toEqual([401, null, { 'X-Request-Id': 'req-1' }])
    expect(r.reasons).toEqual([
      { rule: 'auth.bearer', detail: 'key of user u-admin' },
      { rule: 'auth.email_verified', detail: 'email verified' },
      { rule: 'auth.company_header', detail: 'no company-id header' }
    ])
  })

  it('row 4: replies 404 not_found when the user is not a member of that company', () => {
    const r = respondBudgetUpdate({ ...ok, session: session('admin', 'c-9') })
    expect(r).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: { error: 'not_found', message: 'Not found' },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-admin' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'company c-1' },
        { rule: 'auth.membership', detail: 'user u-admin is not a member of company c-1' }
      ]
    })
  })

  it.each([['__proto__'], ['constructor'], ['toString']])(
    'row 4: replies 404 for company-id %j, which no plain object lookup may find',
    (company) => {
      const r = respondBudgetUpdate({
        ...ok,
        request: { headers: { Authorization: 'Bearer k', 'company-id': company }, body: '{}' }
      })
      expect([r.status, r.reasons]).toEqual([
        404,
        [
          { rule: 'auth.bearer', detail: 'key of user u-admin' },
          { rule: 'auth.email_verified', detail: 'email verified' },
          { rule: 'auth.company_header', detail: `company ${company}` },
          { rule: 'auth.membership', detail: `user u-admin is not a member of company ${company}` }
        ]
      ])
    }
  )

  it('row 5: replies 404 when the budget does not exist', () => {
    const r = respondBudgetUpdate({ ...ok, budget: null })
    expect([r.status, r.body]).toEqual([404, { error: 'not_found', message: 'Not found' }])
    expect(r.reasons).toEqual([...authenticated('u-admin', 'admin'), { rule: 'budget.scope', detail: 'no budget with that id' }])
  })

  it("row 5: replies to another company's budget with the same bytes as to a foreign company", () => {
    const foreignBudget = respondBudgetUpdate({ ...ok, budget: budget({ company_id: 'c-2' }), request_id: 'a' })
    const foreignCompany = respondBudgetUpdate({ ...ok, session: session('admin', 'c-9'), request_id: 'b' })
    const missing = respondBudgetUpdate({ ...ok, budget: null, request_id: 'c' })
    const bytes = (r: typeof missing) => [r.status, JSON.stringify(r.body), r.headers['Content-Type']]
    expect(bytes(foreignBudget)).toEqual(bytes(foreignCompany))
    expect(bytes(missing)).toEqual(bytes(foreignCompany))
    expect([foreignBudget.headers['X-Request-Id'], foreignCompany.headers['X-Request-Id']]).toEqual(['a', 'b'])
  })

  it('checks in order: a bad key wins over a missing company-id and a missing budget', () => {
    const r = respondBudgetUpdate({ ...ok, budget: null, request: { headers: {} } })
    expect([r.status, r.reasons]).toEqual([401, [{ rule: 'auth.bearer', detail: 'no Authorization header' }]])
  })
})

describe('respondBudgetUpdate: the update (contract section 5)', () => {
  it('row 6: replies 401 Unauthorized (401) to a member who neither has budget rights nor manages the group', () => {
    const r = respondBudgetUpdate(patch('member', { budget: { name: 'Trips' } }))
    expect(r).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: { message: 'Unauthorized (401)' },
      reasons: [
        ...authenticated('u-member', 'member'),
        ...inScope(),
        { rule: 'budget.permission.update', detail: 'user u-member has no budget rights and does not manage budget b-1' }
      ]
    })
  })

  it('row 6: comes before the body is read, so an outsider with a bad body still gets 401', () => {
    expect(respondBudgetUpdate(patch('member', 'not json')).status).toBe(401)
  })

  it.each([
    ['not json', 'The body is not valid JSON'],
    ['[]', 'The body must be a JSON object'],
    ['"budget"', 'The body must be a JSON object'],
    ['{"budget": 5}', 'budget must be a JSON object'],
    ['{"budget": []}', 'budget must be a JSON object'],
    ['{"budget": {"name": 5}}', 'budget.name must be a string'],
    ['{"budget": {"name": null}}', 'budget.name must be a string'],
    ['{"budget": {"recurrence_every": "2"}}', 'budget.recurrence_every must be a number or null'],
    [
      '{"budget": {"ends_on": 20270101, "manager_id": true}}',
      'budget.ends_on must be a string or null; budget.manager_id must be a string or null'
    ]
  ])('row 7: replies 400 bad_request to %s', (body, message) => {
    const r = respondBudgetUpdate(patch('admin', body))
    expect(r).toEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message },
      reasons: [...asAdmin(), { rule: 'budget.body.type', detail: message }]
    })
  })

  it.each([
    [undefined, 'no body'],
    ['', 'no body'],
    ['  \n', 'no body'],
    ['{}', 'no "budget" key in the body'],
    ['{"budget": null}', 'no "budget" key in the body'],
    ['{"name": "Trips"}', 'no "budget" key in the body']
  ])('row 8: replies 412 to the body %j', (body, detail) => {
    const ctx = patch('admin', '')
    const r = respondBudgetUpdate({
      ...ctx,
      request: body === undefined ? { headers: ctx.request.headers } : { ...ctx.request, body }
    })
    expect(r).toEqual({
      status: 412,
      headers: JSON_HEADERS,
      body: { message: 'The request body must hold the budget under the key "budget"' },
      reasons: [...asAdmin(), { rule: 'budget.body.wrapper', detail }]
    })
  })

  it('row 8: ignores other top-level keys', () => {
    expect(respondBudgetUpdate(patch('admin', { budget: { name: 'Trips' }, extra: 1 })).status).toBe(200)
  })

  it('row 9: replies 403 budgets/cannot_change_manager when the manager changes manager_id', () => {
    const r = respondBudgetUpdate(patch('manager', { budget: { manager_id: 'u-member' } }))
    expect(r).toEqual({
      status: 403,
      headers: JSON_HEADERS,
      body: {
        error_code: 'budgets/cannot_change_manager',
        message: 'Only an admin or a user with budgets_manage can change the manager'
      },
      reasons: [
        ...asManager(),
        ...bodyRead(1),
        { rule: 'budget.permission.manager', detail: 'Only an admin or a user with budgets_manage can change the manager' }
      ]
    })
  })

  it('row 9 comes before row 10 when a co-manager changes both', () => {
    const r = respondBudgetUpdate(patch('co_manager', { budget: { recurrence_unit: 'week', manager_id: null } }))
    expect([r.status, (r.body as { error_code: string }).error_code]).toEqual([403, 'budgets/cannot_change_manager'])
  })

  it.each([[{ recurrence_unit: 'month', base_amount_cents: 100 }], [{ recurrence_every: 2 }], [{ base_amount_cents: 1 }]])(
    'row 10: replies 403 budgets/cannot_change_recurrence when the manager sends %j',
    (fields) => {
      const r = respondBudgetUpdate(patch('manager', { budget: fields }, monthly()))
      expect([r.status, r.body]).toEqual([
        403,
        {
          error_code: 'budgets/cannot_change_recurrence',
          message: 'Only an admin or a user with budgets_manage can change the recurrence'
        }
      ])
    }
  )

  it('rows 9 and 10: a value the budget already holds needs no permission', () => {
    const b = monthly()
    const r = respondBudgetUpdate(
      patch('manager', { budget: { manager_id: 'u-manager', recurrence_unit: 'month', recurrence_every: 1, name: 'X' } }, b)
    )
    expect([r.status, budgetOf(r)]).toEqual([200, { ...b, name: 'X' }])
  })

  it('row 11: replies 409 conflict to any update of a closed budget', () => {
    const r = respondBudgetUpdate(patch('admin', { budget: { name: 'Trips' } }, budget({ status: 'closed' })))
    expect(r).toEqual({
      status: 409,
      headers: JSON_HEADERS,
      body: { error: 'conflict', message: 'The budget is closed' },
      reasons: [...asAdmin(), ...bodyRead(1), ...fullRights, { rule: 'budget.status.closed', detail: 'The budget is closed' }]
    })
  })

  it('row 12: replies 422 naming every invalid field at once', () => {
    const r = respondBudgetUpdate(
      patch(
        'admin',
        {
          budget: {
            name: '  ',
            access: 'nobody',
            ends_on: '2026-02-30',
            recurrence_unit: 'fortnight',
            recurrence_every: 1.5,
            base_amount_cents: -1,
            colour: 'red',
            currency: 'USD'
          }
        },
        budget(),
        { company_member_ids: ['u-manager'] }
      )
    )
    expect(r).toEqual({
      status: 422,
      headers: JSON_HEADERS,
      body: {
        errors: {
          name: ["can't be blank"],
          access: ['is not included in the list'],
          ends_on: ['is not a valid date (YYYY-MM-DD)'],
          recurrence_unit: ['is not included in the list'],
          recurrence_every: ['must be an integer from 1 to 366'],
          base_amount_cents: ['must be a whole number of cents, 0 or more'],
          colour: ['is not a field of a budget'],
          currency: ['cannot be changed']
        }
      },
      reasons: [
        ...asAdmin(),
        ...bodyRead(8),
        ...fullRights,
        { rule: 'budget.status.closed', detail: 'status open' },
        {
          rule: 'budget.validation',
          detail:
            "name: can't be blank; access: is not included in the list; ends_on: is not a valid date (YYYY-MM-DD); " +
            'recurrence_unit: is not included in the list; recurrence_every: must be an integer from 1 to 366; ' +
            'base_amount_cents: must be a whole number of cents, 0 or more; colour: is not a field of a budget; currency: cannot be changed'
        }
      ]
    })
  })

  it.each([
    [{ name: 'x'.repeat(256) }, { name: ['is too long (maximum is 255 characters)'] }],
    [{ ends_on: TODAY }, { ends_on: ['must be after 2026-11-22'] }],
    [{ ends_on: '2026-11-21' }, { ends_on: ['must be after 2026-11-22'] }],
    [{ ends_on: '10000-01-01' }, { ends_on: ['is not a valid date (YYYY-MM-DD)'] }],
    [{ manager_id: 'u-stranger' }, { manager_id: ['is not a member of the company'] }],
    [
      { recurrence_every: 367, recurrence_unit: 'day', base_amount_cents: 1 },
      { recurrence_every: ['must be an integer from 1 to 366'] }
    ],
    [{ recurrence_every: 2 }, { recurrence_every: ['must be null while recurrence_unit is null'] }],
    [{ base_amount_cents: 5 }, { base_amount_cents: ['must be null while recurrence_unit is null'] }],
    [{ base_amount_cents: 2 ** 53 }, { base_amount_cents: ['must be a whole number of cents, 0 or more'] }],
    [{ recurrence_unit: 'month' }, { base_amount_cents: ['is required while recurrence is on'] }],
    [{ recurrence_unit: 'month', base_amount_cents: null }, { base_amount_cents: ['is required while recurrence is on'] }],
    [{ balance_cents: 0 }, { balance_cents: ['cannot be changed'] }],
    [{ status: 'open', mode: 'tracking' }, { mode: ['cannot be changed'] }]
  ])('row 12: replies 422 to %j', (fields, errors) => {
    const r = respondBudgetUpdate(patch('admin', { budget: fields }, budget(), { company_member_ids: ['u-manager', 'u-member'] }))
    expect([r.status, JSON.stringify(r.body)]).toEqual([422, JSON.stringify({ errors })])
  })

  it.each([['__proto__'], ['constructor'], ['hasOwnProperty']])(
    'row 12: rejects the key %s as unknown, and names it as a plain key of the errors map',
    (key) => {
      const r = respondBudgetUpdate(patch('admin', `{"budget":{"${key}":{"polluted":true}}}`))
      expect([r.status, JSON.stringify(r.body)]).toEqual([422, `{"errors":{"${key}":["is not a field of a budget"]}}`])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    }
  )

  it('row 12: a name of 255 characters outside the basic plane is accepted', () => {
    expect(respondBudgetUpdate(patch('admin', { budget: { name: '💶'.repeat(255) } })).status).toBe(200)
  })

  it('row 13: replies 200 with the updated budget, changing only the fields sent', () => {
    const b = budget()
    const r = respondBudgetUpdate(
      patch('manager', { budget: { name: 'Trips', description: 'Flights', access: 'members', ends_on: '2027-06-30' } }, b)
    )
    const updated = { ...b, name: 'Trips', description: 'Flights', access: 'members', ends_on: '2027-06-30' }
    expect(r).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: updated,
      budget: updated,
      reasons: [
        ...asManager(),
        ...bodyRead(4),
        ...nothingReserved,
        { rule: 'budget.status.closed', detail: 'status open' },
        { rule: 'budget.validation', detail: 'every changed value is valid' },
        { rule: 'budget.update', detail: 'changes name, description, access, ends_on' }
      ]
    })
  })

  it('row 13: an admin may change the manager to a member of the company', () => {
    const r = respondBudgetUpdate(
      patch('admin', { budget: { manager_id: 'u-member' } }, budget(), { company_member_ids: ['u-member'] })
    )
    expect(budgetOf(r)?.manager_id).toBe('u-member')
  })

  it('R-15: a closing budget whose ends_on moves later becomes open', () => {
    const b = budget({ status: 'closing', ends_on: '2026-11-01' })
    const r = respondBudgetUpdate(patch('manager', { budget: { ends_on: '2027-01-31' } }, b))
    expect([r.status, budgetOf(r)]).toEqual([200, { ...b, status: 'open', ends_on: '2027-01-31' }])
    expect(r.reasons).toEqual([
      ...asManager(),
      ...bodyRead(1),
      ...nothingReserved,
      { rule: 'budget.status.closed', detail: 'status closing' },
      { rule: 'budget.validation', detail: 'every changed value is valid' },
      { rule: 'budget.update', detail: 'changes ends_on' },
      { rule: 'budget.reopen', detail: 'ends_on now 2027-01-31; the budget is open again' }
    ])
  })

  it('R-15: a closing budget whose ends_on becomes null becomes open', () => {
    const b = budget({ status: 'closing', ends_on: '2026-11-01' })
    expect(budgetOf(respondBudgetUpdate(patch('co_manager', { budget: { ends_on: null } }, b)))?.status).toBe('open')
  })

  it("R-15: resending a closing budget's past ends_on is no change", () => {
    const b = budget({ status: 'closing', ends_on: '2026-11-01' })
    const r = respondBudgetUpdate(patch('manager', { budget: { ends_on: '2026-11-01' } }, b))
    expect([r.status, budgetOf(r)]).toEqual([200, b])
  })

  it('an open budget whose closing date has come is compared as closing, and reopened by a new date', () => {
    const b = budget({ status: 'open', ends_on: '2026-11-20' })
    const r = respondBudgetUpdate(patch('manager', { budget: { ends_on: '2026-12-01' } }, b))
    expect([r.status, budgetOf(r)]).toEqual([200, { ...b, ends_on: '2026-12-01' }])
    expect(r.reasons).toEqual([
      ...asManager('status open -> closing'),
      ...bodyRead(1),
      ...nothingReserved,
      { rule: 'budget.status.closed', detail: 'status closing' },
      { rule: 'budget.validation', detail: 'every changed value is valid' },
      { rule: 'budget.update', detail: 'changes ends_on' },
      { rule: 'budget.reopen', detail: 'ends_on now 2026-12-01; the budget is open again' }
    ])
    const unchanged = respondBudgetUpdate(patch('manager', { budget: { name: 'Trips' } }, b))
    expect(budgetOf(unchanged)?.status).toBe('closing')
  })

  it('rolls the stored budget to today first, and says what rolled: a new period, and the status', () => {
    // Stored on 2026-10-18 with the period 2026-10-18..2026-11-18 and ends_on 2026-11-20; today 2026-11-22.
    const stored = monthly({
      period_starts_on: '2026-10-18',
      period_ends_on: '2026-11-18',
      period_amount_cents: 12000,
      ends_on: '2026-11-20'
    })
    const rolled = {
      ...stored,
      period_starts_on: '2026-11-18',
      period_ends_on: '2026-12-18',
      period_amount_cents: 50000,
      status: 'closing'
    }
    expect(respondBudgetUpdate(patch('manager', { budget: {} }, stored))).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: rolled,
      budget: rolled,
      reasons: [
        ...asManager('period in progress 2026-11-18..2026-12-18; status open -> closing'),
        ...bodyRead(0),
        ...nothingReserved,
        { rule: 'budget.status.closed', detail: 'status closing' },
        { rule: 'budget.validation', detail: 'nothing changes' },
        { rule: 'budget.update', detail: 'no field changes' }
      ]
    })
  })

  it('leaves the last period open-ended once renewals have stopped and its end has passed', () => {
    const stored = budget({ period_starts_on: '2026-10-18', period_ends_on: '2026-11-18', period_amount_cents: 12000 })
    const rolled = { ...stored, period_ends_on: null }
    expect(respondBudgetUpdate(patch('manager', { budget: {} }, stored))).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: rolled,
      budget: rolled,
      reasons: [
        ...asManager('renewals over: the period is open-ended'),
        ...bodyRead(0),
        ...nothingReserved,
        { rule: 'budget.status.closed', detail: 'status open' },
        { rule: 'budget.validation', detail: 'nothing changes' },
        { rule: 'budget.update', detail: 'no field changes' }
      ]
    })
  })

  it('returns a budget with exactly the fields of contract section 2, dropping extra keys the server stored', () => {
    const ctx = patch('admin', { budget: { name: 'Trips' } })
    const r = respondBudgetUpdate({ ...ctx, budget: { ...budget(), internal_flag: true } as never })
    expect(Object.keys(r.body as object)).toEqual(Object.keys(budget()))
  })
})

describe('respondBudgetUpdate: malformed server input (contract preamble)', () => {
  it.each([
    ['today is not a date', { today: '2026-02-30' }, 'today', 'today is "2026-02-30", not a date (YYYY-MM-DD)'],
    [
      'the session has no memberships',
      { session: { user: null } },
      'session.memberships',
      'session.memberships is undefined, not { [K in string]: { role: Role, permissions: Array<string> } }'
    ],
    // The request's values are never written back (the headers hold the caller's key): their type only.
    [
      'the headers are not a record',
      { request: { headers: 'Authorization: Bearer k' } },
      'request.headers',
      'request.headers: headers must be an object'
    ],
    [
      'the body is not text',
      { request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: 4242 } },
      'request.body',
      'request.body is a number, not a string or undefined'
    ],
    [
      'the member ids are not strings',
      { company_member_ids: [1] },
      'company_member_ids',
      'company_member_ids[0] is 1, not a string'
    ],
    // A request that is text is named by its type only: it may be the caller's key itself.
    [
      'the request is text',
      { request: 'Bearer k' },
      'request',
      'request is a string, not { headers: Headers } or Partial<{ query: (string | undefined), body: (string | undefined) }>'
    ],
    [
      'the eleventh member id is a number',
      { company_member_ids: ['u-1', 'u-2', 'u-3', 'u-4', 'u-5', 'u-6', 'u-7', 'u-8', 'u-9', 'u-10', 11] },
      'company_member_ids',
      'company_member_ids[10] is 11, not a string'
    ],
    // The user is an object or null: the object's branch reached further, so the message names it.
    [
      'email_verified is text',
      { session: { user: { id: 'u-admin', email_verified: 'yes' }, memberships: { 'c-1': { role: 'admin', permissions: [] } } } },
      'session.user, session.user.email_verified',
      'session.user.email_verified is "yes", not a boolean'
    ],
    [
      'a role is spelled Admin',
      { session: { user: { id: 'u-admin', email_verified: true }, memberships: { 'c-1': { role: 'Admin', permissions: [] } } } },
      'session.memberships.c-1.role',
      'session.memberships.c-1.role is "Admin", not one of owner, admin, member'
    ],
    // A company id is a key of the memberships: one that starts with digits is still one.
    [
      'a role is spelled Admin in a company whose id starts with a digit',
      { session: { user: { id: 'u-admin', email_verified: true }, memberships: { '7c': { role: 'Admin', permissions: [] } } } },
      'session.memberships.7c.role',
      'session.memberships.7c.role is "Admin", not one of owner, admin, member'
    ],
    // An empty key is no step of the path.
    [
      'a role is spelled Admin in a company whose id is empty',
      { session: { user: { id: 'u-admin', email_verified: true }, memberships: { '': { role: 'Admin', permissions: [] } } } },
      'session.memberships.role',
      'session.memberships.role is "Admin", not one of owner, admin, member'
    ],
    // Of the request, a value that is neither text nor a number is named as any other.
    [
      'the body is an object',
      { request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: { budget: {} } } },
      'request.body',
      'request.body is an object, not a string or undefined'
    ]
  ])('replies 500 internal_error when %s', (_, override, path, mistake) => {
    const r = respondBudgetUpdate({ ...patch('admin', { budget: { name: 'Trips' } }), ...(override as object) })
    expect(r).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: `Internal server error: ${mistake}` },
      reasons: [{ rule: 'server.input', detail: `malformed server input at ${path}` }]
    })
  })

  it('replies 500 internal_error, with nothing to persist, when the stored budget lacks a field (R-17)', () => {
    const r = respondBudgetUpdate({
      ...patch('admin', { budget: { name: 'Trips' } }),
      budget: { ...budget(), currency: undefined } as never
    })
    expect(r).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: 'Internal server error: budget.currency is undefined, not string' },
      reasons: [
        ...authenticated('u-admin', 'admin'),
        { rule: 'budget.scope', detail: 'budget b-1' },
        { rule: 'budget.stored', detail: 'malformed stored budget: currency is undefined, not string' }
      ]
    })
  })

  it('names every malformed field of the stored budget, one after the other', () => {
    const r = respondBudgetUpdate({
      ...patch('admin', { budget: { name: 'Trips' } }),
      budget: { ...budget(), name: 5, balance_cents: 'x' } as never
    })
    expect([r.status, r.body, r.reasons.at(-1)]).toEqual([
      500,
      {
        error: 'internal_error',
        message: 'Internal server error: budget.name is 5, not string; budget.balance_cents is "x", not (Cents | null)'
      },
      {
        rule: 'budget.stored',
        detail: 'malformed stored budget: name is 5, not string; balance_cents is "x", not (Cents | null)'
      }
    ])
  })

  it('replies 500 with an empty X-Request-Id when there is no context at all', () => {
    const r = respondBudgetUpdate(undefined as never)
    expect([r.status, r.headers['X-Request-Id']]).toEqual([500, ''])
  })

  it('replies 500 rather than throwing when a getter throws', () => {
    const ctx = patch('admin', { budget: { name: 'Trips' } })
    const hostile = Object.defineProperty({ ...ctx }, 'session', {
      get() {
        throw new Error('boom')
      },
      enumerable: true
    })
    const r = respondBudgetUpdate(hostile)
    expect([r.status, r.reasons]).toEqual([500, [{ rule: 'server.unexpected', detail: 'boom' }]])
  })

  it('replies 500 rather than throwing when a getter throws something other than an Error', () => {
    const ctx = patch('admin', { budget: { name: 'Trips' } })
    const hostile = Object.defineProperty({ ...ctx }, 'request', {
      get() {
        throw 'boom' as unknown as Error
      },
      enumerable: true
    })
    expect(respondBudgetUpdate(hostile)).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: 'Internal server error' },
      reasons: [{ rule: 'server.unexpected', detail: 'a non-error was thrown' }]
    })
  })

  it('replies 500 rather than throwing when even the request id getter throws', () => {
    const hostile = Object.defineProperty({}, 'request_id', {
      get() {
        throw new Error('boom')
      },
      enumerable: true
    })
    const r = respondBudgetUpdate(hostile as never)
    expect([r.status, r.headers['X-Request-Id'], r.reasons]).toEqual([500, '', [{ rule: 'server.unexpected', detail: 'boom' }]])
  })
})

describe('BudgetContext: the check of what a server hands a budget facade', () => {
  it('takes any object or null as the budget, read field by field only once in scope', () => {
    const ctx = patch('admin', { budget: {} })
    const carrier = Object.assign(() => null, { id: 'b-1' })
    expect(
      [ctx, { ...ctx, budget: null }, { ...ctx, budget: { id: 'b-9' } }, { ...ctx, budget: carrier }].map((c) =>
        BudgetContextCodec.is(c)
      )
    ).toEqual([true, true, true, true])
    expect(
      [
        { ...ctx, budget: 'b-1' },
        { ...ctx, budget: 7 },
        { ...ctx, budget: undefined },
        { ...ctx, today: '2026-02-30' }
      ].map((c) => BudgetContextCodec.is(c))
    ).toEqual([false, false, false, false])
  })

  it('decodes a context and encodes it back as the same values, the budget untouched', () => {
    const ctx = patch('admin', { budget: {} })
    const decoded = BudgetContextCodec.decode(ctx)
    if (decoded._tag === 'Left') throw new Error('the fixture context is valid')
    expect(BudgetContextCodec.encode(decoded.right)).toEqual(ctx)
    expect(BudgetContextCodec.encode(decoded.right).budget).toBe(ctx.budget)
  })
})

describe('respondBudgetUpdate: a period rolled into the last one the calendar holds', () => {
  it('names the period in progress as open-ended when its end would fall past 9999-12-31 (ADR 0010)', () => {
    const yearly = budget({
      recurrence_unit: 'year',
      recurrence_every: 1,
      base_amount_cents: 700,
      recurrence_starts_on: '9990-01-01',
      period_starts_on: '9998-01-01',
      period_ends_on: '9999-01-01',
      period_amount_cents: 900
    })
    const r = respondBudgetUpdate({ ...patch('admin', { budget: {} }, yearly), today: '9999-06-01' })
    const rolled = { ...yearly, period_starts_on: '9999-01-01', period_ends_on: null, period_amount_cents: 700 }
    expect(r).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: rolled,
      budget: rolled,
      reasons: [
        ...asAdmin('period in progress 9999-01-01..open-ended'),
        ...bodyRead(0),
        ...fullRights,
        { rule: 'budget.status.closed', detail: 'status open' },
        { rule: 'budget.validation', detail: 'nothing changes' },
        { rule: 'budget.update', detail: 'no field changes' }
      ]
    })
  })
})

describe('respondBudgetUpdate: recurrence changes at the end of the calendar (ADR 0010, R-12)', () => {
  // Yearly from 9990-01-01: the period in progress, 9999-01-01.., is the last the calendar holds.
  const last = budget({
    recurrence_unit: 'year',
    recurrence_every: 1,
    base_amount_cents: 700,
    recurrence_starts_on: '9990-01-01',
    period_starts_on: '9999-01-01',
    period_ends_on: null,
    period_amount_cents: 900
  })
  // No renewals, created in 9999.
  const late = budget({ created_on: '9999-03-01', period_starts_on: '9999-03-01' })
  const on = (b: typeof last, sent: object) =>
    respondBudgetUpdate({ ...patch('admin', { budget: sent }, b), today: '9999-06-01' })
  const through = (keys: number, changes: string, outcome: Reason): ReadonlyArray<Reason> => [
    ...asAdmin(),
    ...bodyRead(keys),
    ...fullRights,
    { rule: 'budget.status.closed', detail: 'status open' },
    { rule: 'budget.validation', detail: 'every changed value is valid' },
    { rule: 'budget.update', detail: `changes ${changes}` },
    outcome
  ]

  it('stops renewals of an open-ended period without naming an end', () => {
    const stopped = {
      ...last,
      recurrence_unit: null,
      recurrence_every: null,
      base_amount_cents: null,
      recurrence_starts_on: null
    }
    expect(on(last, { recurrence_unit: null })).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: stopped,
      budget: stopped,
      reasons: through(1, 'recurrence_unit', { rule: 'recurrence.stop', detail: 'renewals stopped' })
    })
  })

  it('changes the cadence of an open-ended period from the anchor it holds', () => {
    const every2 = { ...last, recurrence_every: 2 }
    expect(on(last, { recurrence_every: 2 })).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: every2,
      budget: every2,
      reasons: through(1, 'recurrence_every', { rule: 'recurrence.change', detail: 'every 2 year from 9990-01-01' })
    })
  })

  it('turns renewals on with a period in progress that never ends when its first boundary is past 9999-12-31', () => {
    const yearly = {
      ...late,
      recurrence_unit: 'year',
      recurrence_every: 1,
      base_amount_cents: 5,
      recurrence_starts_on: '9999-03-01'
    }
    expect(on(late, { recurrence_unit: 'year', base_amount_cents: 5 })).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: yearly,
      budget: yearly,
      reasons: through(2, 'recurrence_unit, base_amount_cents', {
        rule: 'recurrence.turn_on',
        detail: 'periods count from 9999-03-01; the period in progress ends never'
      })
    })
    const monthly = { ...yearly, recurrence_unit: 'month', period_ends_on: '9999-07-01' }
    expect(on(late, { recurrence_unit: 'month', base_amount_cents: 5 })).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: monthly,
      budget: monthly,
      reasons: through(2, 'recurrence_unit, base_amount_cents', {
        rule: 'recurrence.turn_on',
        detail: 'periods count from 9999-03-01; the period in progress ends 9999-07-01'
      })
    })
  })
})
