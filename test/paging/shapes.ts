/**
 * The shapes of data a selection must not be slow on, as keys in the order the records
 * come: in order, reversed, organ pipe, sawtooth, all equal, a few out of place, the oldest
 * record at one position or at every p-th (the shapes of issue 29), the classic killer of
 * median-of-three quicksort and quickselect (Musser 1997), and shuffled. A shape is read in
 * either direction (`asc` or `desc` ranks the same keys both ways), so that "in order" also
 * stands for "reversed" and the oldest record for the newest.
 */
import fc from 'fast-check'

export const SHAPES = [
  'in order',
  'reversed',
  'organ pipe',
  'valley',
  'sawtooth',
  'all equal',
  'a few out of place',
  'the oldest at one position',
  'the oldest at every p-th',
  'median-of-3 killer',
  'shuffled'
] as const

export type ShapeName = (typeof SHAPES)[number]

export interface Shape {
  readonly name: ShapeName
  readonly n: number
  /** The tooth of a sawtooth, the position of the oldest, the p of every p-th (at least 1). */
  readonly p: number
  /** The pairs swapped to put a few out of place, and the seed of a shuffle. */
  readonly swaps: ReadonlyArray<readonly [number, number]>
  readonly seed: number
}

/**
 * Musser's median-of-3 killer of length n ("Introspective Sorting and Selection Algorithms",
 * 1997), from its definition: for n = 2m, the first half holds 1, m + 2, 3, m + 4, ... (the odd
 * numbers at even places, m + 1 + i at odd places i, one more when m is odd), the second half
 * 2, 4, ..., 2m; an odd n ends with n.
 */
export const medianOfThreeKiller = (n: number): Array<number> => {
  const keys = new Array<number>(n)
  const even = n - (n % 2)
  if (even < n) keys[n - 1] = n
  const m = even / 2
  for (let i = 0; i < m; i++) {
    keys[i] = i % 2 === 0 ? i + 1 : m + i + (m % 2)
    keys[m + i] = 2 * (i + 1)
  }
  return keys
}

/** A seeded shuffle (mulberry32 and Fisher-Yates), so that a shape is a value fast-check can shrink. */
const shuffle = (keys: Array<number>, seed: number): Array<number> => {
  let a = seed >>> 0
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = keys[i] as number
    keys[i] = keys[j] as number
    keys[j] = t
  }
  return keys
}

/** The keys of a shape, in the order the records come; equal keys are ties. */
export const keysOf = ({ name, n, p, swaps, seed }: Shape): Array<number> => {
  const ascending = Array.from({ length: n }, (_, i) => i)
  switch (name) {
    case 'in order':
      return ascending
    case 'reversed':
      return ascending.map((i) => n - i)
    case 'organ pipe':
      return ascending.map((i) => (i < n / 2 ? i : n - i))
    case 'valley':
      return ascending.map((i) => Math.abs(Math.floor(n / 2) - i))
    case 'sawtooth':
      return ascending.map((i) => i % p)
    case 'all equal':
      return ascending.map(() => 0)
    case 'a few out of place': {
      for (const [a, b] of swaps) {
        const i = a % n
        const j = b % n
        const t = ascending[i] as number
        ascending[i] = ascending[j] as number
        ascending[j] = t
      }
      return ascending
    }
    case 'the oldest at one position':
      return ascending.map((i) => (i === p - 1 ? -1 : i))
    case 'the oldest at every p-th':
      return ascending.map((i) => (i % p === p - 1 ? -1 - i : i))
    case 'median-of-3 killer':
      return medianOfThreeKiller(n)
    case 'shuffled':
      return shuffle(ascending, seed)
  }
}

/**
 * Shapes of `n` keys for `n` drawn from `sizes`; `p` drawn around the sizes that matter to a
 * ranking (a window's end, twice it, 1,024 and the like), so that the oldest record lands where
 * a batch ends.
 */
export const shape = (sizes: fc.Arbitrary<number>): fc.Arbitrary<Shape> =>
  fc
    .record({
      name: fc.constantFrom(...SHAPES),
      n: sizes,
      p: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(25, 50, 1000, 1024, 1025, 1049, 2048, 2049), fc.nat(6000)),
      swaps: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
      seed: fc.nat()
    })
    .map((s) => ({ ...s, p: Math.max(1, s.p) }))
