import { describe, expect, it } from 'vitest'
import { fromDayNumber, fromPartsClamped, isCalendarDate } from '../../src/calendar/date'

// The calendar's ends and era edges. Day numbers since 1970-01-01 as Python's datetime.date
// counts them: (date(y, m, d) - date(1970, 1, 1)).days.
describe('the calendar at its edges', () => {
  it.each<[number, string]>([
    [-719162, '0001-01-01'],
    [2932896, '9999-12-31'],
    // The last day of a 400-year era (the day before a March 1 of a year divisible by 400).
    [-135081, '1600-02-29'],
    [11016, '2000-02-29'],
    [157113, '2400-02-29']
  ])('day %i is %s', (n, date) => {
    expect(fromDayNumber(n)).toBe(date)
  })

  it('has no day before 0001-01-01 or after 9999-12-31', () => {
    expect([fromDayNumber(-719163), fromDayNumber(2932897)]).toEqual([null, null])
  })

  it('builds dates in the first and the last year, and none outside them', () => {
    expect([
      fromPartsClamped(1, 1, 1),
      fromPartsClamped(9999, 2, 31),
      fromPartsClamped(0, 12, 31),
      fromPartsClamped(10000, 1, 1)
    ]).toEqual(['0001-01-01', '9999-02-28', null, null])
  })

  it.each<[string, unknown]>([
    ['a list holding a date (its text would match)', ['2026-11-22']],
    ['month 00', '2026-00-10'],
    ['month 13', '2026-13-10'],
    ['day 00', '2026-11-00'],
    ['a slash for the first dash', '2026/11-22'],
    ['a slash for the second dash', '2026-11/22']
  ])('isCalendarDate refuses %s', (_, u) => {
    expect(isCalendarDate(u)).toBe(false)
  })
})
