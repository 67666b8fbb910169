import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderTimelineSvg, TIMELINE_SVG } from '../../scripts/timeline'

describe('docs/timeline.svg', () => {
  it('is what examples/budget-monthly.json draws (run `npx tsx scripts/timeline.ts` after changing the picture)', () => {
    expect(readFileSync(TIMELINE_SVG, 'utf8')).toBe(renderTimelineSvg())
  })
})
