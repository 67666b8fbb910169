/**
 * Nothing in the OpenAPI document promises what the facades refuse, or omits what they
 * return: every reply of every facade over generated requests (the conformance scenarios of
 * `budget-rules/arbitraries`, and generated sessions and bodies for the other operations) has a
 * status the document lists for its operation, a body its schema admits (checked by Ajv), the
 * headers it requires, and `reasons` that name only the rules the operation lists. Every body
 * `statusAndBody` writes is one its kind's schema admits.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Scenario, scenario, session } from '../../src/arbitraries'
import { expectedReply } from '../../src/conformance/expected'
import * as problem from '../../src/decision/problem'
import type { Problem } from '../../src/decision/problem'
import { rules, type RuleId } from '../../src/decision/rules'
import { respondAuthorizeTransaction, respondBankRecipient, respondIndex, respondRoleAssignment } from '../../src/index'
import { endpoints } from '../../src/paging/endpoint'
import { openApiDocument, operations } from '../../src/openapi'
import { problemBodies } from '../../src/openapi/replies'
import { statusAndBody } from '../../src/reply/reply'
import { runs } from '../runs'

const doc = openApiDocument()
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: 'openapi.json', components: doc.components })

const compiled = new Map<string, ValidateFunction>()
/** A schema of the document, its `$ref`s read in the document. */
const validator = (schema: unknown): ValidateFunction => {
  const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')
  let v = compiled.get(text)
  if (v === undefined) {
    v = ajv.compile(JSON.parse(text) as object)
    compiled.set(text, v)
  }
  return v
}

interface ReplyLike {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly reasons: ReadonlyArray<{ readonly rule: string }>
}

type Response = { content?: Record<string, { schema: unknown }>; headers: Record<string, { $ref: string }> }

/** What breaks the document in one reply of `operationId`, as sentences; none when it conforms. */
const breaches = (operationId: string, reply: ReplyLike): ReadonlyArray<string> => {
  const operation = operations.find((o) => o.operationId === operationId)
  if (operation === undefined) return [`no operation ${operationId}`]
  const described = doc.paths[operation.path]?.[operation.method] as { responses: Record<string, Response> }
  const response = described.responses[String(reply.status)]
  if (response === undefined) return [`status ${reply.status} is not in the document`]
  const found: Array<string> = []
  const unlisted = reply.reasons.map((r) => r.rule).filter((r) => !operation.rules.includes(r as RuleId))
  if (unlisted.length > 0) found.push(`rules not listed for the operation: ${unlisted.join(', ')}`)
  const schema = response.content?.['application/json']?.schema
  if (schema !== undefined) {
    const validate = validator(schema)
    if (!validate(reply.body)) found.push(`body ${JSON.stringify(reply.body)}: ${ajv.errorsText(validate.errors)}`)
  }
  const components = doc.components as { headers: Record<string, { required?: boolean; schema: unknown }> }
  for (const [name, reference] of Object.entries(response.headers)) {
    const header = components.headers[reference.$ref.split('/').at(-1) as string]
    const value = reply.headers[name]
    if (value === undefined) {
      if (header?.required === true) found.push(`header ${name} is missing`)
    } else {
      // A header is text; OpenAPI's simple style reads an integer header as the number it spells.
      const integer = (header?.schema as { type?: string } | undefined)?.type === 'integer'
      if (!validator(header?.schema)(integer && /^-?\d+$/.test(value) ? Number(value) : value))
        found.push(`header ${name}: ${value}`)
    }
  }
  return found
}

const operationIdOf: Readonly<Record<Scenario['endpoint'], string>> = {
  'budget.update': 'updateBudget',
  'budget.top_up': 'topUpBudget',
  'budget.withdraw': 'withdrawFromBudget',
  'budget.amount': 'setBudgetAmount',
  'index.bank_transactions': 'listBankTransactions'
}

describe('the facades against the document', () => {
  it('every reply to a conformance scenario conforms, across every status', () => {
    const seen = new Map<string, Set<number>>()
    fc.assert(
      fc.property(scenario(), (s) => {
        const reply = expectedReply(s)
        const statuses = seen.get(s.endpoint) ?? new Set()
        seen.set(s.endpoint, statuses.add(reply.status))
        expect(breaches(operationIdOf[s.endpoint], reply), `${s.endpoint} ${reply.status}`).toEqual([])
      }),
      { numRuns: runs(1500) }
    )
    // The runs reach the refusals of each endpoint, not only its successes.
    expect([...(seen.get('budget.update') ?? [])].sort()).toEqual([200, 400, 401, 403, 404, 409, 412, 422])
    expect([...(seen.get('budget.top_up') ?? [])].sort()).toEqual([200, 400, 401, 404, 409, 422])
    expect([...(seen.get('index.bank_transactions') ?? [])].sort()).toEqual([200, 400, 401, 404, 416])
  })

  // Mostly requests that pass the first checks, so that the later rules decide most runs.
  const headers = fc.oneof(
    { arbitrary: fc.constant({ Authorization: 'Bearer k', 'company-id': 'c-1' }), weight: 4 },
    {
      arbitrary: fc.record({
        Authorization: fc.constantFrom('Bearer k', 'Basic k', ''),
        'company-id': fc.constantFrom('c-1', 'c-2', '')
      }),
      weight: 1
    }
  )
  const text = fc.oneof(
    { arbitrary: fc.constantFrom('{"role":"owner"}', '{"role":"admin"}', '{"role":"member"}'), weight: 4 },
    { arbitrary: fc.oneof(fc.json(), fc.string(), fc.constantFrom('{"role":"Admin"}', '[]', 'null', '')), weight: 2 }
  )

  it('every reply of a role assignment, an authorization, an enrolment and the companies conforms', () => {
    const seen = new Map<string, Set<number>>()
    const note = (id: string, reply: ReplyLike) => {
      seen.set(id, (seen.get(id) ?? new Set()).add(reply.status))
      expect(breaches(id, reply), `${id} ${reply.status}`).toEqual([])
    }
    const enrolled = { rut: '12.345.678-5', account_number: '00-123-456', bank_id: 'bank-1', name: 'Ana' }
    const recipient = fc.oneof(
      // the one already enrolled, in another spelling: a 409 when the caller may enroll
      fc.constant({ bank_recipient: enrolled }),
      // a new one, valid in every field: a 201 when the caller may enroll
      fc.constant({ bank_recipient: { rut: '1-9', account_number: '1234567890', bank_id: 'bank-1', name: 'Ana' } }),
      fc.record({
        bank_recipient: fc.record({
          rut: fc.constantFrom('12.345.678-5', '12345678-5', '1-9', 'x'),
          account_number: fc.constantFrom('00-123-456', '12', '1234567890'),
          bank_id: fc.constantFrom('bank-1', 'bank-9'),
          name: fc.constantFrom('Ana', '', ' Ana Pérez ')
        })
      }),
      fc.jsonValue()
    )
    fc.assert(
      fc.property(
        session(),
        headers,
        text,
        recipient,
        fc.constantFrom('pending', 'authorized'),
        fc.constantFrom('c-1', 'c-2'),
        (who, h, body, enrol, status, company) => {
          note(
            'assignRole',
            respondRoleAssignment({ request: { headers: h, body }, session: who, user_id: 'u-member', request_id: 'r' })
          )
          note(
            'authorizeBankTransaction',
            respondAuthorizeTransaction({
              request: { headers: h },
              session: who,
              transaction: { id: 'tx-1', company_id: company, amount: 1200, status, created_at: '2026-11-20T09:00:00Z' },
              request_id: 'r'
            })
          )
          note(
            'createBankRecipient',
            respondBankRecipient({
              request: { headers: h, body: JSON.stringify(enrol) },
              session: who,
              bank_ids: ['bank-1'],
              enrolled: [{ rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1' }],
              request_id: 'r'
            })
          )
          note(
            'listCompanies',
            respondIndex({
              request: { headers: h, query: '_end=1' },
              session: who,
              endpoint: endpoints.companies,
              records: [{ id: 'c-1', name: 'Acme', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }],
              request_id: 'r'
            })
          )
        }
      ),
      { numRuns: runs(600) }
    )
    expect([...(seen.get('assignRole') ?? [])].sort()).toEqual([200, 400, 401, 403, 404, 422])
    expect([...(seen.get('authorizeBankTransaction') ?? [])].sort()).toEqual([200, 401, 404, 409])
    expect([...(seen.get('createBankRecipient') ?? [])].sort()).toEqual([201, 400, 401, 404, 409, 422])
    expect([...(seen.get('listCompanies') ?? [])].sort()).toEqual([200, 401])
  })

  it('a reply the document does not describe is named as such (the check can fail)', () => {
    const reply = { status: 200, headers: {}, body: { id: 'b-1' }, reasons: [{ rule: 'page.size' }] }
    expect(breaches('updateBudget', reply)).toEqual([
      'rules not listed for the operation: page.size',
      expect.stringMatching(/^body \{"id":"b-1"\}: data must have required property 'company_id'/),
      'header X-Request-Id is missing'
    ])
    expect(breaches('getBudget', { ...reply, status: 412 })).toEqual(['status 412 is not in the document'])
  })
})

describe('problemBodies', () => {
  const message = fc.string()
  const problems: fc.Arbitrary<Problem> = fc.oneof(
    ...(Object.keys(rules) as ReadonlyArray<RuleId>).flatMap((rule) =>
      rules[rule].refuses.map((kind): fc.Arbitrary<Problem> => {
        switch (kind) {
          case 'Unauthenticated':
            return message.map((d) => problem.unauthenticated(rule, d))
          case 'EmailNotVerified':
            return message.map((d) => problem.emailNotVerified(rule, d))
          case 'GuardRejected':
            return message.map((d) => problem.guardRejected(rule, d))
          case 'NotFound':
            return message.map((d) => problem.notFound(rule, d))
          case 'BadRequest':
            return message.map((d) => problem.badRequest(rule, d))
          case 'PreconditionFailed':
            return message.map((d) => problem.preconditionFailed(rule, d))
          case 'Forbidden':
            return fc.tuple(message, message).map(([code, m]) => problem.forbidden(rule, code, m))
          case 'Denied':
            return message.map((d) => problem.denied(rule, d))
          case 'Conflict':
            return message.map((d) => problem.conflict(rule, d))
          case 'Invalid':
            return fc
              .array(fc.record({ field: fc.string(), messages: fc.array(message) }))
              .map((errors) => problem.invalid(rule, errors))
          case 'RangeNotSatisfiable':
            return fc.tuple(fc.nat(), fc.nat()).map(([size, maximum]) => problem.rangeNotSatisfiable(rule, size, maximum))
          case 'RateLimited':
            return fc.maxSafeNat().map((s) => problem.rateLimited(rule, s))
          case 'InternalError':
            return message.map((d) => problem.internalError(rule, d))
          case 'Upstream':
            return fc
              .tuple(fc.constantFrom<502 | 503 | 504>(502, 503, 504), message)
              .map(([s, d]) => problem.upstream(rule, s, d))
        }
      })
    )
  )

  it('admit every body statusAndBody writes, and are null exactly where it writes none', () => {
    const kinds = new Set<string>()
    fc.assert(
      fc.property(problems, (p) => {
        kinds.add(p._tag)
        const { body } = statusAndBody(p)
        const schema = problemBodies[p._tag]
        expect(body === null, p._tag).toBe(schema === null)
        if (schema !== null) expect(validator(schema)(body), `${p._tag} ${JSON.stringify(body)}`).toBe(true)
      }),
      { numRuns: runs(1000) }
    )
    expect([...kinds].sort()).toEqual(Object.keys(problemBodies).sort())
  })
})
