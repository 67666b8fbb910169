/**
 * Builds a static page that runs in the browser (the decision explorer, the admin console): its
 * entry bundled and minified by esbuild into `outdir/main.js` (no source map, to keep the
 * package small), and its other files copied beside it.
 */
import { copyFileSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { build, type BuildOptions } from 'esbuild'

/** What a build wrote: the folder, the bundle's size in bytes, how long it took, and the files esbuild read for it. */
export interface PageBuild {
  readonly outdir: string
  readonly bundleBytes: number
  readonly ms: number
  readonly inputs: ReadonlyArray<string>
}

/** Bundles `source/entry` into `outdir/main.js` with `options` added, and copies `copied` from `source`. */
export const buildPage = async (page: {
  readonly source: string
  readonly entry: string
  readonly copied: ReadonlyArray<string>
  readonly outdir: string
  readonly options?: BuildOptions
}): Promise<PageBuild> => {
  const started = performance.now()
  mkdirSync(page.outdir, { recursive: true })
  const { metafile } = await build({
    entryPoints: [join(page.source, page.entry)],
    outfile: join(page.outdir, 'main.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    ...page.options,
    metafile: true
  })
  for (const file of page.copied) copyFileSync(join(page.source, file), join(page.outdir, file))
  return {
    outdir: page.outdir,
    bundleBytes: statSync(join(page.outdir, 'main.js')).size,
    ms: Math.round(performance.now() - started),
    // Files only: a `define` shows as an input of its own, `<define:NAME>`.
    inputs: [
      ...Object.keys(metafile.inputs).filter((input) => !input.startsWith('<')),
      ...page.copied.map((file) => join(page.source, file))
    ]
  }
}

/** The line a build prints. */
export const builtLine = (built: PageBuild): string =>
  `wrote ${built.outdir} (main.js ${(built.bundleBytes / 1024).toFixed(1)} KiB) in ${built.ms} ms`
