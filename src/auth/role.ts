/**
 * The roles a member may hold in a company, as a list and a plain check: what the io-ts codec
 * `Role` (`./session.ts`) is built from. Apart from the codec so that code which only checks a
 * role (the UI's rules, R-107) loads no io-ts.
 *
 * @example
 * isRole('owner') //=> true
 *
 * @since 0.5.0
 */
import type { Role } from './session'

/**
 * Every role, in the order the spec lists them.
 *
 * @example
 * roles //=> ['owner', 'admin', 'member']
 *
 * @category constants
 * @since 0.5.0
 */
export const roles: ReadonlyArray<Role> = ['owner', 'admin', 'member']

/**
 * Whether `u` is exactly one of the {@link roles}: no other case, no spaces, nothing but a string
 * (`includes` compares without coercion).
 *
 * @example
 * isRole('member') //=> true
 * isRole('Admin') //=> false
 * isRole('toString') //=> false
 *
 * @category refinements
 * @since 0.5.0
 */
export const isRole = (u: unknown): u is Role => (roles as ReadonlyArray<unknown>).includes(u)
