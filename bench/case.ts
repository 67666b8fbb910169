/**
 * What a benchmark suite hands the runner (bench/main.ts): cases, each a set of contenders that
 * must give the same answer before any of them is timed.
 */

/** One way of answering a case. */
export interface Contender {
  /** As the table shows it: `budget-rules respondIndex`, `filter + sort + slice`, `rrule after()`. */
  readonly name: string
  /** `library` is budget-rules; `baseline` what a user would write by hand; `peer` another library. */
  readonly kind: 'library' | 'baseline' | 'peer'
  /** One call, timed. May return a Promise (json-rules-engine is asynchronous). */
  readonly run: () => unknown
  /**
   * The answer to compare, from one untimed call: by default `run()`'s result itself. The runner
   * compares every contender's answer with the first's (deep equality of plain data) and stops
   * the whole run on a difference.
   */
  readonly answer?: () => unknown
}

/** A goal a case measures: the library's time over a contender's time. */
export interface Goal {
  /** The contender the library is compared with, by name. */
  readonly against: string
  /** Met when library ÷ against is at most this (1.5: within 1.5×; 0.2: at least 5× faster). */
  readonly atMost: number
}

export interface Case {
  /** The suite: `decision`, `index`, `periods`, `query`. */
  readonly suite: string
  /** What is asked, in a few words: `25 of 1,000,000, shuffled, filtered`. */
  readonly title: string
  readonly contenders: ReadonlyArray<Contender>
  /** The goals the case measures, each against one contender. */
  readonly goals?: ReadonlyArray<Goal>
  /**
   * Heavy cases (a million records) run a fixed number of iterations rather than for a time.
   * Default: time-based (tinybench's `time`).
   */
  readonly iterations?: number
}
