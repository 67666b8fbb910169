/**
 * Tenant isolation and a partial server, against the reference server on PGlite:
 * each company check removed in turn (planted-servers.ts) is caught by the kit within its
 * default runs, the report naming the foreign id and where it appeared; a leak in a server in
 * process is caught through `send`, and the unchanged server passes through it; a server with
 * only two endpoints passes when the kit is told so, and fails at the first endpoint it lacks
 * otherwise. The kit's own statistics: most runs hold another company's objects where a leak
 * shows.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenario, type Scenario } from '../../src/arbitraries'
import {
  checkConformance,
  checkSequences,
  DEFAULT_RUNS,
  DEFAULT_SEQUENCES,
  expectedReply,
  formatDisagreement,
  formatSequences,
  foreignIn,
  httpSender,
  type SequenceSend
} from '../../src/conformance'
import { runCli } from '../cli/run'
import { type Defect, type Planted, startPlanted } from './planted-servers'

/** A server in process, as `checkSequences` sends to it: the app's `fetch` over a Request, no socket. */
const inProcess =
  (server: Planted, seen: (r: Parameters<SequenceSend>[0]) => void = () => undefined): SequenceSend =>
  async (r) => {
    seen(r)
    const reply = await server.request(
      new Request(`http://in-process${r.path}`, {
        method: r.method,
        headers: r.headers,
        ...(r.body === undefined ? {} : { body: r.body })
      })
    )
    return { status: reply.status, headers: Object.fromEntries(reply.headers), body: await reply.text() }
  }

/** One reference server for every check (its start is the slow part): each test plants what it needs. */
let server: Planted
beforeAll(async () => {
  server = await startPlanted(null)
}, 60_000)
afterAll(async () => {
  await server.close()
})

describe('a company check removed: caught within the default runs, the foreign id named', () => {
  const counted = /^(X-Total-Count|Content-Range): \d+, the company holds \d+$/
  const planted: ReadonlyArray<{
    readonly defect: Defect
    readonly check: 'scenarios' | 'sequences'
    readonly seed: number
    readonly id: RegExp
    readonly where: ReadonlyArray<RegExp>
  }> = [
    // A page of every company's bank transactions, and their count.
    { defect: 'page-query', check: 'scenarios', seed: 1, id: /^tx-\d{3}(c2|z2)$/, where: [/^body\[\d+\]\.id$/, counted] },
    // A count of every company's records beside the company's page (seed 2: the reference
    // server's own check turns a count its page cannot have into a 500, with no id to name).
    { defect: 'page-count', check: 'scenarios', seed: 2, id: /^tx-\d{3}(c2|z2)$/, where: [counted] },
    // A change to c-2's budget b-1, locked by its id alone.
    {
      defect: 'money-lock',
      check: 'scenarios',
      seed: 1,
      id: /^b-1$/,
      where: [/^the path: status \d+ where the library's is 404$/, /^body\.id$/]
    },
    // A read of c-2's budget b-2 by its id alone.
    {
      defect: 'budget-lookup',
      check: 'sequences',
      seed: 1,
      id: /^b-2$/,
      where: [/^the path: status 200 where the library's is 404$/, /^body\.id$/]
    },
    // A page of decision records with c-2's in it.
    { defect: 'decisions-index', check: 'sequences', seed: 1, id: /^.+$/, where: [/^body\[\d+\]$/] }
  ]

  /** Each finding is of c-2, its id and place as the defect makes them. */
  const named = (p: (typeof planted)[number], foreign: ReadonlyArray<{ id: string; company_id: string; where: string }>) => {
    expect(foreign.length).toBeGreaterThan(0)
    for (const f of foreign) {
      expect([f.id, f.company_id]).toEqual([expect.stringMatching(p.id), 'c-2'])
      expect(p.where.some((w) => w.test(f.where))).toBe(true)
    }
  }

  for (const p of planted)
    it(`${p.defect}: caught by the ${p.check}`, async () => {
      // Each leak on the records of its own run: the decision records of the checks before it gone.
      await server.database.query('DELETE FROM decisions')
      server.plant(p.defect)
      try {
        if (p.check === 'scenarios') {
          const result = await checkConformance({ send: httpSender(server.url), seed: p.seed })
          if (result.ok || result.kind === 'transport') throw new Error(`${p.defect} not caught: ${formatDisagreement(result)}`)
          console.log(`planted leak "${p.defect}": caught after ${result.runs} scenarios (seed ${p.seed})`)
          expect(result.runs).toBeLessThanOrEqual(DEFAULT_RUNS)
          named(p, result.foreign)
          expect(formatDisagreement(result)).toContain(`another company's objects in the reply (tenant isolation, R-94):`)
        } else {
          const result = await checkSequences({ url: server.url, seed: p.seed })
          if (result.ok || result.kind === 'transport') throw new Error(`${p.defect} not caught: ${formatSequences(result)}`)
          console.log(`planted leak "${p.defect}": caught after ${result.runs} sequences (seed ${p.seed})`)
          expect(result.runs).toBeLessThanOrEqual(DEFAULT_SEQUENCES)
          named(p, result.foreign)
          expect(formatSequences(result)).toContain(`another company's objects in the reply (tenant isolation, R-94):`)
        }
      } finally {
        server.plant(null)
      }
    }, 60_000)
})

describe('a server in process, through send', () => {
  it('the reference passes sequences sent in process, most of them across tenants; a leak is caught the same way', async () => {
    const across = new Set<number>()
    let sequence = -1
    try {
      const send = inProcess(server, (r) => {
        if (r.method === 'PUT' && r.body?.includes('"state"') === true) sequence++
        // A step into c-2's budget, as a member of c-2, or a page of decision records.
        else if (r.path.startsWith('/v1/budgets/b-2') || r.headers['company-id'] === 'c-2' || r.path.startsWith('/v1/decisions'))
          across.add(sequence)
      })
      const passed = await checkSequences({ send, numRuns: 12, seed: 37 })
      expect(passed).toStrictEqual({ ok: true, runs: 12, requests: expect.any(Number) as number })
      expect(across.size).toBeGreaterThan(12 / 2)
      server.plant('money-lock')
      const result = await checkSequences({ send: inProcess(server), seed: 1 })
      if (result.ok || result.kind === 'transport') throw new Error(`not caught: ${formatSequences(result)}`)
      expect(result.url).toBe('')
      expect(result.foreign[0]).toMatchObject({ id: 'b-2', company_id: 'c-2' })
    } finally {
      server.plant(null)
    }
  }, 60_000)

  it('needs a url or a send, one of the two; an unknown endpoint is one line listing the known ones', async () => {
    await expect(checkSequences({})).rejects.toThrow('checkSequences: give the server as url or as send, one of the two')
    await expect(checkSequences({ url: 'http://127.0.0.1:1', endpoints: ['budget.close' as 'budget.get'] })).rejects.toThrow(
      'unknown endpoint "budget.close": the kit checks budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, index.decisions'
    )
    await expect(checkSequences({ url: 'http://127.0.0.1:1', endpoints: ['index.decisions'] })).rejects.toThrow(
      /^checkSequences: no request of index\.decisions is one a sequence sends/
    )
    await expect(
      checkConformance({ send: () => Promise.reject(new Error('unused')), endpoints: ['budget.get'] })
    ).rejects.toThrow(/^no endpoint of budget\.get is one a single scenario checks/)
  })
})

describe('a partial server (R-95): only budget.update and index.bank_transactions', () => {
  const has = (method: string, path: string) =>
    (method === 'PATCH' && /^\/v1\/budgets\/[^/]+$/.test(path)) || (method === 'GET' && path === '/v1/banking/bank_transactions')
  const only = 'budget.update,index.bank_transactions'

  it('passes with --endpoints, and fails at the first endpoint it lacks without', async () => {
    server.plant(null, has)
    try {
      const scenarios = await runCli(['conformance', '--url', server.url, '--endpoints', only, '--runs', '30', '--seed', '7'])
      expect([scenarios.code, scenarios.stdout, scenarios.stderr]).toEqual([0, '30 scenarios, 0 disagreements\n', ''])
      const sequences = await runCli([
        'conformance',
        '--sequences',
        '--url',
        server.url,
        '--endpoints',
        only,
        '--runs',
        '4',
        '--seed',
        '7'
      ])
      expect([sequences.code, sequences.stderr]).toEqual([0, ''])
      expect(sequences.stdout).toMatch(/^4 sequences \(\d+ requests\), 0 disagreements\n$/)
      const all = await runCli(['conformance', '--url', server.url, '--runs', '30', '--seed', '7'])
      expect([all.code, all.stderr]).toEqual([1, ''])
      // Stopped at a missing endpoint: the 404 of a route the server lacks.
      expect(all.stdout).toMatch(/^Disagreement on budget\.(top_up|withdraw|amount) /)
      expect(all.stdout).toMatch(/\n {2}status: expected \d{3}, actual 404\n/)
    } finally {
      server.plant(null)
    }
  }, 60_000)

  it('an unknown endpoint: one line listing the known ones, exit 1, nothing sent', async () => {
    expect(await runCli(['conformance', '--url', 'http://127.0.0.1:1', '--endpoints', 'budget.update,budget.close'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: --endpoints: unknown endpoint "budget.close": the kit checks budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, index.decisions\n'
    })
  })
})

describe("the kit's own statistics", () => {
  /**
   * The library's reply to the scenario were the server to ignore the company: every company's
   * records on the page, and a budget of another company at the path's id taken as the caller's.
   */
  const ignoringCompany = (s: Scenario) => {
    const company = s.request.headers['company-id'] ?? ''
    const others = s.state.others ?? []
    const id = s.request.path.split('/')[3]
    const foreign = others.map((o) => o.budget).find((b) => b !== null && b.id === id)
    const budget = s.state.budget ?? (foreign === undefined || foreign === null ? null : { ...foreign, company_id: company })
    return expectedReply({
      ...s,
      state: { ...s.state, budget, records: [...s.state.records, ...others.flatMap((o) => o.records)] }
    })
  }

  it('every scenario holds another company; most index scenarios, and some budget ones, hold it where a leak shows', () => {
    const scenarios = fc.sample(scenario(), { numRuns: 600, seed: 37 })
    const shows = (s: Scenario) => JSON.stringify(ignoringCompany(s)) !== JSON.stringify(expectedReply(s))
    expect(scenarios.every((s) => s.state.others?.[0]?.company_id === 'c-2')).toBe(true)
    const index = scenarios.filter((s) => s.endpoint === 'index.bank_transactions')
    const budgets = scenarios.filter((s) => s.endpoint !== 'index.bank_transactions')
    const signedIn = index.filter((s) => expectedReply(s).status === 200)
    expect(signedIn.filter(shows).length / signedIn.length).toBeGreaterThan(0.8)
    expect(budgets.filter(shows).length / budgets.length).toBeGreaterThan(0.05)
  })
})

describe('foreignIn, on replies written by hand', () => {
  const held = {
    company_id: 'c-1',
    budget: null,
    records: [
      { id: 'tx-1', amount: 5, status: 'pending', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z' }
    ],
    others: [
      {
        company_id: 'c-2',
        budget: null,
        records: [
          { id: 'tx-1c2', amount: 5, status: 'pending', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z' }
        ]
      }
    ]
  }
  const page = (query = '', headers: Record<string, string> = { Authorization: 'Bearer k', 'company-id': 'c-1' }) => ({
    method: 'GET' as const,
    path: `/v1/banking/bank_transactions${query}`,
    headers,
    body: undefined
  })
  const expected = {
    status: 200,
    headers: { 'X-Total-Count': '1', 'Content-Range': '0-0/1' },
    body: [{ id: 'tx-1' }],
    reasons: []
  }

  it('names a foreign id at its place, in any key, and the company counted in the totals, whatever the headers object', () => {
    const body = JSON.stringify([{ id: 'tx-1' }, { id: 'tx-1c2', 'the owner': 'c-2' }])
    expect(
      foreignIn(held, page('?_start=0&_end=1'), expected, {
        status: 200,
        headers: new Headers({ 'X-Total-Count': '2', 'Content-Range': '0-1/2' }),
        body
      })
    ).toEqual([
      { id: 'tx-1c2', company_id: 'c-2', where: 'body[1].id' },
      { id: 'c-2', company_id: 'c-2', where: 'body[1]["the owner"]' },
      { id: 'tx-1c2', company_id: 'c-2', where: 'X-Total-Count: 2, the company holds 1' },
      { id: 'tx-1c2', company_id: 'c-2', where: 'Content-Range: 2, the company holds 1' }
    ])
  })

  it('finds nothing in a reply of the company alone, in a request without company-id, or in a total no foreign record matches', () => {
    const own = { status: 200, headers: expected.headers, body: JSON.stringify([{ id: 'tx-1' }]) }
    expect(foreignIn(held, page(), expected, own)).toEqual([])
    expect(foreignIn(held, page('', { Authorization: 'Bearer k' }), expected, { ...own, body: '[{"id":"tx-1c2"}]' })).toEqual([])
    const more = { ...own, headers: { 'X-Total-Count': '3', 'Content-Range': '0-0/3' } }
    expect(foreignIn(held, page('?status=authorized'), expected, more)).toEqual([])
  })

  it('names a decision record of another company by its id', () => {
    const decisions = { ...page(), path: '/v1/decisions' }
    const records = [
      { id: 'r-1', company_id: 'c-1' },
      { id: 'r-2', company_id: 'c-2' }
    ]
    expect(
      foreignIn(held, decisions, { ...expected, body: [] }, { status: 200, headers: {}, body: JSON.stringify(records) })
    ).toEqual([{ id: 'r-2', company_id: 'c-2', where: 'body[1]' }])
  })
})
