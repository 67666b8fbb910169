import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sameJson } from '../../src/json/value'
import { runs } from '../runs'

/** The oracle: JSON text with every object's keys sorted, so that two values are the same JSON when their texts are equal. */
const canonical = (u: unknown): string =>
  Array.isArray(u)
    ? `[${u.map(canonical).join(',')}]`
    : typeof u === 'object' && u !== null
      ? `{${Object.keys(u)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((u as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(u)

/** `u` with every object's keys in reverse order. */
const reversed = (u: unknown): unknown =>
  Array.isArray(u)
    ? u.map(reversed)
    : typeof u === 'object' && u !== null
      ? Object.fromEntries(
          Object.keys(u)
            .reverse()
            .map((k) => [k, reversed((u as Record<string, unknown>)[k])])
        )
      : u

describe('sameJson', () => {
  it.each([
    ['a number and an empty object', 1, {}],
    ['an empty object and a number', {}, 1],
    ['null and an empty object', null, {}],
    ['an empty object and null', {}, null],
    ['an empty array and an empty object', [], {}],
    ['an empty object and an empty array', {}, []],
    ['an object and one with a key more', { a: 1 }, { a: 1, b: 2 }],
    ['objects differing in one value of two', { a: 1, b: 2 }, { a: 1, b: 3 }],
    ['objects whose keys differ, each undefined', { a: undefined }, { b: undefined }],
    ['an array and its reverse', [1, 2], [2, 1]],
    ['text and the number it spells', '1', 1]
  ])('tells apart %s', (_, a, b) => {
    expect(sameJson(a, b)).toBe(false)
  })

  it('is true of a JSON value and a copy with its keys in another order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (u) => {
        expect(sameJson(u, reversed(u))).toBe(true)
        expect(sameJson(reversed(u), u)).toBe(true)
      }),
      { numRuns: runs(200) }
    )
  })

  it('answers for two JSON values as their texts with sorted keys compare', () => {
    let same = 0
    let all = 0
    // Values of few leaves and keys; half the pairs a value and its copy with keys reordered.
    const small = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, 0, 1, 'a', true),
        fc.array(tie('value'), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom('a', 'b'), tie('value'), { maxKeys: 2 })
      )
    })).value
    fc.assert(
      fc.property(small, small, fc.boolean(), (a, other, copy) => {
        const b = copy ? reversed(a) : other
        const expected = canonical(a) === canonical(b)
        all++
        if (expected) same++
        expect(sameJson(a, b)).toBe(expected)
      }),
      { numRuns: runs(500) }
    )
    // Both answers are reached, each in a good share of the runs.
    expect(same).toBeGreaterThan(all / 4)
    expect(all - same).toBeGreaterThan(all / 4)
  })
})
