/**
 * A page built into dist/ (the decision explorer, the admin console) as the server hands it out:
 * only the files named, each read on every request, so a rebuild shows without a restart; before
 * the page is built, its paths are the app's 404.
 *
 * @since 0.3.0
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context, Env } from 'hono'

/**
 * Where the page `name` is built: dist/<name>/ beside the bundled CLI (dist/cli.js), or, run from
 * source, dist/<name>/ at the package's root.
 */
export const builtPageDir = (name: string): string => {
  const candidates = [new URL(`./${name}/`, import.meta.url), new URL(`../../dist/${name}/`, import.meta.url)].map((u) =>
    fileURLToPath(u)
  )
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[1] as string)
}

/** A handler for each file of `types` (its name to its Content-Type) in `dir`; nothing else is served. */
export const pageFiles =
  <E extends Env>(dir: string, types: Readonly<Record<string, string>>) =>
  (file: string) =>
  async (c: Context<E>): Promise<Response> => {
    let content: Buffer
    try {
      content = await readFile(join(dir, file))
    } catch {
      // Not built (or removed since): the app's own 404.
      return c.notFound()
    }
    return c.body(new Uint8Array(content), 200, {
      'Content-Type': types[file] as string,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff'
    })
  }
