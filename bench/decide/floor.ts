/**
 * The floor of `npm run bench:decide`: what a user would write to serve the update
 * decision over HTTP, and no more. A plain `node:http` handler that reads the body, parses a
 * case, calls `respondBudgetUpdate` and writes its reply as JSON: no routing, no log line, no
 * metrics, no decision record, no checks of the request beyond what the facade makes.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { respondBudgetUpdate } from '../../src/index'
import type { BudgetContext } from '../../src/index'

/** Starts the floor on a free loopback port: its URL, and how to stop it. */
export const startFloor = async (): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      let json: string
      try {
        json = JSON.stringify(respondBudgetUpdate(JSON.parse(Buffer.concat(chunks).toString('utf8')) as BudgetContext))
      } catch {
        res.writeHead(400).end()
        return
      }
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) })
      res.end(json)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve()
      })
      server.closeAllConnections()
    })
  return { url: `http://127.0.0.1:${port}`, close }
}
