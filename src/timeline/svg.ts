/**
 * A budget's timeline as an SVG picture: the periods as bars on a date axis (x proportional to
 * days), each labelled with its amount, today as a vertical line, and each pending change (a new
 * cadence, renewals stopping, the closing date) as a highlighted line with its label. The text is
 * deterministic: the same input gives the same bytes, and every text from the budget is escaped.
 *
 * @example
 * const svg = periodsSvg({ budget, today: '2026-11-22', next: 2 })
 * svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"') //=> true
 * svg.match(/<rect class="period/g).length //=> 3
 * // today, 2026-11-22, is 4 of the 92 days from 2026-11-18 to 2027-02-18 along the 720 units of the axis
svg.includes('<line class="today" x1="71.3" y1="74" x2="71.3" y2="128"/>') //=> true
 *
 * @since 0.1.0
 */
import { type CalendarDate, toDayNumber } from '../calendar/date'
import {
  changeText,
  formatCents,
  headingText,
  type PendingChange,
  renewalText,
  type TimelineInput,
  timelineOf,
  type TimelinePeriod
} from './timeline'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The geometry of the picture, in SVG user units: the date axis runs from `left` to `right`.
 *
 * @example
 * SVG_LAYOUT.right - SVG_LAYOUT.left //=> 720
 *
 * @category constants
 * @since 0.1.0
 */
export const SVG_LAYOUT = {
  width: 800,
  /** Without pending changes; each adds a row of 18. */
  height: 156,
  left: 40,
  right: 760,
  barTop: 80,
  barHeight: 36,
  axis: 124
} as const

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

// Characters XML 1.0 does not allow in a document, and unpaired surrogates: each becomes U+FFFD.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text made safe for SVG content and attribute values: markup characters as entities, and the
 * characters XML cannot hold replaced by U+FFFD.
 *
 * @example
 * escapeXml(`Tom & Jerry's <"lunch">`) //=> 'Tom &amp; Jerry&#39;s &lt;&quot;lunch&quot;&gt;'
 * escapeXml('a\u0000b') //=> 'a\uFFFDb'
 *
 * @category utils
 * @since 0.1.0
 */
export const escapeXml = (text: string): string => text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)

/** A coordinate in hundredths, written without trailing zeros, so bars meet exactly. */
const num = (hundredths: number) => String(hundredths / 100)

/** Gap the open-ended end of the axis gets past the last date shown: a fifth of the span, at least 14 days. */
const openEndedPad = (span: number) => Math.max(14, Math.round(span / 5))

/** The days the axis covers, as day numbers. */
const axisOf = (periods: ReadonlyArray<TimelinePeriod>, today: CalendarDate, changes: ReadonlyArray<PendingChange>) => {
  const days = [
    today,
    ...changes.map((c) => c.on),
    ...periods.flatMap((p) => (p.ends_on === null ? [p.starts_on] : [p.starts_on, p.ends_on]))
  ].map(toDayNumber)
  const first = Math.min(...days)
  const last = Math.max(...days)
  const openEnded = periods.some((p) => p.ends_on === null)
  return { first, last: openEnded ? last + openEndedPad(last - first) : last }
}

/** A text placed at `x` (hundredths): running right from it, or left of it past the middle. */
const label = (cls: string, x: number, y: number, text: string) => {
  const anchor = x > (SVG_LAYOUT.width / 2) * 100 ? ' text-anchor="end"' : ''
  return `<text class="${cls}" x="${num(x)}" y="${y}"${anchor}>${escapeXml(text)}</text>`
}

/** Roughly how wide a label is at the picture's font size, to leave out those that do not fit. */
const textWidth = (text: string) => 7 * text.length

const STYLE = [
  'text{font-family:system-ui,sans-serif;font-size:12px;fill:#1f2328;stroke:none}',
  '.heading{font-size:14px;font-weight:600}',
  '.period{fill:#b6d4fe;stroke:#ffffff;stroke-width:1}',
  '.in-progress{fill:#6ea8fe}',
  '.open-ended{fill:url(#open-ended)}',
  '.amount{font-size:11px;text-anchor:middle}',
  '.axis{stroke:#57606a}',
  '.tick{font-size:11px;fill:#57606a}',
  'line.today{stroke:#cf222e;stroke-width:2}',
  'text.today{fill:#cf222e}',
  '.change line{stroke:#bf8700;stroke-width:2;stroke-dasharray:4 3}',
  '.change text{fill:#9a6700}'
].join('')

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The SVG text of a budget's timeline on `today` with the `next` periods after the one in
 * progress: one `<rect class="period ...">` per period (`in-progress` for the period in
 * progress, `open-ended` for one that goes on with no end, which runs to the end of the axis),
 * carrying its dates and amount in `data-*` attributes and a `<title>`; the amount written on
 * the bar when it fits; the period boundaries as ticks (those too close to the previous tick
 * left out); `<line class="today">`; and one `<g class="change" data-change="...">` per pending
 * change. The axis runs from the earliest to the latest date shown (and past it by a fifth, at
 * least 14 days, when a period is open-ended). Throws what `timelineOf` throws.
 *
 * @example
 * // a budget that closes on 2027-01-05: the closing day is highlighted, 48 of the 61 days along
 * const svg = periodsSvg({ budget: { ...budget, ends_on: '2027-01-05' }, today: '2026-11-22', next: 1 })
 * svg.match(/<g class="change" data-change="[a-z]+"/g) //=> ['<g class="change" data-change="closing"']
 * svg.includes('<line x1="606.56" y1="74" x2="606.56" y2="152"/>') //=> true
 *
 * @category constructors
 * @since 0.1.0
 */
export const periodsSvg = (input: TimelineInput): string => {
  const t = timelineOf(input)
  const { left, right, width, height, barTop, barHeight, axis } = SVG_LAYOUT
  const { first, last } = axisOf(t.periods, t.today, t.changes)
  // x in hundredths of a unit, proportional to days along the axis.
  const x = (date: CalendarDate) => Math.round((left + ((toDayNumber(date) - first) / (last - first)) * (right - left)) * 100)
  const end = right * 100

  const bars = t.periods.flatMap((p) => {
    const x0 = x(p.starts_on)
    const x1 = p.ends_on === null ? end : x(p.ends_on)
    const cls = `period${p.in_progress ? ' in-progress' : ''}${p.ends_on === null ? ' open-ended' : ''}`
    const amount = formatCents(p.amount_cents)
    const title = `${p.starts_on} to ${p.ends_on ?? 'open-ended'}: ${amount}${p.amount_cents === null ? '' : ' cents'}`
    const rect =
      `<rect class="${cls}" x="${num(x0)}" y="${barTop}" width="${num(x1 - x0)}" height="${barHeight}"` +
      ` data-starts-on="${p.starts_on}" data-ends-on="${p.ends_on ?? ''}" data-amount-cents="${p.amount_cents ?? ''}">` +
      `<title>${escapeXml(title)}</title></rect>`
    const fits = x1 - x0 >= (textWidth(amount) + 8) * 100
    return fits
      ? [rect, `<text class="amount" x="${num(Math.round((x0 + x1) / 2))}" y="${barTop + barHeight / 2 + 4}">${amount}</text>`]
      : [rect]
  })

  const boundaries = t.periods.flatMap((p, i) => [...(i === 0 ? [p.starts_on] : []), ...(p.ends_on === null ? [] : [p.ends_on])])
  const ticks: Array<string> = []
  let lastTick = Number.NEGATIVE_INFINITY
  for (const d of boundaries) {
    const at = x(d)
    ticks.push(`<line class="axis" x1="${num(at)}" y1="${axis}" x2="${num(at)}" y2="${axis + 4}"/>`)
    if (at - lastTick < (textWidth(d) + 10) * 100) continue
    ticks.push(`<text class="tick" x="${num(at)}" y="${axis + 16}" text-anchor="middle">${d}</text>`)
    lastTick = at
  }

  const todayX = x(t.today)
  const changes = t.changes.map((c, i) => {
    const at = x(c.on)
    const y = height + 8 + 18 * i
    return (
      `<g class="change" data-change="${c._tag}" data-on="${c.on}">` +
      `<line x1="${num(at)}" y1="${barTop - 6}" x2="${num(at)}" y2="${y - 12}"/>` +
      label('change', at, y, `${c.on} ${changeText(c)}`) +
      '</g>'
    )
  })

  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + 18 * t.changes.length}" viewBox="0 0 ${width} ${height + 18 * t.changes.length}" role="img">`,
    `<title>${escapeXml(`${t.budget.name}: periods on ${t.today}`)}</title>`,
    `<style>${STYLE}</style>`,
    '<defs><linearGradient id="open-ended"><stop offset="0" stop-color="#6ea8fe"/><stop offset="1" stop-color="#6ea8fe" stop-opacity="0"/></linearGradient></defs>',
    `<text class="heading" x="${left}" y="24">${escapeXml(headingText(t.budget))}</text>`,
    `<text x="${left}" y="44">${escapeXml(renewalText(t.budget))}</text>`,
    `<g class="periods">${bars.join('')}</g>`,
    `<g class="axis"><line class="axis" x1="${left}" y1="${axis}" x2="${right}" y2="${axis}"/>${ticks.join('')}</g>`,
    `<g class="today"><line class="today" x1="${num(todayX)}" y1="${barTop - 6}" x2="${num(todayX)}" y2="${axis + 4}"/>` +
      `${label('today', todayX, barTop - 10, `today ${t.today}`)}</g>`,
    ...changes,
    '</svg>',
    ''
  ]
  return lines.join('\n')
}
