/**
 * isDecisionEndpoint: the names of the decisions a record can hold (contract section 16), and
 * nothing else, whatever its type.
 */
import { describe, expect, it } from 'vitest'
import { isDecisionEndpoint } from '../../src/decisions'
import { INDEX_DECISIONS, RESOURCE_DECISIONS } from '../fixtures'

describe('isDecisionEndpoint', () => {
  it('is true of the twelve names, and false of other text, near misses and anything but a string', () => {
    const names = [...RESOURCE_DECISIONS, ...INDEX_DECISIONS]
    expect(names.map(isDecisionEndpoint)).toStrictEqual(Array<boolean>(12).fill(true))
    const others: ReadonlyArray<unknown> = [
      'budget.close',
      'Budget.get',
      ' budget.get',
      '',
      ['budget.get'],
      { toString: () => 'budget.get' },
      new String('budget.get'),
      null,
      undefined,
      7
    ]
    expect(others.map(isDecisionEndpoint)).toStrictEqual(Array<boolean>(10).fill(false))
  })
})
