/**
 * Naming a value that is not what a function takes, for the `TypeError` of R-19: short, safe
 * whatever the value (a symbol, a proxy, a 10 MB string), and never itself a source of an
 * exception.
 *
 * @example
 * describeValue(Number.NaN) //=> 'NaN'
 * describeValue('2026-02-30') //=> '"2026-02-30"'
 * typeError('upcomingPeriods', 'n', Number.NaN, 'a whole number or Infinity').message
 * //=> 'upcomingPeriods: n is NaN, not a whole number or Infinity'
 *
 * @since 0.1.0
 */

const MAX_TEXT = 40

/** Whether `u` is a Date (pg's reading of a timestamp, a common mistake where text is due): its tag, read without the Date global; a proxy that throws is none. */
const isDate = (u: object): boolean => {
  try {
    return Object.prototype.toString.call(u) === '[object Date]'
  } catch {
    return false
  }
}

/**
 * A short description of `u`: numbers as written (`-0`, `NaN`, `Infinity`), strings quoted
 * and cut after 40 characters, a Date as such, anything else by its type.
 *
 * @category utils
 * @since 0.1.0
 */
export const describeValue = (u: unknown): string => {
  switch (typeof u) {
    case 'number':
      return Object.is(u, -0) ? '-0' : String(u)
    case 'string':
      return JSON.stringify(u.length > MAX_TEXT ? `${u.slice(0, MAX_TEXT)}...` : u)
    case 'boolean':
    case 'undefined':
      return String(u)
    case 'bigint':
      return `${String(u)}n`
    case 'object':
      return u === null ? 'null' : Array.isArray(u) ? 'an array' : isDate(u) ? 'a Date' : 'an object'
    default:
      return `a ${typeof u}`
  }
}

/**
 * The `TypeError` of a typed function given a value outside its type.
 *
 * @category constructors
 * @since 0.1.0
 */
export const typeError = (fn: string, name: string, value: unknown, expected: string): TypeError =>
  new TypeError(`${fn}: ${name} is ${describeValue(value)}, not ${expected}`)
