import { mkdirSync, rmSync } from 'node:fs'
import { describe, it } from 'vitest'
import { outputs, prepare, verify } from './cases'
import { spawnCli, workspace } from './run'

// The CLI as a user runs it, in a directory holding the example files: exact output.
describe.concurrent('budget-rules (spawned): output', { timeout: 30_000 }, () => {
  it.for(outputs.map((c) => [c.name, c] as const))('%s', async ([, c], { onTestFinished }) => {
    const dir = workspace()
    onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true })
    })
    prepare(c, dir, (path) => mkdirSync(path, { recursive: true }))
    const at = (name: string) => name
    verify(c, await spawnCli(c.args(at), dir, { ...c.env }), dir, at)
  })
})
