import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { errors, outputs, prepare, verify } from './cases'
import { runCli, workspace } from './run'

// The same cases through `run` in this process (files named by absolute paths): what the
// spawned tests check, counted for coverage.
describe('budget-rules (in-process)', () => {
  it.for([...outputs, ...errors].map((c) => [c.name, c] as const))('%s', async ([, c], { onTestFinished }) => {
    const dir = workspace()
    onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true })
    })
    prepare(c, dir, (path) => mkdirSync(path, { recursive: true }))
    const at = (name: string) => join(dir, name)
    verify(c, await runCli(c.args(at), { ...c.env }), dir, at)
  })
})
