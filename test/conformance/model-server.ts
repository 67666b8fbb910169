/**
 * A server over a loopback socket that answers as the kit's model does (src/conformance/model.ts):
 * the state route of docs/conformance.md (a state, or days passing), then each request decided by
 * the library on the state the earlier ones left, one at a time. Faults make it wrong in one
 * way each: `ignore-keys` forgets Idempotency-Keys (a retry runs again); `lose-replies` applies
 * every fifth money operation and then cuts its connection (its reply lost, its effect not).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ScenarioRequest, ScenarioState } from '../../src/arbitraries/scenario'
import { decideRequest, type ServerState } from '../../src/conformance/model'

export type Fault = 'ignore-keys' | 'lose-replies'

export interface ModelServer {
  readonly url: string
  /** How many requests (not seedings) it has answered or cut. */
  readonly requests: () => number
  readonly close: () => Promise<void>
}

const bodyOf = async (req: IncomingMessage): Promise<string | undefined> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8')
}

export const startModelServer = async (fault: Fault | null = null): Promise<ModelServer> => {
  let state: ServerState | null = null
  let requests = 0
  let money = 0
  // One request at a time, in arrival order, as one transaction after another.
  let queue = Promise.resolve()
  const server: Server = createServer((req, res) => {
    queue = queue.then(async () => {
      const body = await bodyOf(req)
      const path = req.url ?? '/'
      if (req.method === 'PUT' && path === '/__conformance/state') {
        const sent = JSON.parse(body ?? '{}') as { state?: ScenarioState; today?: string }
        if (sent.state !== undefined) state = { ...sent.state, kept: new Map() }
        else if (state !== null && sent.today !== undefined) state = { ...state, today: sent.today }
        res.writeHead(204).end()
        return
      }
      requests++
      if (state === null) {
        res.writeHead(404).end()
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !(fault === 'ignore-keys' && k === 'idempotency-key')) headers[k] = v
      const request: ScenarioRequest = { method: req.method as ScenarioRequest['method'], path, headers, body }
      const { reply, state: next } = decideRequest(state, request)
      state = next
      if (fault === 'lose-replies' && req.method === 'POST' && ++money % 5 === 0) {
        req.socket.destroy()
        return
      }
      res.writeHead(reply.status, { ...reply.headers, 'X-Request-Id': `r-${requests}` })
      res.end(reply.body === null ? undefined : JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
