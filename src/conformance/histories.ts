/**
 * Conformance over concurrent histories (R-93): clients send money operations to one funded
 * budget at once, over one or several instances of a server; each operation is recorded as
 * invoked, then completed with its reply or unknown (a timeout, a lost connection, a 5xx); the
 * history is then checked against the library's model of the budget (./model.ts): cheap linear
 * checks first, then a search for an order that explains every reply (./linearizable.ts).
 *
 * @since 0.4.0
 */
import fc from 'fast-check'
import type { ScenarioRequest, ScenarioState } from '../arbitraries/scenario'
import type { Budget } from '../budget/stored'
import { headerOf } from '../http/headers'
import { bodyValue, compareReplies } from './compare'
import { DEFAULT_SEARCH_MS, type Explanation, type Linearization, linearize } from './linearizable'
import { decideRequest, type KeptReply, type ModelReply, type ServerState } from './model'
import { checks, EndpointsError, endpointsOf, type KitEndpoint } from './endpoints'
import { causeCode, putState, whyNoReply } from './http'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One operation of a history: who sent what where, when it was invoked and completed
 * (milliseconds since the run began; `completed: null` when its reply never came), the reply
 * (`replayed` when it carried `Idempotent-Replayed: true`) or why there is none, and the
 * operation whose Idempotency-Key it sends again (`retry_of`).
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const op = { id: 0, client: 0, kind: 'top_up', amount_cents: 100, key: 'h1-0-0', url: 'http://127.0.0.1:8080',
 *   invoked: 0.4, completed: 3.1, reply: { status: 200, body: { balance_cents: 600 }, replayed: false }, error: null, retry_of: null }
 * op.reply.body.balance_cents //=> 600
 *
 * @category model
 * @since 0.4.0
 */
export interface HistoryOperation {
  readonly id: number
  readonly client: number
  readonly kind: 'top_up' | 'withdraw' | 'read'
  readonly amount_cents: number | null
  readonly key: string | null
  readonly url: string
  readonly invoked: number
  readonly completed: number | null
  readonly reply: { readonly status: number; readonly body: unknown; readonly replayed: boolean } | null
  readonly error: string | null
  readonly retry_of: number | null
}

/**
 * A history: the state every instance was given, and the operations, each at the index of its
 * id (in the order the clients sent them). The kit's own last read of the budget, once every
 * client is done, is the last operation (client `clients`).
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const history = { state: { today: '2026-11-22', session, budget, company_member_ids: [], records: [] }, operations: [] }
 * history.operations.length //=> 0
 *
 * @category model
 * @since 0.4.0
 */
export interface History {
  readonly state: ScenarioState
  readonly operations: ReadonlyArray<HistoryOperation>
}

/**
 * What to check: the instances (`urls`, one or more, sharing one database), how many clients
 * send at once (8 by default) and how many operations they plan in all (200 by default; retries
 * come on top), the seed of the plan (random unless given), how long a request may take before
 * it counts as unknown (`timeoutMs`, 5 s) and how long the search may take (`searchMs`, 10 s);
 * `endpoints` keeps the operations to those a partial server has.
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const options = { urls: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'], clients: 8, operations: 400, seed: 7 }
 * options.urls.length //=> 2
 *
 * @category model
 * @since 0.4.0
 */
export interface HistoryOptions {
  readonly urls: ReadonlyArray<string>
  /** The endpoints the server has (R-95): `budget.top_up`, `budget.withdraw`, `budget.get` (every one unless told). */
  readonly endpoints?: ReadonlyArray<KitEndpoint>
  readonly clients?: number
  readonly operations?: number
  readonly seed?: number
  readonly timeoutMs?: number
  readonly searchMs?: number
}

/**
 * Figures of a run: the operations in the history (retries and the last read included), those
 * unknown, those whose connection was refused (never sent), those that sent a key again, the replies replayed, the time the clients took, and
 * the search's time and configurations explored.
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const stats = { operations: 231, unknown: 0, refused: 0, retries: 30, replayed: 30, run_ms: 812, search_ms: 9.5, explored: 231 }
 * stats.operations //=> 231
 *
 * @category model
 * @since 0.4.0
 */
export interface HistoryStats {
  readonly operations: number
  readonly unknown: number
  readonly refused: number
  readonly retries: number
  readonly replayed: number
  readonly run_ms: number
  readonly search_ms: number
  readonly explored: number
}

/**
 * Which check failed: a reply with a balance below zero, an Idempotency-Key that moved money
 * twice, a final balance no subset of the operations adds up to, or no order (the search).
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const check = 'key applied twice'
 * check //=> 'key applied twice'
 *
 * @category model
 * @since 0.4.0
 */
export type HistoryCheck = 'balance below zero' | 'key applied twice' | 'money not conserved' | 'no order'

/**
 * The verdict: `linearizable`; `not linearizable`, with the check that failed, the operations
 * that show it (`witness`, the ids of the smallest part of the history found to fail alone) and
 * the balance it starts from (`from`: the model's state once the operations before it are
 * done; those of `unheard` counted there as without a reply, theirs coming after the part's
 * end), and for the search the longest order found (`longest`, ids), the first operation no
 * order explains (`stuck`), the model's budget there (`state`) and its reply there to the stuck
 * operation (`expected`); or `unknown`, when the
 * search ran out of time: never a pass.
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const passed = { ok: true, verdict: 'linearizable', history: { state: {}, operations: [] }, stats: {} }
 * passed.verdict //=> 'linearizable'
 *
 * @category model
 * @since 0.4.0
 */
export type HistoryResult =
  | { readonly ok: true; readonly verdict: 'linearizable'; readonly history: History; readonly stats: HistoryStats }
  | {
      readonly ok: false
      readonly verdict: 'unknown'
      readonly history: History
      readonly stats: HistoryStats
      readonly longest: ReadonlyArray<number>
    }
  | {
      readonly ok: false
      readonly verdict: 'not linearizable'
      readonly check: HistoryCheck
      readonly history: History
      readonly stats: HistoryStats
      readonly witness: ReadonlyArray<number>
      readonly unheard: ReadonlyArray<number>
      readonly from: Budget | null
      readonly longest: ReadonlyArray<number>
      readonly stuck: number | null
      readonly state: Budget | null
      readonly expected: { readonly status: number; readonly body: unknown; readonly replayed: boolean } | null
    }

/**
 * The clients of a history check unless told otherwise.
 *
 * @example
 * import { DEFAULT_CLIENTS } from 'budget-rules/conformance'
 *
 * DEFAULT_CLIENTS //=> 8
 *
 * @category constants
 * @since 0.4.0
 */
export const DEFAULT_CLIENTS = 8

/**
 * The operations the clients of a history check plan in all unless told otherwise (retries and
 * the last read come on top).
 *
 * @example
 * import { DEFAULT_OPERATIONS } from 'budget-rules/conformance'
 *
 * DEFAULT_OPERATIONS //=> 200
 *
 * @category constants
 * @since 0.4.0
 */
export const DEFAULT_OPERATIONS = 200

/** How long a request of a history may take before it counts as unknown. */
const DEFAULT_TIMEOUT_MS = 5_000

/**
 * The error of an operation whose connection was refused: it never reached a server, so it never
 * takes effect (any other operation without a reply may have).
 */
export const REFUSED = 'connection refused: never sent'

/** The operations each client sends between two moments when every client waits for the others. */
const ROUND = 4

/** The most attempts a client makes to get a reply for one key. */
const MAX_ATTEMPTS = 12

// -------------------------------------------------------------------------------------
// the start
// -------------------------------------------------------------------------------------

/** The budget every history starts from: funded, open, not renewing, 500.00 in it. */
const START_BUDGET = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Histories',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: null,
  co_manager_id: null,
  status: 'open',
  created_on: '2026-01-01',
  ends_on: null,
  recurrence_unit: null,
  recurrence_every: null,
  base_amount_cents: null,
  recurrence_starts_on: null,
  period_starts_on: '2026-01-01',
  period_ends_on: null,
  period_amount_cents: 50_000,
  balance_cents: 50_000
} as Budget

/**
 * The state every instance is given: the budget, an admin of c-1 sending everything, and c-2
 * beside it (R-94) with a budget b-2 equal to b-1 but for its id and company, which no
 * operation may move.
 */
export const START: ScenarioState = {
  today: '2026-11-22',
  session: { user: { id: 'u-admin', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
  budget: START_BUDGET,
  company_member_ids: ['u-admin'],
  records: [],
  others: [{ company_id: 'c-2', budget: { ...START_BUDGET, id: 'b-2', company_id: 'c-2' }, records: [] }]
}

/** What each client plans: its operations, each perhaps sent again (after its reply, or at once on another URL). */
interface Planned {
  readonly kind: 'top_up' | 'withdraw' | 'read'
  readonly amount: number
  readonly again: 'no' | 'after' | 'racing'
}

/** The operations of a history over the endpoints checked: an Error when neither money operation is. */
const plannedOf = (chosen: ReadonlyArray<KitEndpoint> | undefined): fc.Arbitrary<Planned> => {
  const kinds = (['top_up', 'top_up', 'withdraw', 'withdraw', 'withdraw', 'read'] as const).filter((k) =>
    checks(chosen, k === 'read' ? 'budget.get' : k === 'top_up' ? 'budget.top_up' : 'budget.withdraw')
  )
  if (!kinds.some((k) => k !== 'read'))
    throw new EndpointsError(
      'checkHistories: a history sends money operations, and neither budget.top_up nor budget.withdraw is checked'
    )
  return fc.record({
    kind: fc.constantFrom<Planned['kind']>(...kinds),
    amount: fc.integer({ min: 1, max: 40_000 }),
    again: fc.constantFrom<Planned['again']>('no', 'no', 'no', 'no', 'no', 'no', 'after', 'racing')
  })
}

/** The request of an operation, as every client sends it. */
export const requestOf = (kind: HistoryOperation['kind'], amount: number | null, key: string | null): ScenarioRequest => {
  const headers = { Authorization: 'Bearer conformance', 'company-id': 'c-1' }
  return kind === 'read'
    ? { method: 'GET', path: '/v1/budgets/b-1', headers, body: undefined }
    : {
        method: 'POST',
        path: `/v1/budgets/b-1/${kind}`,
        headers: { ...headers, 'Content-Type': 'application/json', ...(key === null ? {} : { 'Idempotency-Key': key }) },
        body: JSON.stringify({ amount_cents: amount })
      }
}

// -------------------------------------------------------------------------------------
// explaining
// -------------------------------------------------------------------------------------

/** The model's state in a history: the server's, and how many operations of each kept key are still to come. */
interface Held {
  readonly server: ServerState
  readonly left: ReadonlyMap<string, number>
}

/** Whether the reply an operation got is the one the model gives. */
const sameReply = (expected: ModelReply, got: NonNullable<HistoryOperation['reply']>): boolean =>
  expected.replayed === got.replayed &&
  compareReplies('budget.read', expected, { status: got.status, headers: {}, body: got.body }).every(
    (d) => d.part !== 'status' && d.part !== 'body'
  )

/** How many operations send each Idempotency-Key. */
const usesOf = (history: History): ReadonlyMap<string, number> => {
  const never = neverInEffect(history)
  const uses = new Map<string, number>()
  for (const o of history.operations) if (o.key !== null && !never(o)) uses.set(o.key, (uses.get(o.key) ?? 0) + 1)
  return uses
}

/**
 * The operations that never take effect: those whose connection was refused (never sent), and
 * those without a reply whose Idempotency-Key got a fresh reply (not replayed) from another
 * operation: taking effect before that one, they would have made it a replay; after it, they are
 * one, and change nothing. Left out of the search, they cost it nothing.
 */
const neverInEffect = (history: History): ((o: HistoryOperation) => boolean) => {
  const fresh = new Set(history.operations.filter((o) => o.key !== null && o.reply?.replayed === false).map((o) => o.key))
  return (o) => o.error === REFUSED || (o.reply === null && o.key !== null && fresh.has(o.key))
}

/**
 * The explanation of a history by the model: an operation takes effect as the library decides
 * it on the state; its reply, when it came, must be the model's; one that never takes effect
 * (`neverInEffect`) is never taken. A key's kept reply is forgotten once every operation sending
 * it (`uses`, of the whole history when a part of it is explained) is taken, so that the states
 * stay small.
 */
export const explain = (history: History, uses: ReadonlyMap<string, number> = usesOf(history)): Explanation<Held> => {
  const ops = history.operations
  const requests = ops.map((o) => requestOf(o.kind, o.amount_cents, o.key))
  const never = ops.map(neverInEffect(history))
  return {
    step: (held, i) => {
      const op = ops[i] as HistoryOperation
      if (never[i] === true) return null
      const { reply, state } = decideRequest(held.server, requests[i] as ScenarioRequest)
      if (op.reply !== null && !sameReply(reply, op.reply)) return null
      if (op.key === null) return { server: state, left: held.left }
      const left = (held.left.get(op.key) ?? uses.get(op.key) ?? 1) - 1
      const kept = new Map(state.kept)
      const counts = new Map(held.left)
      if (left === 0) {
        kept.delete(op.key)
        counts.delete(op.key)
      } else counts.set(op.key, left)
      return { server: { ...state, kept }, left: counts }
    },
    key: (held) =>
      `${JSON.stringify(held.server.budget)}|${[...held.server.kept]
        .map(
          ([k, v]: [string, KeptReply]) => `${k}:${String(held.left.get(k))}:${JSON.stringify(v.reply.body)}:${v.reply.status}`
        )
        .sort()
        .join('|')}`
  }
}

const startOf = (history: History): Held => ({ server: { ...history.state, kept: new Map() }, left: new Map() })

/** The balance a reply shows, when it is a budget's. */
const balanceIn = (reply: HistoryOperation['reply']): number | null => {
  const body = reply?.body
  return typeof body === 'object' && body !== null && typeof (body as { balance_cents?: unknown }).balance_cents === 'number'
    ? (body as { balance_cents: number }).balance_cents
    : null
}

// -------------------------------------------------------------------------------------
// the cheap checks
// -------------------------------------------------------------------------------------

/** A reply whose balance is below zero. */
const belowZero = (ops: ReadonlyArray<HistoryOperation>): ReadonlyArray<number> | null => {
  const found = ops.find((o) => (balanceIn(o.reply) ?? 0) < 0)
  return found === undefined ? null : [found.id]
}

/** Two replies, neither replayed, for one Idempotency-Key: the key moved money twice. */
const appliedTwice = (ops: ReadonlyArray<HistoryOperation>): ReadonlyArray<number> | null => {
  const first = new Map<string, number>()
  for (const o of ops) {
    if (o.key === null || o.reply === null || o.reply.replayed) continue
    const seen = first.get(o.key)
    if (seen !== undefined) return [seen, o.id]
    first.set(o.key, o.id)
  }
  return null
}

/**
 * Whether the final balance (a read last, after every other reply) is within what the operations
 * can add up to: each key moved its amount once when any of its replies (replayed or not) is a
 * 200, nothing when its first reply is a refusal, and either when none of its operations got a
 * reply.
 */
const conserved = (history: History, final: HistoryOperation | undefined): ReadonlyArray<number> | null => {
  const balance = balanceIn(final?.reply ?? null)
  const start = history.state.budget?.balance_cents
  if (final === undefined || balance === null || typeof start !== 'number') return null
  const byKey = new Map<string, Array<HistoryOperation>>()
  for (const o of history.operations) if (o.key !== null) byKey.set(o.key, [...(byKey.get(o.key) ?? []), o])
  let low: number = start
  let high: number = start
  for (const ops of byKey.values()) {
    const sign = ops[0]?.kind === 'withdraw' ? -1 : 1
    const amount = sign * ((ops[0] as HistoryOperation).amount_cents as number)
    const answered = ops.filter((o) => o.reply !== null && o.reply.status < 500)
    if (answered.length === 0) {
      low += Math.min(0, amount)
      high += Math.max(0, amount)
    } else if (answered.some((o) => o.reply?.status === 200)) {
      low += amount
      high += amount
    }
  }
  return balance >= low && balance <= high
    ? null
    : history.operations.filter((o) => o.key !== null || o === final).map((o) => o.id)
}

// -------------------------------------------------------------------------------------
// the witness
// -------------------------------------------------------------------------------------

/** The model's state after the operations of `order`, taken in turn from the start. */
const after = (history: History, order: ReadonlyArray<number>, uses: ReadonlyMap<string, number>): Held => {
  const e = explain(history, uses)
  return order.reduce((held, i) => e.step(held, i) ?? held, startOf(history))
}

/**
 * The sub-history of `ids` (in their order), each operation numbered as before; those of
 * `unheard` as if their reply never came.
 */
const part = (history: History, ids: ReadonlyArray<number>, unheard: ReadonlySet<number> = new Set()): History => ({
  state: history.state,
  operations: ids.map((id) => {
    const o = history.operations[id] as HistoryOperation
    return unheard.has(id) ? { ...o, completed: null, reply: null } : o
  })
})

/**
 * Whether a part of the history, from `held`, cannot be explained, found before `deadline` (a
 * search that runs out proves nothing).
 */
const fails = (
  history: History,
  ids: ReadonlyArray<number>,
  unheard: ReadonlySet<number>,
  held: Held,
  deadline: number
): boolean => {
  const sub = part(history, ids, unheard)
  const timeLimitMs = deadline - performance.now()
  return (
    timeLimitMs > 0 &&
    linearize(sub.operations, held, explain(sub, usesOf(history)), { timeLimitMs }).verdict === 'not linearizable'
  )
}

/** The most time the witness takes to cut a failing history short. */
const WITNESS_MS = 5_000

/** How many ends the witness tries before it gives up cutting the history short. */
const MAX_ENDS = 64

/**
 * The smallest part of a failing history found to fail alone (within `searchMs`), each step of
 * the cutting sound (were the part explained, so would be the whole):
 *
 * - it starts at the last moment before the stuck operation when no operation with a reply was
 *   under way, from the state some order of the operations before it leaves (those with a reply
 *   all come before the rest; those without, invoked before, may have taken effect there, or
 *   stay to come): were another state to explain the rest, the whole history would be explained;
 * - it ends at the stuck operation's completion, or a later one, holding the operations invoked
 *   by then, those whose reply came later taken as unknown (an order of the whole history,
 *   up to the last operation completed by then, would explain it);
 * - then, one by one, the reads and refusals whose leaving out still fails (they change nothing).
 */
const witnessOf = (
  history: History,
  stuck: number,
  searchMs: number
): { readonly ids: ReadonlyArray<number>; readonly unheard: ReadonlySet<number>; readonly from: Held } => {
  const deadline = performance.now() + Math.min(searchMs, WITNESS_MS)
  const ops = history.operations
  const stuckOp = ops[stuck] as HistoryOperation
  // The last moment at or before the stuck operation's invocation when no operation with a reply was under way.
  const byInvocation = [...ops].sort((a, b) => a.invoked - b.invoked || a.id - b.id)
  let open = Number.NEGATIVE_INFINITY
  let cut = Number.NEGATIVE_INFINITY
  for (const o of byInvocation) {
    if (o.invoked > stuckOp.invoked) break
    if (o.completed === null) continue
    if (open < o.invoked) cut = o.invoked
    open = Math.max(open, o.completed)
  }
  const before = ops.filter((o) => o.invoked < cut).map((o) => o.id)
  const uses = usesOf(history)
  const prefix = linearize(
    before.map((id) => ops[id] as HistoryOperation),
    startOf(history),
    explain(part(history, before), uses),
    { timeLimitMs: Math.max(0, deadline - performance.now()) }
  )
  const cutting = prefix.verdict === 'linearizable'
  const from = cutting ? after(part(history, before), prefix.order, uses) : startOf(history)
  const done = new Set(cutting ? prefix.order.map((i) => before[i] as number) : [])
  const rest = cutting ? ops.filter((o) => o.invoked >= cut || (o.completed === null && !done.has(o.id))) : ops
  // The first end, from the stuck operation's completion on, at which the part fails.
  const ends = [...new Set(rest.map((o) => o.completed ?? Number.POSITIVE_INFINITY))]
    .filter((t) => t >= (stuckOp.completed ?? Number.POSITIVE_INFINITY) && t < Number.POSITIVE_INFINITY)
    .sort((a, b) => a - b)
    .slice(0, MAX_ENDS)
  let ids = rest.map((o) => o.id)
  let unheard: ReadonlySet<number> = new Set()
  for (const end of ends) {
    const within = rest.filter((o) => o.invoked <= end)
    const late = new Set(within.filter((o) => o.completed === null || o.completed > end).map((o) => o.id))
    if (
      fails(
        history,
        within.map((o) => o.id),
        late,
        from,
        deadline
      )
    ) {
      ids = within.map((o) => o.id)
      unheard = late
      break
    }
  }
  // Operations that change nothing, left out while the rest still fails.
  const keys = new Map<string, number>()
  for (const id of ids) {
    const key = (ops[id] as HistoryOperation).key
    if (key !== null) keys.set(key, (keys.get(key) ?? 0) + 1)
  }
  for (const id of [...ids].reverse()) {
    const o = ops[id] as HistoryOperation
    const inert =
      !unheard.has(id) &&
      o.reply !== null &&
      (o.kind === 'read' || o.reply.status !== 200) &&
      (o.key === null || keys.get(o.key) === 1)
    if (!inert || id === stuck) continue
    const without = ids.filter((x) => x !== id)
    if (fails(history, without, unheard, from, deadline)) ids = without
  }
  return { ids, unheard, from }
}

// -------------------------------------------------------------------------------------
// checking a history
// -------------------------------------------------------------------------------------

/**
 * The verdict on a recorded history: the cheap checks (no balance below zero, no key that moved
 * money twice, a final balance within what the operations can add up to), then the search for
 * an order that explains every reply, for `searchMs` at most. An operation without a reply may
 * take effect at any moment after its invocation, or never.
 *
 * @example
 * import { checkHistories } from 'budget-rules/conformance'
 *
 * const state = { today: '2026-11-22', session, budget, company_member_ids: [], records: [] }
 * const topUp = { id: 0, client: 0, kind: 'top_up', amount_cents: 500, key: 'k', url: 'u', invoked: 0, completed: 2,
 *   reply: { status: 200, body: { ...budget, balance_cents: 20500 }, replayed: false }, error: null, retry_of: null }
 * const retry = { ...topUp, id: 1, invoked: 1, completed: 3, retry_of: 0, reply: { ...topUp.reply, replayed: true } }
 * checkHistory({ state, operations: [topUp, retry] }, { run_ms: 3 }).verdict //=> 'linearizable'
 * const twice = { ...retry, reply: { ...topUp.reply, body: { ...budget, balance_cents: 21000 } } }
 * checkHistory({ state, operations: [topUp, twice] }, { run_ms: 3 }).check //=> 'key applied twice'
 *
 * @category utils
 * @since 0.4.0
 */
export const checkHistory = (
  history: History,
  run: { readonly run_ms: number },
  searchMs: number = DEFAULT_SEARCH_MS
): HistoryResult => {
  const ops = history.operations
  const counts = {
    operations: ops.length,
    unknown: ops.filter((o) => o.completed === null && o.error !== REFUSED).length,
    refused: ops.filter((o) => o.error === REFUSED).length,
    retries: ops.filter((o) => o.retry_of !== null).length,
    replayed: ops.filter((o) => o.reply?.replayed === true).length,
    run_ms: run.run_ms
  }
  // The final balance: a read last, invoked once every operation with a reply had completed.
  const last = ops[ops.length - 1]
  const final =
    last?.kind === 'read' && ops.every((o) => o === last || o.completed === null || o.completed < last.invoked) ? last : undefined
  const cheap: ReadonlyArray<[HistoryCheck, ReadonlyArray<number> | null]> = [
    ['balance below zero', belowZero(ops)],
    ['key applied twice', appliedTwice(ops)],
    ['money not conserved', conserved(history, final)]
  ]
  const failed = cheap.find(([, witness]) => witness !== null)
  const cheaply = (check: HistoryCheck, witness: ReadonlyArray<number>, stats: HistoryStats): HistoryResult => ({
    ok: false,
    verdict: 'not linearizable',
    check,
    history,
    stats,
    witness,
    unheard: [],
    from: null,
    longest: [],
    stuck: null,
    state: null,
    expected: null
  })
  // A reply below zero, or a key that moved money twice, is its own smallest witness.
  if (failed !== undefined && failed[0] !== 'money not conserved')
    return cheaply(failed[0], failed[1] as ReadonlyArray<number>, { ...counts, search_ms: 0, explored: 0 })
  // Money not conserved is certain already; the search finds where it went first.
  const started = performance.now()
  const found: Linearization<Held> = linearize(ops, startOf(history), explain(history), { timeLimitMs: searchMs })
  const stats = { ...counts, search_ms: performance.now() - started, explored: found.explored }
  if (found.verdict !== 'not linearizable') {
    if (failed !== undefined) return cheaply(failed[0], failed[1] as ReadonlyArray<number>, stats)
    return found.verdict === 'linearizable'
      ? { ok: true, verdict: 'linearizable', history, stats }
      : { ok: false, verdict: 'unknown', history, stats, longest: found.longest }
  }
  const { ids, unheard, from } = witnessOf(history, found.stuck, searchMs)
  const stuck = ops[found.stuck] as HistoryOperation
  const { reply } = decideRequest(found.state.server, requestOf(stuck.kind, stuck.amount_cents, stuck.key))
  return {
    ok: false,
    verdict: 'not linearizable',
    check: failed?.[0] ?? 'no order',
    history,
    stats,
    witness: ids,
    unheard: [...unheard],
    from: from.server.budget,
    longest: found.longest,
    stuck: found.stuck,
    state: found.state.server.budget,
    expected: { status: reply.status, body: reply.body, replayed: reply.replayed }
  }
}

// -------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------

/**
 * Checks a server over a concurrent history (R-93). Every instance is given the same start (a
 * funded, open budget b-1 of c-1 holding 500.00, an admin of c-1) through its state route; then
 * `clients` clients send the planned operations at once, each client one at a time: top-ups
 * and withdrawals, each with an Idempotency-Key, and reads of the budget; some sent again with
 * the same key once answered (on another instance when there are several), some sent twice at
 * once to two instances. An operation without a reply (a timeout, a lost connection, a 5xx) is
 * sent again with its key, on the next instance, until one answers (12 attempts at most). The
 * clients go in rounds of 4 operations each, and wait for one another between rounds, so that a
 * failing history can be cut where nothing was under way. Once every client is done, the kit
 * reads the budget (unless `endpoints` leaves `budget.get` out). The history is then checked
 * (`checkHistory`). Every instance also holds c-2's budget b-2 (R-94).
 *
 * @example
 * import { checkHistories, formatHistory } from 'budget-rules/conformance'
 *
 * // const result = await checkHistories({ urls: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'], clients: 8 })
 * // console.log(formatHistory(result))
 * checkHistories({ urls: [] }).catch((e) => e.message) instanceof Promise //=> true
 *
 * @category utils
 * @since 0.4.0
 */
export const checkHistories = async (options: HistoryOptions): Promise<HistoryResult> => {
  const urls = options.urls.map((u) => u.replace(/\/+$/, ''))
  if (urls.length === 0) throw new Error('checkHistories: no URL to send to')
  const clients = options.clients ?? DEFAULT_CLIENTS
  const total = options.operations ?? DEFAULT_OPERATIONS
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const chosen = options.endpoints === undefined ? undefined : endpointsOf(options.endpoints)
  const planned = plannedOf(chosen)
  const plans = Array.from({ length: clients }, (_, c) => {
    const length = Math.floor(total / clients) + (c < total % clients ? 1 : 0)
    return fc.sample(fc.array(planned, { minLength: length, maxLength: length }), { numRuns: 1, seed: seed + c })[0] ?? []
  })
  for (const url of urls) await putState(url, { state: START, company_id: 'c-1' })
  const operations: Array<HistoryOperation> = []
  const began = performance.now()
  const now = () => performance.now() - began
  const run = `h${(seed >>> 0).toString(36)}`

  /** Sends one operation to `url` and records it; whether it got a reply. */
  const attempt = async (
    client: number,
    kind: HistoryOperation['kind'],
    amount: number | null,
    key: string | null,
    url: string,
    retryOf: number | null
  ): Promise<{ readonly id: number; readonly answered: boolean }> => {
    const id = operations.length
    const r = requestOf(kind, amount, key)
    const invoked = now()
    operations.push({
      id,
      client,
      kind,
      amount_cents: amount,
      key,
      url,
      invoked,
      completed: null,
      reply: null,
      error: null,
      retry_of: retryOf
    })
    let recorded: HistoryOperation
    try {
      const reply = await fetch(`${url}${r.path}`, {
        method: r.method,
        headers: r.headers,
        ...(r.body === undefined ? {} : { body: r.body }),
        signal: AbortSignal.timeout(timeoutMs)
      })
      const text = await reply.text()
      const completed = now()
      const base = operations[id] as HistoryOperation
      recorded =
        reply.status >= 500
          ? { ...base, error: `${reply.status} ${text.slice(0, 200)}` }
          : {
              ...base,
              completed,
              reply: {
                status: reply.status,
                body: bodyValue(text),
                replayed: headerOf(Object.fromEntries(reply.headers), 'Idempotent-Replayed') === 'true'
              }
            }
    } catch (e) {
      recorded = { ...(operations[id] as HistoryOperation), error: causeCode(e) === 'ECONNREFUSED' ? REFUSED : whyNoReply(e) }
    }
    operations[id] = recorded
    return { id, answered: recorded.reply !== null }
  }

  /** Sends an operation until some instance answers, from `first` on. */
  const settle = async (
    client: number,
    kind: HistoryOperation['kind'],
    amount: number | null,
    key: string | null,
    first: number,
    retryOf: number | null
  ): Promise<number> => {
    let got = await attempt(client, kind, amount, key, urls[first % urls.length] as string, retryOf)
    const origin = retryOf ?? got.id
    for (let n = 1; !got.answered && n < MAX_ATTEMPTS; n++)
      got = await attempt(client, kind, amount, key, urls[(first + n) % urls.length] as string, origin)
    return got.id
  }

  /** Sends a client's planned operation `n`, and again as planned. */
  const send = async (client: number, n: number, p: Planned): Promise<void> => {
    const key = p.kind === 'read' ? null : `${run}-${client}-${n}`
    const amount = p.kind === 'read' ? null : p.amount
    if (p.again === 'racing' && key !== null) {
      // Both are recorded before either is sent: the first is the next operation.
      const first = operations.length
      await Promise.all([
        settle(client, p.kind, amount, key, client, null),
        settle(client, p.kind, amount, key, client + 1, first)
      ])
      return
    }
    const id = await settle(client, p.kind, amount, key, client, null)
    if (p.again === 'after' && key !== null) await settle(client, p.kind, amount, key, client + 1, id)
  }

  // In rounds: every client sends ROUND operations, one after another, then waits for the
  // others, so that a failing history has moments when nothing is under way to be cut at.
  const rounds = Math.max(...plans.map((plan) => plan.length)) / ROUND
  for (let round = 0; round < rounds; round++)
    await Promise.all(
      plans.map(async (plan, client) => {
        for (let n = round * ROUND; n < Math.min(plan.length, (round + 1) * ROUND); n++) await send(client, n, plan[n] as Planned)
      })
    )
  if (checks(chosen, 'budget.get')) await settle(clients, 'read', null, null, 0, null)
  const run_ms = now()
  return checkHistory({ state: START, operations }, { run_ms }, options.searchMs ?? DEFAULT_SEARCH_MS)
}
