import fc from 'fast-check'
import { type Endpoint, endpoints, type IndexContext, respondIndex } from '../../src/index'
import { headers, session } from '../fixtures'

export interface Transaction {
  readonly id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** Transaction n, created n minutes after 2026-11-01T00:00:00Z (in a -03:00 offset for odd n). */
export const transaction = (n: number, overrides: Partial<Transaction> = {}): Transaction => {
  const minutes = n
  const utc = `2026-11-${pad(1 + Math.floor(minutes / 1440))}T${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}:00Z`
  return {
    id: `tx-${pad(n, 4)}`,
    amount: (n * 37) % 1000,
    status: n % 3 === 0 ? 'pending' : 'authorized',
    created_at: utc,
    updated_at: utc,
    ...overrides
  }
}

export const transactions = (count: number) => Array.from({ length: count }, (_, i) => transaction(i))

export const index = (query: string, records: ReadonlyArray<unknown>, endpoint: Endpoint = endpoints.bankTransactions, extra: Partial<IndexContext> = {}) =>
  respondIndex({
    request: { headers: headers(), query },
    session: session('member'),
    endpoint,
    records,
    request_id: 'req-1',
    ...extra
  })

/** Transactions with heavily tied sort keys: few amounts, few instants, unique ids. */
export const tiedTransactions = (max = 300) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: 99999 }), { maxLength: max })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.record({
            amount: fc.integer({ min: -3, max: 3 }),
            minute: fc.integer({ min: 0, max: 4 }),
            status: fc.constantFrom('authorized' as const, 'pending' as const)
          }).map(({ amount, minute, status }) => ({
            id: `tx-${String(id).padStart(5, '0')}`,
            amount,
            status,
            created_at: `2026-11-22T10:0${minute}:00Z`,
            updated_at: `2026-11-22T07:0${4 - minute}:00-03:00`
          }))
        )
      )
    )
