/**
 * Whose fault a failed read of a body is, on each path of `rawBody`: a request stream
 * that failed before its body was all in is the client's (499, or 408 when Node's request
 * timeout cut it); any other failure is thrown on as it came, for the server's own handling.
 */
import type { Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { BodyNotReceived, bodyNotReceived, type Env, rawBody } from '../../src/server/reply'

const failing = (env: unknown, error: Error) =>
  ({ req: { arrayBuffer: () => Promise.reject(error) }, env }) as unknown as Context<Env>

const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
const incoming = (complete: boolean, errored: unknown) => ({ incoming: { complete, socket: { errored } } })

describe('rawBody', () => {
  it('the body as sent, a leading BOM kept', async () => {
    const c = {
      req: { arrayBuffer: () => Promise.resolve(new TextEncoder().encode('\uFEFF{}').buffer) }
    } as unknown as Context<Env>
    expect(await rawBody(c)).toBe('\uFEFF{}')
  })

  it('a body cut short by its client: 499, the stream error kept as the cause', async () => {
    const thrown = await rawBody(failing(incoming(false, null), aborted)).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(BodyNotReceived)
    expect([(thrown as BodyNotReceived).status, (thrown as Error).message, (thrown as Error).cause]).toEqual([
      499,
      'The client closed the request before its body arrived',
      aborted
    ])
    const parseError = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_EOF_STATE' })
    expect(
      await rawBody(failing(incoming(false, parseError), aborted)).catch((e: unknown) => (e as BodyNotReceived).status)
    ).toBe(499)
  })

  it("a body Node's request timeout cut: 408", async () => {
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })
    const thrown = (await rawBody(failing(incoming(false, timeout), aborted)).catch((e: unknown) => e)) as BodyNotReceived
    expect([thrown.status, thrown.message]).toEqual([408, 'The request body did not arrive in time'])
  })

  it('a failure once the body is all in, or without Node bindings (in-process), is thrown on as it came', async () => {
    const other = new Error('other')
    expect(await rawBody(failing(incoming(true, null), other)).catch((e: unknown) => e)).toBe(other)
    expect(await rawBody(failing(undefined, other)).catch((e: unknown) => e)).toBe(other)
  })
})

describe('bodyNotReceived', () => {
  it("the reply logged and counted: the status, the service's error shape", () => {
    expect(bodyNotReceived('r-1', new BodyNotReceived(499, null))).toEqual({
      status: 499,
      headers: { 'X-Request-Id': 'r-1', 'Content-Type': 'application/json; charset=utf-8' },
      body: { error: 'client_closed_request', message: 'The client closed the request before its body arrived' }
    })
    expect(bodyNotReceived('r-2', new BodyNotReceived(408, null)).body).toEqual({
      error: 'request_timeout',
      message: 'The request body did not arrive in time'
    })
  })
})
