import { either } from 'fp-ts'
import fc from 'fast-check'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { BudgetContext } from '../../src/facade/budget-context'
import { checkOnly } from '../../src/facade/context'
import { IndexContext } from '../../src/facade/index-endpoint'
import { endpoints } from '../../src/index'

// checkOnly trusts a codec that checks without converting. The facades wrap their contexts in
// it; this property shows, for contexts valid and not, that the wrapped codec decodes exactly
// as the codec itself, and that a valid context comes back as the very object given.

// Valid contexts by construction; then, in about half the runs, one part spoiled.
const request = fc.record(
  {
    headers: fc.dictionary(
      fc.constantFrom('Authorization', 'company-id', 'x-n'),
      fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }))
    ),
    query: fc.string(),
    body: fc.oneof(fc.string(), fc.constant(undefined))
  },
  { requiredKeys: ['headers'] }
)
const session = fc.record({
  user: fc.oneof(fc.constant(null), fc.record({ id: fc.string(), email_verified: fc.boolean() })),
  memberships: fc.dictionary(
    fc.constantFrom('c-1', 'c-2'),
    fc.record({
      role: fc.constantFrom('owner', 'admin', 'member'),
      permissions: fc.array(fc.constantFrom('budgets_manage', 'x'))
    })
  )
})
const budgetContext = fc.record(
  {
    request,
    session,
    budget: fc.oneof(fc.constant(null), fc.object()),
    today: fc.constantFrom('2026-11-22', '2028-02-29', '0001-01-01'),
    request_id: fc.string(),
    company_member_ids: fc.array(fc.string())
  },
  { requiredKeys: ['request', 'session', 'budget', 'today', 'request_id'] }
)
const indexContext = fc.record({
  request,
  session,
  endpoint: fc.constantFrom(...Object.values(endpoints)),
  records: fc.array(fc.object(), { maxLength: 3 }),
  request_id: fc.string()
})
/** A value at a path that no context codec takes there. */
const spoil = fc.option(
  fc.tuple(
    fc.constantFrom(
      ['request', 'headers', 'x-n'],
      ['request', 'query'],
      ['session', 'user', 'email_verified'],
      ['session', 'memberships', 'c-1'],
      ['budget'],
      ['today'],
      ['request_id'],
      ['company_member_ids'],
      ['endpoint', 'orderCase'],
      ['records']
    ),
    fc.constantFrom(7, 'Admin', '2026-02-29', '22/11/2026', null, [1])
  ),
  { freq: 2 }
)
const spoiled = (u: Record<string, unknown>, at: readonly string[], value: unknown): Record<string, unknown> => {
  const [key, ...rest] = at as [string, ...string[]]
  const inner = u[key]
  return {
    ...u,
    [key]:
      rest.length === 0 || typeof inner !== 'object' || inner === null
        ? value
        : spoiled(inner as Record<string, unknown>, rest, value)
  }
}
const contextsOf = (valid: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(valid, spoil).map(([u, s]) => (s === null ? u : spoiled(u, s[0], s[1])))

/** Each error as the facades report it: its path, the value found there and the message. */
const errorsOf = (d: t.Validation<unknown>) =>
  either.isRight(d) ? 'valid' : d.left.map((e) => [e.context.map((c) => c.key).join('.'), e.value, e.message])

describe('checkOnly: a context codec used as a check', () => {
  const cases = [
    ['BudgetContext', BudgetContext, contextsOf(budgetContext)],
    ['IndexContext', IndexContext, contextsOf(indexContext)]
  ] as const
  for (const [name, codec, contexts] of cases) {
    it(`decodes every ${name} as the codec does, a valid one as the very object given`, () => {
      const valid = { yes: 0, no: 0 }
      const checked = checkOnly(codec as never)
      fc.assert(
        fc.property(contexts, (u) => {
          const mine = checked.decode(u)
          expect(errorsOf(mine)).toEqual(errorsOf(codec.decode(u)))
          // `validate`, which a codec built on the checked one calls, agrees with `decode`.
          expect(errorsOf(checked.validate(u, [{ key: '', type: checked, actual: u }]))).toEqual(errorsOf(mine))
          if (either.isRight(mine)) {
            valid.yes++
            expect(mine.right).toBe(u)
            expect(codec.decode(u)).toEqual(either.right(u))
          } else valid.no++
        }),
        { numRuns: 400 }
      )
      // Both kinds are reached by construction, each in a good share of the runs.
      expect(valid.yes).toBeGreaterThan(40)
      expect(valid.no).toBeGreaterThan(40)
    })
  }
})
