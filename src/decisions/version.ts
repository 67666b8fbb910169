/**
 * The version of the library, as its package.json says (a test holds the two together): what a
 * decision record names as the rules that decided it.
 *
 * @example
 * /^\d+\.\d+\.\d+$/.test(LIBRARY_VERSION) //=> true
 *
 * @since 0.4.0
 */

/**
 * This library's version.
 *
 * @example
 * typeof LIBRARY_VERSION //=> 'string'
 *
 * @category constants
 * @since 0.4.0
 */
export const LIBRARY_VERSION = '0.4.0'
