/**
 * The OpenAPI document judged by Stoplight Prism, a validating proxy written elsewhere:
 * a conformance run of the reference server in test mode goes through Prism, which must
 * find no response violation in any reply; and a server that breaks the document is caught, so
 * the check can fail. (The server's end-to-end suite also runs through Prism:
 * test/server/api.test.ts.) Each scenario's state is seeded on the server itself: the test-only
 * hook is not part of the API, so not of the document.
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkConformance, formatDisagreement, type ReceivedReply } from '../../src/conformance'
import type { Scenario } from '../../src/arbitraries'
import { headerOf } from '../../src/http/headers'
import { listen, type Served } from '../../src/server/main'
import { runs } from '../runs'
import { seeded, stores } from '../server/harness'
import { type Prism, responseViolations, startPrism, type Violation, violationsOf } from './prism'

const CLOCK = () => new Date('2026-11-23T15:00:00Z')

/**
 * How deep a body's arrays and objects nest (brackets outside strings). Prism cannot take a body
 * nested about a thousand deep: after one, it resets every connection, so that the next request
 * gets no reply (a limit of Prism's JSON parsing, not of the server, which answers such a body
 * 400 like any body it cannot read).
 */
const PRISM_DEPTH = 100
const depthOf = (text: string | undefined): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < (text ?? '').length; i++) {
    const c = (text as string)[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth)
    else if (c === ']' || c === '}') depth--
  }
  return deepest
}
describe('a conformance run through a Prism proxy', () => {
  let drop: () => Promise<void>
  let server: Served
  let prism: Prism

  beforeAll(async () => {
    const { database, drop: dropIt } = await seeded(stores[0] as (typeof stores)[number])
    drop = dropIt
    server = await listen(database, { clock: CLOCK, conformance: true })
    prism = await startPrism(server.url)
  }, 90_000)

  afterAll(async () => {
    await prism.close()
    await server.close()
    await drop()
  }, 30_000)

  it(
    'sees no reply that breaks the document, across every status, and every reply is the library’s',
    async () => {
      const found: Array<{ readonly request: string; readonly status: number; readonly violations: ReadonlyArray<Violation> }> =
        []
      const requestSide = new Set<string>()
      const statuses = new Set<number>()
      let sent = 0
      let deep = 0
      const seed = async (scenario: Scenario) => {
        const seeding = await fetch(`${server.url}/__conformance/state`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ state: scenario.state, company_id: headerOf(scenario.request.headers, 'company-id') ?? null })
        })
        if (seeding.status !== 204) throw new Error(`seeding answered ${seeding.status}: ${await seeding.text()}`)
      }
      // Each scenario twice, from its state: through Prism, whose verdict on the reply is what
      // counts here; then straight to the server, whose reply the conformance kit compares with
      // the library's. Prism is no transparent pipe for hostile requests: it re-encodes a
      // malformed % escape (`id=%` arrives as `id=%25`), drops a `__proto__` parameter, and
      // answers a body it cannot parse as JSON itself (400 `{error: {code: "invalid_json"}}`).
      const send = async (scenario: Scenario): Promise<ReceivedReply> => {
        const { method, path, headers, body } = scenario.request
        const init = { method, headers, ...(body === undefined ? {} : { body }) }
        if (depthOf(body) > PRISM_DEPTH) {
          // Kept off Prism (see PRISM_DEPTH): the server alone.
          deep++
          await seed(scenario)
          const reply = await fetch(`${server.url}${path}`, init)
          return { status: reply.status, headers: Object.fromEntries(reply.headers), body: await reply.text() }
        }
        await seed(scenario)
        const proxied = await fetch(`${prism.url}${path}`, init)
        await proxied.arrayBuffer()
        sent++
        statuses.add(proxied.status)
        const response = responseViolations(proxied.headers)
        if (response.length > 0) found.push({ request: `${method} ${path}`, status: proxied.status, violations: response })
        // The request side: requests the scenarios mean to be invalid (no key, a body of the wrong type, ...).
        for (const v of violationsOf(proxied.headers)) if (v.location[0] === 'request') requestSide.add(v.message)
        await seed(scenario)
        const reply = await fetch(`${server.url}${path}`, init)
        return { status: reply.status, headers: Object.fromEntries(reply.headers), body: await reply.text() }
      }
      const result = await checkConformance({ send, numRuns: runs(500), seed: 20261126 })
      if (!result.ok) throw new Error(formatDisagreement(result))
      expect(found).toEqual([])
      // Every scenario was sent (shrinking none: there was no disagreement), a few of them to the server alone.
      expect(sent + deep).toBe(runs(500))
      expect(deep).toBeLessThan(runs(500) / 100)
      expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 409, 412, 416, 422])
      // Prism did read the requests: the invalid ones broke the request side.
      expect(requestSide.size).toBeGreaterThan(0)
    },
    runs(500) * 200
  )
})

describe('a server that breaks the document', () => {
  let upstream: Server
  let prism: Prism

  beforeAll(async () => {
    // GET /v1/budgets/{id} answering a budget without most of its fields, and a status the document does not list.
    const app = new Hono()
    app.get('/v1/budgets/:id', (c) =>
      c.req.param('id') === 'teapot' ? c.json({ error: 'teapot' }, 418) : c.json({ id: c.req.param('id') }, 200)
    )
    const url = await new Promise<string>((resolve) => {
      upstream = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        resolve(`http://127.0.0.1:${info.port}`)
      }) as Server
    })
    prism = await startPrism(url)
  }, 90_000)

  afterAll(async () => {
    await prism.close()
    await new Promise((resolve) => upstream.close(resolve))
  })

  it('is caught: Prism names the response violations', async () => {
    const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }
    const partial = await fetch(`${prism.url}/v1/budgets/b-1`, { headers })
    expect(partial.status).toBe(200)
    const missing = responseViolations(partial.headers).map((v) => v.message)
    expect(missing).toContain("Response body must have required property 'company_id'")
    expect(missing).toContain("Response body must have required property 'balance_cents'")
    const teapot = await fetch(`${prism.url}/v1/budgets/teapot`, { headers })
    expect(teapot.status).toBe(418)
    expect(responseViolations(teapot.headers).length).toBeGreaterThan(0)
  })
})
