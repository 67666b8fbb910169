/**
 * The data provider given hostile parameters, fuzzed with fast-check: whatever a call
 * gets, it returns a promise and never throws, the promise settles (resolved, or rejected with
 * an HttpError), and every index request it does send is one the service takes: the query, as
 * sent, handed to the service's own facade (respondIndex, the oracle: the rules the server
 * runs, not the provider's checks) is never a 400 or a 416.
 */
import fc from 'fast-check'
import { HttpError } from 'ra-core'
import { describe, expect, it } from 'vitest'
import { type Endpoint, endpoints, respondIndex } from '../../src/index'
import { reactAdminDataProvider } from '../../src/react-admin'
import { runs, timeoutFor } from '../runs'
import { pageOf, type Recorded, recorder } from './fetch'

const BASE = 'http://api.test'
const session = {
  user: { id: 'u-member', email_verified: true },
  memberships: { 'c-acme': { role: 'member' as const, permissions: [] } }
}
const INDEXES: ReadonlyArray<Endpoint> = [endpoints.bankTransactions, endpoints.budgets, endpoints.companies]

/** The status the service's facade gives the index request `call` (over no records), or null for a path that is no index. */
const serviceStatus = (call: Recorded): number | null => {
  const url = new URL(call.url)
  const endpoint = INDEXES.find((e) => `${BASE}${e.path}` === `${url.origin}${url.pathname}`)
  if (endpoint === undefined) return null
  const at = call.url.indexOf('?')
  return respondIndex({
    request: { headers: call.headers, query: at < 0 ? '' : call.url.slice(at + 1) },
    session,
    endpoint,
    records: [],
    request_id: 'r-1'
  }).status
}

const hostile = fc.oneof(
  fc.constant(null),
  fc.constant(
    new Proxy(
      {},
      {
        get: () => {
          throw new Error('hostile get')
        },
        ownKeys: () => {
          throw new Error('hostile keys')
        }
      }
    )
  ),
  fc.constant(
    Object.defineProperty({}, 'pagination', {
      enumerable: true,
      get: () => {
        throw new Error('hostile getter')
      }
    })
  ),
  fc.anything()
)

const fieldNames = [
  'id',
  'amount',
  'status',
  'created_at',
  'updated_at',
  'name',
  'access',
  'mode',
  'currency',
  'q',
  '__proto__',
  ''
]
const operatorNames = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$like', '', 'gt']
const instant = fc.constantFrom(
  '2026-11-22T10:00:00Z',
  '2026-11-22T07:00:00-03:00',
  '2026-11-22T10:00:00',
  '2026-02-30T00:00:00Z',
  'now'
)
const scalar = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  instant,
  fc.constantFrom('pending', 'authorized', 'paid', 'members', '', '\u0000', '\uD800', '1000', '-0', '1e3')
)
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.array(fc.integer(), { minLength: 499, maxLength: 502 }),
  fc.constant(undefined),
  fc.anything()
)
const filter = fc.dictionary(
  fc.oneof(
    fc.constantFrom(...fieldNames),
    fc.tuple(fc.constantFrom(...fieldNames), fc.constantFrom(...operatorNames)).map(([f, op]) => `${f}[${op}]`),
    fc.string()
  ),
  value,
  { maxKeys: 5 }
)
const whole = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 4 },
  { arbitrary: fc.integer({ min: -2, max: 2100 }), weight: 1 },
  { arbitrary: fc.constantFrom(0, 1, 2000, 2001, 2 ** 53, 2 ** 40), weight: 1 },
  { arbitrary: fc.oneof(fc.double(), fc.anything()), weight: 1 }
)
/** Mostly what react-admin sends, so that many calls reach the service; now and then anything. */
const often = <T>(usual: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: usual, weight: 4 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: fc.anything(), weight: 1 }
  )
const params = fc.oneof(
  {
    arbitrary: fc.record(
      {
        pagination: often(fc.record({ page: whole, perPage: whole })),
        sort: often(
          fc.record({
            field: fc.oneof(
              fc.constantFrom('created_at', 'updated_at', 'amount', 'created_on', 'name', 'id', 'status'),
              fc.anything()
            ),
            order: fc.oneof(fc.constantFrom('ASC', 'DESC', 'asc', 'desc'), fc.anything())
          })
        ),
        filter: fc.oneof(
          { arbitrary: fc.constant({}), weight: 3 },
          { arbitrary: filter, weight: 4 },
          { arbitrary: fc.anything(), weight: 1 }
        ),
        target: fc.constantFrom(...fieldNames),
        id: fc.oneof(scalar, fc.anything()),
        ids: fc.oneof(fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 1100 }), fc.anything()),
        data: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.anything()),
        previousData: fc.anything(),
        meta: fc.anything()
      },
      { requiredKeys: [] }
    ),
    weight: 6
  },
  { arbitrary: hostile, weight: 1 }
)
/** The provider's own methods, which take their parameters alone. */
const ACTIONS: ReadonlyArray<string> = ['authorize', 'topUp', 'withdraw']
const resource = fc.oneof(
  { arbitrary: fc.constantFrom('budgets', 'bank_transactions', 'companies'), weight: 4 },
  { arbitrary: fc.constantFrom('bank_recipients', 'payables', '__proto__', 'constructor'), weight: 1 }
)
const method = fc.oneof(
  { arbitrary: fc.constantFrom('getList', 'getManyReference', 'getMany', 'getOne'), weight: 4 },
  {
    arbitrary: fc.constantFrom('update', 'updateMany', 'create', 'delete', 'deleteMany', 'authorize', 'topUp', 'withdraw'),
    weight: 1
  }
) as fc.Arbitrary<'getList'>

describe('the provider under hostile parameters (R-101)', () => {
  it(
    'never throws, always settles with data or an HttpError, and never sends an index request the service refuses for its shape',
    async () => {
      let sent = 0
      await fc.assert(
        fc.asyncProperty(resource, method, params, async (r, m, p) => {
          const { calls, fetch } = recorder((call) =>
            call.method === 'GET'
              ? pageOf([], 0)
              : { status: 200, body: { id: 'x', rut: '1-9', bank_id: 'b', account_number: '1' } }
          )
          const provider = reactAdminDataProvider({ url: BASE, token: 'demo-member', companyId: 'c-acme', fetch })
          let promise: Promise<unknown> | undefined
          expect(() => {
            promise = (provider[m] as (...args: Array<unknown>) => Promise<unknown>)(...(ACTIONS.includes(m) ? [p] : [r, p]))
          }).not.toThrow()
          const outcome = await (promise as Promise<unknown>).then(
            (v) => ({ ok: true as const, v }),
            (e: unknown) => ({ ok: false as const, e })
          )
          if (!outcome.ok) {
            expect(outcome.e).toBeInstanceOf(HttpError)
            expect([0, 200, 400, 404, 405]).toContain((outcome.e as HttpError).status)
          }
          for (const call of calls) {
            const status = serviceStatus(call)
            if (status !== null) {
              sent++
              expect([call.url, status]).toEqual([call.url, 200])
            }
          }
        }),
        { numRuns: runs(1500) }
      )
      // The property must reach the service, not only refusals.
      expect(sent).toBeGreaterThan(80)
    },
    timeoutFor(1500, 60_000)
  )

  // Valid calls only, built from the spec's words (contract section 8), not from the endpoint
  // descriptions: each is sent, once, and the service takes it.
  const identifier = fc.string({ minLength: 1 }).filter((t) => !t.includes('\u0000'))
  const validFilter = fc.record(
    {
      status: fc.constantFrom('authorized', 'pending'),
      'status[$nin]': fc.subarray(['authorized', 'pending']),
      'amount[$gte]': fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
      'amount[$lt]': fc.integer().map(String),
      'amount[$in]': fc.array(fc.integer(), { maxLength: 500 }),
      'created_at[$gt]': fc
        .date({ noInvalidDate: true, min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z') })
        .map((d) => d.toISOString()),
      'updated_at[$lte]': fc.constantFrom('2026-11-22T07:00:00-03:00', '2026-11-22T10:00:00.123456Z'),
      id: fc.oneof(identifier, fc.array(identifier, { maxLength: 5 })),
      'id[$ne]': identifier
    },
    { requiredKeys: [] }
  )
  it(
    'sends every valid getList on bank_transactions once, and the service takes it',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 10_000 }),
          fc.integer({ min: 1, max: 2000 }),
          // id: react-admin's default sort, the endpoint's default order, no _field sent.
          fc.constantFrom('created_at', 'updated_at', 'amount', 'id'),
          fc.constantFrom('ASC', 'DESC'),
          validFilter,
          async (page, perPage, field, order, filter) => {
            const { calls, fetch } = recorder(() => pageOf([], 0))
            const provider = reactAdminDataProvider({ url: BASE, token: 'demo-member', companyId: 'c-acme', fetch })
            await provider.getList('bank_transactions', { pagination: { page, perPage }, sort: { field, order }, filter })
            expect(calls).toHaveLength(1)
            const q = new URL((calls[0] as Recorded).url).searchParams
            expect([q.get('_start'), q.get('_end'), q.get('_field'), q.get('_order')]).toEqual([
              String((page - 1) * perPage),
              String(page * perPage),
              field === 'id' ? null : field,
              order.toLowerCase()
            ])
            expect(serviceStatus(calls[0] as Recorded)).toBe(200)
          }
        ),
        { numRuns: runs(500) }
      )
    },
    timeoutFor(500, 30_000)
  )
})
