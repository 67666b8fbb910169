import { describe, expect, it } from 'vitest'
import { parseInstant } from '../api'

// A character just below '0' (here '/') in a digit's place would read as that digit less one
// ('2/' as 19), and the text toISOString writes is read at fixed places, so its length counts.
describe('parseInstant refuses a date or time that is not all digits and dashes where they go', () => {
  // What toISOString writes is read at fixed places, and must still be a time there: separators,
  // digits, ranges.
  it.each<[string, string]>([
    ['a slash for the first dash', '2026/11-22T10:00:00Z'],
    ['a slash after the first digit of the day', '2026-11-2/T10:00:00Z'],
    ['a slash after the first digit of the hour', '2026-11-22T1/:00:00Z'],
    ['a slash after the first digit of the hour, as toISOString writes', '2026-11-22T1/:00:00.000Z'],
    ['a character after the Z of what toISOString writes', '2026-11-22T10:00:00.000Z0'],
    ['a letter for the first colon, as toISOString writes', '2026-11-22T10x00:00.000Z'],
    ['a letter for the second colon, as toISOString writes', '2026-11-22T10:00x00.000Z'],
    ['a letter for the dot, as toISOString writes', '2026-11-22T10:00:00x000Z'],
    ['a slash in the minutes, as toISOString writes', '2026-11-22T10:1/:00.000Z'],
    ['minute 60, as toISOString writes', '2026-11-22T10:60:00.000Z'],
    ['a slash in the seconds, as toISOString writes', '2026-11-22T10:00:1/.000Z'],
    ['second 60, as toISOString writes', '2026-11-22T10:00:60.000Z'],
    ['hour 24, as toISOString writes', '2026-11-22T24:00:00.000Z'],
    ['a letter in the fraction, as toISOString writes', '2026-11-22T10:00:00.0x0Z']
  ])('%s', (_, text) => {
    expect(parseInstant(text)).toBeNull()
  })
})

// RFC 3339: an offset is Z, or + or - then hh:mm with hh 00-23 and mm 00-59.
describe('parseInstant refuses a malformed offset', () => {
  it.each<[string, string]>([
    ['a space for the sign', '2026-11-22T10:00:00 03:00'],
    ['a letter for the sign', '2026-11-22T10:00:00x03:00'],
    ['a letter in the hours', '2026-11-22T10:00:00+x3:00'],
    ['a letter in the minutes', '2026-11-22T10:00:00+03:x0'],
    ['hours 24', '2026-11-22T10:00:00+24:00'],
    ['minutes 60', '2026-11-22T10:00:00+03:60']
  ])('%s', (_, text) => {
    expect(parseInstant(text)).toBeNull()
  })

  it('reads the largest offsets it takes', () => {
    // 2026-11-22 is day 20,779 since 1970-01-01.
    const tenUtc = 20779 * 86400 + 10 * 3600
    expect([parseInstant('2026-11-22T10:00:00-23:59')?.seconds, parseInstant('2026-11-22T10:00:00+23:59')?.seconds]).toEqual([
      tenUtc + 23 * 3600 + 59 * 60,
      tenUtc - 23 * 3600 - 59 * 60
    ])
  })
})
