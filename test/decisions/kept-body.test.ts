/**
 * What a record keeps of a body: the body of an admitted caller within 16 KiB, else its
 * length in UTF-8 bytes and its SHA-256, checked against Node's own encoder and digest; and who
 * passed `auth.membership`, read from a decision's rules and status.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isErasedBody, keptBody, MAX_KEPT_BODY_BYTES } from '../../src/decisions/kept-body'
import { passedMembership } from '../../src/decisions/membership'
import { sha256Hex, utf8Length } from '../../src/decisions/sha256'
import { runs } from '../runs'

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** Any UTF-16 code unit, a surrogate one time in two (alone, or a pair by chance), and text made of them. */
const anyUnit = fc
  .oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }))
  .map((u) => String.fromCharCode(u))
const anyText = fc.oneof(
  fc.string({ unit: anyUnit, maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  // Lengths about the 64-byte blocks and the 56 bytes after which the length needs a block of its own.
  fc.tuple(fc.constantFrom('a', 'é', '€', '😀', '\ud800'), fc.integer({ min: 0, max: 140 })).map(([c, n]) => c.repeat(n))
)

describe('sha256Hex and utf8Length', () => {
  it("are Node's SHA-256 and byte length of the same text, lone surrogates encoded as U+FFFD", () => {
    let lone = 0
    fc.assert(
      fc.property(anyText, (text) => {
        // Node's encoder replaces a lone surrogate: the text read back differs.
        if (Buffer.from(text, 'utf8').toString('utf8') !== text) lone++
        expect(sha256Hex(text)).toBe(nodeSha256(text))
        expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'))
      }),
      { numRuns: runs(500) }
    )
    expect(lone).toBeGreaterThan(runs(500) / 10)
  })

  it('the FIPS 180-4 examples, a text of several blocks, and each width of UTF-8', () => {
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'
    )
    expect(sha256Hex('a'.repeat(1000))).toBe(nodeSha256('a'.repeat(1000)))
    expect([
      utf8Length('\u007f'),
      utf8Length('\u0080'),
      utf8Length('\u07ff'),
      utf8Length('\u0800'),
      utf8Length('\uffff')
    ]).toEqual([1, 2, 2, 3, 3])
    // A pair is 4 bytes; a high surrogate before anything but a low one, or a low one alone, is U+FFFD.
    expect([utf8Length('\ud800\udc00'), utf8Length('\ud800a'), utf8Length('\udc00\ud800'), utf8Length('\udbff\ue000')]).toEqual([
      4, 4, 6, 6
    ])
    expect(sha256Hex('\udc00')).toBe(nodeSha256('\ufffd'))
    // The last code point of each width and the first of the next, each written in its own width.
    for (const text of ['\u007f', '\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', 'a\u0080\u0800\u{10000}'])
      expect(sha256Hex(text), JSON.stringify(text)).toBe(nodeSha256(text))
    expect(sha256Hex('\udbff\udfff')).toBe(nodeSha256('\u{10ffff}'))
  })
})

describe('keptBody', () => {
  const erased = (body: string) => ({ erased: 'body', bytes: Buffer.byteLength(body), sha256: nodeSha256(body) })

  it('an admitted caller’s body of at most 16 KiB of UTF-8 is kept as it came', () => {
    for (const body of ['', '{}', 'x'.repeat(MAX_KEPT_BODY_BYTES), 'é'.repeat(MAX_KEPT_BODY_BYTES / 2), '€'.repeat(5461) + 'x'])
      expect(keptBody(body, true)).toBe(body)
  })

  it('one byte more is its length and digest, whatever the width of its characters', () => {
    for (const body of [
      'x'.repeat(MAX_KEPT_BODY_BYTES + 1),
      'é'.repeat(MAX_KEPT_BODY_BYTES / 2) + 'x',
      '€'.repeat(5461) + 'xx',
      '😀'.repeat(MAX_KEPT_BODY_BYTES / 4) + 'x',
      '\ud800'.repeat(5462)
    ])
      expect(keptBody(body, true)).toStrictEqual(erased(body))
  })

  it("a stranger's body is erased however short", () => {
    for (const body of ['', '{"budget":{"name":"PWNED by anonymous"}}', 'x'.repeat(MAX_KEPT_BODY_BYTES + 1)])
      expect(keptBody(body, false)).toStrictEqual(erased(body))
  })

  it('isErasedBody: an object of that shape only, never a text', () => {
    expect(isErasedBody(erased('x'))).toBe(true)
    for (const u of [
      JSON.stringify(erased('x')),
      null,
      [erased('x')],
      { ...erased('x'), erased: 'query' },
      { ...erased('x'), bytes: '1' },
      { ...erased('x'), sha256: null },
      { erased: 'body', bytes: 1 }
    ])
      expect(isErasedBody(u), JSON.stringify(u)).toBe(false)
  })
})

describe('passedMembership', () => {
  const auth = ['auth.bearer', 'auth.email_verified', 'auth.company_header']

  it('refused before it, or by it: not passed', () => {
    expect(passedMembership([], 500)).toBe(false)
    expect(passedMembership(['auth.bearer'], 401)).toBe(false)
    expect(passedMembership(auth, 401)).toBe(false)
    expect(passedMembership([...auth, 'auth.membership'], 404)).toBe(false)
    expect(passedMembership([...auth, 'auth.membership'], 400)).toBe(false)
  })

  it('a rule after it, or no refusal at all: passed', () => {
    expect(passedMembership([...auth, 'auth.membership', 'budget.scope'], 404)).toBe(true)
    expect(passedMembership([...auth, 'auth.membership', 'page.query', 'page.window'], 200)).toBe(true)
    expect(passedMembership([...auth, 'auth.membership'], 200)).toBe(true)
    expect(passedMembership([...auth, 'auth.membership'], 399)).toBe(true)
    // Wherever it stands: an embedder's reasons may begin with it.
    expect(passedMembership(['auth.membership', 'budget.scope'], 404)).toBe(true)
  })
})
