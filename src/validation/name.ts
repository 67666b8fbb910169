/**
 * The rule every name of the service follows (a budget's, a bank recipient's): not blank, no NUL
 * character, at most 255 characters counted as code points, so 255 emoji are a valid name. The
 * NUL rule holds for every text the service keeps (ADR 0013): `nulError` is it alone.
 *
 * @example
 * nameError('  ') //=> "can't be blank"
 * nameError('Travel') //=> null
 * nulError('00-123\u0000') //=> 'must not contain the NUL character'
 *
 * @since 0.1.0
 */
import { codePointLength, holdsNul } from '../json/value'

/**
 * The texts of a name's 422 field errors; `nul` is also the text of any other kept text field
 * holding U+0000.
 *
 * @example
 * nameError(7) //=> nameMessages.blank
 * nameError('A\u0000na') //=> nameMessages.nul
 *
 * @category constants
 * @since 0.1.0
 */
export const nameMessages = {
  blank: "can't be blank",
  tooLong: 'is too long (maximum is 255 characters)',
  nul: 'must not contain the NUL character'
} as const

/**
 * The longest name, in code points.
 *
 * @example
 * nameError('💶'.repeat(MAX_NAME_LENGTH)) //=> null
 * nameError('a'.repeat(MAX_NAME_LENGTH + 1)) //=> 'is too long (maximum is 255 characters)'
 *
 * @category constants
 * @since 0.1.0
 */
export const MAX_NAME_LENGTH = 255

/**
 * The 422 text for a text field the service keeps when it holds U+0000, which no store can keep
 * (ADR 0013), or `null` for any other value: its other rules are the field's own.
 *
 * @example
 * nulError('A\u0000na') //=> 'must not contain the NUL character'
 * nulError('Ana') //=> null
 * nulError(null) //=> null
 *
 * @category rules
 * @since 0.2.0
 */
export const nulError = (value: unknown): string | null =>
  typeof value === 'string' && holdsNul(value) ? nameMessages.nul : null

/**
 * The 422 text for a name, or `null` when it is valid. A name holding U+0000 is refused for that
 * whatever its length.
 *
 * @example
 * nameError(' Travel ') //=> null
 * nameError('\t') //=> "can't be blank"
 *
 * @category rules
 * @since 0.1.0
 */
export const nameError = (value: unknown): string | null =>
  typeof value !== 'string' || value.trim() === ''
    ? nameMessages.blank
    : (nulError(value) ??
      // No more code points than UTF-16 units: only a long name needs counting.
      (value.length > MAX_NAME_LENGTH && codePointLength(value) > MAX_NAME_LENGTH ? nameMessages.tooLong : null))
