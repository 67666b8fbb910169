/**
 * The admin console on the reference server: the react-admin app that scripts/admin.ts builds
 * (dist/admin/), served at `/admin/`. It talks to this same server through the API, with the
 * key typed in on its login page; the server only hands out its two files. They are read on
 * each request, so a rebuild shows without a restart; before the app is built, its paths are the
 * app's 404.
 *
 * @since 0.3.0
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context, Env, Hono } from 'hono'

/** The app's files and their types: nothing else is served from the folder. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8'
}

/** Where the built app is: dist/admin/ beside the bundled CLI (dist/cli.js), or, run from source, at the package's root. */
export const defaultAdminDir = (): string => {
  const candidates = [new URL('./admin/', import.meta.url), new URL('../../dist/admin/', import.meta.url)].map((u) =>
    fileURLToPath(u)
  )
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[1] as string)
}

/**
 * Adds the console's routes to `app`: GET `/admin/` gives the page (react-admin routes by the
 * URL's hash, so that is its only page), `/admin` redirects there, and `/admin/main.js` is its
 * script. `dir` is the built app (`defaultAdminDir()` unless told).
 */
export const adminRoutes = <E extends Env>(app: Hono<E>, dir: string = defaultAdminDir()): void => {
  const serveFile =
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
        'Content-Type': FILES[file] as string,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff'
      })
    }
  app.get('/admin', (c) => c.redirect('/admin/', 301))
  app.get('/admin/', serveFile('index.html'))
  app.get('/admin/main.js', serveFile('main.js'))
}
