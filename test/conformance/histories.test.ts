/**
 * checkHistory on recorded histories, without a server: histories of a simulated server,
 * linearizable by construction (./simulated.ts), pass, with replies lost and keys sent again;
 * each defect planted in one is caught by the check meant for it, and a failing history is cut
 * to a part that fails alone, printed per client.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkHistory, formatHistory, type History, type HistoryOperation, type HistoryResult } from '../../src/conformance'
import { REFUSED } from '../../src/conformance/histories'
import { runs, timeoutFor } from '../runs'
import { simulate } from './simulated'

const run = { run_ms: 10 }

/** A copy of the history with operation `id` changed. */
const changed = (h: History, id: number, change: (o: HistoryOperation) => HistoryOperation): History => ({
  ...h,
  operations: h.operations.map((o) => (o.id === id ? change(o) : o))
})

const failing = (r: HistoryResult) => {
  if (r.verdict !== 'not linearizable') throw new Error(`not a failure: ${formatHistory(r)}`)
  return r
}

describe('checkHistory', () => {
  it(
    'passes every simulated history, replies lost and sent again included; a lost update planted fails',
    () => {
      let lost = 0
      let planted = 0
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 2, max: 8 }), (seed, clients) => {
          const history = simulate({ operations: 40, clients, seed, unknown: 0.05 })
          if (history.operations.some((o) => o.completed === null)) lost++
          expect(checkHistory(history, run).verdict).toBe('linearizable')
          const withLostUpdate = simulate({ operations: 40, clients, seed, unknown: 0.05, lostUpdate: 0.3 })
          const result = checkHistory(withLostUpdate, run)
          if (JSON.stringify(withLostUpdate) !== JSON.stringify(history)) {
            planted++
            expect(result.verdict).toBe('not linearizable')
          }
        }),
        { numRuns: runs(30) }
      )
      // Replies were lost in most histories, and the lost update planted in nearly all.
      expect(lost).toBeGreaterThan(runs(30) * 0.6)
      expect(planted).toBeGreaterThan(runs(30) * 0.9)
    },
    timeoutFor(30, 60_000)
  )

  it('cuts a lost update to a part that fails alone, and prints it per client with the longest order and the stuck operation', () => {
    const history = simulate({ operations: 400, clients: 8, seed: 7, lostUpdate: 0.5 })
    const r = failing(checkHistory(history, run))
    expect(r.check).toBe('no order')
    expect(r.stuck).not.toBeNull()
    expect(r.witness).toContain(r.stuck)
    expect(r.witness.length).toBeLessThan(40)
    expect(r.longest.length).toBeGreaterThan(100)
    // The part, from the balance it starts at, fails on its own (its later replies unheard).
    const alone: History = {
      state: { ...history.state, budget: r.from },
      operations: r.witness.map((id, i) => {
        const o = history.operations[id] as HistoryOperation
        return r.unheard.includes(id) ? { ...o, id: i, completed: null, reply: null } : { ...o, id: i }
      })
    }
    expect(checkHistory(alone, run).verdict).toBe('not linearizable')
    const text = formatHistory(r)
    const stuck = history.operations[r.stuck as number] as HistoryOperation
    expect(text).toMatch(
      /^401 operations \(0 unknown, 0 refused, \d+ sent again, \d+ replayed\) in 10 ms: not linearizable: no order/
    )
    expect(text).toContain(
      `the ${r.witness.length} operations that show it, per client, from a balance of ${String(r.from?.balance_cents)}:`
    )
    expect(text).toContain(`no order explains #${stuck.id} (client ${stuck.client}): #${stuck.id}  `)
    expect(text).toContain(
      `the model's budget there holds ${String(r.state?.balance_cents)}, and the library replies 200 balance `
    )
    expect(text).toMatch(/\nthe server ends with 200 balance \d+ \(#400\)$/)
  })

  it('a key that moved money twice: the two replies, neither replayed', () => {
    const history = simulate({ operations: 200, clients: 4, seed: 3 })
    const replay = history.operations.find((o) => o.reply?.replayed === true) as HistoryOperation
    const twice = changed(history, replay.id, (o) => ({
      ...o,
      reply: { ...(o.reply as NonNullable<HistoryOperation['reply']>), replayed: false }
    }))
    const r = failing(checkHistory(twice, run))
    expect(r.check).toBe('key applied twice')
    expect(r.witness).toEqual(history.operations.filter((o) => o.key === replay.key).map((o) => o.id))
    expect(r.stats).toMatchObject({ search_ms: 0, explored: 0 })
    expect(formatHistory(r)).toContain('one Idempotency-Key got two replies, neither replayed: it moved the money twice')
  })

  it('a balance below zero', () => {
    const history = simulate({ operations: 50, clients: 4, seed: 5 })
    const top = history.operations.find((o) => o.kind === 'top_up' && o.reply?.status === 200) as HistoryOperation
    const below = changed(history, top.id, (o) => ({
      ...o,
      reply: { status: 200, body: { balance_cents: -1 }, replayed: false }
    }))
    expect(failing(checkHistory(below, run))).toMatchObject({ check: 'balance below zero', witness: [top.id], from: null })
  })

  it('money not conserved: the final balance off by a cent, found where the search fails', () => {
    const history = simulate({ operations: 100, clients: 4, seed: 9, unknown: 0.05 })
    const final = history.operations.at(-1) as HistoryOperation
    const off = changed(history, final.id, (o) => {
      const reply = o.reply as NonNullable<HistoryOperation['reply']>
      const body = reply.body as { balance_cents: number }
      return { ...o, reply: { ...reply, body: { ...body, balance_cents: body.balance_cents + 1 } } }
    })
    const r = failing(checkHistory(off, run))
    expect(r.check).toBe('money not conserved')
    expect(r.stuck).toBe(final.id)
  })

  it('a read last that overlaps another operation is no final balance: the search alone judges it', () => {
    const history = simulate({ operations: 100, clients: 4, seed: 9 })
    const final = history.operations.at(-1) as HistoryOperation
    const before = history.operations.at(-2) as HistoryOperation
    const early = changed(history, final.id, (o) => {
      const reply = o.reply as NonNullable<HistoryOperation['reply']>
      const body = reply.body as { balance_cents: number }
      return {
        ...o,
        invoked: (before.completed as number) - 0.01,
        reply: { ...reply, body: { ...body, balance_cents: body.balance_cents + 1 } }
      }
    })
    expect(failing(checkHistory(early, run))).toMatchObject({ check: 'no order', stuck: final.id })
  })

  it('a refused connection never takes effect; any other operation without a reply may', () => {
    const history = simulate({ operations: 40, clients: 2, seed: 11 })
    const top = history.operations.find(
      (o) => o.kind === 'top_up' && o.retry_of === null && o.reply?.replayed === false
    ) as HistoryOperation
    // The top-up's reply lost: it may still have taken effect.
    const timedOut = changed(history, top.id, (o) => ({ ...o, completed: null, reply: null, error: 'timeout' }))
    expect(checkHistory(timedOut, run).verdict).toBe('linearizable')
    // Refused: it never reached a server, yet the balances show it.
    const refused = changed(history, top.id, (o) => ({ ...o, completed: null, reply: null, error: REFUSED }))
    const r = checkHistory(refused, run)
    expect(r.verdict).toBe('not linearizable')
    expect(r.stats).toMatchObject({ unknown: 0, refused: 1 })
  })

  it('an operation without a reply whose key got a fresh reply elsewhere never took effect', () => {
    const history = simulate({ operations: 40, clients: 2, seed: 13 })
    const fresh = history.operations.find((o) => o.kind === 'top_up' && o.reply?.replayed === false) as HistoryOperation
    // A copy of it sent first, its reply lost: it cannot have moved the money too.
    const last = history.operations.at(-1) as HistoryOperation
    const lost: HistoryOperation = {
      ...fresh,
      id: last.id,
      invoked: fresh.invoked - 0.1,
      completed: null,
      reply: null,
      error: 'timeout'
    }
    const withLost: History = { ...history, operations: [...history.operations.slice(0, -1), lost, { ...last, id: last.id + 1 }] }
    expect(checkHistory(withLost, run).verdict).toBe('linearizable')
    // Had it moved the money as well, the last read would show it twice: no order explains that.
    const final = withLost.operations.at(-1) as HistoryOperation
    const reply = final.reply as NonNullable<HistoryOperation['reply']>
    const twice = changed(withLost, final.id, (o) => ({
      ...o,
      reply: {
        ...reply,
        body: {
          ...(reply.body as object),
          balance_cents: (reply.body as { balance_cents: number }).balance_cents + (fresh.amount_cents as number)
        }
      }
    }))
    expect(checkHistory(twice, run).verdict).toBe('not linearizable')
  })

  it('a search that runs out of time is unknown, never a pass', () => {
    const r = checkHistory(simulate({ operations: 300, clients: 8, seed: 1, unknown: 0.02 }), run, 0)
    expect(r).toMatchObject({ ok: false, verdict: 'unknown' })
    expect(formatHistory(r)).toMatch(
      /: unknown, the search ran out of time \(search [\d.]+ ms, \d+ configurations\); this is no pass\n/
    )
  })
})
