/**
 * The memory a page's selection works in, lent for one call and taken back. For speed only: a
 * window far into a large collection keeps a slot per match, tens of megabytes for a million
 * records, and allocating them on every request makes the collector sweep the whole heap
 * (`selectPage` of the 500,000th of a million records in order took twice as long). The values
 * handed back are cleared, so that no record outlives its call; a call made while the scratch is
 * lent (a getter that asks for a page) gets its own. test/paging/scratch.test.ts pins both.
 *
 * @example
 * const s = borrow(3, 2, 1)
 * s.values.length >= 3 && s.numbers.length >= 2 && s.ints.length >= 1 //=> true
 * giveBack(s, 3)
 *
 * @since 0.3.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Room for a selection: values (records and what was read of them), numbers (keys) and
 * integers (slots), at least as many as asked for, holding whatever the last call left.
 *
 * @example
 * borrow(0, 0, 0).values.length >= 0 //=> true
 *
 * @category model
 * @since 0.3.0
 */
export interface Scratch {
  readonly values: Array<unknown>
  readonly numbers: Float64Array
  readonly ints: Int32Array
}

/** The scratch taken back and not lent since, if any. */
let kept: Scratch | null = null

/** Scratch this much larger than a call asks for is let go rather than lent, so that one large window does not hold its memory for good. */
const SHED = 16

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Scratch with room for at least `values` values, `numbers` numbers and `ints` integers: the
 * scratch taken back last when it is free and fits, else a new one.
 *
 * @example
 * const s = borrow(2, 0, 0)
 * giveBack(s, 0)
 * borrow(1, 0, 0) === s //=> true
 *
 * @category utils
 * @since 0.3.0
 */
export const borrow = (values: number, numbers: number, ints: number): Scratch => {
  const s = kept
  kept = null
  const fits = (have: number, want: number) => have >= want && have <= SHED * Math.max(want, 4096)
  if (s !== null && fits(s.values.length, values) && fits(s.numbers.length, numbers) && fits(s.ints.length, ints)) return s
  return { values: new Array<unknown>(values), numbers: new Float64Array(numbers), ints: new Int32Array(ints) }
}

/**
 * Takes back scratch that {@link borrow} lent, the first `used` values cleared; it is kept for
 * the next call when it is at least as large as the one kept.
 *
 * @example
 * const s = borrow(1, 0, 0)
 * s.values[0] = 'a record'
 * giveBack(s, 1)
 * borrow(1, 0, 0).values[0] //=> undefined
 *
 * @category utils
 * @since 0.3.0
 */
export const giveBack = (s: Scratch, used: number): void => {
  s.values.fill(undefined, 0, used)
  if (
    kept === null ||
    kept.values.length + kept.numbers.length + kept.ints.length <= s.values.length + s.numbers.length + s.ints.length
  )
    kept = s
}
