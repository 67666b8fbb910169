/**
 * Authorizing a bank transaction (spec section 7, R-71): only `pending` becomes `authorized`;
 * `authorized` is a 409; any other status is malformed trusted input, which the typed rule
 * refuses with a TypeError naming it and the facade turns into a 500.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { authorizeTransaction } from '../api'
import { runs } from '../runs'
import { thrown } from '../thrown'

const STATUS_MESSAGE = 'authorizeTransaction: status must be pending or authorized, not '

describe('authorizeTransaction', () => {
  it('authorizes a pending transaction, keeping its other fields, in a new object', () => {
    const tx = Object.freeze({
      id: 'tx-1',
      company_id: 'c-1',
      amount: 1200,
      status: 'pending' as const,
      created_at: '2026-11-22T10:00:00Z'
    })
    const r = authorizeTransaction(tx)
    expect(r).toEqual({
      _tag: 'Right',
      right: { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'authorized', created_at: '2026-11-22T10:00:00Z' }
    })
    expect(tx.status).toBe('pending')
  })

  it('refuses an authorized transaction with a 409 conflict', () => {
    expect(authorizeTransaction({ id: 'tx-1', status: 'authorized' })).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'Conflict',
        rule: 'transaction.authorize',
        message: 'The transaction is already authorized',
        detail: 'The transaction is already authorized'
      }
    })
  })

  it.each<[unknown, string]>([
    ['declined', '"declined"'],
    ['rejected', '"rejected"'],
    ['Pending', '"Pending"'],
    [' pending', '" pending"'],
    ['AUTHORIZED', '"AUTHORIZED"'],
    ['', '""'],
    [null, 'null'],
    [undefined, 'undefined'],
    [0, '0'],
    [true, 'true'],
    [['pending'], 'an array'],
    [{}, 'an object'],
    [() => 'pending', 'a function'],
    [Symbol('pending'), 'a symbol']
  ])('refuses the status %s as malformed trusted input', (status, shown) => {
    const e = thrown(() => authorizeTransaction({ id: 'tx-1', status } as never))
    expect([e instanceof TypeError, (e as Error).message]).toEqual([true, STATUS_MESSAGE + shown])
  })

  it('refuses a transaction without a status field', () => {
    const e = thrown(() => authorizeTransaction({ id: 'tx-1' } as never))
    expect([e instanceof TypeError, (e as Error).message]).toEqual([true, `${STATUS_MESSAGE}undefined`])
  })

  it('refuses a transaction that is not an object', () => {
    for (const [tx, shown] of [
      [null, 'null'],
      [undefined, 'undefined'],
      ['pending', '"pending"']
    ] as const) {
      const e = thrown(() => authorizeTransaction(tx as never))
      expect([e instanceof TypeError, (e as Error).message]).toEqual([
        true,
        `authorizeTransaction: the transaction must be an object, not ${shown}`
      ])
    }
  })

  it('reads the status once, so a getter cannot answer twice differently', () => {
    let reads = 0
    const tx = {
      id: 'tx-1',
      get status() {
        reads++
        return reads === 1 ? 'pending' : 'authorized'
      }
    }
    const r = authorizeTransaction(tx as never)
    expect([r, reads]).toEqual([{ _tag: 'Right', right: { id: 'tx-1', status: 'authorized' } }, 1])
  })

  it('authorizes exactly the pending ones among statuses of every kind', () => {
    const counts = { authorized: 0, conflict: 0, refused: 0 }
    const status = fc.oneof(
      { weight: 2, arbitrary: fc.constant('pending') },
      { weight: 1, arbitrary: fc.constant('authorized') },
      {
        weight: 2,
        arbitrary: fc.oneof(fc.constantFrom('declined', 'Pending', 'pending ', null, undefined), fc.string({ maxLength: 10 }))
      }
    )
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), status, (id, s) => {
        const e = thrown(() => authorizeTransaction({ id, status: s } as never))
        if (s === 'pending') {
          expect(authorizeTransaction({ id, status: s })).toEqual({ _tag: 'Right', right: { id, status: 'authorized' } })
          counts.authorized++
        } else if (s === 'authorized') {
          expect(authorizeTransaction({ id, status: s })).toEqual({
            _tag: 'Left',
            left: {
              _tag: 'Conflict',
              rule: 'transaction.authorize',
              message: 'The transaction is already authorized',
              detail: 'The transaction is already authorized'
            }
          })
          counts.conflict++
        } else {
          expect(e).toBeInstanceOf(TypeError)
          counts.refused++
        }
      }),
      { numRuns: runs(300) }
    )
    // By construction about 40% authorize, 20% conflict and 40% are refused.
    const total = counts.authorized + counts.conflict + counts.refused
    expect([counts.authorized / total >= 0.25, counts.refused / total >= 0.25, counts.conflict / total >= 0.1]).toEqual([
      true,
      true,
      true
    ])
  })
})
