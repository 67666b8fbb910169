/**
 * headerOf finds a header whatever the case of its spelling, as `toLowerCase` reads it: the ASCII
 * comparison written out for speed (src/http/headers.ts, `isSpelling`) against `toLowerCase` on
 * both sides, over keys made of ASCII letters in either case and of the characters whose lower
 * case is another length or an ASCII letter (U+0130 İ, U+212A Kelvin sign, U+017F ſ, ß, Σ).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headerOf } from '../../src/http/headers'
import { runs } from '../runs'

const letters = fc.constantFrom(
  'a',
  'A',
  'b',
  'B',
  'i',
  'I',
  'k',
  'K',
  's',
  'S',
  '-',
  '_',
  '\u0130',
  '\u212A',
  '\u017F',
  'ß',
  'Σ',
  'σ',
  'i\u0307'
)
const spelling = fc.array(letters, { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''))

describe('headerOf: the spellings of a name', () => {
  it('finds a key exactly when its lower case is the name’s', () => {
    // Half the names are the key with each character's case flipped or not: many match.
    const pair = fc.oneof(
      fc.tuple(spelling, spelling),
      fc.tuple(spelling, fc.infiniteStream(fc.boolean())).map(([key, ups]): [string, string] => {
        const flips = [...ups.take(key.length)]
        // Code point by code point, the case of each flipped or not.
        const points = Array.from(key)
        return [key, points.map((c, i) => (flips[i] === true ? c.toUpperCase() : c.toLowerCase())).join('')]
      })
    )
    let found = 0
    let unicode = 0
    let made = 0
    fc.assert(
      fc.property(pair, ([key, name]) => {
        const expected = key.toLowerCase() === name.toLowerCase() ? 'v' : undefined
        expect(headerOf({ [key]: 'v' }, name)).toBe(expected)
        made++
        if (expected !== undefined) found++
        if (expected !== undefined && Array.from(key).some((c) => c.charCodeAt(0) > 127)) unicode++
      }),
      { numRuns: runs(3000) }
    )
    // Over the runs made: under Stryker a property makes a fifth of them.
    expect(made).toBeGreaterThanOrEqual(600)
    expect(found).toBeGreaterThan(made / 4)
    expect(unicode).toBeGreaterThan(made / 20)
  })

  it('finds a name in another case among other headers, and a Kelvin sign as a k', () => {
    const headers = { Authorization: 'Bearer k', 'COMPANY-ID': 'c-1', '\u212Aey': 'x', ID: 'i' }
    expect(headerOf(headers, 'authorization')).toBe('Bearer k')
    expect(headerOf(headers, 'Company-Id')).toBe('c-1')
    expect(headerOf(headers, 'key')).toBe('x')
    expect(headerOf(headers, 'id')).toBe('i')
    expect(headerOf(headers, 'i\u0307d')).toBeUndefined()
    expect(headerOf(headers, 'company-i')).toBeUndefined()
  })
})
