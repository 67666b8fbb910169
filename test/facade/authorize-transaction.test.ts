/**
 * respondAuthorizeTransaction (contract R-71, R-18; ADR 0071): contract section 4 rows 1-4, the
 * transaction in the caller's company (404, the same bytes as a missing one whatever else it
 * holds), a well-formed stored transaction (500), only an owner or admin (401), already
 * authorized (409), then 200 with the transaction authorized as body and as `transaction`. The
 * transaction may be a class instance, an ORM row or a proxy: each field is read once.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type AuthorizeTransactionContext, respondAuthorizeTransaction } from '../api'
import { AuthorizeTransactionContext as AuthorizeTransactionCodec } from '../../src/facade/authorize-transaction'
import { tally } from '../arbitraries'
import { runs } from '../runs'
import { thrown } from '../thrown'
import { transactionOf } from '../fixtures'

type Role = 'owner' | 'admin' | 'member'

const REQUEST_ID = 'req-t'
const JSON_HEADERS = { 'X-Request-Id': REQUEST_ID, 'Content-Type': 'application/json; charset=utf-8' }
const EMPTY_HEADERS = { 'X-Request-Id': REQUEST_ID }
const HEADERS = { Authorization: 'Bearer key-1', 'company-id': 'c-1' }
const NOT_FOUND = { error: 'not_found', message: 'Not found' }
const GUARD = { message: 'Unauthorized (401)' }
const CONFLICT = { error: 'conflict', message: 'The transaction is already authorized' }

const sessionOf = (role: Role, permissions: ReadonlyArray<string> = []) => ({
  user: { id: 'u-caller', email_verified: true },
  memberships: { 'c-1': { role, permissions: [...permissions] } }
})

const PENDING = {
  id: 'tx-1',
  company_id: 'c-1',
  amount: 1200,
  status: 'pending',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T07:05:00.5-03:00'
} as const

const context = (
  role: Role,
  transaction: unknown,
  extra: Partial<AuthorizeTransactionContext> = {}
): AuthorizeTransactionContext => ({
  request: { headers: HEADERS },
  session: sessionOf(role),
  transaction: transaction as AuthorizeTransactionContext['transaction'],
  request_id: REQUEST_ID,
  ...extra
})

const authenticated = (role: Role) => [
  { rule: 'auth.bearer', detail: 'key of user u-caller' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: `role ${role}` }
]

/** The 404 of a missing transaction, to compare other replies with byte for byte. */
const missing = () => respondAuthorizeTransaction(context('admin', null))
const bytes = (r: { status: number; headers: Readonly<Record<string, string>>; body: unknown }) => [
  r.status,
  r.headers,
  JSON.stringify(r.body)
]

/** A getter that throws, as an ORM row whose lazy column failed to load. */
const throwing = (o: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.defineProperty({ ...o }, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} failed to load`)
    }
  })

describe('respondAuthorizeTransaction: contract section 4 first', () => {
  it('row 1: no Authorization is a 401 with an empty body', () => {
    expect(respondAuthorizeTransaction({ ...context('admin', PENDING), request: { headers: { 'company-id': 'c-1' } } })).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it('row 1: Authorization not Bearer is a 401 with an empty body', () => {
    expect(
      respondAuthorizeTransaction({ ...context('admin', PENDING), request: { headers: { ...HEADERS, Authorization: 'Bearer' } } })
    ).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'Authorization is not of the form "Bearer <key>"' }]
    })
  })

  it('row 2: an unverified email is a 401 email_not_verified', () => {
    const session = { user: { id: 'u-caller', email_verified: false }, memberships: sessionOf('admin').memberships }
    expect(respondAuthorizeTransaction({ ...context('admin', PENDING), session })).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: { error: 'email_not_verified', message: 'Email address not verified' },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'user u-caller has not verified their email' }
      ]
    })
  })

  it('row 3: an empty company-id is a 401 with an empty body', () => {
    expect(
      respondAuthorizeTransaction({ ...context('admin', PENDING), request: { headers: { ...HEADERS, 'company-id': '  ' } } })
    ).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'no company-id header' }
      ]
    })
  })

  it('row 4: a company the caller is not a member of is a 404', () => {
    expect(
      respondAuthorizeTransaction({ ...context('admin', PENDING), request: { headers: { ...HEADERS, 'company-id': 'c-2' } } })
    ).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'company c-2' },
        { rule: 'auth.membership', detail: 'user u-caller is not a member of company c-2' }
      ]
    })
  })
})

describe("respondAuthorizeTransaction: row 5, the transaction in the caller's company", () => {
  it('none is a 404', () => {
    expect(missing()).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [...authenticated('admin'), { rule: 'transaction.scope', detail: 'no transaction with that id' }]
    })
  })

  it("another company's is the same 404, byte for byte, and the same as row 4's", () => {
    const r = respondAuthorizeTransaction(context('admin', { ...PENDING, company_id: 'c-2' }))
    expect(r).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [...authenticated('admin'), { rule: 'transaction.scope', detail: 'transaction tx-1 belongs to another company' }]
    })
    expect(bytes(r)).toEqual(bytes(missing()))
    const row4 = respondAuthorizeTransaction({
      ...context('admin', PENDING),
      request: { headers: { ...HEADERS, 'company-id': 'c-2' } }
    })
    expect(bytes(r)).toEqual(bytes(row4))
  })

  it.each<[string, unknown]>([
    ['a status that is not one', { ...PENDING, company_id: 'c-2', status: 'declined' }],
    ['no status', { id: 'tx-1', company_id: 'c-2' }],
    ['an id that is a number', { ...PENDING, company_id: 'c-2', id: 7 }],
    ['an amount that is text', { ...PENDING, company_id: 'c-2', amount: '1200' }],
    ['a created_at that is a Date', { ...PENDING, company_id: 'c-2', created_at: new Date(0) }],
    ['a status getter that throws', throwing({ ...PENDING, company_id: 'c-2' }, 'status')],
    ['an id getter that throws', throwing({ ...PENDING, company_id: 'c-2' }, 'id')],
    ['a company_id that is a number', { ...PENDING, company_id: 1 }],
    ['a company_id that is null', { ...PENDING, company_id: null }],
    ['no company_id at all', { id: 'tx-1', status: 'declined' }],
    ['a company_id of another case', { ...PENDING, company_id: 'C-1' }]
  ])("another company's transaction with %s is the 404 of a missing one", (_, transaction) => {
    const r = respondAuthorizeTransaction(context('member', transaction))
    expect(bytes(r)).toEqual(bytes(missing()))
    expect(r.reasons.map((x) => x.rule)).toEqual([
      'auth.bearer',
      'auth.email_verified',
      'auth.company_header',
      'auth.membership',
      'transaction.scope'
    ])
    expect(r).not.toHaveProperty('transaction')
  })

  it('names the id of a foreign transaction whose id is not a string by its type', () => {
    expect(respondAuthorizeTransaction(context('admin', { ...PENDING, company_id: 'c-2', id: 7 })).reasons.at(-1)).toEqual({
      rule: 'transaction.scope',
      detail: 'transaction 7 belongs to another company'
    })
  })

  it('a company_id that cannot be read is a 500: no scope can be decided', () => {
    expect(respondAuthorizeTransaction(context('admin', throwing({ ...PENDING }, 'company_id')))).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: 'Internal server error: transaction.company_id could not be read' },
      reasons: [
        ...authenticated('admin'),
        { rule: 'transaction.stored', detail: 'malformed stored transaction: company_id could not be read' }
      ]
    })
  })
})

describe('respondAuthorizeTransaction: row 6, a malformed stored transaction is a 500', () => {
  it.each<[string, unknown, string, string]>([
    [
      'status declined',
      { ...PENDING, status: 'declined' },
      'status is "declined", not pending or authorized',
      'Internal server error: transaction.status is "declined", not pending or authorized'
    ],
    [
      'status Pending',
      { ...PENDING, status: 'Pending' },
      'status is "Pending", not pending or authorized',
      'Internal server error: transaction.status is "Pending", not pending or authorized'
    ],
    [
      'status " pending"',
      { ...PENDING, status: ' pending' },
      'status is " pending", not pending or authorized',
      'Internal server error: transaction.status is " pending", not pending or authorized'
    ],
    [
      'status null',
      { ...PENDING, status: null },
      'status is null, not pending or authorized',
      'Internal server error: transaction.status is null, not pending or authorized'
    ],
    [
      'no status',
      { id: 'tx-1', company_id: 'c-1' },
      'status is undefined, not pending or authorized',
      'Internal server error: transaction.status is undefined, not pending or authorized'
    ],
    ['id a number', { ...PENDING, id: 7 }, 'id is 7, not a string', 'Internal server error: transaction.id is 7, not a string'],
    [
      'no id',
      { company_id: 'c-1', status: 'pending' },
      'id is undefined, not a string',
      'Internal server error: transaction.id is undefined, not a string'
    ],
    [
      'amount 12.5',
      { ...PENDING, amount: 12.5 },
      'amount is 12.5, not a safe integer',
      'Internal server error: transaction.amount is 12.5, not a safe integer'
    ],
    [
      'amount "1200"',
      { ...PENDING, amount: '1200' },
      'amount is "1200", not a safe integer',
      'Internal server error: transaction.amount is "1200", not a safe integer'
    ],
    [
      'amount NaN',
      { ...PENDING, amount: Number.NaN },
      'amount is NaN, not a safe integer',
      'Internal server error: transaction.amount is NaN, not a safe integer'
    ],
    [
      'amount 2^53',
      { ...PENDING, amount: 2 ** 53 },
      'amount is 9007199254740992, not a safe integer',
      'Internal server error: transaction.amount is 9007199254740992, not a safe integer'
    ],
    [
      'amount null',
      { ...PENDING, amount: null },
      'amount is null, not a safe integer',
      'Internal server error: transaction.amount is null, not a safe integer'
    ],
    [
      'created_at a date only',
      { ...PENDING, created_at: '2026-11-22' },
      'created_at is "2026-11-22", not an instant',
      'Internal server error: transaction.created_at is "2026-11-22", not an instant'
    ],
    [
      'created_at without an offset',
      { ...PENDING, created_at: '2026-11-22T10:00:00' },
      'created_at is "2026-11-22T10:00:00", not an instant',
      'Internal server error: transaction.created_at is "2026-11-22T10:00:00", not an instant'
    ],
    [
      'created_at a Date',
      { ...PENDING, created_at: new Date(0) },
      'created_at is a Date, not an instant',
      'Internal server error: transaction.created_at is a Date, not an instant'
    ],
    [
      'updated_at 31 November',
      { ...PENDING, updated_at: '2026-11-31T10:00:00Z' },
      'updated_at is "2026-11-31T10:00:00Z", not an instant',
      'Internal server error: transaction.updated_at is "2026-11-31T10:00:00Z", not an instant'
    ],
    [
      'several at once',
      { ...PENDING, id: null, status: 'declined', amount: -0.5 },
      'id is null, not a string; status is "declined", not pending or authorized; amount is -0.5, not a safe integer',
      'Internal server error: transaction.id is null, not a string; transaction.status is "declined", not pending or authorized; transaction.amount is -0.5, not a safe integer'
    ],
    [
      'a status getter that throws',
      throwing({ ...PENDING }, 'status'),
      'status could not be read',
      'Internal server error: transaction.status could not be read'
    ],
    [
      'an amount getter that throws',
      throwing({ ...PENDING }, 'amount'),
      'amount could not be read',
      'Internal server error: transaction.amount could not be read'
    ]
  ])('%s', (_, transaction, found, message) => {
    expect(respondAuthorizeTransaction(context('admin', transaction))).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message },
      reasons: [
        ...authenticated('admin'),
        {
          rule: 'transaction.scope',
          detail: `transaction ${typeof (transaction as { id?: unknown }).id === 'string' ? 'tx-1' : String((transaction as { id?: unknown }).id)}`
        },
        { rule: 'transaction.stored', detail: `malformed stored transaction: ${found}` }
      ]
    })
  })

  it("comes before the caller's rights: a member gets the 500, not the 401", () => {
    expect(respondAuthorizeTransaction(context('member', { ...PENDING, status: 'declined' })).status).toBe(500)
  })
})

describe('respondAuthorizeTransaction: row 7, only an owner or admin', () => {
  it.each([[[] as string[]], [['budgets_manage']]])("a member (permissions %j) gets the guard's 401", (permissions) => {
    expect(respondAuthorizeTransaction({ ...context('member', PENDING), session: sessionOf('member', permissions) })).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: GUARD,
      reasons: [
        ...authenticated('member'),
        { rule: 'transaction.scope', detail: 'transaction tx-1' },
        { rule: 'transaction.stored', detail: 'status pending' },
        { rule: 'transaction.permission', detail: 'user u-caller (role member) may not authorize transaction tx-1' }
      ]
    })
  })
})

describe('respondAuthorizeTransaction: row 8, already authorized', () => {
  it('is a 409 conflict', () => {
    expect(respondAuthorizeTransaction(context('owner', { ...PENDING, status: 'authorized' }))).toEqual({
      status: 409,
      headers: JSON_HEADERS,
      body: CONFLICT,
      reasons: [
        ...authenticated('owner'),
        { rule: 'transaction.scope', detail: 'transaction tx-1' },
        { rule: 'transaction.stored', detail: 'status authorized' },
        { rule: 'transaction.permission', detail: 'role owner' },
        { rule: 'transaction.authorize', detail: 'The transaction is already authorized' }
      ]
    })
  })
})

describe('respondAuthorizeTransaction: row 9, a pending transaction is authorized', () => {
  const AUTHORIZED = { ...PENDING, status: 'authorized' }
  const reasons = [
    ...authenticated('admin'),
    { rule: 'transaction.scope', detail: 'transaction tx-1' },
    { rule: 'transaction.stored', detail: 'status pending' },
    { rule: 'transaction.permission', detail: 'role admin' },
    { rule: 'transaction.authorize', detail: 'transaction tx-1: pending -> authorized' }
  ]

  it('replies 200 with the transaction as body and as `transaction`, two fresh objects; the input is untouched', () => {
    const given = Object.freeze({ ...PENDING })
    const r = respondAuthorizeTransaction(context('admin', given))
    expect(r).toStrictEqual({ status: 200, headers: JSON_HEADERS, body: AUTHORIZED, transaction: AUTHORIZED, reasons })
    expect(Object.keys(r.body as object)).toEqual(['id', 'company_id', 'amount', 'status', 'created_at', 'updated_at'])
    expect(r.body).not.toBe(transactionOf(r))
    expect(r.body).not.toBe(given)
    expect(given.status).toBe('pending')
  })

  it('keeps only the fields read: those absent are not invented, others are not copied', () => {
    const r = respondAuthorizeTransaction(
      context('admin', { company_id: 'c-1', note: 'rent', status: 'pending', id: 'tx-1', dataValues: { secret: 1 } })
    )
    expect([r.status, r.body, transactionOf(r)]).toStrictEqual([
      200,
      { id: 'tx-1', company_id: 'c-1', status: 'authorized' },
      { id: 'tx-1', company_id: 'c-1', status: 'authorized' }
    ])
  })

  it('accepts negative amounts and instants at any offset', () => {
    const r = respondAuthorizeTransaction(
      context('owner', { ...PENDING, amount: -500, created_at: '2026-11-22T23:59:59.123456789+14:00' })
    )
    expect([r.status, transactionOf(r)?.amount, transactionOf(r)?.created_at]).toEqual([
      200,
      -500,
      '2026-11-22T23:59:59.123456789+14:00'
    ])
  })

  it('reads a class instance with getters (an ORM row), each field once, into a plain object', () => {
    const reads = new Map<string, number>()
    const count = (key: string) => reads.set(key, (reads.get(key) ?? 0) + 1)
    class Row {
      readonly dataValues = { ...PENDING }
      readonly _options = { raw: false }
      readonly isNewRecord = false
      get id() {
        count('id')
        return this.dataValues.id
      }
      get company_id() {
        count('company_id')
        return this.dataValues.company_id
      }
      get amount() {
        count('amount')
        return this.dataValues.amount
      }
      get status() {
        count('status')
        // A second read would see another answer.
        return (reads.get('status') ?? 0) > 1 ? 'authorized' : this.dataValues.status
      }
      get created_at() {
        count('created_at')
        return this.dataValues.created_at
      }
      get updated_at() {
        count('updated_at')
        return this.dataValues.updated_at
      }
    }
    const r = respondAuthorizeTransaction(context('admin', new Row()))
    expect(r).toStrictEqual({ status: 200, headers: JSON_HEADERS, body: AUTHORIZED, transaction: AUTHORIZED, reasons })
    expect(Object.fromEntries(reads)).toEqual({ id: 1, company_id: 1, amount: 1, status: 1, created_at: 1, updated_at: 1 })
    expect(Object.getPrototypeOf(transactionOf(r))).toBe(Object.prototype)
  })

  it('reads inherited fields (Object.create of a row)', () => {
    const r = respondAuthorizeTransaction(context('admin', Object.create(PENDING) as object))
    expect([r.status, r.body]).toStrictEqual([200, AUTHORIZED])
  })
})

describe('respondAuthorizeTransaction: malformed server input is a 500', () => {
  // The message names both shapes the codec takes (R-106).
  it.each<[string, unknown, string, string]>([
    [
      'a transaction that is a string',
      'tx-1',
      'malformed server input at transaction',
      'transaction is "tx-1", not null or object'
    ],
    [
      'a transaction that is undefined',
      undefined,
      'malformed server input at transaction',
      'transaction is undefined, not null or object'
    ],
    ['a transaction that is a number', 7, 'malformed server input at transaction', 'transaction is 7, not null or object']
  ])('%s', (_, transaction, detail, mistake) => {
    expect(respondAuthorizeTransaction(context('admin', transaction))).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message: `Internal server error: ${mistake}` },
      reasons: [{ rule: 'server.input', detail }]
    })
  })

  it('the codec of the context takes a transaction that is an object, a function or null, and nothing else', () => {
    for (const transaction of [PENDING, null, () => undefined, new Date(0)])
      expect(AuthorizeTransactionCodec.is(context('admin', transaction))).toBe(true)
    for (const transaction of [undefined, 'tx-1', 7, true])
      expect(AuthorizeTransactionCodec.is(context('admin', transaction))).toBe(false)
  })

  it('a transaction that is a function with properties is read like an object', () => {
    const fn = Object.assign(() => undefined, { id: 'tx-1', company_id: 'c-1', status: 'pending' })
    expect(respondAuthorizeTransaction(context('admin', fn)).body).toStrictEqual({
      id: 'tx-1',
      company_id: 'c-1',
      status: 'authorized'
    })
  })
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

type Arrival = 'ok' | 'no-authorization' | 'no-user' | 'unverified' | 'no-company' | 'not-member'
type Field = 'id' | 'company_id' | 'amount' | 'status' | 'created_at' | 'updated_at'
type Shape = 'plain' | 'own getters' | 'class' | 'inherited' | 'proxy'

/** The fields of a transaction of the caller's company, each valid or spoilt by construction. */
interface Own {
  readonly kind: 'own'
  readonly status: 'pending' | 'authorized'
  readonly amount: number | undefined
  readonly created_at: string | undefined
  readonly updated_at: string | undefined
  /** Values that make it malformed, by field (empty: well formed), each with how the 500's message shows it. */
  readonly spoilt: Readonly<Partial<Record<Field, Bad>>>
}

/** A value a field may not hold, and how the 500's message shows it (R-106). */
interface Bad {
  readonly value: unknown
  readonly shown: string
}

type Looked =
  | { readonly kind: 'null' }
  | Own
  | {
      readonly kind: 'foreign'
      readonly company_id: unknown
      readonly others: Readonly<Record<string, unknown>>
      readonly throwsOn: ReadonlyArray<Field>
    }

interface Case {
  readonly arrival: Arrival
  readonly caller: Role
  readonly permissions: ReadonlyArray<string>
  readonly looked: Looked
  readonly shape: Shape
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** An instant built from its parts: every one is valid (days up to 28, offsets up to 23:59). */
const instantArb = fc
  .record({
    y: fc.integer({ min: 1970, max: 2100 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(
      fc
        .integer({ min: 1, max: 9 })
        .chain((n) =>
          fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: n, maxLength: n })
        ),
      { nil: undefined }
    ),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`)
    )
  })
  .map(
    ({ y, mo, d, h, mi, s, fraction, offset }) =>
      `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${fraction === undefined ? '' : `.${fraction}`}${offset}`
  )

/** `value`, shown as `shown`. */
const bad = (value: unknown, shown: string): Bad => ({ value, shown })

/** Values a field may not hold, by field, each with how the 500's message shows it. */
const badValue: Record<Exclude<Field, 'company_id'>, fc.Arbitrary<Bad>> = {
  id: fc.oneof(
    fc.integer().map((n) => bad(n, `${n}`)),
    fc.constant(bad(null, 'null')),
    fc.constant(bad(undefined, 'undefined')),
    fc.constantFrom(bad(true, 'true'), bad(false, 'false'))
  ),
  status: fc.oneof(
    fc.constantFrom(
      bad('declined', '"declined"'),
      bad('rejected', '"rejected"'),
      bad('Pending', '"Pending"'),
      bad('AUTHORIZED', '"AUTHORIZED"'),
      bad(' pending', '" pending"'),
      bad('authorized ', '"authorized "'),
      bad('', '""'),
      bad(null, 'null'),
      bad(undefined, 'undefined'),
      bad(0, '0'),
      bad(true, 'true')
    ),
    // At most 40 characters: the message shows a string as JSON, and cuts a longer one.
    fc
      .string({ maxLength: 40 })
      .filter((s) => s !== 'pending' && s !== 'authorized')
      .map((s) => bad(s, JSON.stringify(s)))
  ),
  amount: fc.oneof(
    fc
      .double()
      .filter((x) => !Number.isSafeInteger(x))
      .map((x) => bad(x, `${x}`)),
    fc.integer().map((n) => bad(String(n), `"${n}"`)),
    fc.constant(bad(null, 'null')),
    fc.constant(bad(2 ** 53, '9007199254740992'))
  ),
  created_at: fc.oneof(
    fc.constantFrom(
      bad('2026-11-22', '"2026-11-22"'),
      bad('2026-11-22T10:00:00', '"2026-11-22T10:00:00"'),
      bad('yesterday', '"yesterday"'),
      bad('2026-02-30T10:00:00Z', '"2026-02-30T10:00:00Z"'),
      bad('2026-11-22T24:00:00Z', '"2026-11-22T24:00:00Z"'),
      bad(null, 'null'),
      bad(0, '0')
    ),
    fc.constant(bad(new Date(0), 'a Date'))
  ),
  updated_at: fc.oneof(
    fc.constantFrom(
      bad('2026-11-22 10:00:00Z', '"2026-11-22 10:00:00Z"'),
      bad('2026-11-22T10:00:00+24:00', '"2026-11-22T10:00:00+24:00"'),
      bad('', '""'),
      bad(null, 'null')
    ),
    fc.constant(bad(new Date(0), 'a Date'))
  )
}

/** What a field takes, as the 500's message says it. */
const takes: Record<Exclude<Field, 'company_id'>, string> = {
  id: 'a string',
  status: 'pending or authorized',
  amount: 'a safe integer',
  created_at: 'an instant',
  updated_at: 'an instant'
}

const spoiltArb: fc.Arbitrary<Partial<Record<Field, Bad>>> = fc
  .subarray(['id', 'status', 'amount', 'created_at', 'updated_at'] as const, { minLength: 1 })
  .chain((fields) => fc.tuple(...fields.map((f) => badValue[f].map((v) => [f, v] as const))))
  .map((entries) => Object.fromEntries(entries))

const ownArb: fc.Arbitrary<Own> = fc.record({
  kind: fc.constant('own' as const),
  status: fc.constantFrom('pending' as const, 'authorized' as const),
  amount: fc.option(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), { nil: undefined }),
  created_at: fc.option(instantArb, { nil: undefined }),
  updated_at: fc.option(instantArb, { nil: undefined }),
  spoilt: fc.oneof({ arbitrary: fc.constant({}), weight: 7 }, { arbitrary: spoiltArb, weight: 1 })
})

const foreignArb = fc.record({
  kind: fc.constant('foreign' as const),
  company_id: fc.oneof(
    fc.constantFrom('c-2', 'C-1', 'c-1 ', ''),
    fc.anything().filter((v) => v !== 'c-1')
  ),
  others: fc.record(
    { id: fc.anything(), amount: fc.anything(), status: fc.anything(), created_at: fc.anything() },
    { requiredKeys: [] }
  ),
  throwsOn: fc.subarray(['id', 'amount', 'status', 'created_at', 'updated_at'] as const)
})

/**
 * Most runs reach the authorization: 19 in 20 arrive authenticated, 17 in 20 look up a
 * transaction of the caller's company, 7 in 8 of those are well formed, 5 in 6 callers are
 * owners or admins (about 59% in all).
 */
const caseArb: fc.Arbitrary<Case> = fc.record({
  arrival: fc.oneof(
    { arbitrary: fc.constant<Arrival>('ok'), weight: 19 },
    { arbitrary: fc.constantFrom<Arrival>('no-authorization', 'no-user', 'unverified', 'no-company', 'not-member'), weight: 1 }
  ),
  caller: fc.oneof(
    { arbitrary: fc.constantFrom<Role>('owner', 'admin'), weight: 5 },
    { arbitrary: fc.constant<Role>('member'), weight: 1 }
  ),
  permissions: fc.subarray(['budgets_manage', 'transactions_authorize']),
  looked: fc.oneof(
    { arbitrary: ownArb, weight: 17 },
    { arbitrary: fc.constant({ kind: 'null' as const }), weight: 1 },
    { arbitrary: foreignArb, weight: 2 }
  ),
  shape: fc.constantFrom<Shape>('plain', 'own getters', 'class', 'inherited', 'proxy')
})

/** The fields as the server's row holds them (absent ones left out). */
const fieldsOf = (looked: Exclude<Looked, { kind: 'null' }>): Record<string, unknown> => {
  if (looked.kind === 'foreign') return { ...looked.others, company_id: looked.company_id }
  const fields = new Map<string, unknown>([
    ['id', 'tx-7'],
    ['company_id', 'c-1'],
    ['status', looked.status]
  ])
  if (looked.amount !== undefined) fields.set('amount', looked.amount)
  if (looked.created_at !== undefined) fields.set('created_at', looked.created_at)
  if (looked.updated_at !== undefined) fields.set('updated_at', looked.updated_at)
  // A spoilt field is absent (undefined) or holds a value it may not.
  for (const [field, { value }] of Object.entries(looked.spoilt)) {
    if (value === undefined) fields.delete(field)
    else fields.set(field, value)
  }
  return Object.fromEntries(fields)
}

/**
 * The row in the shape asked for, counting each read of each field; `throwsOn` fields throw
 * when read.
 */
const build = (fields: Record<string, unknown>, shape: Shape, throwsOn: ReadonlyArray<string>) => {
  const reads = new Map<PropertyKey, number>()
  const read = (key: PropertyKey) => {
    reads.set(key, (reads.get(key) ?? 0) + 1)
    if (typeof key === 'string' && throwsOn.includes(key)) throw new Error(`${key} failed`)
    return typeof key === 'string' ? fields[key] : undefined
  }
  const keys = [...new Set([...Object.keys(fields), ...throwsOn])]
  const getters = (target: object) => {
    for (const key of keys) Object.defineProperty(target, key, { enumerable: true, configurable: true, get: () => read(key) })
    return target
  }
  const row = (() => {
    switch (shape) {
      case 'plain':
        return throwsOn.length === 0 ? { ...fields } : getters({})
      case 'own getters':
        return getters({})
      case 'class': {
        class Row {
          readonly kind = 'row'
        }
        getters(Row.prototype)
        return new Row()
      }
      case 'inherited':
        return Object.create(getters({})) as object
      case 'proxy':
        return new Proxy({}, { get: (_, key) => read(key) })
    }
  })()
  return { row, reads }
}

const expected = (c: Case): { status: number; body: unknown; rule: string } => {
  switch (c.arrival) {
    case 'no-authorization':
    case 'no-user':
      return { status: 401, body: null, rule: 'auth.bearer' }
    case 'unverified':
      return {
        status: 401,
        body: { error: 'email_not_verified', message: 'Email address not verified' },
        rule: 'auth.email_verified'
      }
    case 'no-company':
      return { status: 401, body: null, rule: 'auth.company_header' }
    case 'not-member':
      return { status: 404, body: NOT_FOUND, rule: 'auth.membership' }
    case 'ok':
      break
  }
  const looked = c.looked
  if (looked.kind !== 'own') return { status: 404, body: NOT_FOUND, rule: 'transaction.scope' }
  // Every spoilt field is named, in the order id, status, amount, created_at, updated_at (that of spoiltArb).
  const spoilt = Object.entries(looked.spoilt).map(
    ([field, { shown }]) => `transaction.${field} is ${shown}, not ${takes[field as keyof typeof takes]}`
  )
  if (spoilt.length > 0)
    return {
      status: 500,
      body: { error: 'internal_error', message: `Internal server error: ${spoilt.join('; ')}` },
      rule: 'transaction.stored'
    }
  if (c.caller === 'member') return { status: 401, body: GUARD, rule: 'transaction.permission' }
  if (looked.status === 'authorized') return { status: 409, body: CONFLICT, rule: 'transaction.authorize' }
  const body: Record<string, unknown> = { id: 'tx-7', company_id: 'c-1' }
  if (looked.amount !== undefined) body.amount = looked.amount
  body.status = 'authorized'
  if (looked.created_at !== undefined) body.created_at = looked.created_at
  if (looked.updated_at !== undefined) body.updated_at = looked.updated_at
  return { status: 200, body, rule: 'transaction.authorize' }
}

const contextOf = (c: Case, transaction: unknown): AuthorizeTransactionContext => ({
  request: {
    headers: {
      ...(c.arrival === 'no-authorization' ? {} : { authorization: 'Bearer key-1' }),
      ...(c.arrival === 'no-company' ? {} : { 'COMPANY-ID': 'c-1' })
    }
  },
  session:
    c.arrival === 'no-user'
      ? { user: null, memberships: {} }
      : {
          user: { id: 'u-caller', email_verified: c.arrival !== 'unverified' },
          memberships: { [c.arrival === 'not-member' ? 'c-9' : 'c-1']: { role: c.caller, permissions: [...c.permissions] } }
        },
  transaction: transaction as AuthorizeTransactionContext['transaction'],
  request_id: REQUEST_ID
})

describe('respondAuthorizeTransaction: properties', () => {
  it('agrees with a plain model of R-71 whatever the shape of the row, reading each field at most once; most runs reach the authorization', () => {
    const reached = tally()
    const seen = new Set<number>()
    fc.assert(
      fc.property(caseArb, (c) => {
        reached.run()
        const looked = c.looked
        const { row, reads } =
          looked.kind === 'null'
            ? { row: null, reads: new Map<PropertyKey, number>() }
            : build(fieldsOf(looked), c.shape, looked.kind === 'foreign' ? looked.throwsOn : [])
        const r = respondAuthorizeTransaction(contextOf(c, row))
        const e = expected(c)
        expect({ status: r.status, body: r.body, rule: r.reasons.at(-1)?.rule }).toStrictEqual(e)
        expect(r.headers).toEqual(e.body === null ? EMPTY_HEADERS : JSON_HEADERS)
        if (r.status === 200) expect(r.transaction).toStrictEqual(e.body)
        else expect(r).not.toHaveProperty('transaction')
        for (const [key, n] of reads) expect(n, String(key)).toBe(1)
        seen.add(r.status)
        if (r.reasons.some((x) => x.rule === 'transaction.authorize')) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
    expect([...seen].sort()).toEqual([200, 401, 404, 409, 500].sort())
  })

  it("another company's transaction, whatever it holds and however it is built, is the 404 of a missing one", () => {
    const reached = tally()
    fc.assert(
      fc.property(
        foreignArb,
        fc.constantFrom<Shape>('plain', 'own getters', 'class', 'inherited', 'proxy'),
        fc.constantFrom<Role>('owner', 'admin', 'member'),
        (looked, shape, caller) => {
          reached.run()
          const { row } = build(fieldsOf(looked), shape, looked.throwsOn)
          const r = respondAuthorizeTransaction(context(caller, row))
          expect(bytes(r)).toEqual(bytes(missing()))
          expect(r.reasons.at(-1)?.rule).toBe('transaction.scope')
          reached.reach()
        }
      ),
      { numRuns: runs(500) }
    )
    reached.expectShare()
  })
})

describe('respondAuthorizeTransaction: hostile input', () => {
  it('never throws on any transaction: a 404 or a 500', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }),
        (transaction) => {
          expect(thrown(() => respondAuthorizeTransaction(context('admin', transaction)))).toBeUndefined()
          expect([404, 500]).toContain(respondAuthorizeTransaction(context('admin', transaction)).status)
        }
      ),
      { numRuns: runs(500) }
    )
  })

  it('never throws on any context: anything but the documented shape is a 500', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        expect(thrown(() => respondAuthorizeTransaction(junk as AuthorizeTransactionContext))).toBeUndefined()
        expect(respondAuthorizeTransaction(junk as AuthorizeTransactionContext).status).toBe(500)
      }),
      { numRuns: runs(300) }
    )
  })

  it('a proxy that throws on every trap is a 500 (no company_id can be read), never an exception', () => {
    const trap = () => {
      throw new Error('trap')
    }
    const hostile = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap })
    const r = respondAuthorizeTransaction(context('admin', hostile))
    expect([r.status, r.reasons.at(-1)]).toEqual([
      500,
      { rule: 'transaction.stored', detail: 'malformed stored transaction: company_id could not be read' }
    ])
  })
})
