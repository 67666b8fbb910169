/**
 * The first `k` of a stream in a strict total order, within the comparisons of sorting the
 * stream whole: whatever the order the entries come in, never more than about
 * n·log2(n) + n comparisons for n entries, and one comparison each for most of them when `k` is
 * small.
 *
 * The entries live in numbered slots the caller owns (its keys, one array per part, indexed by
 * slot); a ranking hands out free slots, gathers the slots offered into a batch and, when the
 * batch is full, sorts it and merges it with the first `k` kept so far (in order) into the new
 * first `k`: the slots left out are free again. Once `k` are kept, the caller turns away an entry
 * that does not come before the last of them without offering it (one comparison); the batch
 * holds what is left, so that a batch of `m` costs m·log2(m) + m + k comparisons, fewer than
 * sorting grows by when it takes `m` more. The sort is a natural merge sort: a run in either
 * direction costs one comparison an entry, and no order of the entries costs more than a merge
 * sort's worst case and one comparison an entry more (see {@link sortSlots}). Nothing is chosen
 * by a pivot, so no order of the entries makes it quadratic (ADR 0116).
 *
 * Laws, for a strict total order `compare` of the slots offered:
 * - once settled, `kept` holds the first `min(k, offered)` slots offered, in order;
 * - for n slots offered, at most n·log2(n) + n comparisons, the caller's turning away included.
 *
 * @example
 * const keys = [50, 10, 40, 20, 30]
 * const r = ranking(2, 5, 5, (a, b) => keys[a]! - keys[b]!)
 * for (let i = 0; i < 5; i++) admit(r, freeSlot(r))
 * settle(r)
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [1, 3]
 *
 * @since 0.3.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where a ranking stands: the first `k` slots so far in order, the slots offered since, and the
 * free ones.
 *
 * @example
 * const r = ranking(1, 3, 3, (a, b) => a - b)
 * r.keptCount + r.batched //=> 0
 * r.freeCount //=> 3
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
  /** The slots offered since the last merge, in the order offered. */
  readonly batch: Int32Array
  batched: number
  /** How many slots the batch takes before it is merged: `first`, then the slots left over. */
  limit: number
  /** The free slots, the next one on top. */
  readonly free: Int32Array
  freeCount: number
  /** Room for the sort and the merge: where each run of the batch ends, and a copy of a half or of the merged first k. */
  readonly ends: Int32Array
  readonly spare: Int32Array
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A ranking of the first `k` (at least 1) among `slots` slots (at least `k` + 1, or as many as
 * the entries when they are fewer), whose first batch takes `first` slots (from `k` to `slots`):
 * `slots` when the number of entries is not known (everything is sorted together until then),
 * `k` when it is known to be more than `slots` (turning away starts at once). Slots are handed
 * out from 0 up.
 *
 * @example
 * const r = ranking(2, 4, 4, (a, b) => a - b)
 * freeSlot(r) //=> 0
 * r.limit //=> 4
 *
 * @category constructors
 * @since 0.3.0
 */
export const ranking = (k: number, slots: number, first: number, compare: (a: number, b: number) => number): Ranking => {
  const free = new Int32Array(slots)
  for (let j = 0; j < slots; j++) free[j] = slots - 1 - j
  return {
    k,
    compare,
    kept: new Int32Array(k),
    keptCount: 0,
    batch: new Int32Array(slots),
    batched: 0,
    limit: first,
    free,
    freeCount: slots,
    ends: new Int32Array(slots),
    spare: new Int32Array(Math.max(k, slots))
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A free slot, for the next entry to be written into before it is offered ({@link admit}).
 *
 * @example
 * const r = ranking(1, 2, 2, (a, b) => a - b)
 * freeSlot(r) //=> 0
 * admit(r, 0)
 * freeSlot(r) //=> 1
 *
 * @category utils
 * @since 0.3.0
 */
export const freeSlot = (r: Ranking): number => r.free[r.freeCount - 1] as number

/**
 * Offers the slot {@link freeSlot} gave, once its entry is written: it joins the batch, which is
 * merged into the first `k` when full. Whether it was: then the last kept has changed.
 *
 * @example
 * const r = ranking(1, 2, 2, (a, b) => b - a)
 * admit(r, freeSlot(r)) //=> false
 * admit(r, freeSlot(r)) //=> true
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [1]
 *
 * @category utils
 * @since 0.3.0
 */
export const admit = (r: Ranking, slot: number): boolean => {
  r.freeCount--
  r.batch[r.batched++] = slot
  if (r.batched < r.limit) return false
  settle(r)
  r.limit = r.free.length - r.k
  return true
}

/**
 * The batch merged into the first `k`: afterwards `kept` holds the first `keptCount` slots
 * offered so far, in order, and the batch is empty.
 *
 * @example
 * const keys = [3, 1, 2]
 * const r = ranking(2, 3, 3, (a, b) => keys[a]! - keys[b]!)
 * admit(r, freeSlot(r))
 * admit(r, freeSlot(r))
 * settle(r)
 * Array.from(r.kept.subarray(0, r.keptCount)) //=> [1, 0]
 *
 * @category utils
 * @since 0.3.0
 */
export const settle = (r: Ranking): void => {
  const { k, compare, kept, batch, free, spare } = r
  const b = r.batched
  sortSlots(r, batch, b)
  const had = r.keptCount
  let i = 0
  let j = 0
  let o = 0
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
}

const reverse = (slots: Int32Array, from: number, to: number): void => {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = slots[i] as number
    slots[i] = slots[j] as number
    slots[j] = t
  }
}

/**
 * `slots[lo, hi)` in order, its two halves sorted first unless it lies in one run (`r.ends`): the
 * halves of a merge sort, by position, so that the merges cost no more than a merge sort's.
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
 * `slots[0, n)` in order, by a natural merge sort: one pass finds the runs, each as long as the
 * entries keep coming in one direction (comparing each neighbour once: n - 1 comparisons), and
 * turns the descending ones round; then the halves of a top-down merge sort are merged, except
 * where a half lies in one run. At most W(n) + n - 1 comparisons, W(n) = n·⌈log2 n⌉ - 2^⌈log2 n⌉ + 1
 * being a merge sort's worst case: under n·log2(n) + 0.09·n. A run in either direction costs
 * n - 1.
 *
 * @example
 * const keys = [5, 4, 3, 9, 1]
 * const slots = Int32Array.from([0, 1, 2, 3, 4])
 * sortSlots(ranking(1, 5, 5, (a, b) => keys[a]! - keys[b]!), slots, 5)
 * Array.from(slots) //=> [4, 2, 1, 0, 3]
 *
 * @category utils
 * @since 0.3.0
 */
export const sortSlots = (r: Ranking, slots: Int32Array, n: number): void => {
  const { compare, ends } = r
  for (let i = 0; i < n;) {
    let j = i + 1
    if (j < n) {
      const descending = compare(slots[j] as number, slots[i] as number) < 0
      for (j++; j < n && compare(slots[j] as number, slots[j - 1] as number) < 0 === descending; j++);
      if (descending) reverse(slots, i, j)
    }
    ends.fill(j, i, j)
    i = j
  }
  mergeRuns(r, slots, 0, n)
}
