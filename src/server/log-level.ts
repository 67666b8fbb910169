/**
 * The levels of the reference server's log (`LOG_LEVEL`, R-123), apart from the logger so that
 * the CLI reads them without loading it.
 *
 * @since 0.4.0
 */

/** The levels `LOG_LEVEL` takes, most to least severe; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** A level of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Whether `u` is a level. */
export const isLogLevel = (u: unknown): u is LogLevel => (LOG_LEVELS as ReadonlyArray<unknown>).includes(u)
