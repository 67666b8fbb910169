/**
 * Generates docs/timeline.svg, the picture of a budget's periods the docs show, from
 * examples/budget-monthly.json: `npx tsx scripts/timeline.ts` writes the file;
 * test/timeline/docs-svg.test.ts fails when it is stale. The same picture as
 * `budget-rules periods examples/budget-monthly.json --today 2026-11-22 --next 4 --svg docs/timeline.svg`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { storedBudget } from '../src/cli/periods'
import type { CalendarDate } from '../src/calendar/date'
import { periodsSvg } from '../src/timeline/svg'

export const TIMELINE_SVG = fileURLToPath(new URL('../docs/timeline.svg', import.meta.url))
export const TIMELINE_BUDGET = fileURLToPath(new URL('../examples/budget-monthly.json', import.meta.url))
/** The day the picture looks from, and how many periods after the one in progress it shows. */
export const TIMELINE_TODAY = '2026-11-22' as CalendarDate
export const TIMELINE_NEXT = 4

export const renderTimelineSvg = (): string =>
  periodsSvg({
    budget: storedBudget(TIMELINE_BUDGET, JSON.parse(readFileSync(TIMELINE_BUDGET, 'utf8'))),
    today: TIMELINE_TODAY,
    next: TIMELINE_NEXT
  })

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const next = renderTimelineSvg()
  const stale = (() => {
    try {
      return readFileSync(TIMELINE_SVG, 'utf8') !== next
    } catch {
      return true
    }
  })()
  if (stale) writeFileSync(TIMELINE_SVG, next)
  console.log(stale ? `wrote ${TIMELINE_SVG}` : `${TIMELINE_SVG} is up to date`)
}
