import { describe, expect, it } from 'vitest'
import { formatCents, timelineOf } from '../../src/timeline/timeline'
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

  it('are none for a closed budget, even one whose cadence was to change', () => {
    const b = monthly({ ...cadence, status: 'closed' })
    expect(timelineOf({ budget: b, today: TODAY, next: 3 }).changes).toEqual([])
  })
})
