/**
 * Whether a concurrent history is linearizable: some order of its operations that
 * respects real time (an operation that completed before another was invoked comes first)
 * explains every reply, each operation taking effect at one instant between its invocation and
 * its completion. An operation whose reply never came (a timeout, a lost connection, a 5xx) is
 * pending to the end of the history: it may take effect at any instant after its invocation, or
 * never.
 *
 * The search is Wing and Gong's, as Lowe improved it: the invocations and completions in time
 * order in a doubly linked list; an operation whose invocation comes before the first completion
 * still in the list may be taken next (lifted out of the list) when the model explains its
 * reply from the state reached; a completion reached means the order so far is a dead end, and
 * the last operation taken is put back. Each configuration (the operations taken, the state)
 * is explored once: a second order reaching one already explored is cut at once, which turns a
 * search exponential in the operations into one bounded by the configurations. The search has a
 * time limit, and a search that runs out says `unknown`, never that the history passed.
 *
 * @since 0.4.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * When an operation was invoked and completed, in any one unit (milliseconds of one clock);
 * `completed: null` for an operation whose reply never came.
 *
 * @example
 * const timed = [{ invoked: 0, completed: 2 }, { invoked: 1, completed: null }]
 * timed.filter((t) => t.completed === null).length //=> 1
 *
 * @category model
 * @since 0.4.0
 */
export interface Timed {
  readonly invoked: number
  readonly completed: number | null
}

/**
 * What explains a history: `step(state, i)` is the state after operation `i` takes effect in
 * `state`, or null when the reply operation `i` got cannot come from `state` (an operation
 * without a reply is explained by any state: its `step` never returns null); `key(state)` is
 * a text that two states share exactly when they are the same, for the memo of configurations.
 *
 * @example
 * // a counter: each operation adds its own amount and saw the total after it
 * const ops = [{ add: 2, saw: 2 }, { add: 3, saw: 5 }]
 * const counter = { step: (total, i) => (total + ops[i].add === ops[i].saw ? total + ops[i].add : null), key: String }
 * counter.step(0, 0) //=> 2
 * counter.step(0, 1) //=> null
 *
 * @category model
 * @since 0.4.0
 */
export interface Explanation<S> {
  readonly step: (state: S, op: number) => S | null
  readonly key: (state: S) => string
}

/**
 * The verdict on a history: `linearizable` with an order that explains it; `not linearizable`
 * with the longest order the search found that explains a prefix (`longest`), the operation
 * whose completion that order reached unexplained (`stuck`: no order puts it anywhere) and the
 * state there; or `unknown` when the search ran out of time, with the longest order found so
 * far. `explored` counts the configurations the search went through.
 *
 * @example
 * const ops = [{ invoked: 0, completed: 1, add: 2, saw: 2 }, { invoked: 2, completed: 3, add: 3, saw: 4 }]
 * const counter = { step: (total, i) => (total + ops[i].add === ops[i].saw ? total + ops[i].add : null), key: String }
 * linearize(ops, 0, counter)
 * //=> { verdict: 'not linearizable', longest: [0], stuck: 1, state: 2, explored: 1 }
 *
 * @category model
 * @since 0.4.0
 */
export type Linearization<S> =
  | { readonly verdict: 'linearizable'; readonly order: ReadonlyArray<number>; readonly explored: number }
  | {
      readonly verdict: 'not linearizable'
      readonly longest: ReadonlyArray<number>
      readonly stuck: number
      readonly state: S
      readonly explored: number
    }
  | { readonly verdict: 'unknown'; readonly longest: ReadonlyArray<number>; readonly explored: number }

/**
 * How long the search may run: `timeLimitMs` (10 seconds by default) by `clock` (milliseconds;
 * `performance.now` by default).
 *
 * @example
 * const limits = { timeLimitMs: 5_000 }
 * limits.timeLimitMs //=> 5000
 *
 * @category model
 * @since 0.4.0
 */
export interface SearchLimits {
  readonly timeLimitMs?: number
  readonly clock?: () => number
}

/**
 * The time a search may take unless told otherwise, in milliseconds.
 *
 * @example
 * DEFAULT_SEARCH_MS //=> 10000
 *
 * @category constants
 * @since 0.4.0
 */
export const DEFAULT_SEARCH_MS = 10_000

/** How many steps the search takes between two looks at the clock. */
const CLOCK_EVERY = 256

// -------------------------------------------------------------------------------------
// the operations taken
// -------------------------------------------------------------------------------------

/**
 * The set of operations taken, and its text for the memo. Operations with a reply are taken in
 * about the order of their invocations: they are numbered in that order, and the set is kept as
 * the first number not taken (every one below it is) and the few taken above it, so that its
 * text stays short however long the history. Operations without a reply, which may stay out to
 * the end, are kept apart.
 */
const takenSet = (ops: ReadonlyArray<Timed>) => {
  const byInvocation = ops
    .map((_, i) => i)
    .filter((i) => (ops[i] as Timed).completed !== null)
    .sort((a, b) => (ops[a] as Timed).invoked - (ops[b] as Timed).invoked || a - b)
  const rank = new Array<number>(ops.length).fill(-1)
  byInvocation.forEach((op, r) => (rank[op] = r))
  const taken = new Uint8Array(byInvocation.length)
  let frontier = 0
  const above: Array<number> = []
  const pending: Array<number> = []
  const insert = (list: Array<number>, x: number) => {
    let at = list.length
    while (at > 0 && (list[at - 1] as number) > x) at--
    list.splice(at, 0, x)
  }
  return {
    add: (op: number) => {
      const r = rank[op] as number
      if (r < 0) {
        insert(pending, op)
        return
      }
      taken[r] = 1
      if (r !== frontier) {
        insert(above, r)
        return
      }
      while (frontier < taken.length && taken[frontier] === 1) frontier++
      let drop = 0
      while (drop < above.length && (above[drop] as number) < frontier) drop++
      above.splice(0, drop)
    },
    remove: (op: number) => {
      const r = rank[op] as number
      if (r < 0) return void pending.splice(pending.indexOf(op), 1)
      taken[r] = 0
      if (r > frontier) return void above.splice(above.indexOf(r), 1)
      // Everything from r + 1 up to the frontier is still taken: it is above the new frontier.
      const back: Array<number> = []
      for (let s = r + 1; s < frontier; s++) back.push(s)
      above.unshift(...back)
      frontier = r
    },
    text: () => `${frontier};${above.join(',')};${pending.join(',')};`
  }
}

// -------------------------------------------------------------------------------------
// searching
// -------------------------------------------------------------------------------------

/**
 * The verdict on a history of operations (`ops`, their times) from `initial`, explained by
 * `explanation` (see {@link Explanation}). At equal times an invocation counts as before a
 * completion, so that operations that touch are concurrent: the checker never fails a history
 * for a tie of the clock.
 *
 * @example
 * // two concurrent additions, the second seen first: the order 1, 0 explains them
 * const ops = [{ invoked: 0, completed: 3, add: 2, saw: 5 }, { invoked: 1, completed: 2, add: 3, saw: 3 }]
 * const counter = { step: (total, i) => (total + ops[i].add === ops[i].saw ? total + ops[i].add : null), key: String }
 * linearize(ops, 0, counter) //=> { verdict: 'linearizable', order: [1, 0], explored: 2 }
 *
 * @category utils
 * @since 0.4.0
 */
export const linearize = <S>(
  ops: ReadonlyArray<Timed>,
  initial: S,
  explanation: Explanation<S>,
  limits: SearchLimits = {}
): Linearization<S> => {
  const n = ops.length
  // Entries 2i (the invocation of i) and 2i + 1 (its completion); HEAD is the list's start.
  const HEAD = 2 * n
  const timeOf = (e: number): number => {
    const op = ops[e >> 1] as Timed
    return (e & 1) === 0 ? op.invoked : (op.completed ?? Number.POSITIVE_INFINITY)
  }
  const order = Array.from({ length: 2 * n }, (_, e) => e).sort((a, b) => timeOf(a) - timeOf(b) || (a & 1) - (b & 1) || a - b)
  const next = new Int32Array(2 * n + 1).fill(-1)
  const prev = new Int32Array(2 * n + 1).fill(-1)
  let last = HEAD
  for (const e of order) {
    next[last] = e
    prev[e] = last
    last = e
  }
  const unlink = (e: number) => {
    next[prev[e] as number] = next[e] as number
    if ((next[e] as number) >= 0) prev[next[e] as number] = prev[e] as number
  }
  const relink = (e: number) => {
    next[prev[e] as number] = e
    if ((next[e] as number) >= 0) prev[next[e] as number] = e
  }
  // Lifting an operation takes out its invocation, then its completion; putting it back undoes
  // both in the other order (the links of a removed entry still point where it was).
  const lift = (op: number) => {
    unlink(2 * op)
    unlink(2 * op + 1)
  }
  const unlift = (op: number) => {
    relink(2 * op + 1)
    relink(2 * op)
  }

  const clock = limits.clock ?? (() => performance.now())
  const deadline = clock() + (limits.timeLimitMs ?? DEFAULT_SEARCH_MS)
  const taken = takenSet(ops)
  const seen = new Set<string>()
  const stack: Array<{ readonly op: number; readonly before: S }> = []
  let state = initial
  let unexplained = ops.filter((o) => o.completed !== null).length
  let explored = 0
  let ticks = 0
  let best: { longest: ReadonlyArray<number>; stuck: number; state: S } | null = null
  let entry = next[HEAD] as number

  for (;;) {
    if (unexplained === 0) return { verdict: 'linearizable', order: stack.map((s) => s.op), explored }
    if (ticks++ % CLOCK_EVERY === 0 && clock() > deadline) {
      const longest = best === null || stack.length > best.longest.length ? stack.map((s) => s.op) : best.longest
      return { verdict: 'unknown', longest, explored }
    }
    const op = entry >> 1
    if ((entry & 1) === 0) {
      const after = explanation.step(state, op)
      if (after !== null) {
        taken.add(op)
        const key = taken.text() + explanation.key(after)
        if (!seen.has(key)) {
          seen.add(key)
          explored++
          stack.push({ op, before: state })
          state = after
          lift(op)
          if ((ops[op] as Timed).completed !== null) unexplained--
          entry = next[HEAD] as number
          continue
        }
        taken.remove(op)
      }
      entry = next[entry] as number
    } else {
      // A completion reached: its operation should have been taken by now, and cannot be.
      if (best === null || stack.length > best.longest.length) best = { longest: stack.map((s) => s.op), stuck: op, state }
      const top = stack.pop()
      if (top === undefined) return { verdict: 'not linearizable', ...best, explored }
      state = top.before
      taken.remove(top.op)
      unlift(top.op)
      if ((ops[top.op] as Timed).completed !== null) unexplained++
      entry = next[2 * top.op] as number
    }
  }
}
