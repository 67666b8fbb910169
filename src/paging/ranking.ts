/**
 * The first `k` of a stream in a strict total order, within the comparisons of sorting the
 * stream whole: whatever the order the entries come in, never more than about
 * n·log2(n) + n comparisons for n entries, and one or two comparisons each for most of them.
 *
 * The entries live in numbered slots the caller owns (its keys, one array per part, indexed by
 * slot); a ranking hands out free slots and gathers the slots offered into a batch. The caller
 * offers each with how it compares with the one offered before it, so that the batch is known as
 * runs (entries that keep coming in one direction); when the batch is full its runs are merged (a natural merge sort, see
 * {@link settle}) and merged with the first `k` kept so far into the new first `k`, and the slots
 * left out are free again. Once `k` are kept, the caller turns away an entry that does not come
 * before the last of them without offering it (one comparison); and of a run in which each entry
 * comes before the one before it, only the last `k` can still come first, so the others are let
 * go at once. Nothing is chosen by a pivot, so no order of the entries makes it quadratic (ADR
 * 0116).
 *
 * Laws, for a strict total order `compare` of the slots offered:
 * - once settled, `kept` holds the first `min(k, offered)` slots offered, in order;
 * - for n slots offered, at most n·log2(n) + n comparisons, the caller's turning away included.
 *
 * @example
 * const keys = [50, 10, 40, 20, 30]
 * const r = ranking(2, 5, 5, (a, b) => keys[a]! - keys[b]!)
 * for (let i = 0; i < 5; i++) {
 *   const slot = freeSlot(r)
 *   admit(r, slot, follows(r) ? Math.sign(r.compare(slot, lastOffered(r))) : 0)
 * }
 * settle(r)
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [1, 3]
 *
 * @since 0.3.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where a ranking stands: the first `k` slots so far in order, the slots offered since (as
 * runs), and the free ones.
 *
 * @example
 * const r = ranking(1, 3, 3, (a, b) => a - b)
 * r.keptCount + r.batched //=> 0
 * freeSlot(r) //=> 0
 *
 * @category model
 * @since 0.3.0
 */
export interface Ranking {
  /** How many come first: what the ranking keeps. */
  readonly k: number
  /** Negative when slot `a` comes before slot `b`, positive when after; never 0 for two slots. */
  readonly compare: (a: number, b: number) => number
  /** The first `keptCount` slots so far, in order (`k` of them once the first batch is merged). */
  readonly kept: Int32Array
  keptCount: number
  /** The slots offered since the last merge, in the order offered but for the runs closed, which are in order. */
  readonly batch: Int32Array
  batched: number
  /** Where the last run of the batch starts, and which way it goes: 0 while it has one entry, 1 up, -1 down. */
  runStart: number
  direction: number
  /** How many slots the batch takes before it is merged: `first`, then the slots left over. */
  limit: number
  /** How many slots there are, the slots never handed out (from `fresh` up), and the others free again, the next one on top. */
  readonly slots: number
  fresh: number
  readonly free: Int32Array
  freeCount: number
  /** Where the run of each place of the batch ends (for the runs closed), and room for a half or the merged first k. */
  readonly ends: Int32Array
  readonly spare: Int32Array
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * How many integers a ranking of `k` among `slots` slots works in ({@link ranking}'s `ints`).
 *
 * @example
 * rankingInts(2, 4) //=> 18
 *
 * @category constructors
 * @since 0.3.0
 */
export const rankingInts = (k: number, slots: number): number => k + 3 * slots + Math.max(k, slots)

/**
 * A ranking of the first `k` (at least 1) among `slots` slots (at least `k` + 1, or as many as
 * the entries when they are fewer), whose first batch takes `first` slots (from `k` to `slots`):
 * `slots` when the number of entries is not known (everything is sorted together until then),
 * `k` when it is known to be more than `slots` (turning away starts at once). Slots are handed
 * out from 0 up. It works in `ints` ({@link rankingInts} of them, whatever they hold).
 *
 * @example
 * const r = ranking(2, 4, 4, (a, b) => a - b)
 * freeSlot(r) //=> 0
 * r.limit //=> 4
 *
 * @category constructors
 * @since 0.3.0
 */
export const ranking = (
  k: number,
  slots: number,
  first: number,
  compare: (a: number, b: number) => number,
  ints: Int32Array = new Int32Array(rankingInts(k, slots))
): Ranking => ({
  k,
  compare,
  kept: ints.subarray(0, k),
  keptCount: 0,
  batch: ints.subarray(k, k + slots),
  batched: 0,
  runStart: 0,
  direction: 0,
  limit: first,
  slots,
  fresh: 0,
  free: ints.subarray(k + slots, k + 2 * slots),
  freeCount: 0,
  ends: ints.subarray(k + 2 * slots, k + 3 * slots),
  spare: ints.subarray(k + 3 * slots, rankingInts(k, slots))
})

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A free slot, for the next entry to be written into before it is offered ({@link admit}).
 *
 * @example
 * const r = ranking(1, 2, 2, (a, b) => a - b)
 * freeSlot(r) //=> 0
 * admit(r, 0, 0)
 * freeSlot(r) //=> 1
 *
 * @category utils
 * @since 0.3.0
 */
export const freeSlot = (r: Ranking): number => (r.freeCount > 0 ? (r.free[r.freeCount - 1] as number) : r.fresh)

const reverse = (slots: Int32Array, from: number, to: number): void => {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = slots[i] as number
    slots[i] = slots[j] as number
    slots[j] = t
  }
}

/** The last run of the batch, up to `end`, closed: in order, each of its places knowing where it ends. */
const closeRun = (r: Ranking, end: number): void => {
  if (r.direction < 0) reverse(r.batch, r.runStart, end)
  r.ends.fill(end, r.runStart, end)
}

/**
 * Whether the next slot offered must say how it compares with the last one offered
 * ({@link lastOffered}): it does unless it starts a run.
 *
 * @example
 * const r = ranking(1, 3, 3, (a, b) => a - b)
 * follows(r) //=> false
 * admit(r, freeSlot(r), 0)
 * follows(r) //=> true
 *
 * @category utils
 * @since 0.3.0
 */
export const follows = (r: Ranking): boolean => r.batched > r.runStart

/**
 * The slot offered last, which the next one is compared with when it {@link follows}.
 *
 * @example
 * const r = ranking(1, 3, 3, (a, b) => a - b)
 * admit(r, freeSlot(r), 0)
 * lastOffered(r) //=> 0
 *
 * @category utils
 * @since 0.3.0
 */
export const lastOffered = (r: Ranking): number => r.batch[r.batched - 1] as number

/** The last run broken at `at`, where a new one starts. */
const breakRun = (r: Ranking, at: number): void => {
  closeRun(r, at)
  r.runStart = at
  r.direction = 0
}

/**
 * Of the last run, going down and ending at `at`, all but the last k let go: each of them comes
 * before all that came before it in the run, so the others have k before them and can never be
 * among the first k.
 */
const letGo = (r: Ranking, at: number): void => {
  const keep = at + 1 - r.k
  r.free.set(r.batch.subarray(r.runStart, keep), r.freeCount)
  r.freeCount += keep - r.runStart
  r.batch.copyWithin(r.runStart, keep, at + 1)
  r.batched = r.runStart + r.k
}

/** The full batch merged into the first k, the next batch taking the slots left over. */
const fold = (r: Ranking): boolean => {
  settle(r)
  r.limit = r.slots - r.k
  return true
}

/**
 * Offers the slot {@link freeSlot} gave, once its entry is written, with how it compares with
 * the slot offered before it when it {@link follows} (-1 before, 1 after; else 0): each
 * neighbour is compared once, and a run goes on while they keep coming one way. The batch is
 * merged into the first `k` when full: then the last kept has changed, and it says so.
 *
 * @example
 * const r = ranking(1, 2, 2, (a, b) => a - b)
 * admit(r, freeSlot(r), 0) //=> false
 * admit(r, freeSlot(r), r.compare(1, lastOffered(r)) < 0 ? -1 : 1) //=> true
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [0]
 *
 * @category utils
 * @since 0.3.0
 */
export const admit = (r: Ranking, slot: number, direction: number): boolean => {
  if (r.freeCount > 0) r.freeCount--
  else r.fresh++
  const at = r.batched++
  r.batch[at] = slot
  if (direction !== 0) {
    if (r.direction === 0) r.direction = direction
    else if (direction !== r.direction) breakRun(r, at)
    if (r.direction < 0 && at + 1 - r.runStart >= r.k + Math.max(r.k >> 2, 64)) letGo(r, at)
  }
  return r.batched >= r.limit && fold(r)
}

/**
 * `batch[lo, hi)` in order, its two halves merged in order first unless it lies in one run: the
 * halves of a top-down merge sort, by position, so that the merges cost no more than a merge
 * sort's (n·⌈log2 n⌉ - 2^⌈log2 n⌉ + 1 at most).
 */
const mergeRuns = (r: Ranking, slots: Int32Array, lo: number, hi: number): void => {
  if ((r.ends[lo] as number) >= hi) return
  const mid = (lo + hi) >>> 1
  mergeRuns(r, slots, lo, mid)
  mergeRuns(r, slots, mid, hi)
  const { compare, spare } = r
  const a = mid - lo
  for (let x = 0; x < a; x++) spare[x] = slots[lo + x] as number
  let x = 0
  let y = mid
  let o = lo
  while (x < a && y < hi)
    slots[o++] = compare(spare[x] as number, slots[y] as number) < 0 ? (spare[x++] as number) : (slots[y++] as number)
  while (x < a) slots[o++] = spare[x++] as number
}

/**
 * The batch merged into the first `k`: afterwards `kept` holds the first `keptCount` slots
 * offered so far, in order, and the batch is empty. The batch is sorted by a natural merge sort
 * whose runs were found as its slots came (a comparison each), the halves of a top-down merge
 * sort merged except where one lies in a run: at most W(b) + b - 1 comparisons for b slots,
 * W(b) = b·⌈log2 b⌉ - 2^⌈log2 b⌉ + 1 being a merge sort's worst case (under b·log2(b) + 0.09·b),
 * and b - 1 when they came in order either way; then at most `k` to merge it with those kept.
 *
 * @example
 * const keys = [3, 1, 2]
 * const r = ranking(2, 3, 3, (a, b) => keys[a]! - keys[b]!)
 * admit(r, freeSlot(r), 0)
 * admit(r, freeSlot(r), -1)
 * settle(r)
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [1, 0]
 *
 * @category utils
 * @since 0.3.0
 */
export const settle = (r: Ranking): void => {
  const { k, compare, kept, batch, free, spare } = r
  const b = r.batched
  closeRun(r, b)
  mergeRuns(r, batch, 0, b)
  const had = r.keptCount
  let i = 0
  let j = 0
  let o = 0
  // A batch that comes wholly before those kept (a collection in order one way, ranked the other)
  // goes first as it is: one comparison rather than k.
  if (had > 0 && b > 0 && compare(batch[b - 1] as number, kept[0] as number) < 0)
    while (o < k && j < b) spare[o++] = batch[j++] as number
  else if (b * Math.ceil(Math.log2(had + 1)) < had)
    // A few among many: each found among those kept by halving, log2 of them each rather than
    // all of them, so that a last small batch costs little.
    for (; o < k && j < b; j++) {
      let lo = i
      let hi = had
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (compare(kept[mid] as number, batch[j] as number) < 0) lo = mid + 1
        else hi = mid
      }
      while (o < k && i < lo) spare[o++] = kept[i++] as number
      if (o === k) break
      spare[o++] = batch[j] as number
    }
  else
    while (o < k && i < had && j < b)
      spare[o++] = compare(kept[i] as number, batch[j] as number) < 0 ? (kept[i++] as number) : (batch[j++] as number)
  while (o < k && i < had) spare[o++] = kept[i++] as number
  while (o < k && j < b) spare[o++] = batch[j++] as number
  // What was left out is free again.
  while (i < had) free[r.freeCount++] = kept[i++] as number
  while (j < b) free[r.freeCount++] = batch[j++] as number
  kept.set(spare.subarray(0, o))
  r.keptCount = o
  r.batched = 0
  r.runStart = 0
  r.direction = 0
}
