/**
 * The Idempotency-Key a money operation may carry: 1 to 255 characters (UTF-16 code units, as a
 * string's length counts them), the bound the server's 400 and the OpenAPI document both name.
 */
import { describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_MAX_LENGTH, isIdempotencyKey } from '../../src/http/idempotency-key'

describe('isIdempotencyKey', () => {
  it('the longest key is 255 characters', () => {
    expect(IDEMPOTENCY_KEY_MAX_LENGTH).toBe(255)
  })

  it.each<[string, string, boolean]>([
    ['the empty key is none', '', false],
    ['one character is the shortest key', 'k', true],
    ['two characters', 'k2', true],
    ['a uuid', '7f1c2a9e-3b4d-4e5f-8a6b-0c1d2e3f4a5b', true],
    ['254 characters', 'k'.repeat(254), true],
    ['255 characters, the longest', 'k'.repeat(255), true],
    ['256 characters are too many', 'k'.repeat(256), false],
    ['far too many', 'k'.repeat(10_000), false],
    ['a space alone is one character', ' ', true]
  ])('%s', (_, key, expected) => {
    expect(isIdempotencyKey(key)).toBe(expected)
  })
})
