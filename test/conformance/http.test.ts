import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Scenario, ScenarioState } from '../../src/arbitraries'
import { checkConformance, expectedReply, httpSender } from '../../src/conformance'

/**
 * A server over a loopback socket that follows the seeding protocol of docs/conformance.md and
 * answers each request as the library does for the state it was last given.
 */
const readBody = async (req: IncomingMessage): Promise<string | undefined> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8')
}

const endpointOf = (method: string, path: string): Scenario['endpoint'] | undefined =>
  method === 'PATCH' && path === '/v1/budgets/b-1'
    ? 'budget.update'
    : method === 'POST' && path === '/v1/budgets/b-1/top_up'
      ? 'budget.top_up'
      : method === 'POST' && path === '/v1/budgets/b-1/withdraw'
        ? 'budget.withdraw'
        : method === 'PATCH' && path === '/v1/budgets/b-1/amount'
          ? 'budget.amount'
          : method === 'GET' && path === '/v1/banking/bank_transactions'
            ? 'index.bank_transactions'
            : undefined

let server: Server
let base: string
let seeded: Array<{ state: ScenarioState; company_id: string | null }> = []
let refuseSeeding = false

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      const url = req.url ?? '/'
      const path = url.split('?')[0] ?? ''
      if (req.method === 'PUT' && path === '/__conformance/state') {
        if (refuseSeeding) res.writeHead(404).end('no hook')
        else {
          seeded.push(JSON.parse(body ?? '') as (typeof seeded)[number])
          res.writeHead(204).end()
        }
        return
      }
      const endpoint = endpointOf(req.method ?? '', path)
      const last = seeded[seeded.length - 1]
      if (endpoint === undefined || last === undefined) {
        res.writeHead(404).end()
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
      const reply = expectedReply({
        endpoint,
        state: last.state,
        request: { method: req.method as 'GET', path: url, headers, body }
      })
      res.writeHead(reply.status, { ...reply.headers, 'X-Request-Id': 'srv' })
      res.end(reply.body === null ? undefined : JSON.stringify(reply.body))
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('httpSender', () => {
  it('seeds the state with the company-id of each request, then sends it: a server that follows the rules passes', async () => {
    seeded = []
    refuseSeeding = false
    expect(await checkConformance({ send: httpSender(base), numRuns: 60, seed: 31 })).toStrictEqual({ ok: true, runs: 60 })
    expect(seeded).toHaveLength(60)
    expect(seeded.filter((s) => s.company_id === 'c-1').length).toBeGreaterThan(40)
    expect(seeded.some((s) => s.company_id === null)).toBe(true)
  })

  it('reports a server without the hook: the seeding PUT must answer 204', async () => {
    refuseSeeding = true
    const result = await checkConformance({ send: httpSender(base), numRuns: 5, seed: 1 })
    refuseSeeding = false
    expect(result).toMatchObject({
      ok: false,
      kind: 'transport',
      runs: 1,
      previous: null,
      error: `seeding: PUT ${base.slice(0, -1)}/__conformance/state answered 404, not 204: no hook`
    })
  })
})
