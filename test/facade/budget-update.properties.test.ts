import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, budgetFields, recurrenceFields, respondBudgetUpdate } from '../api'
import {
  allowedCallerOf,
  budgetAndToday,
  derivedKeys,
  forbiddenChangeOf,
  fullRights,
  memberIds,
  recurrenceChangeOf,
  tally,
  unclosedBudgetAndToday,
  updateOf,
  userIdOf,
  validUpdateOf
} from '../arbitraries'
import { boundary, indexContaining } from '../budget/calendar-oracle'
import { headers, session, type Who, budgetOf } from '../fixtures'
import { runs } from '../runs'

const SPEC_STATUSES = [200, 400, 401, 403, 404, 409, 412, 422, 500]

const run = (budget: Budget, today: string, caller: Who, body: string) =>
  respondBudgetUpdate({
    request: { headers: headers(), body },
    session: session(caller),
    budget,
    today,
    request_id: 'req-p',
    company_member_ids: [...memberIds]
  })

const isFull = (caller: Who) => fullRights.includes(caller)

/** Whether `caller` may update `b` at all (row 6), from the fixture's user ids. */
const mayUpdate = (caller: Who, b: Budget) =>
  isFull(caller) || b.manager_id === userIdOf[caller] || b.co_manager_id === userIdOf[caller]

/**
 * A budget, a `today`, an allowed caller and a body that is valid by construction: the 200 path.
 * One run in five sends a random body instead (valid, invalid or hostile), so that the
 * properties also hold of whatever else comes back.
 */
const updateScenario = unclosedBudgetAndToday
  .chain(({ budget, today }) => allowedCallerOf(budget).map(({ budget: b, caller }) => ({ budget: b, today, caller })))
  .chain(({ budget, today, caller }) => {
    const read = advanceBudget(budget, today)
    const fields = fc.oneof(
      { arbitrary: validUpdateOf(read, today, isFull(caller) ? 'full' : 'manager'), weight: 4 },
      { arbitrary: updateOf(read, today), weight: 1 }
    )
    return fields.map((f) => ({ budget, today, caller, fields: f }))
  })

describe('respondBudgetUpdate: properties', () => {
  it('fields not sent never change, beyond what R-12 and R-15 derive from the fields sent; plain fields sent take the value sent', () => {
    const reached = tally()
    fc.assert(
      fc.property(updateScenario, ({ budget, today, caller, fields }) => {
        reached.run()
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        if (r.status !== 200) return
        reached.reach()
        const before = advanceBudget(budget, today)
        const sentRecurrence = recurrenceFields.some((f) => f in fields)
        for (const key of budgetFields) {
          if (key in fields) continue
          if (derivedKeys.has(key) && (sentRecurrence || (key === 'status' && 'ends_on' in fields))) continue
          expect(r.budget[key], key).toEqual(before[key])
        }
        for (const key of ['name', 'description', 'access', 'ends_on', 'manager_id'] as const)
          if (key in fields) expect(r.budget[key], key).toEqual(fields[key])
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('a valid body from an allowed caller on a budget not closed is a 200, whose budget is also the body', () => {
    const reached = tally()
    const valid = unclosedBudgetAndToday
      .chain(({ budget, today }) => allowedCallerOf(budget).map(({ budget: b, caller }) => ({ budget: b, today, caller })))
      .chain(({ budget, today, caller }) =>
        validUpdateOf(advanceBudget(budget, today), today, isFull(caller) ? 'full' : 'manager').map((fields) => ({
          budget,
          today,
          caller,
          fields
        }))
      )
    fc.assert(
      fc.property(valid, ({ budget, today, caller, fields }) => {
        reached.run()
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        expect([r.status, r.body]).toEqual([200, budgetOf(r)])
        reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare(1)
  })

  it('balance_cents, currency and mode never change, and a reply other than 200 has nothing to persist', () => {
    const reached = tally()
    fc.assert(
      fc.property(updateScenario, ({ budget, today, caller, fields }) => {
        reached.run()
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        if (r.status !== 200) {
          expect(budgetOf(r)).toBeUndefined()
          return
        }
        reached.reach()
        expect([r.budget.balance_cents, r.budget.currency, r.budget.mode]).toEqual([
          budget.balance_cents,
          budget.currency,
          budget.mode
        ])
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
  })

  it('a manager or co-manager changing manager_id or a recurrence field gets 403, whatever else the body holds and whatever the status', () => {
    const reached = tally()
    const forbidden = budgetAndToday
      .chain(({ budget, today }) =>
        fc.constantFrom<Who>('manager', 'co_manager').map((caller) => ({
          today,
          caller,
          budget:
            caller === 'manager' ? { ...budget, manager_id: userIdOf.manager } : { ...budget, co_manager_id: userIdOf.co_manager }
        }))
      )
      .chain(({ budget, today, caller }) =>
        forbiddenChangeOf(advanceBudget(budget, today)).map((change) => ({ budget, today, caller, ...change }))
      )
    fc.assert(
      fc.property(forbidden, ({ budget, today, caller, fields, code }) => {
        reached.run()
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        const body = r.body as Readonly<Record<string, unknown>>
        expect([r.status, budgetOf(r), Object.keys(body), body.error_code, typeof body.message]).toEqual([
          403,
          undefined,
          ['error_code', 'message'],
          code,
          'string'
        ])
        reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare(1)
  })

  it('sending back the budget as read is a 200 no-op for anyone allowed to update an unclosed budget', () => {
    const reached = tally()
    // Mostly an allowed caller on a budget not closed; else a member who manages nothing (401) or a closed budget (409).
    const sendBack = budgetAndToday.chain(({ budget, today }) =>
      fc
        .oneof(
          { arbitrary: allowedCallerOf(budget), weight: 4 },
          {
            arbitrary: fc.constant({ budget: { ...budget, manager_id: null, co_manager_id: null }, caller: 'member' }),
            weight: 1
          }
        )
        .map(({ budget: b, caller }) => ({ budget: b, today, caller }))
    )
    fc.assert(
      fc.property(sendBack, ({ budget, today, caller }) => {
        reached.run()
        const read = advanceBudget(budget, today)
        const r = run(budget, today, caller, JSON.stringify({ budget: read }))
        if (!mayUpdate(caller, read)) expect([r.status, r.body]).toEqual([401, { message: 'Unauthorized (401)' }])
        else if (read.status === 'closed') expect(r.status).toBe(409)
        else {
          expect([r.status, budgetOf(r)]).toEqual([200, read])
          reached.reach()
        }
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
  })

  it('a change of recurrence reshapes the budget exactly as R-12 says, and never moves the period in progress but to turn renewals on', () => {
    const reached = tally()
    const kinds = { turn_on: 0, cadence: 0, base: 0, stop: 0 }
    const recurrenceScenario = unclosedBudgetAndToday.chain(({ budget, today }) =>
      fc
        .tuple(fc.constantFrom<Who>(...fullRights), recurrenceChangeOf(advanceBudget(budget, today)))
        .map(([caller, change]) => ({ budget, today, caller, ...change }))
    )
    fc.assert(
      fc.property(recurrenceScenario, ({ budget, today, caller, kind, fields }) => {
        reached.run()
        kinds[kind]++
        const r = run(budget, today, caller, JSON.stringify({ budget: fields }))
        const before = advanceBudget(budget, today)
        const sent = <K extends keyof Budget>(key: K): Budget[K] => (key in fields ? (fields[key] as Budget[K]) : before[key])
        const unit = sent('recurrence_unit')
        const every = 'recurrence_every' in fields ? (fields.recurrence_every as number) : (before.recurrence_every ?? 1)
        // The model of R-12, from the contract's table.
        const expected: Budget =
          kind === 'stop'
            ? { ...before, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null }
            : kind === 'base'
              ? { ...before, base_amount_cents: sent('base_amount_cents') }
              : kind === 'cadence'
                ? {
                    ...before,
                    recurrence_unit: unit,
                    recurrence_every: every as never,
                    base_amount_cents: sent('base_amount_cents'),
                    recurrence_starts_on: before.period_ends_on
                  }
                : before.period_ends_on !== null
                  ? {
                      ...before,
                      recurrence_unit: unit,
                      recurrence_every: every as never,
                      base_amount_cents: sent('base_amount_cents'),
                      recurrence_starts_on: before.period_ends_on
                    }
                  : {
                      ...before,
                      recurrence_unit: unit,
                      recurrence_every: every as never,
                      base_amount_cents: sent('base_amount_cents'),
                      recurrence_starts_on: before.created_on,
                      period_ends_on: firstBoundaryAfter(before.created_on, unit as never, every, today) as never
                    }
        expect([r.status, budgetOf(r)]).toEqual([200, expected])
        reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare(1)
    for (const n of Object.values(kinds)) expect(n).toBeGreaterThan(100)
  })

  it('never throws on any body text or headers, and replies with a status of the spec', () => {
    const reached = tally()
    const names = fc.constantFrom(
      'Authorization',
      'authorization',
      'AUTHORIZATION',
      'company-id',
      'Company-Id',
      'COMPANY-ID',
      '__proto__',
      'constructor'
    )
    // Mostly the right credentials in any case of names, with junk beside them; sometimes junk alone.
    const anyHeaders = fc.oneof(
      {
        arbitrary: fc
          .tuple(
            fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
            fc.constantFrom('company-id', 'Company-Id', 'COMPANY-ID'),
            fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 })
          )
          .map(([a, c, extra]) => ({ ...extra, [a]: 'Bearer k', [c]: 'c-1' })),
        weight: 4
      },
      {
        arbitrary: fc.dictionary(
          fc.oneof(names, fc.string()),
          fc.option(fc.oneof(fc.constantFrom('Bearer k', 'c-1', ''), fc.string()), { nil: undefined })
        ),
        weight: 1
      }
    )
    const anyBody = fc.option(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.jsonValue().map((budget) => JSON.stringify({ budget })),
        fc
          .dictionary(fc.constantFrom(...budgetFields, 'other'), fc.jsonValue(), { maxKeys: 6 })
          .map((budget) => JSON.stringify({ budget })),
        fc.string().map((s) => `{"budget":{"name":${s}}}`)
      ),
      { nil: undefined }
    )
    const context = budgetAndToday.chain(({ budget, today }) =>
      allowedCallerOf(budget).map(({ budget: b, caller }) => ({ budget: b, today, caller }))
    )
    fc.assert(
      fc.property(context, anyHeaders, anyBody, ({ budget, today, caller }, hs, body) => {
        reached.run()
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
        // The conclusion worth reaching: past authentication and scope, the body was judged.
        if (![401, 404].includes(r.status)) reached.reach()
      }),
      { numRuns: runs(2000) }
    )
    reached.expectShare()
  })

  it('never throws on arbitrary junk as its whole context', () => {
    const reached = tally()
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withBigInt: true }), (junk) => {
        reached.run()
        const r = respondBudgetUpdate(junk as never)
        expect(r.status).toBe(500)
        reached.reach()
      })
    )
    reached.expectShare(1)
  })
})

/** The first boundary strictly after `today` of the schedule anchored on `anchor` (the oracle's). */
const firstBoundaryAfter = (anchor: string, unit: 'day' | 'week' | 'month' | 'year', every: number, today: string) => {
  const s = { anchor, unit, every }
  return boundary(s, indexContaining(s, today) + 1)
}
