import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chain, fail, of, pass, type Trail } from '../../src/decision/trail'
import { problem, type RuleId, rules } from '../../src/index'

const ruleId = fc.constantFrom(...(Object.keys(rules) as Array<RuleId>))
const trail: fc.Arbitrary<Trail<number>> = fc.oneof(
  fc.tuple(ruleId, fc.string(), fc.integer()).map(([r, d, n]) => pass(r, d, n)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => fail(problem.conflict(r, d))),
  fc.integer().map((n) => of(n))
)
const step: fc.Arbitrary<(n: number) => Trail<number>> = fc
  .tuple(ruleId, fc.boolean(), fc.integer())
  .map(([r, ok, k]) => (n: number) => (ok ? pass(r, `+${k}`, n + k) : fail(problem.badRequest(r, `at ${n}`))))

describe('Trail', () => {
  it('left identity: chain(f)(of(a)) = f(a)', () => {
    fc.assert(
      fc.property(fc.integer(), step, (a, f) => {
        expect(chain(f)(of(a))).toEqual(f(a))
      })
    )
  })

  it('right identity: chain(of)(t) = t', () => {
    fc.assert(
      fc.property(trail, (t) => {
        expect(chain(of)(t)).toEqual(t)
      })
    )
  })

  it('associativity', () => {
    fc.assert(
      fc.property(trail, step, step, (t, f, g) => {
        expect(chain(g)(chain(f)(t))).toEqual(chain((a: number) => chain(g)(f(a)))(t))
      })
    )
  })

  it('ends the reasons of a failed trail with the rule of its problem', () => {
    fc.assert(
      fc.property(trail, step, (t, f) => {
        const r = chain(f)(t)
        if (r.result._tag === 'Left') expect(r.reasons.at(-1)?.rule).toBe(r.result.left.rule)
      })
    )
  })
})
