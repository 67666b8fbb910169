/**
 * A decision in progress: the rules consulted so far (`reasons`) and either the problem that
 * stopped it or the value it has reached. Checks run in the order the contract lists them and
 * the first problem wins (401 before 404 before 412 ...), so `chain` short-circuits, while a
 * single check may still gather many field errors (a 422 names every invalid field).
 *
 * Laws (`Trail` is a monad over `Either<Problem, _>` with an append-only log):
 * - `chain(of)(t) = t`
 * - `chain(f)(of(a)) = f(a)`
 * - `chain(g)(chain(f)(t)) = chain((a) => chain(g)(f(a)))(t)`
 * - the reasons of a failed trail end with the rule of its problem.
 *
 * @example
 * import { function as fn } from 'fp-ts'
 * import { problem } from 'budget-rules/rules'
 *
 * fn.pipe(
 *   pass('auth.bearer', 'bearer key given', 'key'),
 *   chain(() => fail(problem.emailNotVerified('auth.email_verified', 'email not verified')))
 * ).reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified']
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import type { Problem } from './problem'
import type { Reason, RuleId } from './rules'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A decision so far: the rules consulted, in order, and the problem that stopped it or the
 * value it reached.
 *
 * @example
 * pass('auth.bearer', 'key of user u-1', { user_id: 'u-1' })
 * //=> { reasons: [{ rule: 'auth.bearer', detail: 'key of user u-1' }], result: right({ user_id: 'u-1' }) }
 *
 * @category model
 * @since 0.1.0
 */
export interface Trail<A> {
  readonly reasons: ReadonlyArray<Reason>
  readonly result: E.Either<Problem, A>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A value reached without consulting any rule.
 *
 * @example
 * of(7) //=> { reasons: [], result: right(7) }
 *
 * @category constructors
 * @since 0.1.0
 */
export const of = <A>(a: A): Trail<A> => ({ reasons: [], result: E.right(a) })

/**
 * A rule consulted that let the request through.
 *
 * @example
 * pass('money.status', 'status open', 7) //=> { reasons: [{ rule: 'money.status', detail: 'status open' }], result: right(7) }
 *
 * @category constructors
 * @since 0.1.0
 */
export const pass = <A>(rule: RuleId, detail: string, a: A): Trail<A> => ({
  reasons: [{ rule, detail }],
  result: E.right(a)
})

/**
 * A rule that refused: its reason is the problem's rule and detail.
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * fail(problem.conflict('money.status', 'The budget is closed')).reasons //=> [{ rule: 'money.status', detail: 'The budget is closed' }]
 *
 * @category constructors
 * @since 0.1.0
 */
export const fail = (p: Problem): Trail<never> => ({
  reasons: [{ rule: p.rule, detail: p.detail }],
  result: E.left(p)
})

/**
 * A check written as an `Either`: a `Right` passes with the detail `onPass` gives.
 *
 * @example
 * check('page.window', (w) => `window ${w}`, right('0-99')) //=> { reasons: [{ rule: 'page.window', detail: 'window 0-99' }], result: right('0-99') }
 *
 * @category constructors
 * @since 0.1.0
 */
export const check = <A>(rule: RuleId, onPass: (a: A) => string, e: E.Either<Problem, A>): Trail<A> =>
  E.isLeft(e) ? fail(e.left) : pass(rule, onPass(e.right), e.right)

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Appends the reasons of a step to `reasons` and gives its result. A decision written as
 * statements (a step, then a return on its problem) keeps one list of reasons this way, where a
 * pipe of `chain`s copies the list at every step: on a hot path (an update decision takes fifteen
 * steps) the copies, closures and trails cost a third of the decision.
 *
 * @example
 * import { problem } from 'budget-rules/rules'
 *
 * const reasons: Array<Reason> = []
 * recordInto(reasons, pass('auth.bearer', 'key of user u-1', 'u-1')) //=> right('u-1')
 * recordInto(reasons, fail(problem.conflict('money.status', 'The budget is closed')))
 * //=> left({ _tag: 'Conflict', rule: 'money.status', message: 'The budget is closed', detail: 'The budget is closed' })
 * reasons.map((r) => r.rule) //=> ['auth.bearer', 'money.status']
 *
 * @category utils
 * @since 0.2.0
 */
export const recordInto = <A>(reasons: Array<Reason>, trail: Trail<A>): E.Either<Problem, A> => {
  for (const r of trail.reasons) reasons.push(r)
  return trail.result
}

/**
 * The next step `f` after `ta`, whose value, when both pass, `keep` makes of the two: `chain`
 * and `map` in one, with a single trail built.
 */
const step = <A, B, C>(ta: Trail<A>, keep: (a: A, b: B) => C, f: (a: A) => Trail<B>): Trail<C> => {
  if (ta.result._tag === 'Left') return ta as unknown as Trail<C>
  const a = ta.result.right
  const tb = f(a)
  const reasons = joined(ta.reasons, tb.reasons)
  return tb.result._tag === 'Left' ? { reasons, result: tb.result } : { reasons, result: E.right(keep(a, tb.result.right)) }
}

/** The reasons of two steps in order, sharing either list when the other is empty: most steps add one. */
const joined = (a: ReadonlyArray<Reason>, b: ReadonlyArray<Reason>): ReadonlyArray<Reason> => {
  if (b.length === 0) return a
  if (a.length === 0) return b
  // A loop: `concat` checks every argument for Symbol.isConcatSpreadable and costs several times more.
  const both = a.slice()
  for (const r of b) both.push(r)
  return both
}

/**
 * The next step, given the value reached; skipped once a problem has been found.
 *
 * @example
 * chain((n: number) => pass('money.apply', 'applied', n + 1))(of(1)) //=> { reasons: [{ rule: 'money.apply', detail: 'applied' }], result: right(2) }
 *
 * @category combinators
 * @since 0.1.0
 */
export const chain =
  <A, B>(f: (a: A) => Trail<B>) =>
  (ta: Trail<A>): Trail<B> => {
    if (ta.result._tag === 'Left') return ta as unknown as Trail<B>
    const tb = f(ta.result.right)
    return { reasons: joined(ta.reasons, tb.reasons), result: tb.result }
  }

/**
 * The value reached, transformed; the reasons unchanged.
 *
 * @example
 * map((n: number) => n * 2)(pass('money.body', 'amount_cents 5', 5)).result //=> right(10)
 *
 * @category combinators
 * @since 0.1.0
 */
export const map =
  <A, B>(f: (a: A) => B) =>
  (ta: Trail<A>): Trail<B> =>
    ta.result._tag === 'Left' ? (ta as unknown as Trail<B>) : { reasons: ta.reasons, result: E.right(f(ta.result.right)) }

/**
 * Adds the value of the next step under `name`, keeping what was reached (do notation).
 *
 * @example
 * bind('amount', () => of(500))(of({ budget_id: 'b-1' })).result //=> right({ budget_id: 'b-1', amount: 500 })
 *
 * @category combinators
 * @since 0.1.0
 */
export const bind =
  <N extends string, A, B>(name: Exclude<N, keyof A>, f: (a: A) => Trail<B>) =>
  (ta: Trail<A>): Trail<A & { readonly [K in N]: B }> =>
    // `chain` then `map`, written out: a decision binds a dozen steps, each on every request.
    step(ta, (a, b: B) => ({ ...a, [name]: b }) as A & { readonly [K in N]: B }, f)

/**
 * Runs a check for its verdict only, keeping the value reached.
 *
 * @example
 * tap(() => pass('money.status', 'status open', null))(of('b-1')) //=> { reasons: [{ rule: 'money.status', detail: 'status open' }], result: right('b-1') }
 *
 * @category combinators
 * @since 0.1.0
 */
export const tap =
  <A>(f: (a: A) => Trail<unknown>) =>
  (ta: Trail<A>): Trail<A> =>
    step(ta, (a) => a, f)
