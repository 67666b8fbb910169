/**
 * The rule every name of the service follows (a budget's, a bank recipient's): not blank, at
 * most 255 characters counted as code points, so 255 emoji are a valid name.
 *
 * @example
 * nameError('  ') //=> "can't be blank"
 * nameError('Travel') //=> null
 *
 * @since 0.1.0
 */
import { codePointLength } from '../json/value'

/**
 * The texts of a name's 422 field errors.
 *
 * @example
 * nameError(7) //=> nameMessages.blank
 *
 * @category constants
 * @since 0.1.0
 */
export const nameMessages = {
  blank: "can't be blank",
  tooLong: 'is too long (maximum is 255 characters)'
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
 * The 422 text for a name, or `null` when it is valid.
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
    : codePointLength(value) > MAX_NAME_LENGTH
      ? nameMessages.tooLong
      : null
