/**
 * docs/openapi.json is what the rules generate: the file Redocly lints and a reader browses
 * (test/openapi/tools.test.ts) is the document `openApiDocument` gives now, byte for byte. No tool
 * or server is started here, so Stryker runs it: a mutant that changes any part of the document
 * is caught by the file's reviewed text.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DECIDE_OPENAPI_DOC, OPENAPI_DOC, renderDecideOpenApiDoc, renderOpenApiDoc } from '../../scripts/openapi'

describe('docs/openapi.json', () => {
  it('is what the rules generate (run `npm run docs` after changing a rule, an endpoint or the model)', () => {
    expect(readFileSync(OPENAPI_DOC, 'utf8')).toBe(renderOpenApiDoc())
  })
})

describe('docs/decide.openapi.json', () => {
  it("is the decision service's document (run `npm run docs` after changing it)", () => {
    expect(readFileSync(DECIDE_OPENAPI_DOC, 'utf8')).toBe(renderDecideOpenApiDoc())
  })
})
