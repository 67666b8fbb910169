import { describe, expect, it } from 'vitest'
import { endpoints, nextWindow } from '../api'
import { decodePageRequest } from '../../src/paging/request'

const tx = endpoints.bankTransactions
const windowProblem = (detail: string) => ({
  _tag: 'Left',
  left: { _tag: 'BadRequest', rule: 'page.window', message: detail, detail }
})

// Spec section 4: a malformed window, order or sort field is a 400 of the rule page.window.
describe('the problems of the page.window rule', () => {
  it.each<[string, string, string]>([
    ['a start that is not an integer', '_start=x', '_start must be a base-10 integer from 0 to 9007199254740991'],
    ['a start after the end', '_start=5&_end=2', '_start must not be greater than _end'],
    ['an unknown order', '_order=up', '_order must be asc or desc'],
    ['a field that is not sortable', '_field=status', '_field must be one of created_at, updated_at, amount']
  ])('%s', (_, query, detail) => {
    expect(decodePageRequest(tx, query).result).toEqual(windowProblem(detail))
  })
})

describe('nextWindow after an empty window', () => {
  it('has no next window: a window of 0 records walks nowhere', () => {
    expect([nextWindow({ start: 5, end: 5 }, 0), nextWindow({ start: 0, end: 0 }, 0)]).toEqual([null, null])
  })
})
