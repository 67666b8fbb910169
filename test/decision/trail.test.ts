import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chain, fail, of, pass, type Trail } from '../../src/decision/trail'
import { problem, type RuleId, rules } from '../api'

const ruleId = fc.constantFrom(...(Object.keys(rules) as Array<RuleId>))
const trail: fc.Arbitrary<Trail<number>> = fc.oneof(
  fc.tuple(ruleId, fc.string(), fc.integer()).map(([r, d, n]) => pass(r, d, n)),
  fc.tuple(ruleId, fc.string()).map(([r, d]) => fail(problem.conflict(r, d))),
  fc.integer().map((n) => of(n))
)
const step: fc.Arbitrary<(n: number) => Trail<number>> = fc.tuple(ruleId, fc.boolean(), fc.integer()).map(
  ([r, ok, k]) =>
    (n: number) =>
      ok ? pass(r, `+${k}`, n + k) : fail(problem.badRequest(r, `at ${n}`))
)

describe('Trail', () => {
  it('chain leaves the trails it joins as they were: the reasons are a new list', () => {
    const first = pass('budget.scope', 'first', 1)
    const joined = chain((n: number) => pass('budget.stored', 'second', n + 1))(first)
    expect([first.reasons.length, joined.reasons.map((r) => r.detail)]).toEqual([1, ['first', 'second']])
  })

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
    // Every run ends in a problem: either the trail had one already, or the step refuses.
    const refusing = fc.tuple(ruleId, fc.string()).map(
      ([r, d]) =>
        (n: number) =>
          fail(problem.conflict(r, `${d} at ${n}`))
    )
    fc.assert(
      fc.property(trail, refusing, (t, f) => {
        const r = chain(f)(t)
        expect(r.result._tag).toBe('Left')
        if (r.result._tag === 'Left') expect(r.reasons.at(-1)).toEqual({ rule: r.result.left.rule, detail: r.result.left.detail })
      })
    )
  })

  it("appends a step's reasons after the trail's, and skips the step after a problem", () => {
    expect(chain(() => pass('auth.email_verified', 'email verified', 2))(pass('auth.bearer', 'key of user u-1', 1))).toEqual({
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-1' },
        { rule: 'auth.email_verified', detail: 'email verified' }
      ],
      result: { _tag: 'Right', right: 2 }
    })
    const refused = fail(problem.notFound('budget.scope', 'no budget with that id'))
    expect(chain(() => pass('budget.advance', 'nothing to roll forward', 2))(refused)).toEqual({
      reasons: [{ rule: 'budget.scope', detail: 'no budget with that id' }],
      result: { _tag: 'Left', left: { _tag: 'NotFound', rule: 'budget.scope', detail: 'no budget with that id' } }
    })
  })
})
