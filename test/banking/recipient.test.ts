import { either } from 'fp-ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  authorizeTransaction,
  guardRoleAssignment,
  normaliseRut,
  problemReply,
  rutCheckDigit,
  validateBankRecipient
} from '../api'
import { runs } from '../runs'

/**
 * Public RUTs of Chilean institutions, with the check digit they are registered with: the
 * Servicio de Impuestos Internos, the Banco Central, Banco de Chile, BancoEstado, the Tesorería,
 * Codelco, the Universidad de Chile, Santander-Chile, BCI, Entel and Falabella.
 */
const KNOWN_RUTS = [
  ['60.803.000-K', '60803000-K'],
  ['97.029.000-1', '97029000-1'],
  ['97.004.000-5', '97004000-5'],
  ['97.030.000-7', '97030000-7'],
  ['60.805.000-0', '60805000-0'],
  ['61.704.000-K', '61704000-K'],
  ['60.910.000-1', '60910000-1'],
  ['97.036.000-K', '97036000-K'],
  ['97.006.000-6', '97006000-6'],
  ['92.580.000-7', '92580000-7'],
  ['90.749.000-9', '90749000-9']
] as const

const CHECK_CHARS: ReadonlyArray<string> = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'K']

/**
 * The check digit by brute force over the definition "the weighted sum plus the check value is
 * a multiple of 11" (value 0-9 for the digits, 10 for K): try each of the 11 characters.
 */
const bruteForceCheckDigit = (n: number): string => {
  let sum = 0
  for (let rest = n, i = 0; rest > 0; rest = Math.floor(rest / 10), i++) sum += (rest % 10) * (2 + (i % 6))
  const found = CHECK_CHARS.filter((_, value) => (sum + value) % 11 === 0)
  if (found.length !== 1) throw new Error(`no single check digit for ${n}`)
  return found[0] as string
}

const context = {
  bank_ids: ['bank-1', 'bank-2'],
  enrolled: [{ rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000-123-456' }]
}
const valid = { rut: '12.345.678-5', account_number: '12345678', bank_id: 'bank-2', name: ' Ana Pérez ' }

describe('bank recipients', () => {
  it('normalises the RUT: dots, dash and k in either case', () => {
    expect(['12.345.678-5', '12345678-5', '123456785', '012345678-5'].map(normaliseRut)).toEqual(Array(4).fill('12345678-5'))
    expect([normaliseRut('10.000.013-k'), normaliseRut('10000013K')]).toEqual(['10000013-K', '10000013-K'])
    expect(['12.345.678-4', '1.2345.678-5', '12345678-', '-5', '', '0-0'].map(normaliseRut)).toEqual(Array(6).fill(null))
  })

  it('returns the normalised recipient', () => {
    expect(validateBankRecipient(valid, context)).toEqual(
      either.right({ rut: '12345678-5', account_number: '12345678', bank_id: 'bank-2', name: 'Ana Pérez' })
    )
  })

  it('names every invalid field in one 422', () => {
    const r = validateBankRecipient({ rut: '12.345.678-4', account_number: '12-ab', bank_id: 'bank-9', name: '  ' }, context)
    expect(either.isLeft(r) && problemReply('r', [])(r.left).body).toEqual({
      errors: {
        rut: ['has a wrong check digit'],
        account_number: ['must be 5 to 20 digits'],
        bank_id: ['is not a known bank'],
        name: ["can't be blank"]
      }
    })
    const missing = validateBankRecipient(null, context)
    expect(either.isLeft(missing) && problemReply('r', [])(missing.left).status).toBe(422)
  })

  it.each<[string, unknown, string]>([
    ['letters', 'abc', 'is not a valid RUT'],
    ['ten digits', '1234567890-1', 'is not a valid RUT'],
    ['zeros only', '000-0', 'is not a valid RUT'],
    ['a check character other than a digit or K', '12.345.678-X', 'is not a valid RUT'],
    ['dots in the wrong places', '1.2345.678-5', 'is not a valid RUT'],
    ['a wrong check digit', '12.345.678-4', 'has a wrong check digit'],
    ['spaces only', '   ', "can't be blank"],
    ['a number', 123456785, "can't be blank"]
  ])('names a RUT of %s, and only the RUT, in a 422', (_, rut, message) => {
    const r = validateBankRecipient({ ...valid, rut }, context)
    expect(either.isLeft(r) && problemReply('r', [])(r.left)).toMatchObject({ status: 422, body: { errors: { rut: [message] } } })
    expect(either.isLeft(r) && Object.keys((problemReply('r', [])(r.left).body as { errors: object }).errors)).toEqual(['rut'])
  })

  it('replies 409 to a recipient already enrolled, in whatever spelling', () => {
    const r = validateBankRecipient({ rut: '111111111', account_number: '000123456', bank_id: 'bank-1', name: 'Luis' }, context)
    expect(either.isLeft(r) && problemReply('r', [])(r.left)).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: 'The recipient is already enrolled' }
    })
  })

  it.each(KNOWN_RUTS)('accepts the real RUT %s as %s, and refuses it with any other check digit', (rut, normalised) => {
    expect(normaliseRut(rut)).toBe(normalised)
    const digits = normalised.slice(0, -2)
    expect(rutCheckDigit(digits)).toBe(normalised.slice(-1))
    const others = CHECK_CHARS.filter((c) => c !== normalised.slice(-1)).map((c) => normaliseRut(`${digits}-${c}`))
    expect(others).toEqual(Array(10).fill(null))
  })

  it('gives repdigit RUTs their own digit (32 n is -n modulo 11), and small ones theirs', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => rutCheckDigit(String(d).repeat(8)))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9'
    ])
    expect(['1', '2', '5', '6', '10000013'].map(rutCheckDigit)).toEqual(['9', '7', '1', 'K', 'K'])
  })

  it('agrees with a brute force over the 11 check characters, and accepts exactly that one', () => {
    const number = fc.oneof(
      fc.integer({ min: 1, max: 99 }),
      fc.integer({ min: 1, max: 99_999_999 }),
      fc.integer({ min: 1, max: 999_999_999 })
    )
    fc.assert(
      fc.property(number, (n) => {
        const expected = bruteForceCheckDigit(n)
        expect(rutCheckDigit(String(n))).toBe(expected)
        const accepted = CHECK_CHARS.filter((c) => normaliseRut(`${n}-${c}`) !== null)
        expect(accepted).toEqual([expected])
      }),
      { numRuns: runs(1000) }
    )
  })

  it('rejects every single-digit corruption', () => {
    // One digit of the number changed (never to a leading 0, which would name a shorter number),
    // or the check digit changed: weights 2-7 times differences 1-10 are never a multiple of 11.
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000, max: 99_999_999 }), fc.nat(), fc.integer({ min: 1, max: 10 }), (n, at, k) => {
        const digits = String(n)
        const check = bruteForceCheckDigit(n)
        const i = at % (digits.length + 1)
        const d = Number(digits[i])
        const corrupted =
          i === digits.length
            ? `${digits}-${CHECK_CHARS[(CHECK_CHARS.indexOf(check) + k) % 11] ?? ''}`
            : `${digits.slice(0, i)}${i === 0 ? 1 + ((d - 1 + (k % 8) + 1) % 9) : (d + (k % 9) + 1) % 10}${digits.slice(i + 1)}-${check}`
        expect(corrupted).not.toBe(`${digits}-${check}`)
        expect(normaliseRut(corrupted)).toBeNull()
      })
    )
  })
})

describe('owner role and transaction authorization', () => {
  it('lets only an owner assign the owner role (403 with a JSON body otherwise)', () => {
    const admin = { user_id: 'u', role: 'admin' as const, permissions: [] }
    const r = guardRoleAssignment(admin, 'owner')
    expect(either.isLeft(r) && problemReply('r', [])(r.left)).toMatchObject({
      status: 403,
      body: { error_code: 'roles/owner_required', message: 'Only an owner can assign the owner role' }
    })
    expect(guardRoleAssignment(admin, 'admin')).toEqual(either.right('admin'))
    expect(guardRoleAssignment({ ...admin, role: 'owner' }, 'owner')).toEqual(either.right('owner'))
  })

  it('authorizes a pending transaction, and refuses an authorized one with 409', () => {
    expect(authorizeTransaction({ id: 'tx-1', status: 'pending' as const })).toEqual(
      either.right({ id: 'tx-1', status: 'authorized' })
    )
    const again = authorizeTransaction({ id: 'tx-1', status: 'authorized' as const })
    expect(either.isLeft(again) && problemReply('r', [])(again.left)).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: 'The transaction is already authorized' }
    })
  })
})

describe('rutCheckDigit given a value outside its type (R-19)', () => {
  // Found by the fuzz: an array-like of length 2^32 - 1 made it loop four billion times.
  it.each<[string, unknown, string]>([
    ['an array-like of length 2^32 - 1', { length: 2 ** 32 - 1 }, 'an object'],
    ['ten digits', '1234567890', '"1234567890"'],
    ['an empty string', '', '""'],
    ['dots', '12.345.678', '"12.345.678"']
  ])('%s is a TypeError', (_, digits, shown) => {
    expect(() => rutCheckDigit(digits as string)).toThrow(
      new TypeError(`rutCheckDigit: digits is ${shown}, not a string of 1 to 9 digits`)
    )
  })
})

describe('validateBankRecipient: each field on its own, and the conflict (R-72)', () => {
  const invalid = (errors: ReadonlyArray<{ field: string; messages: ReadonlyArray<string> }>) =>
    either.left({
      _tag: 'Invalid',
      rule: 'recipient.validation',
      detail: errors.map((e) => `${e.field}: ${e.messages.join(', ')}`).join('; '),
      errors
    })
  const ok = { rut: '12345678-5', account_number: '12345678', bank_id: 'bank-2', name: 'Ana Pérez' }

  it('reads a RUT with white space around it, and an account number with spaces and dashes', () => {
    expect(validateBankRecipient({ ...valid, rut: ' 12.345.678-5 ', account_number: ' 1234-5678 ' }, context)).toEqual(
      either.right(ok)
    )
  })

  it.each<[string, Record<string, unknown>, ReadonlyArray<{ field: string; messages: ReadonlyArray<string> }>]>([
    ['an account number of dashes only', { account_number: '- -' }, [{ field: 'account_number', messages: ["can't be blank"] }]],
    [
      'an account number that is a number',
      { account_number: 12345678 },
      [{ field: 'account_number', messages: ["can't be blank"] }]
    ],
    [
      'an account number of 4 digits',
      { account_number: '1234' },
      [{ field: 'account_number', messages: ['must be 5 to 20 digits'] }]
    ],
    ['an empty bank id', { bank_id: '' }, [{ field: 'bank_id', messages: ["can't be blank"] }]],
    ['a bank id that is a number', { bank_id: 2 }, [{ field: 'bank_id', messages: ["can't be blank"] }]],
    ['no name', { name: undefined }, [{ field: 'name', messages: ["can't be blank"] }]],
    ['a RUT of 10 digits', { rut: '1.234.567.890-1' }, [{ field: 'rut', messages: ['is not a valid RUT'] }]]
  ])('refuses %s alone', (_, change, errors) => {
    expect(validateBankRecipient({ ...valid, ...change }, context)).toEqual(invalid(errors))
  })

  it('is a 409 only when the RUT, the bank and the account number all match an enrolled recipient', () => {
    const enrolled = [{ rut: '12.345.678-5', bank_id: 'bank-2', account_number: '1234-5678' }]
    const conflict = either.left({
      _tag: 'Conflict',
      rule: 'recipient.conflict',
      message: 'The recipient is already enrolled',
      detail: 'The recipient is already enrolled'
    })
    expect(validateBankRecipient(valid, { ...context, enrolled })).toEqual(conflict)
    expect(validateBankRecipient(valid, { ...context, enrolled: [...context.enrolled, ...enrolled] })).toEqual(conflict)
    for (const other of [{ rut: '11.111.111-1' }, { bank_id: 'bank-1' }, { account_number: '12345679' }])
      expect(
        validateBankRecipient(valid, { ...context, enrolled: [{ ...enrolled[0], ...other } as (typeof enrolled)[0]] })
      ).toEqual(either.right(ok))
  })
})
