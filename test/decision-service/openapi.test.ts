/**
 * The decision service's OpenAPI document as the tools written elsewhere read it:
 * Redocly's CLI lints docs/decide.openapi.json and the document the service serves clean, and
 * Stoplight Prism, a validating proxy in front of the service, finds no violation in its replies
 * to generated cases, single and batched, their refusals, and a request without the token.
 */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Scenario, scenario } from '../../src/arbitraries'
import { type DecisionServiceRunning, startDecisionService } from '../../src/server/decide/main'
import { decisionServiceDocument } from '../../src/server/decide/openapi'
import { DECIDE_OPENAPI_DOC } from '../../scripts/openapi'
import { type Prism, startPrism, violationsOf } from '../openapi/prism'
import { lint } from '../openapi/redocly'
import { runs, timeoutFor } from '../runs'

const clean = { status: 0, totals: { errors: 0, warnings: 0, ignored: 0 }, problems: [] }

describe('Redocly', () => {
  it('lints docs/decide.openapi.json clean: no error, no warning', () => {
    expect(lint(JSON.parse(readFileSync(DECIDE_OPENAPI_DOC, 'utf8')))).toEqual(clean)
  }, 60_000)
})

/** A scenario's request as the case a server sends. */
const caseOf = (s: Scenario): Record<string, unknown> => {
  const at = s.request.path.indexOf('?')
  return s.endpoint === 'index.bank_transactions'
    ? {
        endpoint: s.endpoint,
        request: { headers: s.request.headers, ...(at < 0 ? {} : { query: s.request.path.slice(at + 1) }) },
        session: s.state.session,
        records: s.state.records
      }
    : {
        endpoint: s.endpoint,
        request: { headers: s.request.headers, ...(s.request.body === undefined ? {} : { body: s.request.body }) },
        session: s.state.session,
        budget: s.state.budget,
        today: s.state.today,
        company_member_ids: s.state.company_member_ids
      }
}

describe('Prism in front of the service', () => {
  let service: DecisionServiceRunning
  let prism: Prism
  beforeAll(async () => {
    service = await startDecisionService({ token: 't0k3n' })
    prism = await startPrism(service.url, { ...decisionServiceDocument, servers: [{ url: service.url }] })
  }, 90_000)
  afterAll(async () => {
    await prism.close()
    await service.close()
  })

  const post = async (path: string, body: unknown, token = 't0k3n') => {
    const response = await fetch(`${prism.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body)
    })
    await response.arrayBuffer()
    return {
      status: response.status,
      violations: violationsOf(response.headers).map((v) => `${v.location.join('.')}: ${v.message}`)
    }
  }

  it(
    'finds no violation in the answers to generated cases, one by one and in batches',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(scenario(), { minLength: 1, maxLength: 5 }), async (ss) => {
          const cases = ss.map(caseOf)
          expect(await post('/v1/decide', cases[0])).toEqual({ status: 200, violations: [] })
          expect(await post('/v1/decide/batch', { cases })).toEqual({ status: 200, violations: [] })
          expect(await post('/v1/decide/batch?record=false', { cases })).toEqual({ status: 200, violations: [] })
        }),
        { numRuns: runs(25) }
      )
    },
    timeoutFor(25, 60_000)
  )

  it('finds none in the refusals: a case that is none, a batch too long, a wrong token', async () => {
    expect(await post('/v1/decide', { endpoint: 'budget.close', request: { headers: {} }, session: null })).toEqual({
      status: 400,
      violations: [
        'request.body.endpoint: Request body property endpoint must be equal to one of the allowed values: budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, transaction.authorize, recipient.enroll, index.companies, role.assign, index.decisions'
      ]
    })
    const tooMany = await post('/v1/decide/batch', { cases: Array.from({ length: 1001 }, () => ({})) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.violations.filter((v) => v.startsWith('response'))).toEqual([])
    expect(await post('/v1/decide/batch', { cases: [] }, 'wrong')).toEqual({ status: 401, violations: [] })
  }, 60_000)
})
