import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Problem, problem, problemReply, type RuleId, rules, statusAndBody } from '../api'

const ruleId = fc.constantFrom(...(Object.keys(rules) as Array<RuleId>))

const anyProblem: fc.Arbitrary<Problem> = fc.oneof(
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.unauthenticated(r, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.emailNotVerified(r, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.guardRejected(r, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.notFound(r, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.badRequest(r, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.preconditionFailed(r, d)),
  fc.tuple(ruleId, fc.string(), fc.string()).map(([r, c, d]) => problem.forbidden(r, c, d)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.conflict(r, d)),
  fc
    .tuple(ruleId, fc.array(fc.record({ field: fc.string(), messages: fc.array(fc.string(), { minLength: 1 }) })))
    .map(([r, e]) => problem.invalid(r, e)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => problem.internalError(r, d))
)

describe('problemReply', () => {
  it('always sets X-Request-Id, and Content-Type exactly when there is a body', () => {
    fc.assert(
      fc.property(anyProblem, fc.string(), (p, id) => {
        const r = problemReply(id, [])(p)
        expect(r.headers['X-Request-Id']).toBe(id)
        expect('Content-Type' in r.headers).toBe(r.body !== null)
      })
    )
  })

  it('gives every NotFound the same status and body, whatever its rule and detail', () => {
    fc.assert(
      fc.property(ruleId, fc.string(), ruleId, fc.string(), (r1, d1, r2, d2) => {
        expect(statusAndBody(problem.notFound(r1, d1))).toEqual(statusAndBody(problem.notFound(r2, d2)))
      })
    )
  })

  it.each<[Problem, number, unknown]>([
    [problem.unauthenticated('auth.bearer', 'x'), 401, null],
    [
      problem.emailNotVerified('auth.email_verified', 'x'),
      401,
      { error: 'email_not_verified', message: 'Email address not verified' }
    ],
    [problem.guardRejected('budget.permission.update', 'x'), 401, { message: 'Unauthorized (401)' }],
    [problem.notFound('budget.scope', 'x'), 404, { error: 'not_found', message: 'Not found' }],
    [
      problem.badRequest('budget.body.type', 'The body is not valid JSON'),
      400,
      { error: 'bad_request', message: 'The body is not valid JSON' }
    ],
    [
      problem.preconditionFailed('budget.body.wrapper', 'x'),
      412,
      { message: 'The request body must hold the budget under the key "budget"' }
    ],
    [
      problem.forbidden('budget.permission.manager', 'budgets/cannot_change_manager', 'm'),
      403,
      { error_code: 'budgets/cannot_change_manager', message: 'm' }
    ],
    [
      problem.conflict('budget.status.closed', 'The budget is closed'),
      409,
      { error: 'conflict', message: 'The budget is closed' }
    ],
    [
      problem.invalid('budget.validation', [{ field: 'name', messages: ["can't be blank"] }]),
      422,
      { errors: { name: ["can't be blank"] } }
    ],
    [problem.internalError('server.input', 'x'), 500, { error: 'internal_error', message: 'Internal server error' }]
  ])('maps %o to its status and body', (p, status, body) => {
    expect(statusAndBody(p)).toEqual({ status, body })
  })
})
