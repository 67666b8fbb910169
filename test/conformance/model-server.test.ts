/**
 * The kit's sequences and histories over HTTP against a server that answers as its model does
 * (./model-server.ts), quickly and without a database: the model agrees with itself over the
 * wire; a server that forgets Idempotency-Keys is caught by both; one that loses replies (their
 * effect kept) leaves operations unknown, sent again and settled, and still passes; a server
 * without the state route is reported as such.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { checkHistories, checkSequences, formatHistory, formatSequences } from '../../src/conformance'
import { freePort } from '../free-port'
import { startModelServer } from './model-server'

describe('checkSequences against the model over HTTP', () => {
  it('agrees, every request sent and answered', async () => {
    const server = await startModelServer()
    try {
      const result = await checkSequences({ url: `${server.url}/`, numRuns: 50, seed: 3 })
      expect(result).toStrictEqual({ ok: true, runs: 50, requests: server.requests() })
      expect(server.requests()).toBeGreaterThan(400)
      expect(formatSequences(result)).toBe(`50 sequences (${server.requests()} requests), 0 disagreements`)
    } finally {
      await server.close()
    }
  })

  it('catches a server that forgets Idempotency-Keys: the retry runs again', async () => {
    const server = await startModelServer('ignore-keys')
    try {
      const result = await checkSequences({ url: server.url, seed: 3 })
      if (result.ok || result.kind !== 'disagreement') throw new Error('not caught')
      const last = result.steps.at(-1)
      expect(last?.step.kind === 'request' && 'Idempotency-Key' in last.step.request.headers).toBe(true)
      expect(result.differences).toContainEqual(expect.objectContaining({ name: 'Idempotent-Replayed' }))
      expect(result.steps.length).toBeLessThanOrEqual(3)
    } finally {
      await server.close()
    }
  })

  it('a server without the state route: a transport failure at the first seeding, no sequence run', async () => {
    const hookless = createServer((req, res) => {
      req.resume()
      req.on('end', () => res.writeHead(404).end('no hook'))
    })
    await new Promise<void>((resolve) => hookless.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(hookless.address() as AddressInfo).port}`
    try {
      const result = await checkSequences({ url, numRuns: 3, seed: 1 })
      expect(result).toMatchObject({
        ok: false,
        kind: 'transport',
        runs: 1,
        steps: [],
        error: `PUT ${url}/__conformance/state answered 404, not 204: no hook`
      })
    } finally {
      await new Promise((resolve) => hookless.close(resolve))
    }
  })
})

describe('checkHistories against the model over HTTP', () => {
  it('passes over two URLs of one server: retries replayed, none unknown', async () => {
    const server = await startModelServer()
    try {
      const result = await checkHistories({ urls: [server.url, `${server.url}/`], clients: 4, operations: 60, seed: 5 })
      if (!result.ok) throw new Error(formatHistory(result))
      expect(result.stats).toMatchObject({ unknown: 0, refused: 0 })
      expect(result.stats.replayed).toBe(result.stats.retries)
      expect(result.stats.retries).toBeGreaterThan(3)
      // 60 planned, the retries, and the kit's last read.
      expect(result.stats.operations).toBe(60 + result.stats.retries + 1)
      expect(result.history.operations.at(-1)).toMatchObject({ client: 4, kind: 'read', reply: { status: 200 } })
      expect(new Set(result.history.operations.map((o) => o.url))).toEqual(new Set([server.url]))
      // Each client's operations one after another; the keys its own.
      for (let c = 0; c < 4; c++) {
        const own = result.history.operations.filter((o) => o.client === c && o.key !== null)
        expect(own.every((o) => o.key?.startsWith('h') === true && o.key.includes(`-${c}-`))).toBe(true)
      }
    } finally {
      await server.close()
    }
  })

  it('replies lost with their effect kept: unknown, sent again with their keys, settled; linearizable', async () => {
    const server = await startModelServer('lose-replies')
    try {
      const result = await checkHistories({ urls: [server.url], clients: 4, operations: 60, seed: 5 })
      if (!result.ok) throw new Error(formatHistory(result))
      expect(result.stats.unknown).toBeGreaterThan(3)
      const lost = result.history.operations.filter((o) => o.completed === null)
      expect(lost.every((o) => o.error === 'fetch failed (UND_ERR_SOCKET)' && o.reply === null)).toBe(true)
      // Each lost one's key got a reply after all, sent again; the first of those replayed its effect.
      for (const o of lost) {
        const settled = result.history.operations.filter((a) => a.key === o.key && a.reply !== null)
        expect(settled.length).toBeGreaterThan(0)
      }
      expect(lost.some((o) => result.history.operations.find((a) => a.retry_of === o.id)?.reply?.replayed === true)).toBe(true)
    } finally {
      await server.close()
    }
  })

  it('catches a server that forgets Idempotency-Keys: a key applied twice', async () => {
    const server = await startModelServer('ignore-keys')
    try {
      const result = await checkHistories({ urls: [server.url], clients: 4, operations: 60, seed: 5 })
      expect(result).toMatchObject({ ok: false, verdict: 'not linearizable', check: 'key applied twice' })
    } finally {
      await server.close()
    }
  })

  it('needs a URL, and a server with the state route', async () => {
    await expect(checkHistories({ urls: [] })).rejects.toThrow('checkHistories: no URL to send to')
    const port = await freePort()
    await expect(checkHistories({ urls: [`http://127.0.0.1:${port}`], operations: 4 })).rejects.toThrow(
      `PUT http://127.0.0.1:${port}/__conformance/state: fetch failed (ECONNREFUSED)`
    )
  })
})
