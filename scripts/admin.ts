/**
 * Builds the admin console (examples/admin/): main.tsx bundled with React, react-admin and the
 * library's source by esbuild, index.html beside it. `npx tsx scripts/admin.ts [outdir]` writes
 * dist/admin/ (or outdir); the reference server serves that folder at /admin/
 * (src/server/admin.ts).
 */
import { copyFileSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Where the console is written unless told otherwise, and where the reference server looks for it. */
export const ADMIN_OUT = fileURLToPath(new URL('../dist/admin/', import.meta.url))
const SOURCE = fileURLToPath(new URL('../examples/admin/', import.meta.url))

/** What a build wrote: the folder, the bundle's size in bytes, and how long it took. */
export interface AdminBuild {
  readonly outdir: string
  readonly bundleBytes: number
  readonly ms: number
}

/** Writes index.html and main.js (minified, React's production build; no source map, to keep the package small). */
export const buildAdmin = async (outdir: string = ADMIN_OUT): Promise<AdminBuild> => {
  const started = performance.now()
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints: [join(SOURCE, 'main.tsx')],
    outfile: join(outdir, 'main.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    mainFields: ['module', 'browser', 'main'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent'
  })
  copyFileSync(join(SOURCE, 'index.html'), join(outdir, 'index.html'))
  return { outdir, bundleBytes: statSync(join(outdir, 'main.js')).size, ms: Math.round(performance.now() - started) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildAdmin(process.argv[2] ?? ADMIN_OUT)
  console.log(`wrote ${built.outdir} (main.js ${(built.bundleBytes / 1024).toFixed(1)} KiB) in ${built.ms} ms`)
}
