/**
 * Walking a collection page by page from a client (spec section 4, rule 2): advance `_start` by
 * the page size until a page returns fewer records than asked for, or none.
 *
 * Law (walking): starting from any window of size `s` and calling `nextWindow(w, received)` with
 * the number of records each page returned visits `[0, s), [s, 2s), ...` and stops at the first
 * page shorter than `s`; the pages partition the collection.
 *
 * @example
 * nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, end: 200 }
 * nextWindow({ start: 100, end: 200 }, 37) //=> null
 *
 * @since 0.1.0
 */
import { typeError } from '../json/describe'
import type { PageWindow } from '../paging/window'
import { isCount } from '../json/value'

/**
 * The window after `window`, given how many records its page returned, or `null` when the walk
 * is over: a page shorter than requested, or empty, is the last (spec section 4, rule 2). A
 * window or count that is not whole numbers `0 <= start <= end`, `received >= 0` is a
 * `TypeError`, so a walk never runs on `NaN`.
 *
 * @example
 * nextWindow({ start: 0, end: 100 }, 0) //=> null
 * nextWindow({ start: 0, end: 100 }, Number.NaN) //=> throws TypeError('nextWindow: received is NaN, not a whole number >= 0')
 *
 * @category client
 * @since 0.1.0
 */
export const nextWindow = (window: PageWindow, received: number): PageWindow | null => {
  const { start, end } = window
  if (!isCount(start)) throw typeError('nextWindow', 'window.start', start, 'a whole number >= 0')
  if (!isCount(end) || end < start) throw typeError('nextWindow', 'window.end', end, `a whole number >= start (${start})`)
  if (!isCount(received)) throw typeError('nextWindow', 'received', received, 'a whole number >= 0')
  const size = end - start
  // Past Number.MAX_SAFE_INTEGER no window can be written: the walk is over.
  return size <= 0 || received < size || !Number.isSafeInteger(end + size) ? null : { start: end, end: end + size }
}
