import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// The "Embedding" section of docs/embedding.md shows the examples' own lines: the route table
// every file begins with, and each file's buildApp whole, each as a ```js block.
const guide = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8')
const example = (framework: string) => readFileSync(new URL(`../../examples/embed/${framework}.mjs`, import.meta.url), 'utf8')

/** The lines from the one starting with `first` to the next line that is exactly `last`. */
const block = (text: string, first: string, last: string): string => {
  const lines = text.split('\n')
  const from = lines.findIndex((line) => line.startsWith(first))
  const to = lines.indexOf(last, from)
  expect([from, to].every((i) => i >= 0)).toBe(true)
  return lines.slice(from, to + 1).join('\n')
}

const section = block(guide, '## Embedding', '## What was decided: records, replay, logs and metrics')

describe.each(['fastify', 'express', 'hono'])('docs/embedding.md shows examples/embed/%s.mjs', (framework) => {
  it('its route table', () => {
    expect(section).toContain(`\`\`\`js\n${block(example(framework), 'const budgetRoutes = [', ']')}\n\`\`\``)
  })

  it('its buildApp, whole', () => {
    expect(section).toContain(`\`\`\`js\n${block(example(framework), 'export function buildApp(store) {', '}')}\n\`\`\``)
  })
})
