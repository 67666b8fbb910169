/**
 * The API's description on the reference server (R-100): `GET /openapi.json`, the document of
 * `budget-rules/openapi` with this server's URL and the demo data as examples, and `GET /docs`,
 * an API reference page rendered from it by Swagger UI, whose files are served from the
 * `swagger-ui-dist` package (no CDN). Without that package installed, `/docs` is the app's 404.
 *
 * @since 0.3.0
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Context, Env, Hono } from 'hono'
import { openApiDocument, type OpenApiDocument } from '../openapi'
import { ACME, demoKeys } from '../store/seed'

/** Swagger UI's files the page loads, and their types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8'
}

/** The page: Swagger UI over /openapi.json, signed in with the first demo key, and a link to the explorer. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>budget-rules: API reference</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <style>
      body { margin: 0; font-family: system-ui, sans-serif; }
      nav { padding: 0.5rem 1rem; background: #1b1b1b; color: #fff; }
      nav a { color: #9cf; }
    </style>
  </head>
  <body>
    <nav>API reference, generated from the rules · <a href="/">Decision explorer</a> · <a href="/openapi.json">openapi.json</a></nav>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/swagger-ui-standalone-preset.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  onComplete: () => window.ui.preauthorizeApiKey('bearer', ${JSON.stringify(Object.keys(demoKeys)[0])})
})
`

/**
 * The document as this server serves it: its URL, and the demo data in the examples (ADR 0112):
 * `company-id` of the demo company, and the demo keys named in the security scheme.
 */
export const servedDocument = (serverUrl: string): OpenApiDocument => {
  const doc = openApiDocument({ serverUrl })
  const components = doc.components as {
    parameters: Record<string, Record<string, unknown>>
    securitySchemes: Record<string, Record<string, unknown>>
  }
  const companyId = components.parameters['company-id'] as Record<string, unknown>
  companyId['example'] = ACME
  const bearer = components.securitySchemes['bearer'] as Record<string, unknown>
  bearer['description'] = `${String(bearer['description'])} The demo keys of the reference server: ${Object.keys(demoKeys)
    .map((k) => `\`${k}\``)
    .join(', ')}.`
  return doc
}

/** Where swagger-ui-dist is installed, or null. */
const swaggerUiDir = (): string | null => {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  } catch {
    return null
  }
}

/**
 * Adds `GET /openapi.json` and the `/docs` page to `app`.
 */
export const openApiRoutes = <E extends Env>(app: Hono<E>): void => {
  const documents = new Map<string, string>()
  app.get('/openapi.json', (c) => {
    const origin = new URL(c.req.url).origin
    let text = documents.get(origin)
    if (text === undefined) {
      text = JSON.stringify(servedDocument(origin), null, 2)
      // One per origin the server is reached at: a handful, not one per request.
      if (documents.size < 16) documents.set(origin, text)
    }
    return c.body(text, 200, { 'Content-Type': 'application/json; charset=utf-8' })
  })
  const dir = swaggerUiDir()
  if (dir === null) return
  const html = { 'Content-Type': 'text/html; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }
  app.get('/docs', (c) => c.body(PAGE, 200, html))
  app.get('/docs/', (c) => c.redirect('/docs', 301))
  app.get('/docs/init.js', (c) =>
    c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
  )
  for (const [file, type] of Object.entries(ASSETS))
    app.get(`/docs/${file}`, async (c: Context<E>) =>
      c.body(new Uint8Array(await readFile(join(dir, file))), 200, {
        'Content-Type': type,
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff'
      })
    )
}
