import { mkdirSync, rmSync } from 'node:fs'
import { describe, it } from 'vitest'
import { errors, prepare, verify } from './cases'
import { spawnCli, workspace } from './run'

// Each helpful error as a user meets it: one line on stderr, exit 1 (2 for usage), no stack trace.
describe.concurrent('budget-rules (spawned): errors', { timeout: 30_000 }, () => {
  it.for(errors.map((c) => [c.name, c] as const))('%s', async ([, c], { onTestFinished }) => {
    const dir = workspace()
    onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true })
    })
    prepare(c, dir, (path) => mkdirSync(path, { recursive: true }))
    const at = (name: string) => name
    verify(c, await spawnCli(c.args(at), dir, { ...c.env }), dir, at)
  })
})
