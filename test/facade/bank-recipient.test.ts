/**
 * respondBankRecipient (contract R-72; ADRs 0052, 0072): contract section 4 rows 1-4, only an
 * owner or admin (401), a JSON object body holding a `bank_recipient` object (400), every field
 * valid (422 naming each invalid one), not enrolled yet (409), then 201 with the normalised
 * recipient as body and as `recipient`. The RUT oracle is a brute force over the definition of
 * the check digit, not the library's weights.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BankRecipientContext, respondBankRecipient } from '../api'
import { BankRecipientContext as BankRecipientCodec } from '../../src/facade/bank-recipient'
import { tally } from '../arbitraries'
import { runs } from '../runs'
import { thrown } from '../thrown'
import { persistedRecipient } from '../fixtures'

type Role = 'owner' | 'admin' | 'member'

const REQUEST_ID = 'req-b'
const JSON_HEADERS = { 'X-Request-Id': REQUEST_ID, 'Content-Type': 'application/json; charset=utf-8' }
const EMPTY_HEADERS = { 'X-Request-Id': REQUEST_ID }
const HEADERS = { Authorization: 'Bearer key-1', 'company-id': 'c-1' }
const NOT_FOUND = { error: 'not_found', message: 'Not found' }
const GUARD = { message: 'Unauthorized (401)' }
const CONFLICT = { error: 'conflict', message: 'The recipient is already enrolled' }
const BANK_IDS = ['bank-1', 'bank-2']

const message = {
  blank: "can't be blank",
  rut: 'is not a valid RUT',
  checkDigit: 'has a wrong check digit',
  account: 'must be 5 to 20 digits',
  bank: 'is not a known bank',
  tooLong: 'is too long (maximum is 255 characters)'
}

/** Enrolled already: RUT 11.111.111-1 at bank-1, account 000123456. */
const ENROLLED = [{ rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000-123-456' }]

const sessionOf = (role: Role, permissions: ReadonlyArray<string> = []) => ({
  user: { id: 'u-caller', email_verified: true },
  memberships: { 'c-1': { role, permissions: [...permissions] } }
})

const context = (role: Role, body: string | undefined, extra: Partial<BankRecipientContext> = {}): BankRecipientContext => ({
  request: body === undefined ? { headers: HEADERS } : { headers: HEADERS, body },
  session: sessionOf(role),
  bank_ids: BANK_IDS,
  enrolled: ENROLLED,
  request_id: REQUEST_ID,
  ...extra
})

const VALID = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-2', name: '  Ana Pérez ' }
const NORMALISED = { rut: '12345678-5', account_number: '00123456', bank_id: 'bank-2', name: 'Ana Pérez' }
const send = (recipient: unknown) => JSON.stringify({ bank_recipient: recipient })

const authenticated = (role: Role) => [
  { rule: 'auth.bearer', detail: 'key of user u-caller' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: `role ${role}` }
]

/** Up to the fields: authenticated, allowed, a `bank_recipient` object of `keys` keys. */
const upToFields = (role: Role, keys = 4) => [
  ...authenticated(role),
  { rule: 'recipient.permission', detail: `role ${role}` },
  { rule: 'recipient.body', detail: `bank_recipient holds ${keys} keys` }
]

const VALID_REASON = { rule: 'recipient.validation', detail: 'rut, account_number, bank_id and name are valid' }

describe('respondBankRecipient: contract section 4 first', () => {
  it('row 1: no Authorization is a 401 with an empty body', () => {
    expect(
      respondBankRecipient({ ...context('admin', send(VALID)), request: { headers: { 'company-id': 'c-1' }, body: send(VALID) } })
    ).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it('row 1: a key that resolved to no user is a 401 with an empty body', () => {
    expect(respondBankRecipient({ ...context('admin', send(VALID)), session: { user: null, memberships: {} } })).toEqual({
      status: 401,
      headers: EMPTY_HEADERS,
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'the key resolved to no user' }]
    })
  })

  it('row 2: an unverified email is a 401 email_not_verified', () => {
    const session = { user: { id: 'u-caller', email_verified: false }, memberships: sessionOf('admin').memberships }
    expect(respondBankRecipient({ ...context('admin', send(VALID)), session })).toEqual({
      status: 401,
      headers: JSON_HEADERS,
      body: { error: 'email_not_verified', message: 'Email address not verified' },
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'user u-caller has not verified their email' }
      ]
    })
  })

  it('row 3: no company-id is a 401 with an empty body', () => {
    expect(
      respondBankRecipient({
        ...context('admin', send(VALID)),
        request: { headers: { Authorization: 'Bearer key-1' }, body: send(VALID) }
      })
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

  it('row 3: two spellings of company-id that disagree count as none', () => {
    const r = respondBankRecipient({
      ...context('admin', send(VALID)),
      request: { headers: { ...HEADERS, 'Company-Id': 'c-2' }, body: send(VALID) }
    })
    expect([r.status, r.body, r.reasons.at(-1)]).toEqual([
      401,
      null,
      { rule: 'auth.company_header', detail: 'no company-id header' }
    ])
  })

  it('row 4: a company the caller is not a member of is a 404', () => {
    expect(
      respondBankRecipient({
        ...context('admin', send(VALID)),
        session: { ...sessionOf('admin'), memberships: { 'c-2': { role: 'owner', permissions: [] } } }
      })
    ).toEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: NOT_FOUND,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-caller' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'auth.company_header', detail: 'company c-1' },
        { rule: 'auth.membership', detail: 'user u-caller is not a member of company c-1' }
      ]
    })
  })
})

describe('respondBankRecipient: row 5, only an owner or admin', () => {
  it.each([[[] as string[]], [['budgets_manage']]])(
    "a member (permissions %j) gets the guard's 401, whatever the body",
    (permissions) => {
      expect(respondBankRecipient({ ...context('member', 'not json'), session: sessionOf('member', permissions) })).toEqual({
        status: 401,
        headers: JSON_HEADERS,
        body: GUARD,
        reasons: [
          ...authenticated('member'),
          { rule: 'recipient.permission', detail: 'user u-caller (role member) may not enroll bank recipients' }
        ]
      })
    }
  )
})

describe('respondBankRecipient: row 6, a JSON object holding a bank_recipient object', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'The body is not valid JSON'],
    ['', 'The body is not valid JSON'],
    ['{"bank_recipient": {', 'The body is not valid JSON'],
    ['bank_recipient[rut]=1', 'The body is not valid JSON'],
    ['[]', 'The body must be a JSON object'],
    ['"bank_recipient"', 'The body must be a JSON object'],
    ['null', 'The body must be a JSON object'],
    ['{}', 'bank_recipient is required'],
    [JSON.stringify(VALID), 'bank_recipient is required'],
    ['{"recipient": {}}', 'bank_recipient is required'],
    ['{"__proto__": {"bank_recipient": {}}}', 'bank_recipient is required'],
    ['{"bank_recipient": null}', 'bank_recipient must be an object'],
    ['{"bank_recipient": []}', 'bank_recipient must be an object'],
    ['{"bank_recipient": "12.345.678-5"}', 'bank_recipient must be an object'],
    ['{"bank_recipient": 5}', 'bank_recipient must be an object']
  ])('the body %j is a 400', (body, text) => {
    expect(respondBankRecipient(context('owner', body))).toEqual({
      status: 400,
      headers: JSON_HEADERS,
      body: { error: 'bad_request', message: text },
      reasons: [
        ...authenticated('owner'),
        { rule: 'recipient.permission', detail: 'role owner' },
        { rule: 'recipient.body', detail: text }
      ]
    })
  })
})

describe('respondBankRecipient: row 7, every invalid field in one 422', () => {
  it('names all four at once', () => {
    expect(
      respondBankRecipient(context('admin', send({ rut: '12.345.678-4', account_number: '12-ab', bank_id: 'bank-9', name: ' ' })))
    ).toEqual({
      status: 422,
      headers: JSON_HEADERS,
      body: {
        errors: { rut: [message.checkDigit], account_number: [message.account], bank_id: [message.bank], name: [message.blank] }
      },
      reasons: [
        ...upToFields('admin'),
        {
          rule: 'recipient.validation',
          detail: `rut: ${message.checkDigit}; account_number: ${message.account}; bank_id: ${message.bank}; name: ${message.blank}`
        }
      ]
    })
  })

  it.each<[string, Record<string, unknown>, Record<string, ReadonlyArray<string>>]>([
    [
      'an empty recipient',
      {},
      { rut: [message.blank], account_number: [message.blank], bank_id: [message.blank], name: [message.blank] }
    ],
    [
      'fields of other JSON types',
      { rut: 12345678, account_number: 123456, bank_id: 1, name: true },
      { rut: [message.blank], account_number: [message.blank], bank_id: [message.blank], name: [message.blank] }
    ],
    ['a RUT that is not one', { ...VALID, rut: '12.34.5678-5' }, { rut: [message.rut] }],
    ['a RUT of ten digits', { ...VALID, rut: '1234567890-1' }, { rut: [message.rut] }],
    ['a blank RUT', { ...VALID, rut: '   ' }, { rut: [message.blank] }],
    ['a short account', { ...VALID, account_number: '1234' }, { account_number: [message.account] }],
    ['an account of 21 digits', { ...VALID, account_number: '1'.repeat(21) }, { account_number: [message.account] }],
    ['an account of dashes only', { ...VALID, account_number: '- -' }, { account_number: [message.blank] }],
    ['a bank in another case', { ...VALID, bank_id: 'BANK-1' }, { bank_id: [message.bank] }],
    ['an empty bank', { ...VALID, bank_id: '' }, { bank_id: [message.blank] }],
    ['a name of 256 characters', { ...VALID, name: 'a'.repeat(256) }, { name: [message.tooLong] }]
  ])('%s', (_, recipient, errors) => {
    const r = respondBankRecipient(context('owner', send(recipient)))
    expect([r.status, r.headers, r.body, r.reasons.at(-1)?.rule]).toEqual([422, JSON_HEADERS, { errors }, 'recipient.validation'])
  })

  it('comes before the enrolled check: an invalid copy of an enrolled recipient is a 422, not a 409', () => {
    const r = respondBankRecipient(
      context('owner', send({ rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000123456', name: '' }))
    )
    expect([r.status, r.body]).toEqual([422, { errors: { name: [message.blank] } }])
  })
})

describe('respondBankRecipient: row 8, already enrolled', () => {
  it('the same RUT, bank and account in another spelling is a 409', () => {
    expect(
      respondBankRecipient(
        context('admin', send({ rut: '111111111', bank_id: 'bank-1', account_number: '000 123 456', name: 'Juan' }))
      )
    ).toEqual({
      status: 409,
      headers: JSON_HEADERS,
      body: CONFLICT,
      reasons: [...upToFields('admin'), VALID_REASON, { rule: 'recipient.conflict', detail: 'The recipient is already enrolled' }]
    })
  })

  it('reads enrolled recipients given as class instances, each field once', () => {
    const reads = new Map<string, number>()
    class Enrolled {
      get rut() {
        reads.set('rut', (reads.get('rut') ?? 0) + 1)
        return '11.111.111-1'
      }
      get bank_id() {
        reads.set('bank_id', (reads.get('bank_id') ?? 0) + 1)
        return 'bank-1'
      }
      get account_number() {
        reads.set('account_number', (reads.get('account_number') ?? 0) + 1)
        return '000123456'
      }
    }
    const r = respondBankRecipient(
      context('admin', send({ rut: '11111111-1', bank_id: 'bank-1', account_number: '000123456', name: 'Juan' }), {
        enrolled: [new Enrolled()]
      })
    )
    expect([r.status, Object.fromEntries(reads)]).toEqual([409, { rut: 1, bank_id: 1, account_number: 1 }])
  })
})

describe('respondBankRecipient: row 9, enrolled', () => {
  it('replies 201 with the normalised recipient as body and as `recipient`, two fresh objects', () => {
    const r = respondBankRecipient(context('admin', send({ ...VALID, nickname: 'ana' })))
    expect(r).toStrictEqual({
      status: 201,
      headers: JSON_HEADERS,
      body: NORMALISED,
      recipient: NORMALISED,
      reasons: [
        ...upToFields('admin', 5),
        VALID_REASON,
        { rule: 'recipient.conflict', detail: 'not enrolled yet at bank bank-2' }
      ]
    })
    expect(r.body).not.toBe(persistedRecipient(r))
  })

  it('the same RUT and account at another bank, or another account at the same bank, is a new recipient', () => {
    for (const recipient of [
      { rut: '11.111.111-1', bank_id: 'bank-2', account_number: '000123456', name: 'Juan' },
      { rut: '11.111.111-1', bank_id: 'bank-1', account_number: '00123456', name: 'Juan' }
    ])
      expect(respondBankRecipient(context('owner', send(recipient))).status).toBe(201)
  })

  it('accepts a name of exactly 255 characters (code points), trimmed', () => {
    const name = '💶'.repeat(255)
    expect(persistedRecipient(respondBankRecipient(context('owner', send({ ...VALID, name }))))?.name).toBe(name)
  })

  it('ignores keys beside bank_recipient', () => {
    const r = respondBankRecipient(context('owner', JSON.stringify({ bank_recipient: VALID, budget: { name: 'x' } })))
    expect([r.status, r.body]).toStrictEqual([201, NORMALISED])
  })
})

describe('respondBankRecipient: malformed server input is a 500', () => {
  it('the codec of the context takes enrolled recipients of three strings, plain or not', () => {
    class Row {
      readonly rut = '1-9'
      readonly bank_id = 'bank-1'
      readonly account_number = '12345'
    }
    expect(BankRecipientCodec.is(context('admin', send(VALID), { enrolled: [...ENROLLED, new Row()] }))).toBe(true)
    for (const enrolled of [[{ rut: '1-9', bank_id: 'bank-1' }], [null], ['1-9'], [{ ...ENROLLED[0], account_number: 12345 }]])
      expect(BankRecipientCodec.is({ ...context('admin', send(VALID)), enrolled })).toBe(false)
  })

  it.each<[string, Partial<Record<keyof BankRecipientContext, unknown>>, string, string]>([
    [
      'bank_ids missing',
      { bank_ids: undefined },
      'malformed server input at bank_ids',
      'Internal server error: bank_ids is undefined, not a list of strings'
    ],
    [
      'bank_ids with a number',
      { bank_ids: ['bank-1', 2] },
      'malformed server input at bank_ids',
      'Internal server error: bank_ids[1] is 2, not a string'
    ],
    [
      'enrolled not a list',
      { enrolled: {} },
      'malformed server input at enrolled',
      'Internal server error: enrolled is an object, not Array<EnrolledRecipient>'
    ],
    [
      'an enrolled entry that is not an object',
      { enrolled: ['11.111.111-1'] },
      'malformed server input at enrolled',
      'Internal server error: enrolled[0]: an enrolled recipient must be an object'
    ],
    [
      'an enrolled RUT that is a number',
      { enrolled: [{ ...ENROLLED[0], rut: 111111111 }] },
      'malformed server input at enrolled.rut',
      'Internal server error: enrolled[0].rut: rut must be a string'
    ],
    [
      'an enrolled entry without an account',
      { enrolled: [{ rut: '1-9', bank_id: 'bank-1' }] },
      'malformed server input at enrolled.account_number',
      'Internal server error: enrolled[0].account_number: account_number must be a string'
    ],
    [
      'an enrolled field whose getter throws',
      {
        enrolled: [
          Object.defineProperty({ rut: '1-9', account_number: '12345' }, 'bank_id', {
            get() {
              throw new Error('lazy column')
            }
          })
        ]
      },
      'malformed server input at enrolled.bank_id',
      'Internal server error: enrolled[0].bank_id: bank_id could not be read'
    ]
  ])('%s', (_, patch, detail, message) => {
    expect(respondBankRecipient({ ...context('admin', send(VALID)), ...patch } as BankRecipientContext)).toEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: { error: 'internal_error', message },
      reasons: [{ rule: 'server.input', detail }]
    })
  })
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

const CHECK_CHARS: ReadonlyArray<string> = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'K']

/** The check character that makes weighted sum plus its value a multiple of 11, by trying all 11. */
const checkOf = (n: number): string => {
  let sum = 0
  for (let rest = n, i = 0; rest > 0; rest = Math.floor(rest / 10), i++) sum += (rest % 10) * (2 + (i % 6))
  const found = CHECK_CHARS.filter((_, value) => (sum + value) % 11 === 0)
  if (found.length !== 1) throw new Error(`no single check digit for ${n}`)
  return found[0] as string
}

/** `n` with a dot every three digits from the right. */
const dotted = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, '.')

type Spelling = 'plain' | 'dash' | 'dots' | 'dots-no-dash' | 'padded'

const spell = (n: number, check: string, how: Spelling, lower: boolean): string => {
  const c = lower ? check.toLowerCase() : check
  switch (how) {
    case 'plain':
      return `${n}${c}`
    case 'dash':
      return `${n}-${c}`
    case 'dots':
      return `${dotted(n)}-${c}`
    case 'dots-no-dash':
      return `${dotted(n)}${c}`
    case 'padded':
      return ` ${n}-${c}  `
  }
}

/** A field sent (`present`) or not, the 422 text it must get (null: valid), and its normalised value. */
interface FieldCase {
  readonly present: boolean
  readonly value?: unknown
  readonly error: string | null
  readonly normalised?: string
}

const absentOr = (values: ReadonlyArray<unknown>): fc.Arbitrary<FieldCase> =>
  fc.oneof(
    fc.constant<FieldCase>({ present: false, error: message.blank }),
    fc.constantFrom(...values).map((value) => ({ present: true, value, error: message.blank }))
  )

const numberArb = fc.oneof(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 1, max: 999_999_999 }))
const spellingArb = fc.constantFrom<Spelling>('plain', 'dash', 'dots', 'dots-no-dash', 'padded')

const rutArb: fc.Arbitrary<FieldCase & { readonly n?: number }> = fc.oneof(
  {
    arbitrary: fc.tuple(numberArb, spellingArb, fc.boolean()).map(([n, how, lower]) => ({
      present: true,
      value: spell(n, checkOf(n), how, lower),
      error: null,
      normalised: `${n}-${checkOf(n)}`,
      n
    })),
    weight: 8
  },
  {
    arbitrary: fc.tuple(numberArb, spellingArb, fc.integer({ min: 1, max: 10 })).map(([n, how, shift]) => ({
      present: true,
      value: spell(n, CHECK_CHARS[(CHECK_CHARS.indexOf(checkOf(n)) + shift) % 11] as string, how, false),
      error: message.checkDigit
    })),
    weight: 1
  },
  {
    arbitrary: fc
      .constantFrom(
        'abc',
        '12.34.5678-5',
        '1234567890-1',
        '12345678-X',
        '12 345 678-5',
        '0-0',
        '0000-K',
        '12345678--5',
        'K-1',
        '12,345,678-5',
        '-5',
        '5'
      )
      .map((value) => ({ present: true, value, error: message.rut })),
    weight: 1
  },
  { arbitrary: absentOr(['', '   ', null, 12345678, true]), weight: 1 }
)

const digitsArb = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: min, maxLength: max })

/** Digits with dashes or spaces between some of them. */
const separated = (digits: string) =>
  fc
    .array(fc.constantFrom('', '', '', '-', ' '), { minLength: digits.length, maxLength: digits.length })
    .map((seps) => Array.from(digits, (d, i) => (i === 0 ? d : `${seps[i] ?? ''}${d}`)).join(''))

const accountArb: fc.Arbitrary<FieldCase> = fc.oneof(
  {
    arbitrary: digitsArb(5, 20).chain((digits) =>
      separated(digits).map((value) => ({ present: true, value, error: null, normalised: digits }))
    ),
    weight: 8
  },
  {
    arbitrary: fc
      .oneof(
        digitsArb(1, 4),
        digitsArb(21, 25),
        fc.tuple(digitsArb(2, 10), fc.constantFrom('a', 'K', '.', '/', '_'), digitsArb(2, 10)).map(([a, x, b]) => a + x + b)
      )
      .map((value) => ({ present: true, value, error: message.account })),
    weight: 1
  },
  { arbitrary: absentOr(['', '- -', null, 123456, ['123456']]), weight: 1 }
)

const bankArb: fc.Arbitrary<FieldCase> = fc.oneof(
  {
    arbitrary: fc.constantFrom(...BANK_IDS).map((value) => ({ present: true, value, error: null, normalised: value })),
    weight: 8
  },
  {
    arbitrary: fc
      .constantFrom('bank-9', 'BANK-1', ' bank-1', 'bank-1 ')
      .map((value) => ({ present: true, value, error: message.bank })),
    weight: 1
  },
  { arbitrary: absentOr(['', null, 1]), weight: 1 }
)

const nameChars = ['a', 'Z', 'é', 'ñ', '💶', '-', "'", '中']
const coreArb = (min: number, max: number) =>
  fc
    .tuple(
      fc.constantFrom(...nameChars),
      fc.array(fc.constantFrom(...nameChars, ' '), { minLength: Math.max(0, min - 2), maxLength: max - 2 }),
      fc.constantFrom(...nameChars)
    )
    .map(([a, middle, b]) => [a, ...middle, b].join(''))
const padArb = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 7 })

const nameArb: fc.Arbitrary<FieldCase> = fc.oneof(
  {
    arbitrary: fc
      .tuple(padArb, coreArb(2, 240), padArb)
      .map(([before, core, after]) => ({ present: true, value: before + core + after, error: null, normalised: core })),
    weight: 8
  },
  { arbitrary: coreArb(256, 300).map((value) => ({ present: true, value, error: message.tooLong })), weight: 1 },
  { arbitrary: absentOr(['', '   ', '\t\n', null, 3]), weight: 1 }
)

type Enrolment = 'same' | 'other-bank' | 'other-account' | 'none'

interface RecipientCase {
  readonly rut: FieldCase & { readonly n?: number }
  readonly account_number: FieldCase
  readonly bank_id: FieldCase
  readonly name: FieldCase
  readonly enrolment: Enrolment
  readonly enrolledAsClass: boolean
}

const recipientArb: fc.Arbitrary<RecipientCase> = fc.record({
  rut: rutArb,
  account_number: accountArb,
  bank_id: bankArb,
  name: nameArb,
  enrolment: fc.constantFrom<Enrolment>('same', 'other-bank', 'other-account', 'none'),
  enrolledAsClass: fc.boolean()
})

const FIELDS = ['rut', 'account_number', 'bank_id', 'name'] as const

const recipientOf = (c: RecipientCase): Record<string, unknown> =>
  Object.fromEntries(FIELDS.filter((f) => c[f].present).map((f) => [f, c[f].value]))

/** What is enrolled: unrelated recipients, and a spelling of this one (or a near miss) as asked. */
const enrolledOf = (c: RecipientCase): ReadonlyArray<{ rut: string; bank_id: string; account_number: string }> => {
  const others = [
    { rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000-123-456' },
    { rut: '5.126.663-3', bank_id: 'bank-2', account_number: '987654321' }
  ]
  const { n } = c.rut
  const account = c.account_number.normalised
  const bank = c.bank_id.normalised
  if (n === undefined || account === undefined || bank === undefined || c.enrolment === 'none') return others
  const mine = {
    rut: `${dotted(n)}-${checkOf(n).toLowerCase()}`,
    bank_id: c.enrolment === 'other-bank' ? (bank === 'bank-1' ? 'bank-2' : 'bank-1') : bank,
    account_number: c.enrolment === 'other-account' ? `9${account}` : account.replace(/(\d{3})/g, '$1-').replace(/-$/, '')
  }
  const entries = [...others, mine]
  if (!c.enrolledAsClass) return entries
  return entries.map((e) => {
    class Row {
      get rut() {
        return e.rut
      }
      get bank_id() {
        return e.bank_id
      }
      get account_number() {
        return e.account_number
      }
    }
    return new Row()
  })
}

/** The model of the fields, ADR 0052 as a table: the 422, else the 409, else the 201. */
const expectedOfRecipient = (c: RecipientCase): { status: number; body: unknown; rule: string } => {
  const errors = Object.fromEntries(FIELDS.flatMap((f) => (c[f].error === null ? [] : [[f, [c[f].error]]])))
  if (Object.keys(errors).length > 0) return { status: 422, body: { errors }, rule: 'recipient.validation' }
  if (c.enrolment === 'same') return { status: 409, body: CONFLICT, rule: 'recipient.conflict' }
  return { status: 201, body: Object.fromEntries(FIELDS.map((f) => [f, c[f].normalised])), rule: 'recipient.conflict' }
}

type Arrival = 'ok' | 'no-authorization' | 'not-bearer' | 'no-user' | 'unverified' | 'no-company' | 'not-member'
type Wrapping = 'wrapped' | 'not-json' | 'not-an-object' | 'no-wrapper' | 'wrapper-not-an-object'

interface Case {
  readonly arrival: Arrival
  readonly caller: Role
  readonly wrapping: Wrapping
  readonly recipient: RecipientCase
  readonly extra: Readonly<Record<string, unknown>>
}

const extraArb = fc.dictionary(
  fc
    .string({ maxLength: 8 })
    .filter((k) => !(FIELDS as ReadonlyArray<string>).includes(k) && k !== '__proto__' && k !== 'bank_recipient'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 }
)

/**
 * Most runs reach the fields: 19 in 20 arrive authenticated, 5 in 6 callers are owners or
 * admins, 12 in 14 bodies wrap a recipient (about 68% in all); 4 in 5 of those have every field
 * valid (each field valid in 8 runs of 10, the 422 otherwise).
 */
const caseArb: fc.Arbitrary<Case> = fc.record({
  arrival: fc.oneof(
    { arbitrary: fc.constant<Arrival>('ok'), weight: 19 },
    {
      arbitrary: fc.constantFrom<Arrival>('no-authorization', 'not-bearer', 'no-user', 'unverified', 'no-company', 'not-member'),
      weight: 1
    }
  ),
  caller: fc.oneof(
    { arbitrary: fc.constantFrom<Role>('owner', 'admin'), weight: 5 },
    { arbitrary: fc.constant<Role>('member'), weight: 1 }
  ),
  wrapping: fc.oneof(
    { arbitrary: fc.constant<Wrapping>('wrapped'), weight: 12 },
    { arbitrary: fc.constantFrom<Wrapping>('not-json', 'not-an-object', 'no-wrapper', 'wrapper-not-an-object'), weight: 2 }
  ),
  recipient: recipientArb,
  extra: extraArb
})

const bodyOf = (c: Case): string | undefined => {
  const recipient = { ...c.extra, ...recipientOf(c.recipient) }
  switch (c.wrapping) {
    case 'wrapped':
      return JSON.stringify({ ...c.extra, bank_recipient: recipient })
    case 'not-json':
      // Cut before its closing brace.
      return `{"bank_recipient": ${JSON.stringify(recipient)}`
    case 'not-an-object':
      return JSON.stringify([{ bank_recipient: recipient }])
    case 'no-wrapper':
      return JSON.stringify(recipient)
    case 'wrapper-not-an-object':
      return JSON.stringify({ bank_recipient: [recipient] })
  }
}

const expected = (c: Case): { status: number; body: unknown; rule: string } => {
  switch (c.arrival) {
    case 'no-authorization':
    case 'not-bearer':
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
  if (c.caller === 'member') return { status: 401, body: GUARD, rule: 'recipient.permission' }
  const badRequest = (text: string) => ({ status: 400, body: { error: 'bad_request', message: text }, rule: 'recipient.body' })
  switch (c.wrapping) {
    case 'not-json':
      return badRequest('The body is not valid JSON')
    case 'not-an-object':
      return badRequest('The body must be a JSON object')
    case 'no-wrapper':
      return badRequest('bank_recipient is required')
    case 'wrapper-not-an-object':
      return badRequest('bank_recipient must be an object')
    case 'wrapped':
      return expectedOfRecipient(c.recipient)
  }
}

const contextOf = (c: Case): BankRecipientContext => {
  const headers = {
    ...(c.arrival === 'no-authorization' ? {} : { AUTHORIZATION: c.arrival === 'not-bearer' ? 'Token key-1' : 'Bearer key-1' }),
    ...(c.arrival === 'no-company' ? {} : { 'company-id': ['c-1', 'c-1'] })
  }
  const body = bodyOf(c)
  return {
    request: body === undefined ? { headers } : { headers, body },
    session:
      c.arrival === 'no-user'
        ? { user: null, memberships: {} }
        : {
            user: { id: 'u-caller', email_verified: c.arrival !== 'unverified' },
            memberships: { [c.arrival === 'not-member' ? 'c-9' : 'c-1']: { role: c.caller, permissions: [] } }
          },
    bank_ids: BANK_IDS,
    enrolled: enrolledOf(c.recipient),
    request_id: REQUEST_ID
  }
}

describe('respondBankRecipient: properties', () => {
  it('agrees with a plain model of R-72 and ADR 0052 on status, body, headers and the deciding rule; most runs reach the fields', () => {
    const reached = tally()
    const seen = new Set<number>()
    fc.assert(
      fc.property(caseArb, (c) => {
        reached.run()
        const r = respondBankRecipient(contextOf(c))
        const e = expected(c)
        expect({ status: r.status, body: r.body, rule: r.reasons.at(-1)?.rule }).toStrictEqual(e)
        expect(r.headers).toEqual(e.body === null ? EMPTY_HEADERS : JSON_HEADERS)
        if (r.status === 201) expect(r.recipient).toStrictEqual(e.body)
        else expect(r).not.toHaveProperty('recipient')
        seen.add(r.status)
        if (r.reasons.some((x) => x.rule === 'recipient.validation')) reached.reach()
      }),
      { numRuns: runs(1000) }
    )
    reached.expectShare()
    expect([...seen].sort()).toEqual([201, 400, 401, 404, 409, 422].sort())
  })

  it('every recipient valid by construction and not enrolled is a 201 with its normalised fields', () => {
    const reached = tally()
    const validField = <T extends FieldCase>(arb: fc.Arbitrary<T>) => arb.filter((f) => f.error === null)
    fc.assert(
      fc.property(
        fc.record({
          rut: validField(rutArb),
          account_number: validField(accountArb),
          bank_id: validField(bankArb),
          name: validField(nameArb),
          enrolment: fc.constantFrom<Enrolment>('other-bank', 'other-account', 'none'),
          enrolledAsClass: fc.boolean()
        }),
        fc.constantFrom<Role>('owner', 'admin'),
        (c, caller) => {
          reached.run()
          const r = respondBankRecipient({ ...context(caller, send(recipientOf(c))), enrolled: enrolledOf(c) })
          expect(r.status).toBe(201)
          reached.reach()
          expect(persistedRecipient(r)).toStrictEqual({
            rut: c.rut.normalised,
            account_number: c.account_number.normalised,
            bank_id: c.bank_id.normalised,
            name: c.name.normalised
          })
        }
      ),
      { numRuns: runs(500) }
    )
    reached.expectShare()
  })
})

describe('respondBankRecipient: hostile input', () => {
  it('never throws on any body: a status of R-72', () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify({ bank_recipient: v })),
      fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue()).map(send)
    )
    fc.assert(
      fc.property(fc.option(bodies, { nil: undefined }), (body) => {
        expect(thrown(() => respondBankRecipient(context('admin', body)))).toBeUndefined()
        expect([201, 400, 409, 422]).toContain(respondBankRecipient(context('admin', body)).status)
      }),
      { numRuns: runs(500) }
    )
  })

  it('never throws on any context: anything but the documented shape is a 500', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        expect(thrown(() => respondBankRecipient(junk as BankRecipientContext))).toBeUndefined()
        expect(respondBankRecipient(junk as BankRecipientContext).status).toBe(500)
      }),
      { numRuns: runs(300) }
    )
  })

  it('never throws when bank_ids or enrolled is any value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('bank_ids', 'enrolled'),
        fc.anything({ withNullPrototype: true, withBoxedValues: true }),
        (key, value) => {
          expect(thrown(() => respondBankRecipient({ ...context('admin', send(VALID)), [key]: value }))).toBeUndefined()
        }
      ),
      { numRuns: runs(300) }
    )
  })
})
