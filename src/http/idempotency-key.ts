/**
 * The `Idempotency-Key` header a money operation may carry: 1 to 255 characters, written once
 * here for the server that claims it and the API's description that documents it.
 *
 * @example
 * isIdempotencyKey('7f1c2a') //=> true
 * isIdempotencyKey('') //=> false
 *
 * @since 0.4.0
 */

/**
 * The longest Idempotency-Key a server keeps.
 *
 * @example
 * IDEMPOTENCY_KEY_MAX_LENGTH //=> 255
 *
 * @category constants
 * @since 0.4.0
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/**
 * Whether `key` is an Idempotency-Key a server takes: 1 to 255 characters.
 *
 * @example
 * isIdempotencyKey('k'.repeat(256)) //=> false
 *
 * @category refinements
 * @since 0.4.0
 */
export const isIdempotencyKey = (key: string): boolean => key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH
