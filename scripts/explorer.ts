/**
 * Builds the decision explorer, a static page that runs the library in the browser: explorer/
 * main.ts bundled with the library's source by esbuild, with explorer/index.html and
 * explorer/style.css beside it. The decision records the rules cite (docs/decisions/*.md) are
 * read here, at build time, and embedded in the bundle by file name, so the page needs no
 * server. `npx tsx scripts/explorer.ts [outdir]` writes dist/explorer/ (or outdir); the
 * reference server serves that folder at `/` (src/server/explorer.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rules } from '../src/rules'
import { buildPage, builtLine, type PageBuild } from './page'

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

/** Writes the page to `outdir`: index.html, style.css and main.js; the records it embeds are among its inputs. */
export const buildExplorer = async (outdir: string = EXPLORER_OUT): Promise<PageBuild> => {
  const records = decisionRecords()
  const built = await buildPage({
    source: SOURCE,
    entry: 'main.ts',
    copied: ['index.html', 'style.css'],
    outdir,
    // A JSON literal: the records travel in the bundle, read once at build time.
    options: { define: { DECISION_RECORDS: JSON.stringify(records) } }
  })
  return { ...built, inputs: [...built.inputs, ...Object.keys(records).map((file) => join(DECISIONS, file))] }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(builtLine(await buildExplorer(process.argv[2] ?? EXPLORER_OUT)))
