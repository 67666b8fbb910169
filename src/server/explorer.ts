/**
 * The decision explorer on the reference server: the static page that scripts/explorer.ts
 * builds (dist/explorer/), served at `/` and under `/explorer/`. The page runs the library in
 * the browser; the server only hands out its files. They are read on each request, so a
 * rebuild shows without a restart; before the page is built, its paths are the app's 404.
 *
 * @since 0.2.0
 */
import type { Env, Hono } from 'hono'
import { builtPageDir, pageFiles } from './built-page'

/** The page's files and their types: nothing else is served from the folder. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8'
}

/** Where the built page is: dist/explorer/ beside the bundled CLI, or, run from source, at the package's root. */
export const defaultExplorerDir = (): string => builtPageDir('explorer')

/**
 * Adds the explorer's routes to `app`: GET `/` and `/explorer/` give the page, `/explorer`
 * redirects to `/explorer/`, and the page's files are served beside either (`/main.js`,
 * `/explorer/main.js`, ...), so its relative links work from both. `dir` is the built page
 * (`defaultExplorerDir()` unless told).
 */
export const explorerRoutes = <E extends Env>(app: Hono<E>, dir: string = defaultExplorerDir()): void => {
  const serveFile = pageFiles<E>(dir, FILES)
  app.get('/', serveFile('index.html'))
  app.get('/explorer', (c) => c.redirect('/explorer/', 301))
  app.get('/explorer/', serveFile('index.html'))
  for (const file of Object.keys(FILES)) {
    app.get(`/${file}`, serveFile(file))
    app.get(`/explorer/${file}`, serveFile(file))
  }
}
