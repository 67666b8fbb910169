/**
 * The decision service over a loopback socket: every case of the conformance kit's
 * scenarios decided through POST /v1/decide equals the facade called directly here and the
 * record `decisionRecord` makes of that call, on the path the scenario's request went to; a batch
 * equals its cases one by one; hostile bodies get 400 or 413 problems, never a 500 or a hang;
 * the token, the routes, the log line, the metrics and the records file.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import fc from 'fast-check'
import { either as E } from 'fp-ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Scenario, scenario } from '../../src/arbitraries'
import { type DecisionRecord, decisionRecord } from '../../src/decisions'
import { type DecisionServiceRunning, startDecisionService } from '../../src/server/decide/main'
import { endpoints, respondAmount, respondBudgetUpdate, respondIndex, respondTopUp, respondWithdraw } from '../../src/index'
import { runs, timeoutFor } from '../runs'

const AT = '2031-06-15T12:00:00.000Z'
const clock = () => new Date(AT)
const keyIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16)

interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly text: string
}

/** One HTTP request over a fresh connection, the body sent as given (a string, or chunks). */
const send = (url: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method, headers: { 'Content-Type': 'application/json', ...headers }, agent: false },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text })
        })
      }
    )
    req.on('error', reject)
    req.end(body)
  })

const json = (r: Reply): unknown => JSON.parse(r.text)

/** The case a server would send for a scenario: what it looked up, and the request as the facade takes it. */
const caseOf = (s: Scenario) => {
  const at = s.request.path.indexOf('?')
  const request =
    s.endpoint === 'index.bank_transactions'
      ? { headers: s.request.headers, ...(at < 0 ? {} : { query: s.request.path.slice(at + 1) }) }
      : { headers: s.request.headers, ...(s.request.body === undefined ? {} : { body: s.request.body }) }
  const context =
    s.endpoint === 'index.bank_transactions'
      ? { request, session: s.state.session, records: s.state.records, request_id: 'req-s' }
      : {
          request,
          session: s.state.session,
          budget: s.state.budget,
          today: s.state.today,
          company_member_ids: s.state.company_member_ids,
          request_id: 'req-s',
          // A budget not found names no id: the server sends the path it was asked.
          ...(s.state.budget === null ? { path: s.request.path } : {})
        }
  return { endpoint: s.endpoint, context }
}

/** The facade of each endpoint, called directly: the oracle the service is held to. */
const facade = (endpoint: Scenario['endpoint'], context: object) => {
  switch (endpoint) {
    case 'budget.update':
      return respondBudgetUpdate(context as never)
    case 'budget.top_up':
      return respondTopUp(context as never)
    case 'budget.withdraw':
      return respondWithdraw(context as never)
    case 'budget.amount':
      return respondAmount(context as never)
    case 'index.bank_transactions':
      return respondIndex({ ...context, endpoint: endpoints.bankTransactions } as never)
  }
}

const expectedAnswer = (s: Scenario) => {
  const { endpoint, context } = caseOf(s)
  const reply = facade(endpoint, context)
  const key = /^Bearer (.+)$/.exec(s.request.headers.Authorization ?? '')?.[1]
  const record = decisionRecord(endpoint, context as never, reply, {
    at: AT,
    key_id: key === undefined ? null : keyIdOf(key),
    method: s.request.method,
    path: s.request.path
  })
  const budget = (reply as { readonly budget?: unknown }).budget
  return {
    status: reply.status,
    headers: reply.headers,
    body: reply.body,
    reasons: reply.reasons,
    budget: budget ?? null,
    record: E.isRight(record) ? record.right : null
  }
}

let service: DecisionServiceRunning
let dir: string
const lines: Array<Record<string, unknown>> = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'decide-'))
  service = await startDecisionService({
    clock,
    records: join(dir, 'records.ndjson'),
    bodyLimitBytes: 256 * 1024,
    logLevel: 'info',
    logDestination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
        done()
      }
    })
  })
})

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('POST /v1/decide', () => {
  it(
    "answers every scenario's case as the facade does, with the record of that call",
    async () => {
      const statuses = new Map<number, number>()
      await fc.assert(
        fc.asyncProperty(scenario(), async (s) => {
          const { endpoint, context } = caseOf(s)
          const got = await send(service.url, 'POST', '/v1/decide', JSON.stringify({ endpoint, ...context }))
          expect(got.status).toBe(200)
          expect(got.headers['content-type']).toBe('application/json; charset=utf-8')
          expect(json(got)).toEqual(JSON.parse(JSON.stringify(expectedAnswer(s))))
          const status = (json(got) as { readonly status: number }).status
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }),
        { numRuns: runs(300) }
      )
      // The scenarios reach the replies that matter: a success, a refusal of each kind.
      expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 401, 404, 422]))
      expect(statuses.get(200) ?? 0).toBeGreaterThan(runs(300) / 10)
    },
    timeoutFor(300, 60_000)
  )

  it(
    'answers a batch as its cases one by one, in order',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(scenario(), { minLength: 1, maxLength: 20 }), async (ss) => {
          const cases = ss.map((s) => {
            const { endpoint, context } = caseOf(s)
            return { endpoint, ...context }
          })
          const batch = await send(service.url, 'POST', '/v1/decide/batch', JSON.stringify({ cases }))
          expect(batch.status).toBe(200)
          const one = await Promise.all(
            cases.map(async (c) => json(await send(service.url, 'POST', '/v1/decide', JSON.stringify(c))))
          )
          expect(json(batch)).toEqual({ answers: one })
        }),
        { numRuns: runs(30) }
      )
    },
    timeoutFor(30, 60_000)
  )

  it('gives a case without request_id its own, a batch case its index', async () => {
    const { endpoint, context } = caseOf(
      fc.sample(scenario({ endpoints: ['budget.top_up'] }), { numRuns: 1, seed: 7 })[0] as Scenario
    )
    const without: Record<string, unknown> = { ...context }
    delete without.request_id
    const one = await send(service.url, 'POST', '/v1/decide', JSON.stringify({ endpoint, ...without }))
    const id = String(one.headers['x-request-id'])
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect((json(one) as { headers: Record<string, string> }).headers['X-Request-Id']).toBe(id)
    const two = await send(
      service.url,
      'POST',
      '/v1/decide/batch',
      JSON.stringify({
        cases: [
          { endpoint, ...without },
          { endpoint, ...without }
        ]
      })
    )
    const ids = (json(two) as { answers: Array<{ headers: Record<string, string> }> }).answers.map(
      (a) => a.headers['X-Request-Id']
    )
    expect(ids).toEqual([`${String(two.headers['x-request-id'])}.0`, `${String(two.headers['x-request-id'])}.1`])
  })
})

describe('what is not a case', () => {
  const problem = async (path: string, body: string, status = 400) => {
    const got = await send(service.url, 'POST', path, body)
    expect(got.status).toBe(status)
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8')
    return (json(got) as { message: string }).message
  }

  it('is a 400 naming the field at fault, or the body', async () => {
    expect(await problem('/v1/decide', '{"endpoint":"budget.close"}')).toMatch(
      /^endpoint is "budget.close", not one of budget.get, /
    )
    expect(await problem('/v1/decide', '7')).toBe('the case is 7, not a case (a JSON object)')
    expect(await problem('/v1/decide', '{"endpoint":')).toMatch(/^The request body is not JSON: /)
    expect(await problem('/v1/decide', '')).toMatch(/^The request body is not JSON: /)
    expect(await problem('/v1/decide/batch', '[]')).toBe('The body is an array, not { "cases": [...] }')
    expect(await problem('/v1/decide/batch', '{"cases":{}}')).toBe('cases is an object, not an array of cases')
    expect(await problem('/v1/decide/batch', '{"cases":[{"endpoint":"budget.get"},{"endpoint":"x"}]}')).toMatch(
      /^cases\[1\]\.endpoint is "x", not one of /
    )
    expect(await problem('/v1/decide/batch', JSON.stringify({ cases: Array.from({ length: 1001 }, () => 0) }))).toBe(
      'cases holds 1001 cases, more than 1000'
    )
    expect((json(await send(service.url, 'POST', '/v1/decide/batch', '{"cases":[]}')) as { answers: unknown }).answers).toEqual(
      []
    )
  })

  it('reads a body after a byte order mark, as RFC 8259 lets a parser', async () => {
    const got = await send(service.url, 'POST', '/v1/decide/batch', '\uFEFF{"cases":[]}')
    expect([got.status, json(got)]).toEqual([200, { answers: [] }])
  })

  it('refuses a body that is not UTF-8, and one over the limit with a 413', async () => {
    const bytes = await new Promise<Reply>((resolve, reject) => {
      const req = request(`${service.url}/v1/decide`, { method: 'POST', agent: false }, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text })
        })
      })
      req.on('error', reject)
      req.end(Buffer.from([0x7b, 0xff, 0x7d]))
    })
    expect([bytes.status, json(bytes)]).toEqual([400, { error: 'bad_request', message: 'The request body is not UTF-8' }])
    expect(await problem('/v1/decide', 'x'.repeat(256 * 1024 + 1), 413)).toBe('The request body exceeds 262144 bytes')
  })

  it(
    'answers hostile bodies with a 400, 413 or a 200, never a 500 and never hangs',
    async () => {
      const seen = new Map<number, number>()
      const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
      const hostile = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.json({ maxDepth: 4 }),
        fc.constantFrom(
          deep(10_000),
          `{"endpoint":"budget.update","request":${deep(100_000).slice(0, 200_000)}}`,
          '\u0000',
          '{"__proto__":{}}'
        ),
        fc
          .record({
            endpoint: fc.constantFrom('budget.update', 'budget.top_up', 'index.budgets', 'role.assign', 'recipient.enroll'),
            request: fc.anything(),
            session: fc.anything(),
            budget: fc.anything(),
            today: fc.anything(),
            records: fc.anything()
          })
          .map((c) => JSON.stringify(c)),
        fc.array(fc.anything(), { maxLength: 5 }).map((cases) => JSON.stringify({ cases }))
      )
      await fc.assert(
        fc.asyncProperty(hostile, fc.boolean(), async (body, batch) => {
          const got = await send(service.url, 'POST', batch ? '/v1/decide/batch' : '/v1/decide', body)
          expect([200, 400, 413]).toContain(got.status)
          expect(json(got)).toBeTypeOf('object')
          seen.set(got.status, (seen.get(got.status) ?? 0) + 1)
        }),
        { numRuns: runs(300) }
      )
      expect([...seen.keys()].sort()).toEqual([200, 400])
    },
    timeoutFor(300, 60_000)
  )
})

describe('the routes', () => {
  it('answers /healthz, the document, and a 404 or a 405 elsewhere', async () => {
    const health = await send(service.url, 'GET', '/healthz')
    expect([health.status, json(health)]).toEqual([200, { status: 'ok' }])
    const document = await send(service.url, 'GET', '/openapi.json?x=1')
    expect((json(document) as { openapi: string }).openapi).toBe('3.1.0')
    const missing = await send(service.url, 'GET', '/v1/decisions')
    expect([missing.status, json(missing)]).toEqual([404, { error: 'not_found', message: 'No route for GET /v1/decisions' }])
    const wrong = await send(service.url, 'GET', '/v1/decide')
    expect([wrong.status, wrong.headers.allow, json(wrong)]).toEqual([
      405,
      'POST',
      { error: 'method_not_allowed', message: '/v1/decide takes POST' }
    ])
  })

  it('logs one line per request with the decision of a single case, and counts it', async () => {
    const [s] = fc.sample(scenario({ endpoints: ['budget.top_up'] }), { numRuns: 1, seed: 3 }) as [Scenario]
    const { endpoint, context } = caseOf(s)
    const got = await send(service.url, 'POST', '/v1/decide', JSON.stringify({ endpoint, ...context }))
    const answer = json(got) as { reasons: Array<{ rule: string }>; record: DecisionRecord }
    const line = lines.find((l) => l.request_id === got.headers['x-request-id'])
    expect(String(line?.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(line?.ms).toBeTypeOf('number')
    expect({ ...line, time: 'checked', ms: 0 }).toEqual({
      level: 'info',
      time: 'checked',
      request_id: got.headers['x-request-id'],
      method: 'POST',
      route: '/v1/decide',
      status: 200,
      ms: 0,
      actor_id: answer.record.actor_id,
      key_id: answer.record.key_id,
      company_id: answer.record.company_id,
      rules: answer.reasons.map((r) => r.rule),
      msg: 'POST /v1/decide 200'
    })
    const metrics = (await send(service.url, 'GET', '/metrics')).text
    const rule = String(answer.reasons.at(-1)?.rule)
    expect(metrics).toMatch(
      new RegExp(
        `^budget_rules_decisions_total\\{endpoint="budget.top_up",status="${answer.record.status}",rule="${rule.replace('.', '\\.')}"\\} \\d+$`,
        'm'
      )
    )
    expect(metrics).toMatch(/^http_requests_total\{method="POST",route="\/v1\/decide",status="200"\} \d+$/m)
    expect(metrics).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"\} \d+$/m)
  })

  it('counts an answer with no record under the endpoint its case named', async () => {
    const [s] = fc.sample(scenario({ endpoints: ['budget.update'] }), { numRuns: 1, seed: 5 }) as [Scenario]
    const { endpoint, context } = caseOf(s)
    let deep: unknown = 'bottom'
    for (let i = 0; i < 40; i++) deep = { deep }
    const fresh = await startDecisionService({ clock })
    const got = await send(
      fresh.url,
      'POST',
      '/v1/decide',
      JSON.stringify({ endpoint, ...context, session: { ...context.session, deep } })
    )
    expect((json(got) as { record: unknown }).record).toBeNull()
    const metrics = (await send(fresh.url, 'GET', '/metrics')).text
    // Not asked for and kept by no file, a record is not made, so none is dropped.
    await send(
      fresh.url,
      'POST',
      '/v1/decide?record=false',
      JSON.stringify({ endpoint, ...context, session: { ...context.session, deep } })
    )
    const after = (await send(fresh.url, 'GET', '/metrics')).text
    expect(after).toMatch(/^budget_rules_decision_records_dropped_total\{endpoint="budget.update"\} 1$/m)
    expect(after).toMatch(/^budget_rules_decisions_total\{endpoint="budget.update",status="200",rule="recurrence.stop"\} 2$/m)
    await fresh.close()
    expect(metrics).toMatch(/^budget_rules_decision_records_dropped_total\{endpoint="budget.update"\} 1$/m)
    expect(metrics).not.toMatch(/unrecorded/)
  })

  it('keeps each record as a line of the records file, readable by its owner only, and none of a refused batch', async () => {
    await service.close()
    const file = join(dir, 'records.ndjson')
    const kept = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
    expect(kept.length).toBeGreaterThan(runs(300))
    for (const l of kept) expect((JSON.parse(l) as DecisionRecord).at).toBe(AT)
    expect(kept.some((l) => l.includes('"endpoint":"x"'))).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    service = await startDecisionService({ clock })
  })
})

describe('?record=false', () => {
  it('leaves the records out of the answers, and keeps them all the same', async () => {
    const [s] = fc.sample(scenario({ endpoints: ['budget.top_up'] }), { numRuns: 1, seed: 11 }) as [Scenario]
    const { endpoint, context } = caseOf(s)
    const c = JSON.stringify({ endpoint, ...context })
    const whole = json(await send(service.url, 'POST', '/v1/decide', c)) as Record<string, unknown>
    const without = { ...whole }
    delete without.record
    expect(Object.keys(whole)).toEqual(['status', 'headers', 'body', 'reasons', 'budget', 'record'])
    expect(json(await send(service.url, 'POST', '/v1/decide?record=false', c))).toEqual(without)
    expect(json(await send(service.url, 'POST', '/v1/decide?x=1&record=true', c))).toEqual(whole)
    expect(json(await send(service.url, 'POST', '/v1/decide/batch?record=false', `{"cases":[${c},${c}]}`))).toEqual({
      answers: [without, without]
    })
    const wrong = await send(service.url, 'POST', '/v1/decide?record=no', c)
    expect([wrong.status, json(wrong)]).toEqual([400, { error: 'bad_request', message: 'record is "no", not true or false' }])
  })
})

describe('with a token', () => {
  it('reads the whole body before it refuses, so that a client still sending it reads the 401', async () => {
    const guarded = await startDecisionService({ token: 's3cret' })
    try {
      const { port } = new URL(guarded.url)
      const socket = connect(Number(port), '127.0.0.1')
      let received = ''
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
      await new Promise<void>((resolve) => socket.once('connect', resolve))
      socket.write(
        'POST /v1/decide HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer wrong\r\nContent-Length: 10\r\n\r\n{"a":'
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      // Nothing yet: the body is not all in.
      expect(received).toBe('')
      socket.end('"b"} ')
      await new Promise<void>((resolve) =>
        socket.once('close', () => {
          resolve()
        })
      )
      expect(received).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/)
    } finally {
      await guarded.close()
    }
  })

  it('asks for it on /v1/*, in constant form, and not on /healthz', async () => {
    const guarded = await startDecisionService({ token: 's3cret', metricsToken: 'm' })
    try {
      const none = await send(guarded.url, 'POST', '/v1/decide', '{}')
      expect([none.status, none.headers['www-authenticate'], json(none)]).toEqual([
        401,
        'Bearer',
        { error: 'unauthorized', message: 'The decision service asks for its token: Authorization: Bearer <DECIDE_TOKEN>' }
      ])
      expect(
        (await send(guarded.url, 'POST', '/v1/decide/batch', '{"cases":[]}', { Authorization: 'Bearer s3cre' })).status
      ).toBe(401)
      expect(
        (await send(guarded.url, 'POST', '/v1/decide/batch', '{"cases":[]}', { Authorization: 'bearer s3cret' })).status
      ).toBe(200)
      expect((await send(guarded.url, 'GET', '/healthz')).status).toBe(200)
      // A client that sends a large body and closes after the reply reads the 401, not a reset.
      const large = await send(guarded.url, 'POST', '/v1/decide/batch', JSON.stringify({ cases: [], pad: 'x'.repeat(1 << 20) }), {
        Connection: 'close',
        Authorization: 'Bearer wrong'
      })
      expect(large.status).toBe(401)
      expect((await send(guarded.url, 'GET', '/metrics')).status).toBe(401)
      expect((await send(guarded.url, 'GET', '/metrics', undefined, { Authorization: 'Bearer m' })).status).toBe(200)
    } finally {
      await guarded.close()
    }
  })
})

describe('the faults', () => {
  const logged = () => {
    const kept: Array<Record<string, unknown>> = []
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line !== '') kept.push(JSON.parse(line) as Record<string, unknown>)
        done()
      }
    })
    return { kept, destination }
  }

  it('refuses a body streamed past the limit with a 413, its length not declared', async () => {
    const got = await new Promise<Reply>((resolve, reject) => {
      const req = request(
        `${service.url}/v1/decide`,
        { method: 'POST', agent: false, headers: { 'Transfer-Encoding': 'chunked' } },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text })
          })
        }
      )
      req.on('error', reject)
      req.write('x'.repeat(8 * 1024 * 1024))
      req.end('x')
    })
    expect([got.status, got.headers.connection, json(got)]).toEqual([
      413,
      'close',
      { error: 'payload_too_large', message: 'The request body exceeds 8388608 bytes' }
    ])
  })

  it("logs a client that left mid-body as the client's 499 at info, never a 5xx", async () => {
    const { kept, destination } = logged()
    const quiet = await startDecisionService({ logLevel: 'info', logDestination: destination })
    try {
      await new Promise<void>((resolve) => {
        const req = request(`${quiet.url}/v1/decide`, { method: 'POST', agent: false, headers: { 'Content-Length': '100' } })
        req.on('error', () => {
          resolve()
        })
        req.write('{"endpoint":', () => {
          setTimeout(() => req.destroy(), 50)
        })
      })
      for (let i = 0; i < 100 && kept.length === 0; i++) await new Promise((r) => setTimeout(r, 20))
      expect(kept.map((l) => [l.level, l.status, l.route])).toEqual([['info', 499, '/v1/decide']])
      expect((await send(quiet.url, 'GET', '/metrics')).text).not.toMatch(/status="5\d\d"/)
    } finally {
      await quiet.close()
    }
  })

  it('answers a fault of its own with a 500 problem, and reports it', async () => {
    const { kept, destination } = logged()
    const broken = await startDecisionService({
      logLevel: 'info',
      logDestination: destination,
      clock: () => {
        throw new Error('the clock stopped')
      }
    })
    try {
      const got = await send(broken.url, 'POST', '/v1/decide', JSON.stringify({ endpoint: 'budget.get' }))
      expect([got.status, json(got)]).toEqual([500, { error: 'internal_error', message: 'Internal server error' }])
      expect(kept.map((l) => [l.level, l.msg, (l.err as { message?: string } | undefined)?.message ?? l.status])).toEqual([
        ['error', 'unexpected error', 'the clock stopped'],
        ['error', 'POST /v1/decide 500', 500]
      ])
    } finally {
      await broken.close()
    }
  })
})
