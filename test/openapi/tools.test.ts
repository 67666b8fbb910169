/**
 * The OpenAPI document as the tools around it read it: Redocly's CLI lints it (its
 * recommended rules, no error and no warning) as docs/openapi.json (which
 * test/openapi/generated.test.ts holds to what `npm run docs` writes) and as the server serves it,
 * and the reference server's routes are the document's operations, no more and no fewer.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument, operations } from '../../src/openapi'
import { buildApp } from '../../src/server/app'
import { requestLogger } from '../../src/server/log'
import { servedDocument } from '../../src/server/openapi'
import type { Database } from '../../src/store/database'
import { OPENAPI_DOC } from '../../scripts/openapi'
import { seeded, stores } from '../server/harness'
import { lint } from './redocly'

describe('Redocly', () => {
  it('lints docs/openapi.json clean: no error, no warning', () => {
    expect(lint(JSON.parse(readFileSync(OPENAPI_DOC, 'utf8')))).toEqual({
      status: 0,
      totals: { errors: 0, warnings: 0, ignored: 0 },
      problems: []
    })
  }, 60_000)

  it('lints the document the reference server serves clean, examples and all', () => {
    expect(lint(servedDocument('http://127.0.0.1:3000'))).toEqual({
      status: 0,
      totals: { errors: 0, warnings: 0, ignored: 0 },
      problems: []
    })
  }, 60_000)

  it('names what is wrong in a document that breaks its rules (the check can fail)', () => {
    const doc = openApiDocument() // no servers, and an operation with no responses
    const broken = { ...doc, paths: { ...doc.paths, '/v1/nothing': { get: { operationId: 'nothing', responses: {} } } } }
    const verdict = lint(broken)
    expect(verdict.status).toBe(1)
    expect(verdict.problems).toContain('no-empty-servers: Servers must be present.')
  }, 60_000)
})

describe('the reference server', () => {
  let database: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ database, drop } = await seeded(stores[0] as (typeof stores)[number]))
  }, 60_000)
  afterAll(async () => {
    await drop()
  })

  it('serves exactly the operations of the document under /v1', () => {
    const app = buildApp({
      database,
      clock: () => new Date(0),
      rateLimitPerMinute: 1,
      idempotencyTtlHours: 1,
      bodyLimitBytes: 1,
      report: () => undefined,
      logger: requestLogger('silent'),
      decisionLog: true
    })
    const served = app.routes
      .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`)
    expect([...new Set(served)].sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort())
  })
})
