import { describe, expect, it } from 'vitest'
import { parseHttpDate } from '../api'

// RFC 9110 section 5.6.7. Day numbers since 1970-01-01 as Python's datetime.date counts them:
// 1994-11-06 is day 9,075, so 08:49:37 that day is 784,111,777 s (the RFC's own example).
const NOV_6_1994 = 9075 * 86400 + 8 * 3600 + 49 * 60 + 37

describe('parseHttpDate', () => {
  it('reads the three forms of the RFC as the same instant', () => {
    expect([
      parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'),
      parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'),
      parseHttpDate('Sun Nov  6 08:49:37 1994'),
      parseHttpDate('  Sun, 06 Nov 1994 08:49:37 GMT  ')
    ]).toEqual([NOV_6_1994, NOV_6_1994, NOV_6_1994, NOV_6_1994])
  })

  it('reads a two-digit year as the nearest year at most 50 years after the reference year', () => {
    // 2010-11-06 is 14,919 days after the epoch; 2050-01-01 is 29,220; 1951-01-01 is -6,940.
    expect(parseHttpDate('Saturday, 06-Nov-10 08:49:37 GMT')).toBe(14919 * 86400 + 31777)
    expect(NOV_6_1994).toBe(784111777)
    expect(parseHttpDate('Saturday, 01-Jan-50 00:00:00 GMT')).toBe(29220 * 86400)
    expect(parseHttpDate('Monday, 01-Jan-51 00:00:00 GMT')).toBe(-6940 * 86400)
    // Against 2080, 94 is 2094 (at most 50 years on) and 31 is 2131 (51 years on: 2031).
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', 2080)).toBe(NOV_6_1994 + 36525 * 86400)
    expect(parseHttpDate('Wednesday, 01-Jan-31 00:00:00 GMT', 2080)).toBe(22280 * 86400)
  })

  it('reads a leap second as the second before it, and asctime days with a space or two digits', () => {
    expect(parseHttpDate('Sat, 31 Dec 2016 23:59:60 GMT')).toBe(17166 * 86400 + 86399)
    expect(parseHttpDate('Wed Nov 16 08:49:37 1994')).toBe(NOV_6_1994 + 10 * 86400)
  })

  it('reads the first and last instants of the calendar, and the last day of each month, leap day included', () => {
    expect(parseHttpDate('Mon, 01 Jan 0001 00:00:00 GMT')).toBe(-719162 * 86400)
    expect(parseHttpDate('Fri, 31 Dec 9999 23:59:59 GMT')).toBe(2932896 * 86400 + 86399)
    expect(parseHttpDate('Thu, 29 Feb 2024 12:00:00 GMT')).toBe(19782 * 86400 + 43200)
    expect(parseHttpDate('Tue, 28 Feb 2023 00:00:00 GMT')).toBe(19416 * 86400)
    expect(parseHttpDate('Wed, 29 Feb 2023 00:00:00 GMT')).toBeNull()
  })

  it.each([
    ['a day the month does not have', 'Mon, 29 Feb 2021 00:00:00 GMT'],
    ['day 0', 'Sun, 00 Nov 1994 08:49:37 GMT'],
    ['hour 24', 'Sun, 06 Nov 1994 24:00:00 GMT'],
    ['minute 60', 'Sun, 06 Nov 1994 08:60:00 GMT'],
    ['second 61', 'Sun, 06 Nov 1994 08:49:61 GMT'],
    ['year 0', 'Sun, 06 Nov 0000 08:49:37 GMT'],
    ['a zone other than GMT', 'Sun, 06 Nov 1994 08:49:37 UTC'],
    ['a month in another case', 'Sun, 06 NOV 1994 08:49:37 GMT'],
    ['a long day name in the short form', 'Sunday, 06 Nov 1994 08:49:37 GMT'],
    ['seconds, as a Retry-After may also be', '120'],
    ['nothing', '']
  ])('is null for %s', (_, text) => {
    expect(parseHttpDate(text)).toBeNull()
  })
})
