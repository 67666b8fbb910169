/**
 * `npm start` rebuilds a part of dist/ only when its sources changed (scripts/build.mjs): each
 * part's sources must hold every file of the project that its build reads, or an edit would be
 * served stale. What the build reads is what esbuild reports (its metafile), the dependencies
 * left out (package-lock.json stands for them). And right after `npm run build` (`npm test`
 * builds first), nothing is stale.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { buildAdmin } from '../../scripts/admin'
import { PARTS } from '../../scripts/build.mjs'
import { buildExplorer } from '../../scripts/explorer'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'build-sources-'))

/** The inputs of the project (not of its dependencies) that a part's sources do not hold. */
const outside = (part: keyof typeof PARTS, inputs: ReadonlyArray<string>) =>
  inputs
    .map((input) => relative(ROOT, resolve(ROOT, input)))
    .filter((input) => !input.startsWith(`node_modules${sep}`))
    .filter((input) => !PARTS[part].sources.some((source) => input === source || input.startsWith(`${source}${sep}`)))

describe('what npm start rebuilds (scripts/build.mjs)', { timeout: 60_000 }, () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('names every file the bin’s bundle reads among its sources', async () => {
    const { metafile } = await build({
      entryPoints: [join(ROOT, 'src/cli/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent'
    })
    const inputs = Object.keys(metafile.inputs)
    expect(inputs.length).toBeGreaterThan(100)
    expect(outside('cli', inputs)).toEqual([])
  })

  it('names every file the explorer’s build reads among its sources', async () => {
    const { inputs } = await buildExplorer(join(dir, 'explorer'))
    expect(inputs).toEqual(
      expect.arrayContaining([join(ROOT, 'explorer', 'style.css'), join(ROOT, 'docs', 'decisions', '0005-budget-rights.md')])
    )
    expect(outside('explorer', inputs)).toEqual([])
  })

  it('names every file the admin console’s build reads among its sources', async () => {
    const { inputs } = await buildAdmin(join(dir, 'admin'))
    expect(inputs).toEqual(expect.arrayContaining(['examples/admin/main.tsx', 'src/react-admin/request.ts']))
    expect(outside('admin', inputs)).toEqual([])
  })

  it('finds nothing to build right after the build', () => {
    const run = spawnSync(process.execPath, ['scripts/build.mjs', '--changed'], { cwd: ROOT, encoding: 'utf8' })
    expect({ status: run.status, out: run.stdout, err: run.stderr }).toEqual({ status: 0, out: '', err: '' })
  })
})
