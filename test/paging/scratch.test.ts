import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/paging/endpoint'
import { borrow, giveBack } from '../../src/paging/scratch'
import { selectPage } from '../../src/paging/select'

const tx = endpoints.bankTransactions
const byAmount = { field: 'amount', order: 'asc' } as const

const transaction = (n: number) => ({
  id: `tx-${String(n).padStart(5, '0')}`,
  amount: (n * 7919) % 1000,
  status: 'pending',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z'
})

/** The page of a window by sorting the records whole: the amount, then the id. */
const sorted = (records: ReadonlyArray<ReturnType<typeof transaction>>, start: number, end: number) =>
  [...records].sort((a, b) => a.amount - b.amount || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(start, end)

// selectPage works in scratch memory it borrows for the call and gives back (src/paging/scratch.ts,
// for speed only): what it answers must not depend on it.
describe('the scratch a selection works in', () => {
  it('holds no record once the selection is over, whatever it answered', () => {
    const records = Array.from({ length: 3000 }, (_, n) => transaction(n))
    expect(selectPage(tx, records, [], byAmount, { start: 1000, end: 1025 })).toEqual(
      either.right({ page: sorted(records, 1000, 1025), total: 3000 })
    )
    const broken = [...records.slice(0, 2000), { ...transaction(2000), amount: 'none' }]
    expect(either.isLeft(selectPage(tx, broken, [], byAmount, { start: 0, end: 25 }))).toBe(true)
    const s = borrow(0, 0, 0)
    expect(s.values.filter((v) => v !== undefined)).toEqual([])
    giveBack(s, 0)
  })

  it('is not shared with a selection a getter asks for while it is lent', () => {
    const inner = Array.from({ length: 2000 }, (_, n) => transaction(n))
    const innerPages: Array<unknown> = []
    const outer = Array.from({ length: 2000 }, (_, n) => {
      const t = transaction(n)
      return {
        ...t,
        // A getter that asks for a page of another collection while the outer one is selected.
        get amount() {
          innerPages.push(selectPage(tx, inner, [], byAmount, { start: n % 50, end: (n % 50) + 10 }))
          return t.amount
        }
      }
    })
    const plain = outer.map((_, n) => transaction(n))
    expect(selectPage(tx, outer, [], byAmount, { start: 5, end: 30 })).toEqual(
      either.right({ page: sorted(plain, 5, 30), total: 2000 })
    )
    expect(innerPages).toEqual(
      Array.from({ length: 2000 }, (_, n) => either.right({ page: sorted(inner, n % 50, (n % 50) + 10), total: 2000 }))
    )
  })

  it('is lent again when it fits, and let go for a call far smaller', () => {
    const s = borrow(10, 10, 10)
    giveBack(s, 0)
    expect(borrow(5, 5, 5)).toBe(s)
    giveBack(s, 0)
    const large = borrow(1 << 20, 10, 10)
    giveBack(large, 0)
    expect(borrow(10, 10, 10)).not.toBe(large)
  })

  // Taking what is kept and not giving it back leaves nothing kept: the next scratch is new, of the size asked.
  const fresh = (values: number, numbers: number, ints: number) => {
    borrow(0, 0, 0)
    return borrow(values, numbers, ints)
  }

  it('has room for as many as asked when it is new', () => {
    const s = fresh(300, 200, 100)
    expect([s.values.length, s.numbers.length, s.ints.length]).toEqual([300, 200, 100])
  })

  it('fits a call asking for as much as it holds, down to a sixteenth of it or 4,096', () => {
    for (const [size, want, lent] of [
      [100, 100, true],
      [65_536, 1, true],
      [65_537, 1, false],
      [16_000, 1_000, true],
      [16 * 5_000, 5_000, true],
      [16 * 5_000 + 1, 5_000, false]
    ] as const) {
      const s = fresh(size, size, size)
      giveBack(s, 0)
      expect([size, want, borrow(want, want, want) === s]).toEqual([size, want, lent])
    }
  })

  it('keeps the larger of two given back, by all it holds', () => {
    for (const [first, second, keeps] of [
      [[50, 0, 0], [10, 10, 100], 'second'],
      [[50, 0, 0], [10, 100, 10], 'second'],
      [[10, 10, 100], [50, 0, 0], 'first'],
      [[10, 100, 10], [50, 0, 0], 'first'],
      [[20, 20, 20], [20, 20, 20], 'second']
    ] as const) {
      const a = fresh(first[0], first[1], first[2])
      const b = borrow(second[0], second[1], second[2])
      giveBack(a, 0)
      giveBack(b, 0)
      const kept = keeps === 'first' ? a : b
      expect([first, second, borrow(kept.values.length, kept.numbers.length, kept.ints.length) === kept]).toEqual([
        first,
        second,
        true
      ])
    }
  })

  it('gives the same pages whatever was selected before it', () => {
    const records = Array.from({ length: 5000 }, (_, n) => transaction(n))
    const first = selectPage(tx, records, [], byAmount, { start: 2500, end: 2525 })
    selectPage(tx, records, [], { field: 'id', order: 'desc' }, { start: 0, end: 2000 })
    selectPage(tx, records.slice(0, 10), [], byAmount, { start: 0, end: 5 })
    expect(selectPage(tx, records, [], byAmount, { start: 2500, end: 2525 })).toEqual(first)
    expect(first).toEqual(either.right({ page: sorted(records, 2500, 2525), total: 5000 }))
  })
})
