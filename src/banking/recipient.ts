/**
 * POST /v1/banking/bank_recipients, as a pure validator: the RUT with its check digit, the
 * account number, the bank and the name, every invalid field named in one 422 errors map; a
 * recipient already enrolled is a 409. A field holding U+0000 (ADR 0013) or a lone surrogate
 * is refused for that before its own rules.
 *
 * The RUT (Chile's tax id) is a number and a check digit, `0`-`9` or `K`: weights 2, 3, 4, 5, 6,
 * 7, 2, 3, ... from the right, `11 - sum mod 11`, with 11 written `0` and 10 written `K`. It is
 * accepted with or without thousands dots and dash, `k` in either case, and normalised to
 * `12345678-5`.
 *
 * Law: a RUT with one digit changed, or its check digit changed, is refused (weights 2-7 and
 * differences 1-9 are never a multiple of 11).
 *
 * @example
 * normaliseRut('12.345.678-5') //=> '12345678-5'
 * rutCheckDigit('12345678') //=> '5'
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import { typeError } from '../json/describe'
import * as problem from '../decision/problem'
import type { FieldError, Problem } from '../decision/problem'
import { isJsonObject, ownValue } from '../json/value'
import { keptTextError, nameError, nameMessages } from '../validation/name'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A valid recipient, normalised.
 *
 * @example
 * validateBankRecipient({ rut: '12.345.678-5', account_number: '00-123-456', bank_id: 'bank-1', name: ' Ana Pérez ' }, { bank_ids: ['bank-1'], enrolled: [] })
 * //=> right({ rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1', name: 'Ana Pérez' })
 *
 * @category model
 * @since 0.1.0
 */
export interface BankRecipient {
  readonly rut: string
  readonly account_number: string
  readonly bank_id: string
  readonly name: string
}

/**
 * What the validator needs from the server: the banks it knows and the recipients already
 * enrolled (in any spelling; they are normalised before comparing).
 *
 * @example
 * const context = { bank_ids: ['bank-1'], enrolled: [{ rut: '12.345.678-5', bank_id: 'bank-1', account_number: '00-123-456' }] }
 * validateBankRecipient({ rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1', name: 'Ana' }, context)
 * //=> left({ _tag: 'Conflict', rule: 'recipient.conflict', message: 'The recipient is already enrolled', detail: 'The recipient is already enrolled' })
 *
 * @category model
 * @since 0.1.0
 */
export interface RecipientContext {
  readonly bank_ids: ReadonlyArray<string>
  readonly enrolled: ReadonlyArray<{ readonly rut: string; readonly bank_id: string; readonly account_number: string }>
}

/**
 * The texts of a bank recipient's 422 field errors and of its 409.
 *
 * @example
 * recipientMessages.checkDigit //=> 'has a wrong check digit'
 *
 * @category constants
 * @since 0.1.0
 */
export const recipientMessages = {
  blank: nameMessages.blank,
  rut: 'is not a valid RUT',
  checkDigit: 'has a wrong check digit',
  account: 'must be 5 to 20 digits',
  bank: 'is not a known bank',
  tooLong: nameMessages.tooLong,
  nul: nameMessages.nul,
  illFormed: nameMessages.illFormed,
  enrolled: 'The recipient is already enrolled'
} as const

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The check digit of a RUT's number (its digits, without dots).
 *
 * @example
 * rutCheckDigit('12345678') //=> '5'
 *
 * @category utils
 * @since 0.1.0
 */
export const rutCheckDigit = (digits: string): string => {
  // A RUT body has at most 9 digits (R-19: anything else is refused at once, never walked).
  if (typeof digits !== 'string' || !/^\d{1,9}$/.test(digits))
    throw typeError('rutCheckDigit', 'digits', digits, 'a string of 1 to 9 digits')
  let sum = 0
  let weight = 2
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight
    weight = weight === 7 ? 2 : weight + 1
  }
  const r = 11 - (sum % 11)
  return r === 11 ? '0' : r === 10 ? 'K' : String(r)
}

const RUT = /^(\d{1,3}(?:\.\d{3})+|\d{1,9})-?([\dkK])$/

type RutReading =
  { readonly _tag: 'Valid'; readonly rut: string } | { readonly _tag: 'Malformed' } | { readonly _tag: 'WrongDigit' }

const readRut = (text: string): RutReading => {
  const m = RUT.exec(text.trim())
  const digits = m?.[1]?.replace(/\./g, '').replace(/^0+/, '')
  if (m === null || digits === undefined || digits === '' || digits.length > 9) return { _tag: 'Malformed' }
  const check = (m[2] ?? '').toUpperCase()
  return rutCheckDigit(digits) === check ? { _tag: 'Valid', rut: `${digits}-${check}` } : { _tag: 'WrongDigit' }
}

/**
 * The RUT as `12345678-5`, or `null` when it is malformed or its check digit is wrong.
 *
 * @example
 * normaliseRut('12.345.678-5') //=> '12345678-5'
 * normaliseRut('12345678-4') //=> null
 *
 * @category utils
 * @since 0.1.0
 */
export const normaliseRut = (text: string): string | null => {
  const r = readRut(text)
  return r._tag === 'Valid' ? r.rut : null
}

const accountDigits = (text: string): string => text.replace(/[\s-]/g, '')

const ACCOUNT = /^\d{5,20}$/

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * The normalised recipient, or its 422 (every invalid field) or 409 (already enrolled).
 *
 * @example
 * const invalid = validateBankRecipient({ rut: '12.345.678-4', account_number: '12', bank_id: 'bank-9', name: '' }, { bank_ids: ['bank-1'], enrolled: [] })
 * invalid._tag === 'Left' && invalid.left._tag === 'Invalid' && invalid.left.errors
 * //=> [{ field: 'rut', messages: ['has a wrong check digit'] }, { field: 'account_number', messages: ['must be 5 to 20 digits'] },
 * //    { field: 'bank_id', messages: ['is not a known bank'] }, { field: 'name', messages: ["can't be blank"] }]
 *
 * @category rules
 * @since 0.1.0
 */
export const validateBankRecipient = (input: unknown, context: RecipientContext): E.Either<Problem, BankRecipient> => {
  const o: Record<string, unknown> = isJsonObject(input) ? input : {}
  const errors: Array<FieldError> = []
  const reject = (field: string, message: string) => errors.push({ field, messages: [message] })

  const rutText = ownValue(o, 'rut')
  const rut = typeof rutText === 'string' && rutText.trim() !== '' ? readRut(rutText) : null
  const rutTextError = keptTextError(rutText)
  if (rutTextError !== null) reject('rut', rutTextError)
  else if (rut === null) reject('rut', recipientMessages.blank)
  else if (rut._tag === 'Malformed') reject('rut', recipientMessages.rut)
  else if (rut._tag === 'WrongDigit') reject('rut', recipientMessages.checkDigit)

  const accountText = ownValue(o, 'account_number')
  const account = typeof accountText === 'string' ? accountDigits(accountText) : ''
  const accountTextError = keptTextError(accountText)
  if (accountTextError !== null) reject('account_number', accountTextError)
  else if (account === '') reject('account_number', recipientMessages.blank)
  else if (!ACCOUNT.test(account)) reject('account_number', recipientMessages.account)

  const bank = ownValue(o, 'bank_id')
  const bankTextError = keptTextError(bank)
  if (bankTextError !== null) reject('bank_id', bankTextError)
  else if (typeof bank !== 'string' || bank === '') reject('bank_id', recipientMessages.blank)
  else if (!context.bank_ids.includes(bank)) reject('bank_id', recipientMessages.bank)

  const name = ownValue(o, 'name')
  const nameProblem = nameError(name)
  if (nameProblem !== null) reject('name', nameProblem)

  if (errors.length > 0 || rut?._tag !== 'Valid' || typeof bank !== 'string' || typeof name !== 'string')
    return E.left(problem.invalid('recipient.validation', errors))
  const recipient: BankRecipient = { rut: rut.rut, account_number: account, bank_id: bank, name: name.trim() }
  const taken = context.enrolled.some(
    (e) =>
      normaliseRut(e.rut) === recipient.rut &&
      e.bank_id === recipient.bank_id &&
      accountDigits(e.account_number) === recipient.account_number
  )
  return taken ? E.left(problem.conflict('recipient.conflict', recipientMessages.enrolled)) : E.right(recipient)
}
