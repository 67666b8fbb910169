import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { rules } from './api'
import { renderRulesDoc, RULES_DOC } from '../scripts/docs'

describe('docs', () => {
  it('docs/rules.md is what the rules generate (run `npm run docs` after changing a rule)', () => {
    expect(readFileSync(RULES_DOC, 'utf8')).toBe(renderRulesDoc())
  })

  it.each(Object.entries(rules))('rule %s is explained in its decision record', (id, r) => {
    expect(readFileSync(new URL(`../docs/decisions/${r.decision}`, import.meta.url), 'utf8')).toContain(`\`${id}\``)
  })
})
