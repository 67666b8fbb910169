/**
 * R-127 as issue 36 found it, over a real loopback socket: a client that sends a PATCH's headers
 * and half its body, then closes its socket (a FIN, or a reset), is logged as a 499 at `info`
 * and counted under 499, never as the 503 "database unavailable" at `error`; a body that stalls
 * past the server's request timeout is a 408 on the wire (Node's) and a 408 at `info` in the log
 * and the metrics. The server is the reference app on PGlite, listening as `listen` does but
 * with a request timeout of two seconds, which `listen` leaves at Node's five minutes.
 */
import { type AddressInfo, connect } from 'node:net'
import type { Server } from 'node:http'
import { serve as listenOn } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { requestLogger } from '../../src/server/log'
import { seeded, stores } from './harness'

const REQUEST_TIMEOUT_MS = 2_000
const lines: Array<Record<string, unknown>> = []
let server: Server
let port: number
let drop: () => Promise<void>

beforeAll(async () => {
  const store = await seeded(stores[0] as (typeof stores)[number])
  drop = store.drop
  const app = buildApp({
    database: store.database,
    clock: () => new Date('2026-11-23T15:00:00Z'),
    rateLimitPerMinute: 1_000_000,
    idempotencyTtlHours: 24,
    bodyLimitBytes: 65_536,
    report: () => undefined,
    logger: requestLogger('info', {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>)
      }
    }),
    decisionLog: true
  })
  server = await new Promise<Server>((resolve) => {
    const s = listenOn(
      {
        fetch: app.fetch,
        port: 0,
        hostname: '127.0.0.1',
        serverOptions: { requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 50 }
      },
      () => {
        resolve(s)
      }
    ) as Server
  })
  port = (server.address() as AddressInfo).port
}, 60_000)

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await drop()
})

/** Headers announcing a 100-byte body, then 11 bytes of it. */
const HALF =
  'PATCH /v1/budgets/b-travel HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-manager\r\ncompany-id: c-acme\r\n' +
  'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"budget":{'

/**
 * Sends HALF, then `end`s the socket after 100 ms (`'fin'` or `'reset'`), or stalls (`'stall'`);
 * resolves with what the server wrote back once the socket is closed.
 */
const halfBody = (end: 'fin' | 'reset' | 'stall'): Promise<string> =>
  new Promise((resolve) => {
    let got = ''
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(HALF)
      if (end !== 'stall')
        setTimeout(() => {
          if (end === 'fin') socket.destroy()
          else socket.resetAndDestroy()
        }, 100)
    })
    socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      resolve(got)
    })
  })

/** The log lines of PATCHes once `n` of them are written (the line follows the reply, which follows the socket's end). */
const patchLines = async (n: number): Promise<Array<Record<string, unknown>>> => {
  const of = () => lines.filter((l) => l.method === 'PATCH')
  for (let i = 0; i < 100 && of().length < n; i++) await new Promise((r) => setTimeout(r, 20))
  return of()
}

const metrics = async (): Promise<string> => (await fetch(`http://127.0.0.1:${port}/metrics`)).text()

const series = (status: number) => `http_requests_total{method="PATCH",route="/v1/budgets/:id",status="${status}"}`

describe('R-127: a client that stops sending its body', () => {
  it('closes its socket mid-body (FIN, then a reset): 499 at info, counted under 499, no 503 anywhere', async () => {
    expect(await halfBody('fin')).toBe('')
    expect(await halfBody('reset')).toBe('')
    const logged = await patchLines(2)
    expect(logged.map((l) => [l.level, l.status, l.route, l.msg])).toEqual([
      ['info', 499, '/v1/budgets/:id', 'PATCH /v1/budgets/:id 499'],
      ['info', 499, '/v1/budgets/:id', 'PATCH /v1/budgets/:id 499']
    ])
    const page = await metrics()
    expect(page).toContain(`\n${series(499)} 2\n`)
    expect(page).not.toContain('status="503"')
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
  })

  it('stalls past the request timeout: 408 on the wire, 408 at info in the log and the metrics', async () => {
    const started = performance.now()
    expect(await halfBody('stall')).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
    expect(performance.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50)
    const logged = (await patchLines(3))[2]
    expect([logged?.level, logged?.status, logged?.route]).toEqual(['info', 408, '/v1/budgets/:id'])
    const page = await metrics()
    expect(page).toContain(`\n${series(408)} 1\n`)
    expect(page).not.toContain('status="503"')
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
  })

  it('a whole body, sent slowly but within the timeout, is decided as ever', async () => {
    const body = '{"budget":{"name":"Trips"}}'
    const got = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(HALF.replace('Content-Length: 100', `Content-Length: ${body.length}`).replace(/\{"budget":\{$/, ''))
        socket.write(body.slice(0, 10))
        setTimeout(() => socket.write(body.slice(10)), 100)
      })
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1')
        if (text.includes('"Trips"')) socket.destroy()
      })
      socket.on('close', () => {
        resolve(text)
      })
    })
    expect(got.split('\r\n')[0]).toBe('HTTP/1.1 200 OK')
    const logged = (await patchLines(4))[3]
    expect([logged?.level, logged?.status]).toEqual(['info', 200])
  })
})
