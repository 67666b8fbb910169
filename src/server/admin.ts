/**
 * The admin console on the reference server: the react-admin app that scripts/admin.ts builds
 * (dist/admin/), served at `/admin/`. It talks to this same server through the API, with the
 * key typed in on its login page; the server only hands out its two files. They are read on
 * each request, so a rebuild shows without a restart; before the app is built, its paths are the
 * app's 404.
 *
 * @since 0.3.0
 */
import type { Env, Hono } from 'hono'
import { builtPageDir, pageFiles } from './built-page'

/** The app's files and their types: nothing else is served from the folder. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8'
}

/** Where the built app is: dist/admin/ beside the bundled CLI, or, run from source, at the package's root. */
export const defaultAdminDir = (): string => builtPageDir('admin')

/**
 * Adds the console's routes to `app`: GET `/admin/` gives the page (react-admin routes by the
 * URL's hash, so that is its only page), `/admin` redirects there, and `/admin/main.js` is its
 * script. `dir` is the built app (`defaultAdminDir()` unless told).
 */
export const adminRoutes = <E extends Env>(app: Hono<E>, dir: string = defaultAdminDir()): void => {
  const serveFile = pageFiles<E>(dir, FILES)
  app.get('/admin', (c) => c.redirect('/admin/', 301))
  app.get('/admin/', serveFile('index.html'))
  app.get('/admin/main.js', serveFile('main.js'))
}
