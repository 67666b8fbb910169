import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// These run the built package as a user imports it (`npm test` builds before the suite).
const run = (file: string) => execFileSync(process.execPath, [file], { encoding: 'utf8', cwd: new URL('..', import.meta.url) })

describe('examples', () => {
  it('docs/client.md shows examples/client.mjs exactly', () => {
    const guide = readFileSync(new URL('../docs/client.md', import.meta.url), 'utf8')
    const code = readFileSync(new URL('../examples/client.mjs', import.meta.url), 'utf8')
    expect(guide).toContain(`\`\`\`js\n${code}\`\`\``)
  })

  it('the client walk-through runs as written and prints what the service would answer', () => {
    expect(run('examples/client.mjs').trim().split('\n')).toEqual([
      'GET ?_start=0&_end=100&_order=desc&status=authorized -> 200, Content-Range 0-99/172',
      'GET ?_start=100&_end=200&_order=desc&status=authorized -> 200, Content-Range 100-171/172',
      'read 172 authorized transactions',
      '416 range_not_satisfiable: Requested page size 5000 exceeds maximum of 2000 (request req-demo)',
      'GET 503: retry in 500 ms',
      'POST 503: do not retry',
      'POST 429: retry in 2000 ms'
    ])
  })

  it('the demo (npm run demo) decides its seven requests', () => {
    const out = run('examples/demo.mjs')
    expect([...out.matchAll(/^ {3}-> (\d{3}) /gm)].map((m) => m[1])).toEqual(['200', '200', '403', '401', '200', '412', '422'])
  })
})
