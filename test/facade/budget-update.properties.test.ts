import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, budgetFields, hasFullBudgetRights, recurrenceFields, respondBudgetUpdate } from '../../src/index'
import { budgetAndToday, derivedKeys, recurrenceUpdateOf, updateOf, who } from '../arbitraries'
import { headers, session, type Who } from '../fixtures'

const SPEC_STATUSES = [200, 400, 401, 403, 404, 409, 412, 422, 500]

const scenario = fc
  .tuple(budgetAndToday, who)
  .chain(([{ budget, today }, caller]) =>
    updateOf(advanceBudget(budget, today), today).map((fields) => ({ budget, today, caller, fields }))
  )

const run = (budget: Budget, today: string, caller: Who, body: string) =>
  respondBudgetUpdate({
    request: { headers: headers(), body },
    session: session(caller),
    budget,
    today,
    request_id: 'req-p',
    company_member_ids: ['u-manager', 'u-comanager', 'u-member', 'u-admin']
  })

const isFull = (caller: Who) => {
  const s = session(caller)
  const m = s.memberships['c-1']
  return m !== undefined && hasFullBudgetRights({ user_id: s.user.id, role: m.role, permissions: m.permissions })
}

describe('respondBudgetUpdate: properties', () => {
  it('fields not sent never change, beyond what R-12 and R-15 derive from the fields sent', () => {
    fc.assert(
      fc.property(scenario, ({ budget, today, caller, fields }) => {
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        if (r.status !== 200 || r.budget === undefined) return
        const before = advanceBudget(budget, today)
        const sentRecurrence = recurrenceFields.some((f) => f in fields)
        for (const key of budgetFields) {
          if (key in fields) continue
          if (derivedKeys.has(key) && (sentRecurrence || (key === 'status' && 'ends_on' in fields))) continue
          expect(r.budget[key], key).toEqual(before[key])
        }
      }),
      { numRuns: 2000 }
    )
  })

  it('balance_cents, currency and mode never change', () => {
    fc.assert(
      fc.property(scenario, ({ budget, today, caller, fields }) => {
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        if (r.budget === undefined) return
        expect([r.budget.balance_cents, r.budget.currency, r.budget.mode]).toEqual([
          budget.balance_cents,
          budget.currency,
          budget.mode
        ])
      }),
      { numRuns: 1000 }
    )
  })

  it("a caller without full rights never gets a 200 that changes manager_id or a recurrence field", () => {
    fc.assert(
      fc.property(scenario, ({ budget, today, caller, fields }) => {
        fc.pre(!isFull(caller))
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        if (r.status !== 200 || r.budget === undefined) return
        const before = advanceBudget(budget, today)
        for (const key of ['manager_id', ...recurrenceFields, 'recurrence_starts_on'] as const)
          expect(r.budget[key], key).toEqual(before[key])
      }),
      { numRuns: 2000 }
    )
  })

  it('sending back the budget as read is a 200 no-op for anyone allowed to update an unclosed budget', () => {
    fc.assert(
      fc.property(budgetAndToday, who, ({ budget, today }, caller) => {
        const read = advanceBudget(budget, today)
        const r = run(budget, today, caller, JSON.stringify({ budget: read }))
        const allowed = isFull(caller) || read.manager_id === session(caller).user.id || read.co_manager_id === session(caller).user.id
        if (!allowed) expect(r.status).toBe(401)
        else if (read.status === 'closed') expect(r.status).toBe(409)
        else expect([r.status, r.budget]).toEqual([200, read])
      }),
      { numRuns: 1000 }
    )
  })

  it('a change of recurrence never moves the start, end or amount of the period in progress, but to turn renewals on', () => {
    const recurrenceScenario = budgetAndToday
      .filter(({ budget }) => budget.status !== 'closed')
      .chain(({ budget, today }) => recurrenceUpdateOf(advanceBudget(budget, today)).map((fields) => ({ budget, today, fields })))
    let applied = 0
    fc.assert(
      fc.property(recurrenceScenario, ({ budget, today, fields }) => {
        const r = run(budget, today, 'admin', JSON.stringify({ budget: fields }))
        if (r.budget === undefined) return
        applied++
        const before = advanceBudget(budget, today)
        expect([r.budget.period_starts_on, r.budget.period_amount_cents]).toEqual([
          before.period_starts_on,
          before.period_amount_cents
        ])
        const turnedOnOpenEnded = before.recurrence_unit === null && r.budget.recurrence_unit !== null && before.period_ends_on === null
        if (!turnedOnOpenEnded) expect(r.budget.period_ends_on).toEqual(before.period_ends_on)
        else expect(r.budget.period_ends_on === null || r.budget.period_ends_on > today).toBe(true)
      }),
      { numRuns: 2000 }
    )
    expect(applied).toBeGreaterThan(1000)
  })

  it('never throws on any body text or headers, and replies with a status of the spec', () => {
    const anyHeaders = fc.dictionary(
      fc.oneof(fc.constantFrom('Authorization', 'authorization', 'company-id', 'COMPANY-ID', '__proto__'), fc.string()),
      fc.option(fc.oneof(fc.constantFrom('Bearer k', 'c-1', ''), fc.string()), { nil: undefined })
    )
    const anyBody = fc.option(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.jsonValue().map((budget) => JSON.stringify({ budget })),
        fc.string().map((s) => `{"budget":{"name":${s}}}`)
      ),
      { nil: undefined }
    )
    fc.assert(
      fc.property(budgetAndToday, who, anyHeaders, anyBody, ({ budget, today }, caller, hs, body) => {
        const r = respondBudgetUpdate({
          request: body === undefined ? { headers: hs } : { headers: hs, body },
          session: session(caller),
          budget,
          today,
          request_id: 'req-f'
        })
        expect(SPEC_STATUSES).toContain(r.status)
        expect(r.status).not.toBe(500)
        expect(r.headers['X-Request-Id']).toBe('req-f')
        expect('Content-Type' in r.headers).toBe(r.body !== null)
      }),
      { numRuns: 2000 }
    )
  })

  it('never throws on arbitrary junk as its whole context', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withBigInt: true }), (junk) => {
        const r = respondBudgetUpdate(junk as never)
        expect(r.status).toBe(500)
      })
    )
  })
})
