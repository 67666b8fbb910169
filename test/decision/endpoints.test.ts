/**
 * isDecisionEndpoint: the names of the decisions a record can hold (contract section 16), and
 * nothing else, whatever its type.
 */
import { describe, expect, it } from 'vitest'
import { isDecisionEndpoint } from '../../src/decisions'

describe('isDecisionEndpoint', () => {
  it('is true of the twelve names, and false of other text, near misses and anything but a string', () => {
    const names = [
      'budget.get',
      'budget.update',
      'budget.top_up',
      'budget.withdraw',
      'budget.amount',
      'transaction.authorize',
      'recipient.enroll',
      'role.assign',
      'index.budgets',
      'index.bank_transactions',
      'index.companies',
      'index.decisions'
    ]
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
