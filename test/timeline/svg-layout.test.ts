import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { budgets } from '../arbitraries'
import { budget, monthly, TODAY } from '../fixtures'
import { runs } from '../runs'
import { periodsSvg } from '../../src/timeline/svg'
import { descendants, type Element, parseXml } from './xml'

// The layout rules of periodsSvg, checked on the picture read back: a label is left out only
// where it would not fit (about 7 units a character at the picture's font size), and the rows of
// pending changes stack under the axis, 18 units each.
const CHAR = 7
const hundredths = (e: Element | undefined, attribute: string) => Math.round(Number(e?.attributes[attribute]) * 100)
const classed = (all: ReadonlyArray<Element>, name: string, cls: string) =>
  all.filter((e) => e.name === name && (e.attributes.class ?? '').split(' ').includes(cls))
/** Cents as the bars write them: a comma every three digits. */
const cents = (n: number | null) => {
  if (n === null) return 'no amount'
  const digits = String(Math.abs(n))
  const groups: Array<string> = []
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end))
  return (n < 0 ? '-' : '') + groups.join(',')
}

describe('periodsSvg lays out its labels where they fit', () => {
  const input = fc.record({ b: budgets(), next: fc.integer({ min: 0, max: 30 }) })

  it('writes an amount on a bar when the bar is wider than it by 8 units, the date of a boundary when it is 10 units clear of the last one written', () => {
    let amountsLeftOut = 0
    let amountsWritten = 0
    let ticksLeftOut = 0
    let changes = 0
    fc.assert(
      fc.property(input, ({ b: { budget, today }, next }) => {
        const all = descendants(parseXml(periodsSvg({ budget, today, next })))
        const bars = classed(all, 'rect', 'period')

        // Amounts: each bar's, in bar order, centred on it, where it fits.
        const expected = bars.flatMap((bar) => {
          const raw = bar.attributes['data-amount-cents'] ?? ''
          const text = cents(raw === '' ? null : Number(raw))
          const x = hundredths(bar, 'x')
          const width = hundredths(bar, 'width')
          const fits = width >= (CHAR * text.length + 8) * 100
          if (fits) amountsWritten++
          else amountsLeftOut++
          return fits ? [{ text, x: Math.round(x + width / 2) }] : []
        })
        expect(classed(all, 'text', 'amount').map((e) => ({ text: e.text, x: hundredths(e, 'x') }))).toEqual(expected)

        // Ticks: a line at every boundary (the first start, then each end), a date where it is clear.
        const boundaries = bars.flatMap((bar, i) => {
          const x = hundredths(bar, 'x')
          const end = bar.attributes['data-ends-on'] ?? ''
          return [
            ...(i === 0 ? [{ x, date: bar.attributes['data-starts-on'] }] : []),
            ...(end === '' ? [] : [{ x: x + hundredths(bar, 'width'), date: end }])
          ]
        })
        const ticks = classed(all, 'line', 'axis').filter((e) => e.attributes.y1 !== e.attributes.y2)
        expect(ticks.map((e) => hundredths(e, 'x1'))).toEqual(boundaries.map((t) => t.x))
        let last = Number.NEGATIVE_INFINITY
        const dated = boundaries.filter((t) => {
          if (t.x - last < (CHAR * 10 + 10) * 100) return false
          last = t.x
          return true
        })
        ticksLeftOut += boundaries.length - dated.length
        expect(classed(all, 'text', 'tick').map((e) => ({ x: hundredths(e, 'x'), date: e.text }))).toEqual(dated)

        // Pending changes: one row of 18 units each under the picture, the label running left of
        // its line past the middle.
        const groups = classed(all, 'g', 'change')
        changes += groups.length
        expect(all[0]?.attributes.height).toBe(String(156 + 18 * groups.length))
        for (const [i, g] of groups.entries()) {
          const line = g.children.find((c) => c.name === 'line')
          const text = g.children.find((c) => c.name === 'text')
          expect(text?.attributes.y).toBe(String(156 + 8 + 18 * i))
          expect(line?.attributes.y2).toBe(String(156 + 8 + 18 * i - 12))
          expect(text?.attributes['text-anchor']).toBe(hundredths(line, 'x1') > 40000 ? 'end' : undefined)
        }
      }),
      { numRuns: runs(400) }
    )
    // Every rule met both ways, in the runs as a whole (pending changes are the rarest: about 1 run in 10).
    expect(Math.min(amountsLeftOut, amountsWritten, ticksLeftOut, changes)).toBeGreaterThanOrEqual(10)
  })
})

describe('periodsSvg at the edges of its layout rules', () => {
  const read = (svg: string) => descendants(parseXml(svg))

  it('writes an amount on a bar exactly as wide as the amount and 8 units', () => {
    // 48 daily periods of 5 cents across the 720 units of the axis: 15 units each, 7 + 8.
    const daily = budget({
      recurrence_unit: 'day',
      recurrence_every: 1,
      base_amount_cents: 5,
      recurrence_starts_on: '2026-11-01',
      period_starts_on: '2026-11-22',
      period_ends_on: '2026-11-23',
      period_amount_cents: 5
    })
    const all = read(periodsSvg({ budget: daily, today: TODAY, next: 47 }))
    expect(classed(all, 'rect', 'period').map((e) => e.attributes.width)).toEqual(Array.from({ length: 48 }, () => '15'))
    expect(classed(all, 'text', 'amount').map((e) => e.text)).toEqual(Array.from({ length: 48 }, () => '5'))
  })

  it('stacks two pending changes 18 units apart, the picture 36 units taller', () => {
    // A cadence and the closing on the same day, the end of the period in progress.
    const both = monthly({
      recurrence_unit: 'week',
      recurrence_every: 2,
      base_amount_cents: 30000,
      recurrence_starts_on: '2026-12-18',
      ends_on: '2026-12-18'
    })
    const all = read(periodsSvg({ budget: both, today: TODAY, next: 0 }))
    expect([all[0]?.attributes.height, all[0]?.attributes.viewBox]).toEqual(['192', '0 0 800 192'])
    expect(
      classed(all, 'g', 'change').map((g) => g.children.map((c) => (c.name === 'line' ? c.attributes.y2 : c.attributes.y)))
    ).toEqual([
      ['152', '164'],
      ['170', '182']
    ])
  })

  it('titles a bar of no amount without cents', () => {
    const never = budget({ mode: 'tracking', balance_cents: null, period_amount_cents: null })
    const bar = classed(read(periodsSvg({ budget: never, today: TODAY, next: 0 })), 'rect', 'period')[0]
    expect(bar?.children.find((c) => c.name === 'title')?.text).toBe('2025-10-18 to open-ended: no amount')
  })

  it('runs the label of a change on the middle of the axis to the right, as on the left half', () => {
    // The axis runs over the period in progress, 2026-11-18..2026-12-18; 2026-12-03 is its middle.
    const all = read(periodsSvg({ budget: monthly({ ends_on: '2026-12-03' }), today: TODAY, next: 0 }))
    const label = classed(all, 'g', 'change')[0]?.children.find((c) => c.name === 'text')
    expect([label?.attributes.x, label?.attributes['text-anchor']]).toEqual(['400', undefined])
  })
})
