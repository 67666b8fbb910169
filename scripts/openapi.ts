/**
 * Writes docs/openapi.json, the API's OpenAPI 3.1 document (`budget-rules/openapi`, R-100), naming
 * the reference server where `npm start` serves it, and docs/decide.openapi.json, the decision
 * service's: `npm run docs` writes them;
 * test/openapi/generated.test.ts fails when it is stale; test/openapi/tools.test.ts lints it with Redocly.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { decisionServiceDocument } from '../src/server/decide/openapi'
import { openApiDocument } from '../src/openapi'

export const OPENAPI_DOC = fileURLToPath(new URL('../docs/openapi.json', import.meta.url))

/** The file's text: the document, two spaces, a final newline. */
export const renderOpenApiDoc = (): string =>
  `${JSON.stringify(openApiDocument({ serverUrl: 'http://127.0.0.1:3000' }), null, 2)}\n`

export const DECIDE_OPENAPI_DOC = fileURLToPath(new URL('../docs/decide.openapi.json', import.meta.url))

/** The decision service's document as its file holds it. */
export const renderDecideOpenApiDoc = (): string => `${JSON.stringify(decisionServiceDocument, null, 2)}\n`

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, next] of [
    [OPENAPI_DOC, renderOpenApiDoc()],
    [DECIDE_OPENAPI_DOC, renderDecideOpenApiDoc()]
  ] as const) {
    const stale = (() => {
      try {
        return readFileSync(file, 'utf8') !== next
      } catch {
        return true
      }
    })()
    if (stale) writeFileSync(file, next)
    console.log(stale ? `wrote ${file}` : `${file} is up to date`)
  }
}
