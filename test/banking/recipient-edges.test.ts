import { describe, expect, it } from 'vitest'
import { rutCheckDigit } from '../api'

// rutCheckDigit takes the digits as text; a number is refused, not read as its digits.
describe('rutCheckDigit given a number', () => {
  it('is a TypeError even when the number would spell valid digits', () => {
    expect(() => rutCheckDigit(12345678 as never)).toThrow(
      new TypeError('rutCheckDigit: digits is 12345678, not a string of 1 to 9 digits')
    )
  })
})
