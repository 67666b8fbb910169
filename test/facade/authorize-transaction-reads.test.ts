import { describe, expect, it } from 'vitest'
import { respondAuthorizeTransaction } from '../api'

const context = (transaction: unknown) =>
  ({
    request: { headers: { Authorization: 'Bearer key-1', 'company-id': 'c-1' } },
    session: { user: { id: 'u-caller', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
    transaction,
    request_id: 'req-t'
  }) as never

const PENDING = { id: 'tx-1', company_id: 'c-1', amount: 1200, status: 'pending', created_at: '2026-11-22T10:00:00Z' }

// a stored transaction read field by field; what cannot be read is named once.
describe('respondAuthorizeTransaction reading a stored transaction', () => {
  it('names an id whose getter throws as unreadable, and only so', () => {
    const row = Object.defineProperty({ ...PENDING }, 'id', {
      enumerable: true,
      get() {
        throw new Error('id failed to load')
      }
    })
    const r = respondAuthorizeTransaction(context(row))
    expect([r.status, r.reasons.at(-1)]).toEqual([
      500,
      { rule: 'transaction.stored', detail: 'malformed stored transaction: id could not be read' }
    ])
  })

  it('describes an id that is not a string when the transaction is of another company', () => {
    const r = respondAuthorizeTransaction(context({ ...PENDING, id: { n: 1 }, company_id: 'c-9' }))
    expect([r.status, r.reasons.at(-1)]).toEqual([
      404,
      { rule: 'transaction.scope', detail: 'transaction an object belongs to another company' }
    ])
  })
})
