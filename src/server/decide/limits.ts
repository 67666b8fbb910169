/**
 * What the decision service reads at most.
 *
 * @since 0.5.0
 */

/** The most cases a batch holds. */
export const MAX_BATCH_CASES = 1000

/** The largest body read by default: a batch of 1000 budget cases with their records to spare. */
export const DEFAULT_BODY_LIMIT_BYTES = 8 * 1024 * 1024
