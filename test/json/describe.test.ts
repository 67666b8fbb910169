import { describe, expect, it } from 'vitest'
import { describeValue, typeError } from '../../src/json/describe'

// the TypeError of a typed function names the value it was given, briefly and safely.
describe('describeValue', () => {
  it.each<[string, unknown, string]>([
    ['NaN', Number.NaN, 'NaN'],
    ['-0, not 0', -0, '-0'],
    ['0', 0, '0'],
    ['Infinity', Number.NEGATIVE_INFINITY, '-Infinity'],
    ['a huge number', 1e308, '1e+308'],
    ['a string, quoted', '2026-02-30', '"2026-02-30"'],
    ['a string of exactly 40 characters, whole', 'a'.repeat(40), `"${'a'.repeat(40)}"`],
    ['a longer string, cut after 40 characters', `${'b'.repeat(40)}c`, `"${'b'.repeat(40)}..."`],
    ['a lone surrogate, escaped', '\ud800', '"\\ud800"'],
    ['true', true, 'true'],
    ['undefined', undefined, 'undefined'],
    ['a bigint', 12n, '12n'],
    ['null', null, 'null'],
    ['an array', [1, 2], 'an array'],
    ['an object', { a: 1 }, 'an object'],
    ['a function', () => 1, 'a function'],
    ['a symbol', Symbol('s'), 'a symbol']
  ])('%s', (_, value, expected) => {
    expect(describeValue(value)).toBe(expected)
  })

  it('never reads a proxy it is given (a trap that throws is not set off)', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('read')
        },
        getPrototypeOf() {
          throw new Error('prototype')
        }
      }
    )
    expect(describeValue(hostile)).toBe('an object')
  })

  it('makes the TypeError of R-19 from the function, the argument and what was expected', () => {
    const e = typeError('upcomingPeriods', 'n', -0, 'a whole number or Infinity')
    expect([e instanceof TypeError, e.message]).toEqual([true, 'upcomingPeriods: n is -0, not a whole number or Infinity'])
  })
})
