/**
 * Builds the admin console (examples/admin/): main.tsx bundled with React, react-admin and the
 * library's source by esbuild, index.html beside it. `npx tsx scripts/admin.ts [outdir]` writes
 * dist/admin/ (or outdir); the reference server serves that folder at /admin/
 * (src/server/admin.ts).
 */
import { fileURLToPath } from 'node:url'
import type { BuildOptions } from 'esbuild'
import { buildPage, builtLine, type PageBuild } from './page'

/** Where the console is written unless told otherwise, and where the reference server looks for it. */
export const ADMIN_OUT = fileURLToPath(new URL('../dist/admin/', import.meta.url))
const SOURCE = fileURLToPath(new URL('../examples/admin/', import.meta.url))

/** How a React page is bundled: JSX, browser builds of the packages, React's production build. */
export const REACT_PAGE: BuildOptions = {
  jsx: 'automatic',
  mainFields: ['module', 'browser', 'main'],
  define: { 'process.env.NODE_ENV': '"production"' }
}

/** Writes index.html and main.js. */
export const buildAdmin = (outdir: string = ADMIN_OUT): Promise<PageBuild> =>
  buildPage({ source: SOURCE, entry: 'main.tsx', copied: ['index.html'], outdir, options: REACT_PAGE })

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(builtLine(await buildAdmin(process.argv[2] ?? ADMIN_OUT)))
