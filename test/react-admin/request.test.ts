/**
 * The react-admin provider's plans (src/react-admin/request.ts) called directly: what each
 * react-admin call becomes (the request sent, or the refusal the service would give, nothing
 * sent), for the parameters the provider's own tests (provider.test.ts) do not reach through a
 * fetch. Expected paths and messages are written out by hand from the contract (section 8, R-101).
 */
import { describe, expect, it } from 'vitest'
import { planAction, planCreate, planList, planMany, planOne, planUpdate, unavailable } from '../../src/react-admin/request'

const refusal = (status: number, message: string) => ({ _tag: 'Refuse', status, message })
const TRANSACTIONS = '/v1/banking/bank_transactions'

describe('planList (R-101)', () => {
  it('is a GET of the index, with the window, order and field asked for', () => {
    expect(
      planList('bank_transactions', { pagination: { page: 2, perPage: 10 }, sort: { field: 'amount', order: 'ASC' } })
    ).toEqual({
      _tag: 'Send',
      method: 'GET',
      path: `${TRANSACTIONS}?_start=10&_end=20&_order=asc&_field=amount`,
      company: true
    })
  })

  it('refuses parameters it cannot read, and a pagination or sort that is not an object', () => {
    const throwing = Object.defineProperty({}, 'filter', {
      enumerable: true,
      get: () => {
        throw new Error('a getter that throws')
      }
    })
    expect(planList('budgets', throwing)).toEqual(refusal(400, 'The parameters could not be read'))
    expect(planList('budgets', { pagination: 7 })).toEqual(refusal(400, 'pagination is 7, not { page, perPage }'))
    expect(planList('budgets', { sort: 'amount' })).toEqual(refusal(400, 'sort is "amount", not { field, order }'))
  })

  it('refuses a filter value that is neither text nor a finite number, as the service would', () => {
    expect(planList('companies', { filter: { name: true } })).toEqual(refusal(400, 'name is true, not a string'))
    expect(planList('companies', { filter: { name: Number.NaN } })).toEqual(refusal(400, 'name is NaN, not a string'))
    expect(planList('companies', { filter: { name: Number.POSITIVE_INFINITY } })).toEqual(
      refusal(400, 'name is Infinity, not a string')
    )
  })

  it('takes a list of numbers for an integer field, and up to 500 values in a list', () => {
    expect(planList('bank_transactions', { filter: { amount: [1000, 2000] } })).toEqual({
      _tag: 'Send',
      method: 'GET',
      path: `${TRANSACTIONS}?amount%5B%24in%5D=%5B1000%2C2000%5D`,
      company: true
    })
    const ids = Array.from({ length: 500 }, (_, i) => `tx-${i}`)
    expect(planList('bank_transactions', { filter: { id: ids } })).toMatchObject({ _tag: 'Send', method: 'GET' })
    expect(planList('bank_transactions', { filter: { id: [...ids, 'tx-500'] } })).toEqual(
      refusal(400, 'id holds 501 values, more than 500')
    )
  })

  it('refuses an operator the field does not take before reading its value, as the service does', () => {
    expect(planList('bank_transactions', { filter: { 'status[$gt]': 'settled' } })).toStrictEqual(
      refusal(400, '$gt applies to integer and instant fields, not status')
    )
  })

  it('refuses any filter on a json field in the service’s words, a value or a list (found by mutation testing)', () => {
    expect([
      planList('decisions', { filter: { rules: 'x' } }),
      planList('decisions', { filter: { case: ['a', 'b'] } }),
      planList('decisions', { filter: { 'reply[$ne]': 1 } })
    ]).toStrictEqual([
      refusal(400, 'rules cannot be filtered'),
      refusal(400, 'case cannot be filtered'),
      refusal(400, 'reply cannot be filtered')
    ])
  })

  it('spreads an object out only when every key of it is an operator', () => {
    expect(planList('bank_transactions', { filter: { amount: { $gte: 1000, min: 1 } } })).toEqual(
      refusal(400, 'amount is an object, not an integer')
    )
  })

  it('is a 405 for a resource that is not a name the provider knows, inherited names and arrays included', () => {
    expect(planList(['budgets'] as never, {})).toEqual(
      refusal(405, 'getList is not available on an array: the service has no endpoint for it')
    )
    expect(planCreate('constructor', { data: {} })).toEqual(
      refusal(405, 'create is not available on constructor: the service has no endpoint for it')
    )
    expect(unavailable('delete', {})).toEqual(
      refusal(405, 'delete is not available on an object: the service has no endpoint for it')
    )
  })
})

describe('planOne, planMany (R-101)', () => {
  it('is a GET by id on a resource with that path', () => {
    expect(planOne('budgets', 'b-travel')).toStrictEqual({
      _tag: 'Send',
      method: 'GET',
      path: '/v1/budgets/b-travel',
      company: true
    })
  })

  it('refuses an id with a NUL or that is a number but not a whole one', () => {
    expect(planOne('budgets', 'a\u0000b')).toEqual(refusal(400, 'id is "a\\u0000b", not an id'))
    expect(planOne('budgets', 1.5)).toEqual(refusal(400, 'id is 1.5, not an id'))
  })

  it('asks for the ids with a GET of the index, and is a 405 on a resource with none', () => {
    expect(planMany('budgets', ['b-1'])).toEqual([
      {
        _tag: 'Send',
        method: 'GET',
        path: '/v1/budgets?_start=0&_end=1&id%5B%24in%5D=%5B%22b-1%22%5D',
        company: true
      }
    ])
    expect(planMany('bank_recipients', ['r-1'])).toEqual(
      refusal(405, 'getMany is not available on bank_recipients: the service has no endpoint for it')
    )
  })
})

describe('planUpdate, planAction (R-101)', () => {
  it('refuses an update whose id is not one or whose data is not an object', () => {
    expect(planUpdate('budgets', { id: '', data: {} })).toEqual(refusal(400, 'id is "", not an id'))
    expect(planUpdate('budgets', { id: 'b-1', data: 7 })).toEqual(refusal(400, 'data is 7, not an object'))
  })

  it('sends the fields that changed, under the wrapper of the endpoint', () => {
    expect(
      planUpdate('budgets', {
        id: 'b-travel',
        data: { id: 'b-travel', name: 'Trips', access: 'everyone' },
        previousData: { id: 'b-travel', name: 'Travel', access: 'everyone' }
      })
    ).toStrictEqual({
      _tag: 'Send',
      method: 'PATCH',
      path: '/v1/budgets/b-travel',
      body: '{"budget":{"name":"Trips"}}',
      company: true
    })
  })

  it('is a 405 for an update on a resource the provider does not know, or one without an update', () => {
    expect(planUpdate('widgets', { id: 'w-1', data: {} })).toStrictEqual(
      refusal(405, 'update is not available on widgets: the service has no endpoint for it')
    )
    expect(planUpdate('bank_transactions', { id: 'tx-1', data: {} })).toStrictEqual(
      refusal(405, 'update is not available on bank_transactions: the service has no endpoint for it')
    )
  })

  it('refuses a create whose data is not an object', () => {
    expect(planCreate('bank_recipients', { data: 7 })).toStrictEqual(refusal(400, 'data is 7, not an object'))
  })

  it('refuses an amount that is not a finite number', () => {
    expect(planAction('top_up', 'b-1', Number.NaN)).toEqual(refusal(400, 'amount_cents is NaN, not a number'))
    expect(planAction('withdraw', 'b-1', Number.NEGATIVE_INFINITY)).toEqual(
      refusal(400, 'amount_cents is -Infinity, not a number')
    )
  })
})
