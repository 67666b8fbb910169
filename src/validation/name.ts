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
 * @category constants
 * @since 0.1.0
 */
export const nameMessages = {
  blank: "can't be blank",
  tooLong: 'is too long (maximum is 255 characters)'
} as const

/**
 * @category constants
 * @since 0.1.0
 */
export const MAX_NAME_LENGTH = 255

/**
 * The 422 text for a name, or `null` when it is valid.
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
