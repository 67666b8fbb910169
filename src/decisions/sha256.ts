/**
 * SHA-256 (FIPS 180-4) of a text's UTF-8 bytes, in the pure core: what a decision record keeps of
 * a body it does not keep, so that a record stays a function of the facade's input and
 * reply alone, the same whoever builds it, with no digest to hand in and none of the platform's
 * (`node:crypto` is I/O's side of the house; the browser's `crypto.subtle.digest` answers only
 * asynchronously). Only the bodies a record erases are hashed (ADR 0126).
 *
 * @example
 * sha256Hex('abc') //=> 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * utf8Length('añ€😀') //=> 10
 *
 * @since 0.4.0
 */

// -------------------------------------------------------------------------------------
// UTF-8
// -------------------------------------------------------------------------------------

/** Whether the code unit at `i` opens a surrogate pair that the next one closes. */
const pairAt = (s: string, i: number): boolean => {
  const unit = s.charCodeAt(i)
  if (unit < 0xd800 || unit > 0xdbff) return false
  const next = s.charCodeAt(i + 1)
  return next >= 0xdc00 && next <= 0xdfff
}

/**
 * The length of a text in UTF-8 bytes, as `TextEncoder` writes it: a lone surrogate counts as
 * the three bytes of U+FFFD that replace it.
 *
 * @example
 * utf8Length('') //=> 0
 * utf8Length('a\u00ff\u0800') //=> 6
 * utf8Length('\ud83d\ude00') //=> 4
 * utf8Length('\udbff') //=> 3
 *
 * @category utils
 * @since 0.4.0
 */
export const utf8Length = (s: string): number => {
  let bytes = 0
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (pairAt(s, i)) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/** The UTF-8 bytes of a text, lone surrogates as U+FFFD (EF BF BD), as `TextEncoder` writes them. */
const utf8 = (s: string): Uint8Array => {
  const out = new Uint8Array(utf8Length(s))
  let at = 0
  for (let i = 0; i < s.length; i++) {
    let point = s.charCodeAt(i)
    if (pairAt(s, i)) {
      point = 0x10000 + ((point - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00)
      i++
    } else if (point >= 0xd800 && point <= 0xdfff) point = 0xfffd
    if (point < 0x80) out[at++] = point
    else if (point < 0x800) {
      out[at++] = 0xc0 | (point >> 6)
      out[at++] = 0x80 | (point & 0x3f)
    } else if (point < 0x10000) {
      out[at++] = 0xe0 | (point >> 12)
      out[at++] = 0x80 | ((point >> 6) & 0x3f)
      out[at++] = 0x80 | (point & 0x3f)
    } else {
      out[at++] = 0xf0 | (point >> 18)
      out[at++] = 0x80 | ((point >> 12) & 0x3f)
      out[at++] = 0x80 | ((point >> 6) & 0x3f)
      out[at++] = 0x80 | (point & 0x3f)
    }
  }
  return out
}

// -------------------------------------------------------------------------------------
// SHA-256
// -------------------------------------------------------------------------------------

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = /*#__PURE__*/ Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
])

/** The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = /*#__PURE__*/ Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
])

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

/** The message padded to whole 64-byte blocks: a 1 bit, zeros, its length in bits (64 bits, big-endian). */
const padded = (bytes: Uint8Array): Uint8Array => {
  const length = Math.ceil((bytes.length + 9) / 64) * 64
  const block = new Uint8Array(length)
  block.set(bytes)
  block[bytes.length] = 0x80
  const view = new DataView(block.buffer)
  const bits = bytes.length * 8
  view.setUint32(length - 8, Math.floor(bits / 0x100000000))
  view.setUint32(length - 4, bits >>> 0)
  return block
}

/**
 * The SHA-256 of a text's UTF-8 bytes (as {@link utf8Length} counts them), as 64 lowercase hex
 * digits: what `node:crypto`'s `createHash('sha256').update(text).digest('hex')` gives.
 *
 * @example
 * sha256Hex('') //=> 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 *
 * @category utils
 * @since 0.4.0
 */
export const sha256Hex = (text: string): string => {
  const m = padded(utf8(text))
  const h = Int32Array.from(H0)
  const w = new Int32Array(64)
  for (let block = 0; block < m.length; block += 64) {
    for (let i = 0; i < 16; i++) {
      const at = block + i * 4
      w[i] = ((m[at] as number) << 24) | ((m[at + 1] as number) << 16) | ((m[at + 2] as number) << 8) | (m[at + 3] as number)
    }
    for (let i = 16; i < 64; i++) {
      const w15 = w[i - 15] as number
      const w2 = w[i - 2] as number
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10)
      w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0
    }
    let a = h[0] as number
    let b = h[1] as number
    let c = h[2] as number
    let d = h[3] as number
    let e = h[4] as number
    let f = h[5] as number
    let g = h[6] as number
    let hh = h[7] as number
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h[0] = (h[0] as number) + a
    h[1] = (h[1] as number) + b
    h[2] = (h[2] as number) + c
    h[3] = (h[3] as number) + d
    h[4] = (h[4] as number) + e
    h[5] = (h[5] as number) + f
    h[6] = (h[6] as number) + g
    h[7] = (h[7] as number) + hh
  }
  let hex = ''
  for (const word of h) hex += (word >>> 0).toString(16).padStart(8, '0')
  return hex
}
