/**
 * Reading JSON values that came from outside, safely: objects are told from arrays and null,
 * keys are read as own properties only (never `__proto__` or an inherited `constructor`), and
 * text length is counted in characters, not UTF-16 units.
 *
 * @example
 * ownValue(JSON.parse('{"__proto__": 1}'), '__proto__') //=> 1
 * ownValue({}, 'constructor') //=> undefined
 * codePointLength('💶') //=> 1
 *
 * @since 0.1.0
 */

/**
 * A JSON object: not null, not an array.
 *
 * @category refinements
 * @since 0.1.0
 */
export const isJsonObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * Whether `key` is an own property of `o`.
 *
 * @category utils
 * @since 0.1.0
 */
export const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key)

/**
 * The value of own property `key`, or `undefined`.
 *
 * @category utils
 * @since 0.1.0
 */
export const ownValue = (o: Readonly<Record<string, unknown>>, key: string): unknown => (hasOwn(o, key) ? o[key] : undefined)

/**
 * The length of `s` in Unicode code points, as a database `varchar(255)` counts characters.
 *
 * @category utils
 * @since 0.1.0
 */
export const codePointLength = (s: string): number => s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0)

/**
 * Whether `s` holds U+0000, the NUL character. No text the service keeps or is queried by holds
 * one: a PostgreSQL `text` cannot, nor can most stores (ADR 0013).
 *
 * @example
 * holdsNul('A\u0000na') //=> true
 * holdsNul('Ana') //=> false
 *
 * @category utils
 * @since 0.2.0
 */
export const holdsNul = (s: string): boolean => s.includes('\u0000')

/**
 * Whether `u` is a whole number from 0 to `Number.MAX_SAFE_INTEGER`: a count, an offset, a size.
 *
 * @example
 * isCount(25) //=> true
 * isCount(Number.NaN) //=> false
 *
 * @category refinements
 * @since 0.1.0
 */
export const isCount = (u: unknown): u is number => Number.isSafeInteger(u) && (u as number) >= 0

/**
 * Whether two JSON values are the same value: objects by their keys, whatever their order, lists
 * by position, numbers and text by `===`.
 *
 * @example
 * sameJson({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] }) //=> true
 * sameJson([1, 2], [2, 1]) //=> false
 * sameJson({ a: undefined }, {}) //=> false
 *
 * @category utils
 * @since 0.4.0
 */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => hasOwn(b, k) && sameJson((a as Readonly<Record<string, unknown>>)[k], (b as Readonly<Record<string, unknown>>)[k])
    )
  )
}
