import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { pageHeaders } from '../api'

const EXPOSE = 'Content-Range, X-Total-Count'

// Spec section 4, contract section 8: the headers of a page, and the 500 of a page that does
// not fit its window or its total (the server never truncates silently).
describe('pageHeaders', () => {
  it.each<[string, { start: number; end: number }, number, number, string]>([
    ['a full window', { start: 0, end: 25 }, 25, 120, '0-24/120'],
    ['the last, short page', { start: 100, end: 125 }, 20, 120, '100-119/120'],
    ['one record', { start: 7, end: 8 }, 1, 8, '7-7/8'],
    ['an empty page past the end', { start: 500, end: 510 }, 0, 120, '*/120'],
    ['an empty collection', { start: 0, end: 25 }, 0, 0, '*/0'],
    ['an empty window', { start: 3, end: 3 }, 0, 10, '*/10']
  ])('%s', (_, window, count, total, range) => {
    expect(pageHeaders(window, count, total)).toEqual(
      either.right({ 'X-Total-Count': String(total), 'Content-Range': range, 'Access-Control-Expose-Headers': EXPOSE })
    )
  })

  it('is a 500 for a page longer than its window', () => {
    expect(pageHeaders({ start: 10, end: 20 }, 11, 100)).toEqual(
      either.left({ _tag: 'InternalError', rule: 'page.headers', detail: 'a page of 11 records for a window of 10' })
    )
    // One more than the window is refused; exactly the window is not.
    expect(either.isRight(pageHeaders({ start: 10, end: 20 }, 10, 100))).toBe(true)
  })

  it('is a 500 for a page that runs past the total', () => {
    expect(pageHeaders({ start: 95, end: 105 }, 6, 100)).toEqual(
      either.left({ _tag: 'InternalError', rule: 'page.headers', detail: 'records 95-100 of only 100' })
    )
    expect(pageHeaders({ start: 95, end: 105 }, 5, 100)).toEqual(
      either.right({ 'X-Total-Count': '100', 'Content-Range': '95-99/100', 'Access-Control-Expose-Headers': EXPOSE })
    )
  })
})
