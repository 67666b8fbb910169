// Exports documented in every way and none, for the check that every export of an entry point
// has a summary and an @example (test/examples-in-docs.test.ts). Not part of the library.

/**
 * Documented.
 *
 * @example
 * documented //=> 1
 */
export const documented = 1

/** A summary, no example. */
export const summaryOnly = 2

/**
 * @example
 * exampleOnly //=> 3
 */
export const exampleOnly = 3

export const bare = 4

/**
 * A value documented, its type not.
 *
 * @example
 * Pair //=> 5
 */
export const Pair = 5
export type Pair = number
