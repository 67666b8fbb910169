import { either } from 'fp-ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { authorizeTransaction, guardRoleAssignment, normaliseRut, problemReply, rutCheckDigit, validateBankRecipient } from '../../src/index'

/** A straightforward reference: digits reversed, weights 2..7 repeating, 11 - sum mod 11. */
const referenceCheckDigit = (n: number): string => {
  const weights = [2, 3, 4, 5, 6, 7]
  const sum = String(n).split('').reverse().reduce((acc, d, i) => acc + Number(d) * (weights[i % 6] as number), 0)
  const r = 11 - (sum % 11)
  return r === 11 ? '0' : r === 10 ? 'K' : String(r)
}

const context = { bank_ids: ['bank-1', 'bank-2'], enrolled: [{ rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000-123-456' }] }
const valid = { rut: '12.345.678-5', account_number: '12345678', bank_id: 'bank-2', name: ' Ana Pérez ' }

describe('bank recipients', () => {
  it('normalises the RUT: dots, dash and k in either case', () => {
    expect(['12.345.678-5', '12345678-5', '123456785', '012345678-5'].map(normaliseRut)).toEqual(Array(4).fill('12345678-5'))
    expect([normaliseRut('10.000.013-k'), normaliseRut('10000013K')]).toEqual(['10000013-K', '10000013-K'])
    expect(['12.345.678-4', '1.2345.678-5', '12345678-', '-5', '', '0-0'].map(normaliseRut)).toEqual(Array(6).fill(null))
  })

  it('returns the normalised recipient', () => {
    expect(validateBankRecipient(valid, context)).toEqual(either.right({ rut: '12345678-5', account_number: '12345678', bank_id: 'bank-2', name: 'Ana Pérez' }))
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

  it('replies 409 to a recipient already enrolled, in whatever spelling', () => {
    const r = validateBankRecipient({ rut: '111111111', account_number: '000123456', bank_id: 'bank-1', name: 'Luis' }, context)
    expect(either.isLeft(r) && problemReply('r', [])(r.left)).toMatchObject({ status: 409, body: { error: 'conflict', message: 'The recipient is already enrolled' } })
  })

  it('computes check digits as a straightforward reference does', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
      expect(rutCheckDigit(String(n))).toBe(referenceCheckDigit(n))
    }))
  })

  it('rejects every single-digit corruption', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000, max: 99_999_999 }), fc.nat(), fc.integer({ min: 1, max: 10 }), (n, at, delta) => {
        const digits = String(n)
        const rut = `${digits}-${rutCheckDigit(digits)}`
        const i = at % (digits.length + 1)
        const corrupted =
          i === digits.length
            ? `${digits}-${'0123456789K'[('0123456789K'.indexOf(rutCheckDigit(digits)) + delta) % 11] ?? ''}`
            : `${digits.slice(0, i)}${(Number(digits[i]) + delta) % 10}${digits.slice(i + 1)}-${rutCheckDigit(digits)}`
        fc.pre(corrupted !== rut && !(i === 0 && corrupted.startsWith('0')))
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
    expect(authorizeTransaction({ id: 'tx-1', status: 'pending' as const })).toEqual(either.right({ id: 'tx-1', status: 'authorized' }))
    const again = authorizeTransaction({ id: 'tx-1', status: 'authorized' as const })
    expect(either.isLeft(again) && problemReply('r', [])(again.left)).toMatchObject({ status: 409, body: { error: 'conflict', message: 'The transaction is already authorized' } })
  })
})
