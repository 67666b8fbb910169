import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Budget, lockedUpdateFields, permittedUpdateFields, respondBudgetUpdate, advanceBudget } from '../api'
import { caller } from '../../src/arbitraries'
import { budgetState } from '../../src/arbitraries/budget'
import { baseBudget } from '../fixtures'
import { runs, timeoutFor } from '../runs'

const UPDATE_FIELDS = [
  'name',
  'description',
  'access',
  'ends_on',
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
] as const
type Field = (typeof UPDATE_FIELDS)[number]

/** A value of the field's JSON type other than the budget's own, so that sending it is a change. */
const changeOf = (b: Budget, field: Field): unknown => {
  switch (field) {
    case 'name':
      return `${b.name} 2`
    case 'description':
      return `${b.description ?? ''} 2`
    case 'access':
      return b.access === 'everyone' ? 'members' : 'everyone'
    case 'ends_on':
      return b.ends_on === null ? '2099-12-31' : null
    case 'manager_id':
      return b.manager_id === 'u-member' ? 'u-other' : 'u-member'
    case 'recurrence_unit':
      return b.recurrence_unit === null ? 'month' : null
    case 'recurrence_every':
      return (b.recurrence_every ?? 0) + 1
    case 'base_amount_cents':
      return (b.base_amount_cents ?? 0) + 1
  }
}

describe('lockedUpdateFields', () => {
  const admin = { user_id: 'u-admin', role: 'admin' as const, permissions: [] }
  const manager = { user_id: 'u-manager', role: 'member' as const, permissions: [] }
  const member = { user_id: 'u-member', role: 'member' as const, permissions: [] }
  const closed = { ...baseBudget, status: 'closed' as const }

  // Contract section 5, rows 6 (who may update at all), 9 and 10 (manager_id and the recurrence
  // fields: full budget rights only) and 11 (a closed budget takes no update), in that order.
  it.each<[string, object, object, object]>([
    ['an admin, open budget', admin, baseBudget, {}],
    [
      'its manager, open budget',
      manager,
      baseBudget,
      {
        manager_id: 'budget.permission.manager',
        recurrence_unit: 'budget.permission.recurrence',
        recurrence_every: 'budget.permission.recurrence',
        base_amount_cents: 'budget.permission.recurrence'
      }
    ],
    [
      'its manager, closed budget: rows 9 and 10 come before row 11',
      manager,
      closed,
      {
        name: 'budget.status.closed',
        description: 'budget.status.closed',
        access: 'budget.status.closed',
        ends_on: 'budget.status.closed',
        manager_id: 'budget.permission.manager',
        recurrence_unit: 'budget.permission.recurrence',
        recurrence_every: 'budget.permission.recurrence',
        base_amount_cents: 'budget.permission.recurrence'
      }
    ],
    ['an admin, closed budget', admin, closed, Object.fromEntries(UPDATE_FIELDS.map((f) => [f, 'budget.status.closed']))],
    [
      'a member who manages nothing, closed budget: row 6 comes first',
      member,
      closed,
      Object.fromEntries(UPDATE_FIELDS.map((f) => [f, 'budget.permission.update']))
    ]
  ])('%s', (_, c, b, expected) => {
    expect(lockedUpdateFields(c as never, b as never)).toEqual(expected)
  })

  it('returns a new object each call, its keys in the spec’s order', () => {
    const first = lockedUpdateFields(manager, closed)
    delete first.name
    expect(Object.keys(lockedUpdateFields(manager, closed))).toEqual([...UPDATE_FIELDS])
  })

  it.each<[string, object, object, string]>([
    ['a role in another case', { ...manager, role: 'Admin' }, baseBudget, 'caller.role is "Admin", not owner, admin or member'],
    ['a user id that is not a string', { ...manager, user_id: 7 }, baseBudget, 'caller.user_id is 7, not a string'],
    [
      'permissions that are not a list',
      { ...manager, permissions: 'budgets_manage' },
      baseBudget,
      'caller.permissions is "budgets_manage", not an array of strings'
    ],
    [
      'a manager id that is not a string',
      manager,
      { ...baseBudget, manager_id: 7 },
      'budget.manager_id is 7, not a string or null'
    ],
    [
      'a co-manager id that is not a string',
      manager,
      { ...baseBudget, co_manager_id: ['u-1'] },
      'budget.co_manager_id is an array, not a string or null'
    ],
    [
      'a status that is not one',
      manager,
      { ...baseBudget, status: 'archived' },
      'budget.status is "archived", not open, closing or closed'
    ]
  ])('%s is a TypeError naming it', (_, c, b, problem) => {
    expect(() => lockedUpdateFields(c as never, b as never)).toThrow(new TypeError(`lockedUpdateFields: ${problem}`))
  })

  it(
    'locks a field by the very rule the update endpoint refuses a change of that field alone with, and leaves the permitted fields to it',
    () => {
      const seen = new Map<string, number>()
      fc.assert(
        fc.property(
          budgetState(),
          caller(),
          fc.boolean(),
          fc.constantFrom(...UPDATE_FIELDS),
          ({ budget, today }, drawn, asManager, field) => {
            // The budget as the service holds it on `today`, so that the endpoint judges the same budget.
            const b = advanceBudget(budget, today)
            // Half the runs, the budget's manager or co-manager without full rights, by construction:
            // the caller rows 9 and 10 lock fields for.
            const named = b.manager_id ?? b.co_manager_id
            const c =
              asManager && named !== null
                ? {
                    user_id: named,
                    role: 'member' as const,
                    permissions: drawn.permissions.filter((p) => p !== 'budgets_manage')
                  }
                : drawn
            const locked = lockedUpdateFields(c, b)
            const reply = respondBudgetUpdate({
              request: {
                headers: { Authorization: 'Bearer key', 'company-id': b.company_id },
                body: JSON.stringify({ budget: { [field]: changeOf(b, field) } })
              },
              session: {
                user: { id: c.user_id, email_verified: true },
                memberships: { [b.company_id]: { role: c.role, permissions: [...c.permissions] } }
              },
              budget: b,
              today,
              request_id: 'r-locks'
            })
            const rule = locked[field]
            const last = reply.reasons[reply.reasons.length - 1]?.rule
            seen.set(rule ?? 'permitted', (seen.get(rule ?? 'permitted') ?? 0) + 1)
            if (rule === undefined) {
              // Permitted: the change is taken, or judged on its value (a recurrence that does not hold together).
              expect([reply.status, permittedUpdateFields(c, b).includes(field)]).toEqual([
                reply.status === 422 ? 422 : 200,
                true
              ])
            } else {
              expect({ status: [401, 403, 409].includes(reply.status), last }).toEqual({ status: true, last: rule })
              expect(permittedUpdateFields(c, b)).not.toContain(field)
            }
          }
        ),
        { numRuns: runs(600) }
      )
      // Every way a field is locked, and fields left free, each in a share of the runs.
      const kinds = [
        'permitted',
        'budget.permission.update',
        'budget.permission.manager',
        'budget.permission.recurrence',
        'budget.status.closed'
      ]
      expect(kinds.filter((k) => (seen.get(k) ?? 0) < runs(600) / 60)).toEqual([])
    },
    timeoutFor(600, 30_000)
  )
})
