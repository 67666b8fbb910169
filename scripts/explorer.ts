/**
 * Builds the decision explorer, a static page that runs the library in the browser: explorer/
 * main.ts bundled with the library's source by esbuild, with explorer/index.html and
 * explorer/style.css beside it. The decision records the rules cite (docs/decisions/*.md) are
 * read here, at build time, and embedded in the bundle by file name, so the page needs no
 * server. `npx tsx scripts/explorer.ts [outdir]` writes dist/explorer/ (or outdir); the
 * reference server serves that folder at `/` (src/server/explorer.ts).
 */
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { rules } from '../src/rules'

/** Where the page is written unless told otherwise, and where the reference server looks for it. */
export const EXPLORER_OUT = fileURLToPath(new URL('../dist/explorer/', import.meta.url))
const SOURCE = fileURLToPath(new URL('../explorer/', import.meta.url))
const DECISIONS = fileURLToPath(new URL('../docs/decisions/', import.meta.url))

/** A decision record as the page shows it: its heading, and the rest of its text. */
export interface DecisionRecord {
  readonly title: string
  readonly text: string
}

/** The records the rules catalogue cites, by file name; a record without a `# ` heading is an error. */
export const decisionRecords = (): Record<string, DecisionRecord> => {
  const files = [...new Set(Object.values(rules).map((r) => r.decision))].sort()
  return Object.fromEntries(
    files.map((file) => {
      const markdown = readFileSync(join(DECISIONS, file), 'utf8')
      const heading = /^# (.+)\n/.exec(markdown)
      if (heading === null) throw new Error(`docs/decisions/${file} does not start with a "# " heading`)
      return [file, { title: heading[1] as string, text: markdown.slice(heading[0].length).trim() }]
    })
  )
}

/** What a build wrote: the files, the bundle's size in bytes, and how long it took. */
export interface ExplorerBuild {
  readonly outdir: string
  readonly files: ReadonlyArray<string>
  readonly bundleBytes: number
  readonly ms: number
}

/** Writes the page to `outdir`: index.html, style.css and main.js (minified; no source map, to keep the package small). */
export const buildExplorer = async (outdir: string = EXPLORER_OUT): Promise<ExplorerBuild> => {
  const started = performance.now()
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints: [join(SOURCE, 'main.ts')],
    outfile: join(outdir, 'main.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // A JSON literal: the records travel in the bundle, read once at build time.
    define: { DECISION_RECORDS: JSON.stringify(decisionRecords()) },
    logLevel: 'silent'
  })
  for (const file of ['index.html', 'style.css']) copyFileSync(join(SOURCE, file), join(outdir, file))
  return {
    outdir,
    files: ['index.html', 'style.css', 'main.js'],
    bundleBytes: statSync(join(outdir, 'main.js')).size,
    ms: Math.round(performance.now() - started)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildExplorer(process.argv[2] ?? EXPLORER_OUT)
  console.log(`wrote ${built.outdir} (main.js ${(built.bundleBytes / 1024).toFixed(1)} KiB) in ${built.ms} ms`)
}
