/**
 * The README's "Entry points" names the package's entry points: exactly those of package.json
 * `exports` (issue 28: it once said seven while eight shipped), and as many as it says.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, unknown>
}
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']

describe("the README's entry points", () => {
  it("are the package's exports, as many as it says", () => {
    const from = readme.indexOf('\n## Entry points\n')
    expect(from).toBeGreaterThanOrEqual(0)
    const section = readme.slice(from + 1)
    const paragraph = section.slice(0, section.indexOf('\n## '))
    const named = [...new Set([...paragraph.matchAll(/`(budget-rules(?:\/[a-z-]+)?)`/g)].map((m) => m[1]))].sort()
    const exported = Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => `budget-rules${key.slice(1)}`)
      .sort()
    expect(named).toEqual(exported)
    const count = /(\w+) entry points/i.exec(paragraph)?.[1]?.toLowerCase() ?? ''
    expect(WORDS.indexOf(count)).toBe(exported.length)
  })
})
