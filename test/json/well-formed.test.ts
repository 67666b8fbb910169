/**
 * R-128's test of text: well-formed exactly when every surrogate is in a pair (high then low),
 * checked against an oracle that reads the UTF-16 units one by one; and where in a body a lone
 * surrogate is the body's (400) rather than a field's (422).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { illFormedIn, isWellFormedText } from '../../src/json/well-formed'
import { runs } from '../runs'

/** The oracle: unit by unit, a high surrogate must be followed by a low one, a low one preceded by a high one. */
const wellFormed = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i)
    const high = u >= 0xd800 && u <= 0xdbff
    const low = u >= 0xdc00 && u <= 0xdfff
    if (low) return false
    if (high) {
      const next = s.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i++
    }
  }
  return true
}

describe('isWellFormedText', () => {
  it.each<[string, boolean]>([
    ['', true],
    ['Travel', true],
    ['💶', true],
    ['\ud83d\udcb6\ud83d\udcb6', true],
    ['\ud800', false],
    ['\udfff', false],
    ['a\udbffb', false],
    ['\udcb6\ud83d', false],
    ['\ud83d\ud83d\udcb6', false],
    ['\ud83d\udcb6\udcb6', false],
    ['\uffff\ue000\ud7ff', true]
  ])('%j: %s', (s, expected) => {
    expect(isWellFormedText(s)).toBe(expected)
  })

  it('agrees with the oracle on any text of surrogates, alone and in pairs, among other characters', () => {
    const seen = { ill: 0, well: 0 }
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\udcb6'),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })
          ),
          maxLength: 8
        }),
        (s) => {
          expect(isWellFormedText(s)).toBe(wellFormed(s))
          seen[wellFormed(s) ? 'well' : 'ill']++
        }
      ),
      { numRuns: runs(500) }
    )
    // A share of the runs made, not of those asked for: under Stryker a property makes fewer.
    expect(Math.min(seen.ill, seen.well)).toBeGreaterThan((seen.ill + seen.well) / 5)
  })
})

describe('illFormedIn', () => {
  const LONE = '\udbff'

  it('finds a lone surrogate in any key, at any depth, in objects and arrays', () => {
    expect(illFormedIn({ [LONE]: 1 }, [])).toBe(true)
    expect(illFormedIn({ a: { b: { [`c${LONE}`]: null } } }, ['a.b.*'])).toBe(true)
    expect(illFormedIn({ a: [{ b: [LONE] }] }, [])).toBe(true)
    expect(illFormedIn([LONE], [])).toBe(true)
    expect(illFormedIn(LONE, [])).toBe(true)
  })

  it('leaves to the field rules a string value at a judged path, and only there', () => {
    expect(illFormedIn({ budget: { name: LONE } }, ['budget.name'])).toBe(false)
    expect(illFormedIn({ budget: { name: LONE } }, ['budget.*'])).toBe(false)
    expect(illFormedIn({ role: LONE }, ['role'])).toBe(false)
    // The array's items are under the array's key.
    expect(illFormedIn({ budget: { name: [LONE] } }, ['budget.name'])).toBe(false)
    // Not the path: a shorter one, a longer one, another key, the root.
    expect(illFormedIn({ budget: LONE }, ['budget.*'])).toBe(true)
    expect(illFormedIn({ budget: { name: { x: LONE } } }, ['budget.*'])).toBe(true)
    expect(illFormedIn({ budget: { name: 'a' }, note: LONE }, ['budget.*'])).toBe(true)
    expect(illFormedIn({ other: { name: LONE } }, ['budget.*'])).toBe(true)
    expect(illFormedIn({ budget: { name: LONE } }, ['budget.description'])).toBe(true)
    expect(illFormedIn(LONE, ['*'])).toBe(true)
  })

  it('well-formed text, numbers, booleans and null are no finding', () => {
    expect(illFormedIn({ a: ['💶', 1, true, null, { b: 'x' }], '💶': 'y' }, [])).toBe(false)
    expect(illFormedIn(7, [])).toBe(false)
    expect(illFormedIn(null, [])).toBe(false)
  })
})

describe('illFormedIn, on a body nested deep', () => {
  it('walks 100,000 levels of arrays and of objects without a stack overflow, in little time', () => {
    const arrays = `${'['.repeat(100_000)}"\\udbff"${']'.repeat(100_000)}`
    const objects = `${'{"a":'.repeat(100_000)}"\\udbff"${'}'.repeat(100_000)}`
    const started = performance.now()
    expect(illFormedIn(JSON.parse(arrays), [])).toBe(true)
    expect(illFormedIn(JSON.parse(objects), ['a.a'])).toBe(true)
    expect(illFormedIn(JSON.parse(objects.replace('\\udbff', 'x')), ['a.*'])).toBe(false)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
