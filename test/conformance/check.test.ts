import { describe, expect, it } from 'vitest'
import type { Scenario } from '../../src/arbitraries'
import { checkConformance, DEFAULT_RUNS, formatDisagreement } from '../../src/conformance'
import { shortBody } from '../../src/conformance/report'
import { contentRangeOffByOne, faithful, leaksExistence, managerMayChangeManager, topUpAppliedTwice } from './planted'

const SEEDS = [1, 2, 3, 4, 5]

describe('checkConformance', () => {
  it('passes a server that embeds the facades, over every run', async () => {
    expect(await checkConformance({ send: faithful, seed: 11 })).toStrictEqual({ ok: true, runs: DEFAULT_RUNS })
    expect(await checkConformance({ send: faithful, numRuns: 400, seed: 12 })).toStrictEqual({ ok: true, runs: 400 })
  })

  it('passes when narrowed to one endpoint', async () => {
    expect(await checkConformance({ send: faithful, numRuns: 50, seed: 3, endpoints: ['budget.withdraw'] })).toStrictEqual({
      ok: true,
      runs: 50
    })
  })

  const planted = [
    {
      name: 'a manager may change the manager',
      send: managerMayChangeManager,
      endpoint: 'budget.update',
      expected: { status: 403, code: 'budgets/cannot_change_manager' }
    },
    {
      name: 'Content-Range off by one',
      send: contentRangeOffByOne,
      endpoint: 'index.bank_transactions',
      expected: { status: 200 }
    },
    { name: 'a top-up applied twice', send: topUpAppliedTwice, endpoint: 'budget.top_up', expected: { status: 200 } },
    {
      name: "another company's budget is a 403",
      send: leaksExistence,
      endpoint: ['budget.update', 'budget.top_up', 'budget.withdraw', 'budget.amount'],
      expected: { status: 404 }
    }
  ] as const

  for (const bug of planted)
    it(`catches a server where ${bug.name}, within the default runs, shrunk to the minimal kind`, async () => {
      const runs: Array<number> = []
      for (const seed of SEEDS) {
        const result = await checkConformance({ send: bug.send, seed })
        if (result.ok || result.kind === 'transport') throw new Error(`seed ${seed}: not caught in ${result.runs} runs`)
        runs.push(result.runs)
        expect(result.runs).toBeLessThanOrEqual(DEFAULT_RUNS)
        expect(result.seed).toBe(seed)
        if (typeof bug.endpoint === 'string') expect(result.scenario.endpoint).toBe(bug.endpoint)
        else expect(bug.endpoint).toContain(result.scenario.endpoint)
        expect(result.expected.status).toBe(bug.expected.status)
        if ('code' in bug.expected) expect(result.expected.body).toMatchObject({ error_code: bug.expected.code })
      }
      console.log(`planted bug "${bug.name}": caught after ${runs.join(', ')} runs (seeds ${SEEDS.join(', ')})`)
    })

  it('shrinks the manager change to a one-field body and replays it from its seed and path', async () => {
    const result = await checkConformance({ send: managerMayChangeManager, seed: 1 })
    if (result.ok || result.kind === 'transport') throw new Error('not caught')
    expect(result.actual).toMatchObject({ status: 200 })
    const sent = JSON.parse(result.scenario.request.body ?? '{}') as { budget: object }
    expect(Object.keys(sent.budget)).toStrictEqual(['manager_id'])
    const replay = await checkConformance({ send: managerMayChangeManager, seed: result.seed, path: result.path })
    expect(replay).toMatchObject({ ok: false, scenario: result.scenario, expected: result.expected })
  })

  it('stops at a send that throws: a transport failure, unshrunk, naming the scenario sent before it', async () => {
    const sent: Array<Scenario> = []
    const send = async (s: Scenario) => {
      if (sent.length === 3) throw new Error('fetch failed')
      sent.push(s)
      return faithful(s)
    }
    const result = await checkConformance({ send, seed: 1, numRuns: 50 })
    if (result.ok || result.kind === 'disagreement') throw new Error('no transport failure')
    expect(result).toStrictEqual({
      ok: false,
      kind: 'transport',
      runs: 4,
      seed: 1,
      scenario: result.scenario,
      previous: sent[2],
      error: 'fetch failed'
    })
    // Nothing was sent after it: the server may be gone.
    expect(sent).toHaveLength(3)
    const text = formatDisagreement(result)
    expect(text).toMatch(
      new RegExp(
        `^No reply to ${result.scenario.endpoint.replace('.', '\\.')} after 4 runs: a transport failure, not a disagreement`
      )
    )
    expect(text).toContain('error: fetch failed')
    expect(text).toContain(`the request sent before it (${sent[2]?.endpoint ?? ''}):\n  ${sent[2]?.request.method ?? ''} `)
  })

  it('a transport failure with nothing before it, and a long body cut short', async () => {
    const result = await checkConformance({ send: () => Promise.reject(new Error('connection refused')), seed: 1, numRuns: 5 })
    if (result.ok || result.kind === 'disagreement') throw new Error('no transport failure')
    expect(result).toMatchObject({ previous: null, error: 'connection refused' })
    expect(formatDisagreement(result)).toContain('no request was sent before it')
    expect(shortBody('x'.repeat(301))).toBe(`${'x'.repeat(300)}... (301 characters)`)
    expect(shortBody('x'.repeat(300))).toBe('x'.repeat(300))
  })

  it('a send that fails while a disagreement shrinks does not stop the shrinking', async () => {
    let calls = 0
    const send = async (s: Scenario) => {
      calls++
      // Fails every other call once the first disagreement is found (the manager bug, seed 1).
      if (calls > 20 && calls % 2 === 0) throw new Error('flaky')
      return managerMayChangeManager(s)
    }
    const result = await checkConformance({ send, seed: 1 })
    expect(result).toMatchObject({ ok: false, kind: 'disagreement', scenario: { endpoint: 'budget.update' } })
  })
})

describe('formatDisagreement', () => {
  it('prints the request, the differences, the rules and the replay line', async () => {
    const result = await checkConformance({ send: managerMayChangeManager, seed: 1 })
    if (result.ok || result.kind === 'transport') throw new Error('not caught')
    const text = formatDisagreement(result)
    expect(text).toContain(`Disagreement on budget.update (found after ${result.runs} runs, shrunk)`)
    expect(text).toContain(
      '  PATCH /v1/budgets/b-1\n  Authorization: Bearer conformance\n  company-id: c-1\n  Content-Type: application/json'
    )
    expect(text).toContain('status: expected 403, actual 200')
    expect(text).toContain('-   "error_code": "budgets/cannot_change_manager",')
    expect(text).toContain('+   "id": "b-1",')
    expect(text).toMatch(/rules of the expected reply: auth\.bearer, .*budget\.permission\.manager$/m)
    expect(text).toContain(`replay: checkConformance({ send, seed: 1, path: "${result.path}" })`)
  })

  it('prints a differing header and an agreement', async () => {
    const result = await checkConformance({ send: contentRangeOffByOne, seed: 2 })
    if (result.ok || result.kind === 'transport') throw new Error('not caught')
    const [, from, to, total] = /^(\d+)-(\d+)\/(\d+)$/.exec(result.expected.headers['Content-Range'] ?? '') ?? []
    expect(formatDisagreement(result)).toContain(
      `header Content-Range: expected "${from}-${to}/${total}", actual "${from}-${Number(to) + 1}/${total}"`
    )
    expect(formatDisagreement({ ok: true, runs: 7 })).toBe('7 scenarios, 0 disagreements')
  })
})
