import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dayNumber, toDayNumber, toParts } from '../../src/calendar/date'
import { anyDate } from '../arbitraries'

// toParts and toDayNumber read a date's digits without cutting the text into pieces; on any text
// they must still answer as reading each piece with Number does (`Number('0012')` is 12,
// `Number(' 7')` is 7, `Number('1x')` is NaN).
const pieces = (s: string) => ({ year: Number(s.slice(0, 4)), month: Number(s.slice(5, 7)), day: Number(s.slice(8, 10)) })

/** Texts shaped like a date with some characters swapped for others: spaces, signs, letters, dots. */
const nearlyADate = fc
  .tuple(anyDate, fc.array(fc.tuple(fc.nat(11), fc.constantFrom(' ', '+', '-', 'x', '.', '0', '9', 'e', '')), { maxLength: 3 }))
  .map(([d, edits]) => edits.reduce<string>((s, [at, c]) => s.slice(0, at) + c + s.slice(at + 1), d))

describe('toParts and toDayNumber', () => {
  it('read the year, month and day of a date', () => {
    expect(toParts('0012-03-09' as never)).toEqual({ year: 12, month: 3, day: 9 })
    fc.assert(
      fc.property(anyDate, (d) => {
        expect(toParts(d)).toEqual(pieces(d))
      })
    )
  })

  it.each<[string, string, { year: number; month: number; day: number }]>([
    ['a year with a space', ' 202-11-22', { year: 202, month: 11, day: 22 }],
    ['a month with a letter', '2026-1x-22', { year: 2026, month: Number.NaN, day: 22 }],
    ['a text too short', '2026-11-2', { year: 2026, month: 11, day: 2 }],
    ['an empty text', '', { year: 0, month: 0, day: 0 }]
  ])('read %s (%j) as Number reads its pieces', (_, text, parts) => {
    expect(toParts(text as never)).toEqual(parts)
  })

  it('answer on any text as Number does on each piece', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyADate, fc.string({ maxLength: 12 })), (s) => {
        const p = pieces(s)
        expect(toParts(s as never)).toEqual(p)
        expect(toDayNumber(s as never)).toBe(dayNumber(p.year, p.month, p.day))
      })
    )
  })
})
