/**
 * Writes docs/openapi.json, the API's OpenAPI 3.1 document (`budget-rules/openapi`, R-100), naming
 * the reference server where `npm start` serves it: `npm run docs` writes it;
 * test/openapi/generated.test.ts fails when it is stale; test/openapi/tools.test.ts lints it with Redocly.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openApiDocument } from '../src/openapi'

export const OPENAPI_DOC = fileURLToPath(new URL('../docs/openapi.json', import.meta.url))

/** The file's text: the document, two spaces, a final newline. */
export const renderOpenApiDoc = (): string =>
  `${JSON.stringify(openApiDocument({ serverUrl: 'http://127.0.0.1:3000' }), null, 2)}\n`

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const next = renderOpenApiDoc()
  const stale = (() => {
    try {
      return readFileSync(OPENAPI_DOC, 'utf8') !== next
    } catch {
      return true
    }
  })()
  if (stale) writeFileSync(OPENAPI_DOC, next)
  console.log(stale ? `wrote ${OPENAPI_DOC}` : `${OPENAPI_DOC} is up to date`)
}
