import { describe, expect, it } from 'vitest'
import { changeRecurrence, type RecurrenceSettings } from '../../src/budget/recurrence-change'
import { budget, monthly, TODAY } from '../fixtures'

// what a change of the recurrence settings does to a budget, and the reason it gives.
// Monthly from 2025-10-18, base 50,000, period in progress 2026-11-18..2026-12-18; today 2026-11-22.
/** Settings as a request sends them (plain numbers; the codecs brand them). */
const settings = (unit: RecurrenceSettings['unit'], every: number | null, base: number | null): RecurrenceSettings =>
  ({ unit, every, base }) as RecurrenceSettings

describe('changeRecurrence', () => {
  const m = monthly()
  const none = budget()

  it('changes nothing, with no reason, for the settings the budget holds', () => {
    const r = changeRecurrence(m, TODAY, settings('month', 1, 50000))
    expect(r).toEqual({ budget: m, reason: null })
    expect(r.budget).toBe(m)
    expect(changeRecurrence(m, TODAY, settings('month', null, 50000))).toEqual({ budget: m, reason: null })
  })

  it('stops renewals: the period in progress keeps its end', () => {
    expect(changeRecurrence(m, TODAY, settings(null, null, null))).toEqual({
      budget: { ...m, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null },
      reason: { rule: 'recurrence.stop', detail: 'renewals stopped; the period in progress ends 2026-12-18' }
    })
  })

  it('keeps a budget without renewals without them, with the base it is sent', () => {
    expect(changeRecurrence(none, TODAY, settings(null, null, null))).toEqual({ budget: none, reason: null })
  })

  it('turns renewals on from the end of the period in progress when it has one', () => {
    const ending = budget({ period_ends_on: '2026-12-01' })
    expect(changeRecurrence(ending, TODAY, settings('week', 2, 300))).toEqual({
      budget: {
        ...ending,
        recurrence_unit: 'week',
        recurrence_every: 2,
        base_amount_cents: 300,
        recurrence_starts_on: '2026-12-01'
      },
      reason: { rule: 'recurrence.turn_on', detail: 'renewals resume from 2026-12-01' }
    })
  })

  it('turns renewals on from created_on for an open-ended period: every 1 unless sent', () => {
    expect(changeRecurrence(none, TODAY, settings('month', null, 50000))).toEqual({
      budget: {
        ...none,
        recurrence_unit: 'month',
        recurrence_every: 1,
        base_amount_cents: 50000,
        recurrence_starts_on: '2025-10-18',
        period_ends_on: '2026-12-18'
      },
      reason: { rule: 'recurrence.turn_on', detail: 'periods count from 2025-10-18; the period in progress ends 2026-12-18' }
    })
    // 2025-10-18 plus 400 days is today, a boundary itself: the period in progress ends 10 days on.
    expect(changeRecurrence(none, TODAY, settings('day', 10, 5)).budget.period_ends_on).toBe('2026-12-02')
  })

  it('changes the cadence from the end of the period in progress, keeping every when only the unit is sent', () => {
    expect(changeRecurrence(m, TODAY, settings('week', null, 50000))).toEqual({
      budget: { ...m, recurrence_unit: 'week', recurrence_every: 1, recurrence_starts_on: '2026-12-18' },
      reason: { rule: 'recurrence.change', detail: 'every 1 week from 2026-12-18' }
    })
    const every3 = monthly({ recurrence_every: 3, period_ends_on: '2027-02-18' })
    expect(changeRecurrence(every3, TODAY, settings('year', null, 10))).toEqual({
      budget: {
        ...every3,
        recurrence_unit: 'year',
        recurrence_every: 3,
        base_amount_cents: 10,
        recurrence_starts_on: '2027-02-18'
      },
      reason: { rule: 'recurrence.change', detail: 'every 3 year from 2027-02-18' }
    })
    expect(changeRecurrence(m, TODAY, settings('month', 2, 50000)).reason).toEqual({
      rule: 'recurrence.change',
      detail: 'every 2 month from 2026-12-18'
    })
  })

  it('changes only the base of periods after the one in progress', () => {
    expect(changeRecurrence(m, TODAY, settings('month', 1, 0))).toEqual({
      budget: { ...m, base_amount_cents: 0 },
      reason: { rule: 'recurrence.base', detail: 'periods after the one in progress get 0 cents' }
    })
    expect(changeRecurrence(m, TODAY, settings('month', null, 125)).reason).toEqual({
      rule: 'recurrence.base',
      detail: 'periods after the one in progress get 125 cents'
    })
  })
})
