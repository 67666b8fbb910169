/**
 * The request body a decision record keeps: the body as received when its caller passed
 * `auth.membership` and it is at most 16 KiB; otherwise its length in UTF-8 bytes and its SHA-256,
 * `{ erased: 'body', bytes, sha256 }`, which prove what came without keeping it. A stranger's
 * body is refused before it is read, so the erased one decides again the same refusal; a
 * member's body over 16 KiB cannot be decided again, and its record is not replayable.
 *
 * @example
 * keptBody('{"amount_cents":5000}', true) //=> '{"amount_cents":5000}'
 * keptBody('abc', false) //=> { erased: 'body', bytes: 3, sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' }
 *
 * @since 0.4.0
 */
import { isJsonObject } from '../json/value'
import { sha256Hex, utf8Length } from './sha256'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a record keeps of a body it does not keep: its length in UTF-8 bytes and the SHA-256 of
 * those bytes, in lowercase hex.
 *
 * @example
 * const erased: ErasedBody = { erased: 'body', bytes: 0, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }
 * erased.bytes //=> 0
 *
 * @category model
 * @since 0.4.0
 */
export interface ErasedBody {
  readonly erased: 'body'
  readonly bytes: number
  readonly sha256: string
}

/**
 * The most UTF-8 bytes of body a record keeps: 16 KiB.
 *
 * @example
 * MAX_KEPT_BODY_BYTES //=> 16384
 *
 * @category constants
 * @since 0.4.0
 */
export const MAX_KEPT_BODY_BYTES = 16_384

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * Whether a case's body is one a record erased: a request's body is text, never an object.
 *
 * @example
 * isErasedBody({ erased: 'body', bytes: 3, sha256: 'ba78' }) //=> true
 * isErasedBody('{"erased":"body"}') //=> false
 *
 * @category refinements
 * @since 0.4.0
 */
export const isErasedBody = (u: unknown): u is ErasedBody =>
  isJsonObject(u) && u.erased === 'body' && typeof u.bytes === 'number' && typeof u.sha256 === 'string'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Whether a body fits the 16 KiB a record keeps. A UTF-16 code unit is 1 to 3 bytes of UTF-8 (a
 * pair, 4 bytes for two units), so only a body of 5,462 to 16,384 units is counted byte by byte:
 * a record of a usual body costs a comparison.
 */
const fits = (body: string): boolean =>
  body.length <= MAX_KEPT_BODY_BYTES / 3 || (body.length <= MAX_KEPT_BODY_BYTES && utf8Length(body) <= MAX_KEPT_BODY_BYTES)

/**
 * The body a record keeps of a request: the body itself when `admitted` (its caller passed
 * `auth.membership`) and it fits 16 KiB of UTF-8, else its {@link ErasedBody}. Only the bodies
 * erased are hashed.
 *
 * @example
 * keptBody('é'.repeat(8192), true) //=> 'é'.repeat(8192)
 * (keptBody('é'.repeat(8193), true) as ErasedBody).bytes //=> 16386
 *
 * @category constructors
 * @since 0.4.0
 */
export const keptBody = (body: string, admitted: boolean): string | ErasedBody =>
  admitted && fits(body) ? body : { erased: 'body', bytes: utf8Length(body), sha256: sha256Hex(body) }
