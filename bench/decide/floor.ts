/**
 * The floors of `npm run bench:decide`: what a user would write to serve the update
 * decision over HTTP, and no more. A plain `node:http` handler that reads the body, parses a
 * case, answers it and writes the answer as JSON: no routing, no log line, no metrics, no checks
 * of the request beyond what the library makes.
 *
 * - `reply`, the floor of R-132: the case handed to `respondBudgetUpdate`, its reply written;
 * - `answer`, the floor with its record: the case handed to `answerCase`, the answer R-130 asks
 *   of the service written whole (reply, budget, decision record). The least a service that
 *   answers as R-130 does could cost, whatever its log and metrics: the bench reports it beside
 *   the first goals, as the bound of what the service can reach with its records;
 * - `batch`, the same for a batch: `{ cases }` answered `{ answers }`, every case by `answerCase`
 *   at one instant.
 */
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerCase } from '../../src/decisions'
import { respondBudgetUpdate } from '../../src/index'
import type { BudgetContext } from '../../src/index'
import { keyHash, keyIdOf } from '../../src/store/keys'

/** What a floor answers a case with. */
export type FloorKind = 'reply' | 'answer' | 'batch'

/** A key's id as the service names it, with Node's digest. */
const keyId = (key: string): string => keyIdOf(keyHash(key))

/** The whole answer to a case, with its record, as the service's. */
const answerOf = (json: unknown, at: string, request_id: string): unknown => {
  const answered = answerCase(json, { at, request_id, keyId })
  if (answered._tag === 'Left') throw new Error(answered.left)
  return answered.right
}

const answers: Readonly<Record<FloorKind, (json: unknown) => unknown>> = {
  reply: (json) => respondBudgetUpdate(json as BudgetContext),
  answer: (json) => answerOf(json, new Date().toISOString(), randomUUID()),
  batch: (json) => {
    const at = new Date().toISOString()
    const id = randomUUID()
    return { answers: (json as { readonly cases: ReadonlyArray<unknown> }).cases.map((c, i) => answerOf(c, at, `${id}.${i}`)) }
  }
}

/** Starts a floor on a free loopback port: its URL, and how to stop it. */
export const startFloor = async (kind: FloorKind): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const answer = answers[kind]
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      let json: string
      try {
        json = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
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
