import { describe, expect, it } from 'vitest'
import { endpoints } from '../api'
import { index, transactions } from '../paging/fixtures'

// Contract section 8: the last steps of an index request, each a rule that names what it did.
describe('the reasons of the last steps of respondIndex', () => {
  it('name the records matched, the slice taken and the Content-Range sent', () => {
    const r = index('_start=1&_end=3&status=pending', transactions(9), endpoints.bankTransactions)
    // Of tx-0000..tx-0008, the pending ones are those numbered 0, 3 and 6.
    expect([r.status, r.headers['Content-Range'], r.reasons.slice(-3)]).toEqual([
      200,
      '1-2/3',
      [
        { rule: 'page.records', detail: '9 records, 3 match' },
        { rule: 'page.slice', detail: '2 records from 1' },
        { rule: 'page.headers', detail: 'Content-Range 1-2/3' }
      ]
    ])
  })
})
