import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceBudget, type Budget, upcomingPeriods } from '../api'
import { budgets } from '../arbitraries'
import { daysBetween } from '../budget/calendar-oracle'
import { monthly, TODAY } from '../fixtures'
import { runs } from '../runs'
import { periodsSvg } from '../../src/timeline/svg'
import { descendants, type Element, parseXml } from './xml'

const example = (name: string) => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8')) as Budget

/** The picture's parts, read back from the SVG text. */
const read = (svg: string) => {
  const all = descendants(parseXml(svg))
  const withClass = (name: string, cls: string) =>
    all.filter((e) => e.name === name && (e.attributes.class ?? '').split(' ').includes(cls))
  const num = (e: Element | undefined, attribute: string) => Number(e?.attributes[attribute])
  return {
    root: all[0],
    bars: withClass('rect', 'period').map((e) => ({
      classes: (e.attributes.class ?? '').split(' '),
      x: num(e, 'x'),
      width: num(e, 'width'),
      starts_on: e.attributes['data-starts-on'],
      ends_on: e.attributes['data-ends-on'] === '' ? null : e.attributes['data-ends-on'],
      amount_cents: e.attributes['data-amount-cents'] === '' ? null : Number(e.attributes['data-amount-cents']),
      title: e.children.find((c) => c.name === 'title')?.text
    })),
    amounts: withClass('text', 'amount').map((e) => e.text),
    today: num(withClass('line', 'today')[0], 'x1'),
    todayLines: withClass('line', 'today').length,
    changes: withClass('g', 'change').map((g) => ({
      change: g.attributes['data-change'],
      on: g.attributes['data-on'],
      x: num(
        g.children.find((c) => c.name === 'line'),
        'x1'
      ),
      label: g.children.find((c) => c.name === 'text')?.text
    })),
    heading: withClass('text', 'heading')[0]?.text,
    title: all.find((e) => e.name === 'title')?.text
  }
}

/** Hundredths of a unit, the precision the picture is written in. */
const h = (n: number) => Math.round(n * 100)

describe('periodsSvg on the examples', () => {
  it('draws one bar per period, contiguous, x proportional to days, today at its day', () => {
    const svg = read(periodsSvg({ budget: example('budget-monthly.json'), today: TODAY, next: 4 }))
    expect(svg.root?.name).toBe('svg')
    expect(svg.bars.map((b) => [b.starts_on, b.ends_on, b.amount_cents])).toEqual([
      ['2026-10-31', '2026-11-30', 50000],
      ['2026-11-30', '2026-12-31', 50000],
      ['2026-12-31', '2027-01-31', 50000],
      ['2027-01-31', '2027-02-28', 50000],
      ['2027-02-28', '2027-03-31', 50000]
    ])
    expect(svg.bars.map((b) => b.classes)).toEqual([['period', 'in-progress'], ['period'], ['period'], ['period'], ['period']])
    expect(svg.amounts).toEqual(['50,000', '50,000', '50,000', '50,000', '50,000'])
    expect(svg.bars[1]?.title).toBe('2026-11-30 to 2026-12-31: 50,000 cents')
    // The axis runs 151 days, 2026-10-31..2027-03-31, over x 40..760: 720/151 units a day.
    const at = (date: string) => Math.round((40 + (daysBetween('2026-10-31', date) * 720) / 151) * 100) / 100
    expect(svg.bars.map((b) => [b.x, Math.round((b.x + b.width) * 100) / 100])).toEqual(
      svg.bars.map((b) => [at(b.starts_on as string), at(b.ends_on as string)])
    )
    expect(svg.bars[0]?.x).toBe(40)
    expect(svg.today).toBe(144.9) // 22 days in: 40 + 22 * 720 / 151
    expect(svg.todayLines).toBe(1)
    expect(svg.changes).toEqual([
      {
        change: 'closing',
        on: '2027-03-15',
        x: at('2027-03-15'),
        label: '2027-03-15 ends_on: the budget closes (status closing)'
      }
    ])
  })

  it('highlights a cadence changed for the next period where it takes effect', () => {
    const svg = read(periodsSvg({ budget: example('budget-cadence-change.json'), today: TODAY, next: 3 }))
    expect(svg.bars.map((b) => [b.starts_on, b.ends_on, b.amount_cents])).toEqual([
      ['2026-11-18', '2026-11-25', 12000],
      ['2026-11-25', '2026-12-09', 30000],
      ['2026-12-09', '2026-12-23', 30000],
      ['2026-12-23', '2027-01-06', 30000]
    ])
    // 49 days, 2026-11-18..2027-01-06; the change 7 days in, today 4.
    expect(svg.changes).toEqual([
      {
        change: 'cadence',
        on: '2026-11-25',
        x: Math.round((40 + (7 * 720) / 49) * 100) / 100,
        label: '2026-11-25 from here: renews every 2 weeks, 30,000 cents a period'
      }
    ])
    expect(svg.today).toBe(Math.round((40 + (4 * 720) / 49) * 100) / 100)
  })

  it('draws a period whose renewals stopped open-ended to the end of the axis, where they stop highlighted', () => {
    const stopped = monthly({
      recurrence_unit: null,
      recurrence_every: null,
      base_amount_cents: null,
      recurrence_starts_on: null
    })
    const svg = read(periodsSvg({ budget: stopped, today: TODAY, next: 5 }))
    expect(svg.bars).toEqual([
      {
        classes: ['period', 'in-progress', 'open-ended'],
        x: 40,
        width: 720,
        starts_on: '2026-11-18',
        ends_on: null,
        amount_cents: 50000,
        title: '2026-11-18 to open-ended: 50,000 cents'
      }
    ])
    // 30 days to the stop, and the axis goes on a fifth further (at least 14 days): 44 days.
    expect(svg.changes.map((c) => [c.change, c.on, c.x])).toEqual([
      ['stop', '2026-12-18', Math.round((40 + (30 * 720) / 44) * 100) / 100]
    ])
  })

  it('highlights a stop and a closing on the same day in that order, at the same x', () => {
    const stopped = monthly({
      recurrence_unit: null,
      recurrence_every: null,
      base_amount_cents: null,
      recurrence_starts_on: null,
      ends_on: '2026-12-18'
    })
    const svg = read(periodsSvg({ budget: stopped, today: TODAY, next: 5 }))
    const x = Math.round((40 + (30 * 720) / 44) * 100) / 100
    expect(svg.changes.map((c) => [c.change, c.on, c.x])).toEqual([
      ['stop', '2026-12-18', x],
      ['closing', '2026-12-18', x]
    ])
  })

  it('highlights nothing for a budget with nothing pending, and nothing for a closed one', () => {
    expect(read(periodsSvg({ budget: monthly(), today: TODAY, next: 2 })).changes).toEqual([])
    const closed = read(periodsSvg({ budget: monthly({ status: 'closed', ends_on: '2026-11-20' }), today: TODAY, next: 2 }))
    expect(closed.changes).toEqual([])
    expect(closed.bars.map((b) => b.classes)).toEqual([['period']])
  })

  it('escapes the budget name wherever it is written', () => {
    const name = `Tom & Jerry's <"lunch"> </svg>`
    const text = periodsSvg({ budget: monthly({ name }), today: TODAY, next: 1 })
    expect(text).not.toContain('<"lunch">')
    expect(text).toContain('Tom &amp; Jerry&#39;s &lt;&quot;lunch&quot;&gt; &lt;/svg&gt;')
    const svg = read(text)
    expect(svg.heading).toBe(`${name} (b-1): funded, CLP, open, balance 5,000 cents`)
    expect(svg.title).toBe(`${name}: periods on 2026-11-22`)
  })

  it('writes a character XML cannot hold as U+FFFD, so the document stays well-formed', () => {
    const svg = read(periodsSvg({ budget: monthly({ name: 'a\u0000b\u001bc\uD800d' }), today: TODAY, next: 0 }))
    expect(svg.heading?.startsWith('a\uFFFDb\uFFFDc\uFFFDd (b-1)')).toBe(true)
  })
})

describe('periodsSvg over any budget', () => {
  const input = fc.record({
    b: budgets(),
    next: fc.integer({ min: 0, max: 8 }),
    name: fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('<', '&', '"', ']]>', '&amp;'))
  })

  it('is well-formed, one bar per period in date order, contiguous and proportional to days, today on its day', () => {
    fc.assert(
      fc.property(input, ({ b: { budget: stored, today }, next, name }) => {
        const b = { ...stored, name }
        const svg = read(periodsSvg({ budget: b, today, next })) // parseXml throws when not well-formed
        const advanced = advanceBudget(b, today)
        const upcoming = upcomingPeriods(b, today, next)
        expect(svg.bars.length).toBe(1 + upcoming.length)
        expect(
          svg.bars.slice(1).map((p) => ({ starts_on: p.starts_on, ends_on: p.ends_on, amount_cents: p.amount_cents }))
        ).toEqual(upcoming)
        expect(svg.bars[0]?.starts_on).toBe(advanced.period_starts_on)
        expect(svg.bars[0]?.classes.includes('in-progress')).toBe(advanced.status !== 'closed')
        expect(svg.todayLines).toBe(1)

        // Contiguous and not overlapping: each bar starts where the one before ends, inside the axis.
        for (const [i, bar] of svg.bars.entries()) {
          expect(bar.width).toBeGreaterThanOrEqual(0)
          expect(h(bar.x)).toBeGreaterThanOrEqual(4000)
          expect(h(bar.x) + h(bar.width)).toBeLessThanOrEqual(76000)
          const after = svg.bars[i + 1]
          if (after !== undefined) expect(h(after.x)).toBe(h(bar.x) + h(bar.width))
        }
        // The open-ended bar, if any, is the last and reaches the end of the axis.
        const open = svg.bars.findIndex((p) => p.ends_on === null)
        if (open >= 0) {
          expect(open).toBe(svg.bars.length - 1)
          expect(h((svg.bars[open]?.x ?? 0) + (svg.bars[open]?.width ?? 0))).toBe(76000)
        }

        // Proportional: every finite bar has the same units per day, up to the rounding of its ends.
        const finite = svg.bars.flatMap((p) =>
          p.ends_on === null || p.ends_on === undefined ? [] : [{ ...p, days: daysBetween(p.starts_on as string, p.ends_on) }]
        )
        const widest = finite.reduce<(typeof finite)[number] | undefined>(
          (w, p) => (w === undefined || p.days > w.days ? p : w),
          undefined
        )
        if (widest !== undefined)
          for (const p of finite)
            expect(Math.abs(p.width / p.days - widest.width / widest.days)).toBeLessThanOrEqual(
              0.011 / p.days + 0.011 / widest.days
            )

        // Today on its day, within a finite bar that holds it.
        const holding = finite.find((p) => (p.starts_on as string) <= today && today < (p.ends_on as string))
        if (holding !== undefined)
          expect(
            Math.abs(svg.today - (holding.x + (holding.width * daysBetween(holding.starts_on as string, today)) / holding.days))
          ).toBeLessThanOrEqual(0.02)

        // Highlighted exactly what is pending: renewals that stop, and the closing day of an open budget.
        const stops = advanced.status !== 'closed' && advanced.recurrence_unit === null && advanced.period_ends_on !== null
        const pending = [
          ...(stops ? [['stop', advanced.period_ends_on as string]] : []),
          ...(advanced.status === 'open' && advanced.ends_on !== null ? [['closing', advanced.ends_on]] : [])
        ]
        // In date order; on one day, the stop before the closing (the order PendingChange lists them).
        const rank = (p: Array<string>) => `${p[1] as string} ${p[0] === 'stop' ? 0 : 1}`
        expect(svg.changes.map((c) => [c.change, c.on])).toEqual(
          pending.sort((x, y) => (rank(x) < rank(y) ? -1 : rank(x) > rank(y) ? 1 : 0))
        )
      }),
      { numRuns: runs(150) }
    )
  })

  it('gives the same text for the same input', () => {
    fc.assert(
      fc.property(budgets(), ({ budget: b, today }) => {
        expect(periodsSvg({ budget: b, today, next: 3 })).toBe(periodsSvg({ budget: structuredClone(b), today, next: 3 }))
      }),
      { numRuns: runs(20) }
    )
  })
})

describe('the XML reader of these tests', () => {
  it.each([
    ['a tag never closed', '<svg><g></svg>'],
    ['tags crossed', '<svg><g><text></g></text></svg>'],
    ['a raw & in text', '<svg><text>a & b</text></svg>'],
    ['a raw < in an attribute', '<svg><text x="<">a</text></svg>'],
    ['an attribute twice', '<svg x="1" x="2"/>'],
    ['text outside the root', '<svg/>tail'],
    ['two roots', '<svg/><svg/>'],
    ['a control character', '<svg><text>\u0001</text></svg>'],
    ['an unpaired surrogate', '<svg><text>\uD800</text></svg>']
  ])('rejects %s', (_, xml) => {
    expect(() => parseXml(xml)).toThrow()
  })

  it('reads a well-formed document back', () => {
    expect(parseXml('<svg a="&lt;&#39;"><text>x &amp; y</text><line/></svg>')).toEqual({
      name: 'svg',
      attributes: { a: "<'" },
      text: '',
      children: [
        { name: 'text', attributes: {}, text: 'x & y', children: [] },
        { name: 'line', attributes: {}, text: '', children: [] }
      ]
    })
  })
})
