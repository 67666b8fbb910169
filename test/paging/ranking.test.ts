import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { admit, follows, freeSlot, lastOffered, type Ranking, ranking, settle } from '../../src/paging/ranking'
import { firstK } from '../../src/paging/select'
import { runs, timeoutFor } from '../runs'
import { keysOf, SHAPES, type ShapeName, shape } from './shapes'

/** A merge sort's worst case, n·⌈log2 n⌉ - 2^⌈log2 n⌉ + 1, computed from its recurrence. */
const mergeSortWorst = (n: number): number =>
  n <= 1 ? 0 : n - 1 + mergeSortWorst(Math.floor(n / 2)) + mergeSortWorst(Math.ceil(n / 2))

/** what sorting n items whole costs at most, n·log2(n) + n. */
const sortBound = (n: number): number => (n === 0 ? 0 : n * Math.log2(n) + n)

/** Slots 0 to n - 1 ranked by their keys, then by slot (a strict total order), counting the comparisons. */
const counted = (keys: ReadonlyArray<number>) => {
  const count = { calls: 0 }
  const compare = (a: number, b: number): number => {
    count.calls++
    return (keys[a] as number) - (keys[b] as number) || a - b
  }
  return { count, compare }
}

/** Offers the slot the ranking hands out, saying how it compares with the one offered before it. */
const offer = (r: Ranking, write: (slot: number) => void): boolean => {
  const slot = freeSlot(r)
  write(slot)
  return admit(r, slot, follows(r) ? (r.compare(slot, lastOffered(r)) < 0 ? -1 : 1) : 0)
}

/** Slots 0 to n - 1 offered to a ranking that keeps them all, settled: the order it sorts them in. */
const sortAll = (n: number, compare: (a: number, b: number) => number): Array<number> => {
  const r = ranking(Math.max(n, 1), Math.max(n, 1), Math.max(n, 1), compare)
  for (let i = 0; i < n; i++) offer(r, () => undefined)
  settle(r)
  return Array.from(r.kept.subarray(0, r.keptCount))
}

/** The oracle: the slots in order, by Array.prototype.sort. */
const sortedSlots = (keys: ReadonlyArray<number>): Array<number> =>
  Array.from(keys, (_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b)

const sizes = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 41, max: 3000 }))

describe('a ranking that keeps all it is offered: a natural merge sort', () => {
  it('sorts every shape, within a merge sort worst case and one comparison a slot more (under n·log2(n) + 0.09·n)', () => {
    const seen = new Map<ShapeName, number>()
    let total = 0
    fc.assert(
      fc.property(shape(sizes), (s) => {
        const keys = keysOf(s)
        const { count, compare } = counted(keys)
        expect(sortAll(keys.length, compare)).toEqual(sortedSlots(keys))
        expect(count.calls).toBeLessThanOrEqual(mergeSortWorst(keys.length) + Math.max(0, keys.length - 1))
        expect(count.calls).toBeLessThanOrEqual(keys.length * Math.log2(Math.max(keys.length, 1)) + 0.09 * keys.length)
        seen.set(s.name, (seen.get(s.name) ?? 0) + 1)
        total++
      }),
      { numRuns: runs(500) }
    )
    // Each shape a good share of the runs (a third of its even share).
    for (const name of SHAPES) expect(seen.get(name) ?? 0).toBeGreaterThanOrEqual(total / (3 * SHAPES.length))
  })

  it.each([1, 2, 3, 100, 1025])('costs n - 1 comparisons for a run in either direction (n = %i)', (n) => {
    for (const keys of [Array.from({ length: n }, (_, i) => i), Array.from({ length: n }, (_, i) => -i)]) {
      const { count, compare } = counted(keys)
      expect(sortAll(n, compare)).toEqual(sortedSlots(keys))
      expect(count.calls).toBe(n - 1)
    }
  })

  it('merges two runs in a linear number of comparisons: up then down, down then up', () => {
    const n = 4096
    for (const keys of [
      Array.from({ length: n }, (_, i) => (i < n / 2 ? i : 2 * n - i)),
      Array.from({ length: n }, (_, i) => Math.abs(n / 2 - i))
    ]) {
      const { count, compare } = counted(keys)
      expect(sortAll(n, compare)).toEqual(sortedSlots(keys))
      // Finding the two runs (n - 1), then merging the halves that cross from one to the other.
      expect(count.calls).toBeLessThan(4 * n)
    }
  })

  it('reaches a merge sort worst case on no shape: a merge of every pair, then of every four...', () => {
    // Pairs that go up and down in turn are runs of two; the runs found cost n - 1.
    const n = 1024
    const keys = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i + 1 : i - 1))
    const { count, compare } = counted(keys)
    expect(sortAll(n, compare)).toEqual(sortedSlots(keys))
    expect(count.calls).toBeLessThanOrEqual(mergeSortWorst(n) + n - 1)
  })
})

describe('ranking', () => {
  /**
   * The first k of the keys by a ranking of `slots` slots whose first batch takes `first`,
   * turning away once k are kept what does not come before the last of them: the slots kept in
   * order, as positions, and the comparisons it took (the turning away included).
   */
  const rank = (keys: ReadonlyArray<number>, k: number, slots: number, first: number) => {
    const at = new Int32Array(slots)
    let calls = 0
    const before = (i: number, j: number): number => {
      calls++
      return (keys[i] as number) - (keys[j] as number) || i - j
    }
    const r = ranking(k, slots, first, (a, b) => before(at[a] as number, at[b] as number))
    let folds = 0
    for (let i = 0; i < keys.length; i++) {
      if (r.keptCount === k && before(i, at[r.kept[k - 1] as number] as number) > 0) continue
      if (
        offer(r, (slot) => {
          at[slot] = i
        })
      )
        folds++
    }
    settle(r)
    return { kept: Array.from(r.kept.subarray(0, r.keptCount), (slot) => at[slot]), calls, folds }
  }

  it('keeps the first k of every shape, in order, within n·log2(n) + n comparisons, batches of k or more', () => {
    let turning = 0
    let folded = 0
    let total = 0
    const large = fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }) },
      { weight: 4, arbitrary: fc.integer({ min: 200, max: 3000 }) }
    )
    fc.assert(
      fc.property(shape(large), fc.nat(), fc.nat(3), fc.boolean(), fc.boolean(), (s, kRaw, extra, known, turned) => {
        // Each shape both ways: turned round, entries keep coming before those kept.
        const keys = keysOf(s).map((key) => (turned ? -key : key))
        // k at most a sixth of the keys, so that batches follow the first.
        const k = 1 + (kRaw % Math.max(1, Math.floor(keys.length / 6)))
        // Batches of max(k, 2^extra · 64) after the first; the first takes all the slots (the
        // number of entries not known) or k (known to be more than the slots).
        const slots = Math.min(k + Math.max(k, 64 << extra), Math.max(keys.length, k))
        const r = rank(keys, k, slots, known && keys.length > slots ? k : slots)
        expect(r.kept).toEqual(sortedSlots(keys).slice(0, k))
        expect(r.calls).toBeLessThanOrEqual(sortBound(keys.length))
        total++
        if (keys.length > slots) turning++
        if (r.folds > 1) folded++
      }),
      { numRuns: runs(400) }
    )
    // Most runs get to turning entries away; many merge a batch into the first k kept.
    expect(turning / total).toBeGreaterThanOrEqual(0.5)
    expect(folded / total).toBeGreaterThanOrEqual(0.1)
  })

  it.each([1, 3, 25])(
    'lets go of all but the last k of a run going down: one comparison an entry, never a merge (k = %i)',
    (k) => {
      const n = 10_000
      const keys = Array.from({ length: n }, (_, i) => n - i)
      const at = new Int32Array(k + 100)
      let calls = 0
      const r = ranking(k, k + 100, k + 100, (a, b) => {
        calls++
        return (keys[at[a] as number] as number) - (keys[at[b] as number] as number)
      })
      let merged = 0
      for (let i = 0; i < n; i++) {
        if (
          offer(r, (slot) => {
            at[slot] = i
          })
        )
          merged++
      }
      settle(r)
      expect(Array.from(r.kept.subarray(0, r.keptCount), (slot) => at[slot])).toEqual(
        Array.from({ length: k }, (_, j) => n - 1 - j)
      )
      expect([calls, merged]).toEqual([n - 1, 0])
    }
  )

  it('places a last batch of a few among many kept by halving: log2 of them each, not all of them', () => {
    const k = 4000
    // 5,024 keys in no order (the first batch), then three that fall among those kept.
    const keys = [...Array.from({ length: k + 1024 }, (_, i) => ((i * 7919) % (k + 1024)) * 10), 15_005, 5, 39_995]
    const at = new Int32Array(2 * k)
    let calls = 0
    const r = ranking(k, 2 * k, k + 1024, (a, b) => {
      calls++
      return (keys[at[a] as number] as number) - (keys[at[b] as number] as number) || (at[a] as number) - (at[b] as number)
    })
    for (let i = 0; i < keys.length; i++)
      offer(r, (slot) => {
        at[slot] = i
      })
    const before = calls
    settle(r)
    expect(Array.from(r.kept, (slot) => at[slot])).toEqual(sortedSlots(keys).slice(0, k))
    // The three sorted (3 comparisons at most), the batch against the first kept (1), then each
    // found among the 4,000 kept (12 each).
    expect(calls - before).toBeLessThanOrEqual(3 + 1 + 3 * Math.ceil(Math.log2(k + 1)))
  })

  it('frees the slots a merge leaves out, so that the slots never run out', () => {
    // Each batch of 2 comes before everything kept: the whole batch stays, the kept leave.
    const keys = Array.from({ length: 20 }, (_, i) => 100 - i)
    expect(rank(keys, 2, 4, 4).kept).toEqual([19, 18])
    // Each comes after everything kept: the batch leaves.
    expect(
      rank(
        keys.map((key) => -key),
        2,
        4,
        4
      ).kept
    ).toEqual([0, 1])
  })

  it('hands out slots from 0 up and takes a freed one back first', () => {
    const r = ranking(1, 3, 3, (a, b) => a - b)
    expect(freeSlot(r)).toBe(0)
    admit(r, 0, 0)
    expect(freeSlot(r)).toBe(1)
    admit(r, 1, 1)
    admit(r, 2, 1)
    // 0 comes first: 1 and 2 are free again.
    expect([r.kept[0], r.keptCount, r.freeCount]).toEqual([0, 1, 2])
    expect(freeSlot(r)).toBe(2)
  })
})

// firstK ranks the items when k is less than an eighth of them (its JSDoc), with the ranking
// above: it keeps the law of a stable sort and the bound of R-48 on every shape.
describe('firstK over the shapes of R-48', () => {
  it(
    'is the sort sliced, within n·log2(n) + n comparisons',
    () => {
      let ranked = 0
      let total = 0
      fc.assert(
        fc.property(shape(fc.integer({ min: 0, max: 6000 })), fc.nat(), fc.nat(3), (s, kRaw, share) => {
          const keys = keysOf(s)
          // Mostly under an eighth of the keys, where firstK ranks them.
          const k = 1 + (kRaw % Math.max(1, Math.floor(keys.length / (share === 0 ? 1 : 10))))
          let calls = 0
          const page = firstK(keys, k, (a, b) => {
            calls++
            return a - b
          })
          expect(page).toEqual([...keys].sort((a, b) => a - b).slice(0, k))
          if (k * 8 < keys.length) {
            ranked++
            expect(calls).toBeLessThanOrEqual(sortBound(keys.length))
          }
          total++
        }),
        { numRuns: runs(300) }
      )
      expect(ranked / total).toBeGreaterThanOrEqual(0.5)
    },
    timeoutFor(300, 20_000)
  )

  it('keeps equal items in the order given', () => {
    const items = Array.from({ length: 3000 }, (_, at) => ({ key: at % 3 === 0 ? 1 : 2, at }))
    expect(firstK(items, 10, (a, b) => a.key - b.key)).toEqual(items.filter((item) => item.key === 1).slice(0, 10))
  })
})
