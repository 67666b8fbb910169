/**
 * Histories of a simulated server, linearizable by construction, for the tests and the bench of
 * the history checker: `clients` clients each send operations one after another (gaps and
 * durations drawn from a seeded generator); each operation takes effect at a moment drawn within
 * its interval, and the replies are those of the kit's model taken in the order of those
 * moments. Some operations are sent again with their key once answered, some twice at once,
 * some lose their reply (taking effect or not) and are sent again with their key, as the kit
 * does; the kit's last read ends it. `lostUpdate` then
 * plants one defect: a withdrawal's reply shows the balance before the operation that took effect
 * just before it, as a lost update does.
 */
import type { Budget } from '../../src/budget/stored'
import { type History, type HistoryOperation, requestOf, START } from '../../src/conformance/histories'
import { decideRequest, type ServerState } from '../../src/conformance/model'

/** A small seeded generator (mulberry32), so that a history is the same for a seed. */
const generator = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Simulation {
  readonly operations: number
  readonly clients: number
  readonly seed: number
  /** The share of operations whose reply is lost (0 by default). */
  readonly unknown?: number
  /** Plants a lost update at about this share of the history (none by default). */
  readonly lostUpdate?: number
}

interface Draft {
  readonly client: number
  readonly kind: HistoryOperation['kind']
  readonly amount: number | null
  readonly key: string | null
  readonly invoked: number
  readonly completed: number
  readonly at: number
  readonly retryOf: number | null
  readonly lost: boolean
  readonly tookEffect: boolean
}

export const simulate = (s: Simulation): History => {
  const random = generator(s.seed)
  const drafts: Array<Draft> = []
  const clock = Array.from({ length: s.clients }, () => random() * 2)
  const perClient = Math.ceil(s.operations / s.clients)
  for (let n = 0; n < perClient; n++) {
    // Rounds of four operations, the clients waiting for one another between them, as the kit's do.
    if (n % 4 === 0) clock.fill(Math.max(...clock))
    for (let c = 0; c < s.clients; c++) {
      if (drafts.length >= s.operations) break
      const r = random()
      const kind: HistoryOperation['kind'] = r < 0.4 ? 'top_up' : r < 0.85 ? 'withdraw' : 'read'
      const amount = kind === 'read' ? null : 1 + Math.floor(random() * 20_000)
      const key = kind === 'read' ? null : `s-${c}-${n}`
      const again = kind === 'read' ? 'no' : random() < 0.1 ? 'after' : random() < 0.08 ? 'racing' : 'no'
      const one = (invoked: number, retryOf: number | null): Draft => {
        const completed = invoked + 0.5 + random() * 8
        const lost = retryOf === null && kind !== 'read' && random() < (s.unknown ?? 0)
        return {
          client: c,
          kind,
          amount,
          key,
          invoked,
          completed,
          at: invoked + random() * (completed - invoked),
          retryOf,
          lost,
          tookEffect: !lost || random() < 0.5
        }
      }
      const first = one((clock[c] as number) + random(), null)
      drafts.push(first)
      let end = first.completed
      if (first.lost) {
        // Its reply lost, the client sends it again with its key, as the kit does.
        const retry = one(first.completed + random(), drafts.length - 1)
        drafts.push(retry)
        end = retry.completed
      } else if (again !== 'no') {
        const id = drafts.length - 1
        const second = one(again === 'racing' ? first.invoked + random() : first.completed + random(), id)
        drafts.push(second)
        end = Math.max(end, second.completed)
      }
      clock[c] = end
    }
  }
  // The kit's last read, once every client is done.
  const last = Math.max(...drafts.map((d) => d.completed)) + 1
  drafts.push({
    client: s.clients,
    kind: 'read',
    amount: null,
    key: null,
    invoked: last,
    completed: last + 1,
    at: last + 0.5,
    retryOf: null,
    lost: false,
    tookEffect: true
  })
  // The replies, in the order the operations take effect.
  const replies = new Map<number, { status: number; body: unknown; replayed: boolean }>()
  let state: ServerState = { ...START, kept: new Map() }
  const byMoment = drafts.map((d, i) => ({ d, i })).sort((a, b) => a.d.at - b.d.at)
  const planted = s.lostUpdate === undefined ? -1 : Math.floor(s.lostUpdate * byMoment.length)
  let before: Budget | null = state.budget
  let plantedYet = false
  for (const [k, { d, i }] of byMoment.entries()) {
    if (!d.tookEffect) continue
    const { reply, state: next } = decideRequest(state, requestOf(d.kind, d.amount, d.key))
    const body = reply.body as Budget
    // The lost update: the first fresh withdrawal from the planted point on shows the balance
    // before the operation just before it.
    const lost =
      !plantedYet &&
      planted >= 0 &&
      k >= planted &&
      d.kind === 'withdraw' &&
      reply.status === 200 &&
      !reply.replayed &&
      !d.lost &&
      before?.balance_cents !== state.budget?.balance_cents
    if (lost) {
      replies.set(i, {
        status: 200,
        body: { ...body, balance_cents: Number(before?.balance_cents) - (d.amount as number) },
        replayed: false
      })
      plantedYet = true
    } else replies.set(i, { status: reply.status, body: reply.body, replayed: reply.replayed })
    before = state.budget
    state = next
  }
  return {
    state: START,
    operations: drafts.map((d, id): HistoryOperation => ({
      id,
      client: d.client,
      kind: d.kind,
      amount_cents: d.amount,
      key: d.key,
      url: 'http://simulated',
      invoked: d.invoked,
      completed: d.lost ? null : d.completed,
      reply: d.lost ? null : (replies.get(id) ?? null),
      error: d.lost ? 'timeout' : null,
      retry_of: d.retryOf
    }))
  }
}
