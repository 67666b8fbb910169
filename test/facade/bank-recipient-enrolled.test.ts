import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { BankRecipientContext as BankRecipientCodec } from '../../src/facade/bank-recipient'

const ENROLLED = { rut: '11.111.111-1', bank_id: 'bank-1', account_number: '000-123-456' }
const CONTEXT = {
  request: { headers: {} },
  session: { user: null, memberships: {} },
  bank_ids: ['bank-1'],
  request_id: 'req-b'
}

/** The messages of the errors the context codec gives for these enrolled recipients. */
const messagesOf = (enrolled: ReadonlyArray<unknown>): ReadonlyArray<string | undefined> => {
  const decoded = BankRecipientCodec.decode({ ...CONTEXT, enrolled })
  return either.isLeft(decoded) ? decoded.left.map((e) => e.message) : []
}

// an enrolled recipient is read by property access, from a plain object, a class
// instance, an ORM row or a function object; the codec's messages say what is wrong.
describe('the enrolled recipients a server hands respondBankRecipient', () => {
  it('are read from a function object holding the three fields, as from any object', () => {
    const row = Object.assign(() => null, ENROLLED)
    const decoded = BankRecipientCodec.decode({ ...CONTEXT, enrolled: [row] })
    expect(either.isRight(decoded) && decoded.right.enrolled).toEqual([ENROLLED])
  })

  it.each<[string, unknown, string]>([
    ['null', null, 'an enrolled recipient must be an object'],
    ['a string', '11.111.111-1', 'an enrolled recipient must be an object'],
    ['a number as RUT', { ...ENROLLED, rut: 111111111 }, 'rut must be a string'],
    ['no account number', { rut: '1-9', bank_id: 'bank-1' }, 'account_number must be a string']
  ])('refuses %s, saying why', (_, entry, message) => {
    expect(messagesOf([entry])).toEqual([message])
  })

  it('refuses a recipient whose field getter throws, naming the field', () => {
    const entry = Object.defineProperty({ rut: '1-9', account_number: '12345' }, 'bank_id', {
      enumerable: true,
      get() {
        throw new Error('lazy column')
      }
    })
    expect(messagesOf([entry])).toEqual(['bank_id could not be read'])
  })
})
