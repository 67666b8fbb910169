import { describe, expect, it } from 'vitest'
import { formatCents, headingText, timelineOf, timelineText } from '../../src/timeline/timeline'
import { monthly, TODAY } from '../fixtures'

describe('formatCents', () => {
  it.each<[number | null, string]>([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [1000000000, '1,000,000,000'],
    [-1234567, '-1,234,567'],
    [null, 'no amount']
  ])('%s is %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text)
  })
})

describe('headingText', () => {
  it('says since when a budget is closing, and only closing when it has no ends_on to say', () => {
    expect(headingText(monthly({ status: 'closing', ends_on: '2026-11-01' }))).toBe(
      'Travel (b-1): funded, CLP, closing since 2026-11-01, balance 5,000 cents'
    )
    expect(headingText(monthly({ status: 'closing', ends_on: null }))).toBe(
      'Travel (b-1): funded, CLP, closing, balance 5,000 cents'
    )
  })
})

describe('the pending changes of a timeline', () => {
  // Monthly, the period in progress 2026-11-18..2026-12-18; a cadence of two weeks from its end.
  const cadence = {
    recurrence_unit: 'week',
    recurrence_every: 2,
    base_amount_cents: 30000,
    recurrence_starts_on: '2026-12-18'
  } as const

  it('are in date order, whatever kind comes first', () => {
    const b = monthly({ ...cadence, ends_on: '2026-12-01' })
    expect(timelineOf({ budget: b, today: TODAY, next: 0 }).changes).toEqual([
      { _tag: 'closing', on: '2026-12-01' },
      { _tag: 'cadence', on: '2026-12-18', unit: 'week', every: 2, amount_cents: 30000 }
    ])
  })

  it('keep the cadence before the closing on the same day', () => {
    const b = monthly({ ...cadence, ends_on: '2026-12-18' })
    expect(timelineOf({ budget: b, today: TODAY, next: 0 }).changes).toEqual([
      { _tag: 'cadence', on: '2026-12-18', unit: 'week', every: 2, amount_cents: 30000 },
      { _tag: 'closing', on: '2026-12-18' }
    ])
  })

  it('keep that order in the text, before the period that starts that day', () => {
    const b = monthly({ ...cadence, ends_on: '2026-12-18' })
    expect(timelineText({ budget: b, today: TODAY, next: 1 }).split('\n').slice(4)).toEqual([
      '> 2026-11-18 .. 2026-12-18  50,000 cents  in progress',
      '! 2026-12-18                              from here: renews every 2 weeks, 30,000 cents a period',
      '! 2026-12-18                              ends_on: the budget closes (status closing)',
      '  2026-12-18 .. 2027-01-01  30,000 cents',
      ''
    ])
  })

  it('are none for a closed budget, even one whose cadence was to change', () => {
    const b = monthly({ ...cadence, status: 'closed' })
    expect(timelineOf({ budget: b, today: TODAY, next: 3 }).changes).toEqual([])
  })
})
