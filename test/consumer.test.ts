import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// test/consumer/ is a TypeScript user of the built package (strict, nodenext): it imports
// 'budget-rules' through package.json "exports" to dist/*.d.ts and dist/*.d.cts, so it needs
// `npm run build` first, as test/examples.test.ts does (`npm test` builds before the suite).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

describe('a TypeScript consumer of the package', () => {
  it('passes IncomingHttpHeaders and Fetch Headers, and reads reply.budget.name after `reply.status === 200`, builds a StoredBudget from plain strings and numbers (R-105), without a cast', () => {
    const run = spawnSync(process.execPath, [tsc, '-p', 'test/consumer', '--pretty', 'false'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8'
    })
    expect({ status: run.status, errors: run.stdout.split('\n').filter((line) => line !== '') }).toEqual({
      status: 0,
      errors: []
    })
  }, 180_000)
})
