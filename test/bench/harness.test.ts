import { describe, expect, it } from 'vitest'
import type { Case } from '../../bench/case'
import { deepEqual, firstDifference } from '../../bench/harness'

// The benchmark times nothing before every contender of a case gives the same answer: a
// comparison that said "equal" too readily would let a wrong contender be timed and flatter it.

describe('deepEqual: the comparison of answers before timing', () => {
  it('holds of equal plain data, whatever the order of keys', () => {
    expect(deepEqual({ ids: ['tx-2', 'tx-1'], total: 2 }, { total: 2, ids: ['tx-2', 'tx-1'] })).toBe(true)
    expect(deepEqual([{ a: null }, 'x', 0], [{ a: null }, 'x', 0])).toBe(true)
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true)
  })

  it('fails on any difference of value, length, key or kind', () => {
    const pairs: ReadonlyArray<readonly [unknown, unknown]> = [
      [{ ids: ['tx-2', 'tx-1'] }, { ids: ['tx-1', 'tx-2'] }],
      [
        [1, 2],
        [1, 2, 3]
      ],
      [{ a: 1 }, { a: 1, b: undefined }],
      [
        { a: 1, b: 2 },
        { a: 1, c: 2 }
      ],
      [[], {}],
      [{ status: 200 }, { status: '200' }],
      [null, {}],
      [0, -0]
    ]
    expect(pairs.map(([a, b]) => [deepEqual(a, b), deepEqual(b, a)])).toEqual(pairs.map(() => [false, false]))
  })
})

describe('firstDifference: answers checked before timing', () => {
  const caseOf = (title: string, answers: ReadonlyArray<unknown>): Case => ({
    suite: 'index',
    title,
    contenders: answers.map((a, i) => ({ name: `c${i}`, kind: i === 0 ? 'library' : 'baseline', run: () => a }))
  })

  it('finds the first contender whose answer differs, awaiting answers given as promises', async () => {
    const cases = [
      caseOf('same', [{ total: 3 }, Promise.resolve({ total: 3 })]),
      caseOf('differs', [{ total: 3 }, { total: 3 }, Promise.resolve({ total: 4 })])
    ]
    expect(await firstDifference(cases)).toEqual({
      title: 'index: differs',
      first: 'c0',
      other: 'c2',
      expected: { total: 3 },
      got: { total: 4 }
    })
  })

  it('uses a contender’s answer rather than its timed call when it has one', async () => {
    const c: Case = {
      suite: 'decision',
      title: 'replies without reasons',
      contenders: [
        { name: 'library', kind: 'library', run: () => ({ status: 200, reasons: [] }), answer: () => ({ status: 200 }) },
        { name: 'plain', kind: 'baseline', run: () => ({ status: 200 }) }
      ]
    }
    expect(await firstDifference([c])).toBe(null)
  })
})
