import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareInstants, parseInstant } from '../../src/index'

/** The reference: the grammar as one regular expression, and Date.UTC for the moment. */
const REFERENCE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/
const reference = (text: string) => {
  const m = REFERENCE.exec(text)
  if (m === null) return null
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i]))
  const s = Number(m[6] ?? '0')
  const oh = Number(m[10] ?? '0')
  const om = Number(m[11] ?? '0')
  const probe = new Date(0)
  probe.setUTCFullYear(y as number, (mo as number) - 1, d)
  if ((y as number) < 1 || probe.getUTCFullYear() !== y || probe.getUTCMonth() !== (mo as number) - 1 || probe.getUTCDate() !== d || (h as number) > 23 || (mi as number) > 59 || s > 59 || oh > 23 || om > 59) return null
  const ms = probe.getTime() + ((h as number) * 3600 + (mi as number) * 60 + s - (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60)) * 1000
  return { seconds: Math.floor(ms / 1000), nanos: Number((m[7] ?? '').padEnd(9, '0')) }
}

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
const instantText = fc
  .tuple(
    fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    fc.oneof(two(12), two(99)),
    fc.oneof(two(31), two(99)),
    fc.oneof(two(23), two(99)),
    fc.oneof(two(59), two(99)),
    fc.option(fc.oneof(two(59), two(99)), { nil: undefined }),
    fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
    fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), fc.oneof(two(23), two(99)), two(59)).map(([s, h, m]) => `${s}${h}:${m}`), fc.constantFrom('', 'z', '+0300', 'Z ')),
    fc.constantFrom('T', 't', ' ')
  )
  .map(([y, mo, d, h, mi, s, frac, off, t]) => `${y}-${mo}-${d}${t}${h}:${mi}${s === undefined ? '' : `:${s}${frac === undefined ? '' : `.${frac}`}`}${off}`)

describe('parseInstant', () => {
  it.each([
    ['2026-11-22T10:15:00Z', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T07:15:00-03:00', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T10:15Z', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T10:15:00.5+00:00', { seconds: 1795342500, nanos: 500000000 }],
    ['2026-11-22T10:15:00.000000001Z', { seconds: 1795342500, nanos: 1 }]
  ])('reads %s', (text, instant) => {
    expect(parseInstant(text)).toEqual(instant)
  })

  it.each([['2026-11-22'], ['2026-11-22T10:15:00'], ['2026-02-29T00:00:00Z'], ['2026-11-22T24:00:00Z'], ['2026-11-22T10:15:00.Z'], ['2026-11-22T10:15:00.1234567890Z'], ['2026-11-22T10:15:00+24:00'], ['']])(
    'refuses %j',
    (text) => {
      expect(parseInstant(text)).toBeNull()
    }
  )

  it('agrees with the grammar as a regular expression and with Date.UTC', () => {
    fc.assert(
      fc.property(instantText, (text) => {
        expect(parseInstant(text)).toEqual(reference(text))
      }),
      { numRuns: 5000 }
    )
  })

  it('never throws on any string', () => {
    fc.assert(fc.property(fc.string(), (text) => parseInstant(text) === reference(text)))
  })

  it('orders as Date.parse does at millisecond precision', () => {
    const ms = fc.integer({ min: -62135596800000, max: 253402300799000 })
    fc.assert(
      fc.property(ms, ms, (a, b) => {
        const pa = parseInstant(new Date(a).toISOString())
        const pb = parseInstant(new Date(b).toISOString())
        expect(pa === null || pb === null ? null : Math.sign(compareInstants(pa, pb))).toBe(Math.sign(a - b))
      })
    )
  })
})
