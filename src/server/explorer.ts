/**
 * The decision explorer on the reference server: the static page that scripts/explorer.ts
 * builds (dist/explorer/), served at `/` and under `/explorer/`. The page runs the library in
 * the browser; the server only hands out its files. They are read on each request, so a
 * rebuild shows without a restart; before the page is built, its paths are the app's 404.
 *
 * @since 0.2.0
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context, Env, Hono } from 'hono'

/** The page's files and their types: nothing else is served from the folder. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8'
}

/**
 * Where the built page is: dist/explorer/ beside the bundled CLI (dist/cli.js), or, run from
 * source, dist/explorer/ at the package's root.
 */
export const defaultExplorerDir = (): string => {
  const candidates = [new URL('./explorer/', import.meta.url), new URL('../../dist/explorer/', import.meta.url)].map((u) =>
    fileURLToPath(u)
  )
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[1] as string)
}

/**
 * Adds the explorer's routes to `app`: GET `/` and `/explorer/` give the page, `/explorer`
 * redirects to `/explorer/`, and the page's files are served beside either (`/main.js`,
 * `/explorer/main.js`, ...), so its relative links work from both. `dir` is the built page
 * (`defaultExplorerDir()` unless told).
 */
export const explorerRoutes = <E extends Env>(app: Hono<E>, dir: string = defaultExplorerDir()): void => {
  const serveFile =
    (file: string) =>
    async (c: Context<E>): Promise<Response> => {
      const type = FILES[file] as string
      let content: Buffer
      try {
        content = await readFile(join(dir, file))
      } catch {
        // Not built (or removed since): the app's own 404.
        return c.notFound()
      }
      return c.body(new Uint8Array(content), 200, {
        'Content-Type': type,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff'
      })
    }
  app.get('/', serveFile('index.html'))
  app.get('/explorer', (c) => c.redirect('/explorer/', 301))
  app.get('/explorer/', serveFile('index.html'))
  for (const file of Object.keys(FILES)) {
    app.get(`/${file}`, serveFile(file))
    app.get(`/explorer/${file}`, serveFile(file))
  }
}
