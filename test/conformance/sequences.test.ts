/**
 * checkSequences over HTTP against the reference server on PGlite: the reference passes,
 * reaching what a sequence is for (replays of kept replies, keys reused, days passing, periods
 * rolled, pages read again after writes); each planted defect only a sequence can show is
 * caught and shrunk to a few steps, printed as curl commands that replay it, while the
 * single-request kit passes the same server; a request without a reply stops the run, unshrunk.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkConformance, checkSequences, formatSequences, httpSender, type SequenceResult } from '../../src/conformance'
import { routeOf } from '../../src/conformance/model'
import { type Defect, type Planted, startPlanted } from './planted-servers'

/** What the reference server was sent and answered, counted. */
const seen = {
  requests: 0,
  replayed: 0,
  keyReused: 0,
  statePuts: 0,
  statuses: new Map<string, Set<number>>()
}

const count = (request: Request, reply: Response) => {
  const url = new URL(request.url)
  if (url.pathname === '/__conformance/state') {
    seen.statePuts++
    return
  }
  seen.requests++
  const endpoint = routeOf(request.method, url.pathname)?.endpoint ?? 'other'
  seen.statuses.set(endpoint, (seen.statuses.get(endpoint) ?? new Set()).add(reply.status))
  if (reply.headers.get('Idempotent-Replayed') === 'true') seen.replayed++
  if (reply.status === 422 && request.headers.has('Idempotency-Key')) seen.keyReused++
}

/** Splits a line of sh words: bare words, and words in single quotes ('\'' for a quote inside). */
const shellWords = (line: string): Array<string> => {
  const words: Array<string> = []
  let word: string | null = null
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === ' ') {
      if (word !== null) words.push(word)
      word = null
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '\\') word = (word ?? '') + (line[++i] as string)
    else word = (word ?? '') + c
  }
  if (word !== null) words.push(word)
  return words
}

/** A curl line of the report, sent as curl would send it; the reply's status and body. */
const curl = async (line: string): Promise<{ status: number; body: string }> => {
  const words = shellWords(line)
  expect(words.slice(0, 4)).toEqual(['curl', '-sS', '-i', '-X'])
  const method = words[4] as string
  const target = words[5] as string
  const headers: Record<string, string> = {}
  let body: string | undefined
  for (let i = 6; i < words.length; i += 2)
    if (words[i] === '-H') {
      const header = words[i + 1] as string
      headers[header.slice(0, header.indexOf(':'))] = header.slice(header.indexOf(':') + 2)
    } else if (words[i] === '--data-raw') body = words[i + 1]
    else throw new Error(`not a word of the report: ${words[i] ?? ''}`)
  const reply = await fetch(target, { method, headers, ...(body === undefined ? {} : { body }) })
  return { status: reply.status, body: await reply.text() }
}

describe('checkSequences against the reference server on PGlite', () => {
  let reference: Planted
  // A PGlite server starts in seconds, more on two busy cores.
  beforeAll(async () => {
    reference = await startPlanted(null, undefined, count)
  }, 60_000)
  afterAll(async () => {
    await reference.close()
  })

  it('passes, with replays, keys reused, days passed and every endpoint answered', async () => {
    const result = await checkSequences({ url: reference.url, numRuns: 40, seed: 20261130 })
    expect(result).toStrictEqual({ ok: true, runs: 40, requests: seen.requests })
    expect(seen.requests).toBeGreaterThan(300)
    expect(seen.replayed).toBeGreaterThan(5)
    expect(seen.keyReused).toBeGreaterThan(0)
    // One seeding a sequence; the other PUTs are days passing.
    expect(seen.statePuts - 40).toBeGreaterThan(50)
    for (const endpoint of ['budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount', 'budget.read'])
      expect([endpoint, seen.statuses.get(endpoint)?.has(200)]).toEqual([endpoint, true])
    expect(seen.statuses.get('budget.withdraw')).toContain(422)
    expect(seen.statuses.get('index.budgets')).toContain(200)
    expect(seen.statuses.get('index.bank_transactions')).toContain(200)
    expect(seen.statuses.get('index.budgets')).toContain(400)
  }, 180_000)
})

describe('planted defects only a sequence shows', () => {
  const planted: ReadonlyArray<{ defect: Defect; seed: number; endpoint: string; differs: string }> = [
    // A read rolls the stored period one period forward: the read shows the wrong period.
    { defect: 'roll-on-read', seed: 20, endpoint: 'budget.read', differs: 'body' },
    // An update after the next period began keeps the old amount.
    { defect: 'amount-kept', seed: 8, endpoint: 'budget.update', differs: 'body' },
    // A count kept from the first read of a filter: the same page read again after a write.
    { defect: 'count-stale', seed: 12, endpoint: 'index.budgets', differs: 'header' }
  ]

  for (const p of planted)
    it(`${p.defect}: caught, shrunk to a few steps, replayed by its curl lines; the single-request kit passes it`, async () => {
      const server = await startPlanted(p.defect)
      try {
        const result = await checkSequences({ url: server.url, seed: p.seed })
        if (result.ok || result.kind === 'transport') throw new Error(`${p.defect} not caught: ${formatSequences(result)}`)
        expect(result.steps.length).toBeLessThanOrEqual(4)
        const last = result.steps.at(-1)
        if (last?.step.kind !== 'request') throw new Error('the last step is no request')
        expect(routeOf(last.step.request.method, last.step.request.path)?.endpoint).toBe(p.endpoint)
        expect(result.differences.map((d) => d.part)).toContain(p.differs)
        // The report's curl lines, run in order, give the server's reply again (the seeding first).
        const text = formatSequences(result)
        const lines = text.split('\n').filter((l) => l.startsWith('curl '))
        expect(lines).toHaveLength(result.steps.length + 1)
        let reply = { status: 0, body: '' }
        for (const line of lines) reply = await curl(line)
        expect(reply.status).toBe(last.actual?.status)
        expect(JSON.parse(reply.body)).toEqual(JSON.parse(last.actual?.body as string))
        expect(text).toContain(`replay: checkSequences({ url, seed: ${p.seed}, path: "${result.path}" })`)
        // Replayed from its seed and path: the same sequence.
        const again = await checkSequences({ url: server.url, seed: result.seed, path: result.path })
        if (again.ok) throw new Error('not caught again')
        expect(again.steps.map((s) => [s.step, s.expected])).toEqual(result.steps.map((s) => [s.step, s.expected]))
        // The single-request kit sends no read of a budget or of its pages, and never two requests to one state.
        if (p.defect !== 'amount-kept')
          expect(await checkConformance({ send: httpSender(server.url), numRuns: 100, seed: p.seed })).toStrictEqual({
            ok: true,
            runs: 100
          })
      } finally {
        await server.close()
      }
      // Each sequence seeds two companies and crosses between them: minutes on two busy cores.
    }, 180_000)
})

describe('a request without a reply', () => {
  let server: Server
  let url: string
  let cut = false
  beforeAll(async () => {
    // Takes every seeding; answers each request with an empty 404, or cuts its connection.
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        if (req.method === 'PUT') res.writeHead(204).end()
        else if (cut) req.socket.destroy()
        else res.writeHead(404, { 'X-Request-Id': 'r' }).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('is a transport failure, unshrunk, with the steps before it; a wrong reply is a disagreement', async () => {
    cut = false
    expect(await checkSequences({ url, numRuns: 5, seed: 1 })).toMatchObject({ ok: false, kind: 'disagreement' })
    cut = true
    const result: SequenceResult = await checkSequences({ url, numRuns: 5, seed: 1 })
    if (result.ok || result.kind === 'disagreement') throw new Error('no transport failure')
    expect(result.error).toMatch(/^(POST|PATCH|GET) http:\/\/127\.0\.0\.1:\d+\/v1\/\S+: fetch failed/)
    // Days passing (the state route answers) may come before it; the request without a reply is last.
    expect(result.steps.slice(0, -1).every((s) => s.step.kind === 'day')).toBe(true)
    expect(result.steps.at(-1)).toMatchObject({ step: { kind: 'request' }, expected: null, actual: null })
    const text = formatSequences(result)
    expect(text).toMatch(/^No reply at step \d+ of sequence 1: a transport failure, not a disagreement/)
    expect(text).toContain(`error: ${result.error}`)
    expect(text.split('\n').at(-1)).toMatch(/^curl /)
  })
})
