/**
 * The linearizability checker (R-93) against a brute force: every order of every history of up
 * to 7 operations, each operation without a reply taken or left out, real time respected. The
 * histories come from a small model of the budget's money (a balance, top-ups, withdrawals
 * refused beyond it, reads, Idempotency-Keys replayed), written here for the test: built
 * linearizable by construction (a sequential run whose operations are then given overlapping
 * times), then in most runs one reply or one time changed, which the brute force judges.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Explanation, linearize, type Timed } from '../../src/conformance/linearizable'
import { runs, timeoutFor } from '../runs'

// -------------------------------------------------------------------------------------
// a small model of a balance, for the test
// -------------------------------------------------------------------------------------

interface Reply {
  readonly status: 200 | 422
  readonly balance: number
  readonly replayed: boolean
}
interface Op extends Timed {
  readonly kind: 'top_up' | 'withdraw' | 'read'
  readonly amount: number
  readonly key: string | null
  readonly reply: Reply | null
}
interface State {
  readonly balance: number
  readonly kept: ReadonlyMap<string, Reply>
}

/** What the operation does to the state, and the reply it gets. */
const apply = (s: State, op: Op): { state: State; reply: Reply } => {
  const kept = op.key === null ? undefined : s.kept.get(op.key)
  if (kept !== undefined) return { state: s, reply: { ...kept, replayed: true } }
  const balance =
    op.kind === 'top_up'
      ? s.balance + op.amount
      : op.kind === 'withdraw' && op.amount <= s.balance
        ? s.balance - op.amount
        : s.balance
  const reply: Reply = { status: op.kind === 'withdraw' && op.amount > s.balance ? 422 : 200, balance, replayed: false }
  return { state: { balance, kept: op.key === null ? s.kept : new Map([...s.kept, [op.key, reply]]) }, reply }
}

const same = (a: Reply, b: Reply) => a.status === b.status && a.balance === b.balance && a.replayed === b.replayed

const explanation = (ops: ReadonlyArray<Op>): Explanation<State> => ({
  step: (s, i) => {
    const op = ops[i] as Op
    const { state, reply } = apply(s, op)
    return op.reply === null || same(op.reply, reply) ? state : null
  },
  key: (s) => `${s.balance}|${[...s.kept].map(([k, r]) => `${k}:${r.status}:${r.balance}`).join(',')}`
})

// -------------------------------------------------------------------------------------
// the brute force
// -------------------------------------------------------------------------------------

const permutations = <A>(xs: ReadonlyArray<A>): Array<Array<A>> =>
  xs.length === 0 ? [[]] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]))

const subsets = <A>(xs: ReadonlyArray<A>): Array<Array<A>> =>
  xs.reduce<Array<Array<A>>>((acc, x) => [...acc, ...acc.map((s) => [...s, x])], [[]])

/** Whether `order` puts `a` before `b` whenever `a` completed before `b` was invoked. */
const respectsRealTime = (ops: ReadonlyArray<Op>, order: ReadonlyArray<number>): boolean =>
  order.every((b, j) =>
    order.slice(j + 1).every((a) => {
      const done = (ops[a] as Op).completed
      return done === null || !(done < (ops[b] as Op).invoked)
    })
  )

/** Whether `order` explains every reply of the operations it holds, from `start`. */
const explains = (ops: ReadonlyArray<Op>, start: State, order: ReadonlyArray<number>): boolean => {
  let s = start
  for (const i of order) {
    const op = ops[i] as Op
    const { state, reply } = apply(s, op)
    if (op.reply !== null && !same(op.reply, reply)) return false
    s = state
  }
  return true
}

/** Every order of the completed operations and of each subset of the others. */
const bruteForce = (ops: ReadonlyArray<Op>, start: State): boolean => {
  const indices = ops.map((_, i) => i)
  const completed = indices.filter((i) => (ops[i] as Op).completed !== null)
  const pending = indices.filter((i) => (ops[i] as Op).completed === null)
  return subsets(pending).some((taken) =>
    permutations([...completed, ...taken]).some((order) => respectsRealTime(ops, order) && explains(ops, start, order))
  )
}

// -------------------------------------------------------------------------------------
// histories
// -------------------------------------------------------------------------------------

const draft = fc.record({
  kind: fc.constantFrom<Op['kind']>('top_up', 'withdraw', 'withdraw', 'read'),
  amount: fc.integer({ min: 1, max: 4 }),
  key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: null, freq: 2 }),
  before: fc.integer({ min: 0, max: 25 }),
  after: fc.integer({ min: 0, max: 25 }),
  unknown: fc.integer({ min: 0, max: 5 }),
  tookEffect: fc.boolean()
})

/** A change that may make the history unexplainable: a reply's balance, status or replay mark, or a time. */
const change = fc.record({
  at: fc.nat(),
  what: fc.constantFrom('balance', 'status', 'replayed', 'time'),
  by: fc.integer({ min: 1, max: 3 })
})

/**
 * A history built linearizable: operation i takes effect at 10 i, in that order, between its
 * invocation and completion drawn around it; about one in six has no reply, and took effect or
 * not. Then, unless `changed` is null, one thing changed.
 */
const history = fc
  .record({
    start: fc.integer({ min: 0, max: 5 }),
    drafts: fc.array(draft, { minLength: 1, maxLength: 7 }),
    changed: fc.option(change, { nil: null, freq: 4 })
  })
  .map(({ start, drafts, changed }) => {
    let s: State = { balance: start, kept: new Map() }
    const ops = drafts.map((d, i): Op => {
      const at = 10 * i
      const unknown = d.unknown === 0
      const base = { kind: d.kind, amount: d.amount, key: d.key, invoked: at - d.before }
      if (unknown && !d.tookEffect) return { ...base, completed: null, reply: null }
      const { state, reply } = apply(s, { ...base, completed: null, reply: null })
      s = state
      return { ...base, completed: unknown ? null : at + d.after, reply: unknown ? null : reply }
    })
    if (changed === null) return { start: { balance: start, kept: new Map<string, Reply>() }, ops }
    const i = changed.at % ops.length
    const op = ops[i] as Op
    const altered: Op =
      changed.what === 'time'
        ? {
            ...op,
            invoked: op.invoked + 10 * changed.by,
            completed: op.completed === null ? null : op.completed + 10 * changed.by
          }
        : op.reply === null
          ? op
          : {
              ...op,
              reply:
                changed.what === 'balance'
                  ? { ...op.reply, balance: op.reply.balance + changed.by }
                  : changed.what === 'status'
                    ? { ...op.reply, status: op.reply.status === 200 ? 422 : 200 }
                    : { ...op.reply, replayed: !op.reply.replayed }
            }
    return { start: { balance: start, kept: new Map<string, Reply>() }, ops: ops.map((o, j) => (j === i ? altered : o)) }
  })

// -------------------------------------------------------------------------------------
// the checker
// -------------------------------------------------------------------------------------

describe('linearize', () => {
  it(
    'agrees with the brute force on every history of up to 7 operations, linearizable or not, and its answers hold',
    () => {
      const verdicts = { linearizable: 0, not: 0, pending: 0 }
      let total = 0
      fc.assert(
        fc.property(history, ({ start, ops }) => {
          total++
          const expected = bruteForce(ops, start)
          const got = linearize(ops, start, explanation(ops), { timeLimitMs: 60_000 })
          verdicts[expected ? 'linearizable' : 'not']++
          if (ops.some((o) => o.completed === null)) verdicts.pending++
          expect(got.verdict).toBe(expected ? 'linearizable' : 'not linearizable')
          if (got.verdict === 'linearizable') {
            // The order holds every operation with a reply, each once, respects real time and explains them.
            expect(new Set(got.order).size).toBe(got.order.length)
            expect(ops.every((o, i) => o.completed === null || got.order.includes(i))).toBe(true)
            expect(respectsRealTime(ops, got.order) && explains(ops, start, got.order)).toBe(true)
          } else if (got.verdict === 'not linearizable') {
            // The longest order explains what it holds, and the operation stuck is one with a reply, not in it.
            expect(explains(ops, start, got.longest) && respectsRealTime(ops, got.longest)).toBe(true)
            expect(ops[got.stuck]?.completed).not.toBeNull()
            expect(got.longest).not.toContain(got.stuck)
          }
        }),
        { numRuns: runs(2000) }
      )
      // Both verdicts in good shares, and operations without a reply in many histories.
      expect(total).toBeGreaterThanOrEqual(200)
      expect(verdicts.linearizable).toBeGreaterThan(total * 0.35)
      expect(verdicts.not).toBeGreaterThan(total * 0.3)
      expect(verdicts.pending).toBeGreaterThan(total * 0.3)
    },
    timeoutFor(2000, 60_000)
  )

  it('finds the order of two overlapping operations seen in the other order', () => {
    const ops: ReadonlyArray<Op> = [
      { kind: 'top_up', amount: 2, key: null, invoked: 0, completed: 3, reply: { status: 200, balance: 5, replayed: false } },
      { kind: 'top_up', amount: 3, key: null, invoked: 1, completed: 2, reply: { status: 200, balance: 3, replayed: false } }
    ]
    expect(linearize(ops, { balance: 0, kept: new Map() }, explanation(ops))).toEqual({
      verdict: 'linearizable',
      order: [1, 0],
      explored: 2
    })
  })

  it('a lost update: two withdrawals that each saw the balance before the other', () => {
    const ops: ReadonlyArray<Op> = [
      { kind: 'withdraw', amount: 1, key: null, invoked: 0, completed: 5, reply: { status: 200, balance: 9, replayed: false } },
      { kind: 'withdraw', amount: 2, key: null, invoked: 1, completed: 6, reply: { status: 200, balance: 8, replayed: false } },
      { kind: 'read', amount: 0, key: null, invoked: 7, completed: 8, reply: { status: 200, balance: 8, replayed: false } }
    ]
    const got = linearize(ops, { balance: 10, kept: new Map() }, explanation(ops))
    expect(got).toMatchObject({ verdict: 'not linearizable', longest: [0], stuck: 1 })
    expect(got.verdict === 'not linearizable' && got.state.balance).toBe(9)
  })

  it('an operation without a reply may take effect or not; its retry with the key settles it', () => {
    const topUp = (key: string, reply: Reply | null, invoked: number, completed: number | null): Op => ({
      kind: 'top_up',
      amount: 5,
      key,
      invoked,
      completed,
      reply
    })
    const start = { balance: 0, kept: new Map<string, Reply>() }
    // Took effect: the retry is a replay.
    const applied = [topUp('k', null, 0, null), topUp('k', { status: 200, balance: 5, replayed: true }, 10, 11)]
    expect(linearize(applied, start, explanation(applied)).verdict).toBe('linearizable')
    // Did not: the retry runs, and the first, if it ever arrives, replays it.
    const lost = [topUp('k', null, 0, null), topUp('k', { status: 200, balance: 5, replayed: false }, 10, 11)]
    expect(linearize(lost, start, explanation(lost)).verdict).toBe('linearizable')
    // Applied twice: no order explains a second top-up under the same key.
    const twice = [...lost, topUp('k', { status: 200, balance: 10, replayed: false }, 12, 13)]
    expect(linearize(twice, start, explanation(twice))).toMatchObject({ verdict: 'not linearizable', stuck: 2 })
  })

  it('a search that runs out of time is unknown, never a pass', () => {
    const ops: ReadonlyArray<Op> = Array.from({ length: 40 }, (_, i) => ({
      kind: 'top_up',
      amount: 1,
      key: null,
      invoked: i,
      completed: 100 + i,
      reply: { status: 200, balance: i + 1, replayed: false }
    }))
    let now = 0
    const got = linearize(ops, { balance: 0, kept: new Map() }, explanation(ops), { timeLimitMs: 0, clock: () => now++ })
    expect(got).toEqual({ verdict: 'unknown', longest: [], explored: 0 })
    // Given time, the same history passes.
    expect(linearize(ops, { balance: 0, kept: new Map() }, explanation(ops)).verdict).toBe('linearizable')
  })

  it('an empty history, and one whose only operations have no reply, are linearizable', () => {
    expect(linearize([], 0, { step: () => 0, key: String })).toEqual({ verdict: 'linearizable', order: [], explored: 0 })
    const pending = [{ invoked: 0, completed: null }]
    expect(linearize(pending, 0, { step: () => null, key: String })).toEqual({ verdict: 'linearizable', order: [], explored: 0 })
  })
})
