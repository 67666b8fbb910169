import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareInstants, parseInstant } from '../api'
import { runs } from '../runs'
import { instantSlot, readInstant } from '../../src/calendar/instant'

// The oracle does not parse the text: the generator builds an instant from its parts, each
// valid or broken, and the oracle judges the parts and takes the moment from Date.parse of a
// normalised form with an explicit offset (never local time, whatever TZ the suite runs under).

interface Parts {
  readonly year: string
  readonly month: string
  readonly day: string
  readonly separator: string
  readonly hour: string
  readonly minute: string
  readonly second: string | undefined
  readonly fraction: string | undefined
  readonly offset: string
}

const textOf = (p: Parts): string =>
  `${p.year}-${p.month}-${p.day}${p.separator}${p.hour}:${p.minute}` +
  `${p.second === undefined ? '' : `:${p.second}${p.fraction === undefined ? '' : `.${p.fraction}`}`}${p.offset}`

const isDigits = (s: string): boolean => /^[0-9]+$/.test(s)
const number = (s: string | undefined, width: number): number | null =>
  s !== undefined && s.length === width && isDigits(s) ? Number(s) : null

/** The instant the parts name, or null when one of them is broken. */
const oracle = (p: Parts): { seconds: number; nanos: number } | null => {
  const year = number(p.year, 4)
  const hour = number(p.hour, 2)
  const minute = number(p.minute, 2)
  const second = p.second === undefined ? 0 : number(p.second, 2)
  const fractionOk = p.fraction === undefined || (p.fraction.length <= 9 && isDigits(p.fraction))
  const offsetOk =
    p.offset === 'Z' ||
    (/^[+-]\d\d:\d\d$/.test(p.offset) && Number(p.offset.slice(1, 3)) <= 23 && Number(p.offset.slice(4, 6)) <= 59)
  if (p.separator !== 'T' || year === null || year < 1 || number(p.month, 2) === null || number(p.day, 2) === null) return null
  if (hour === null || hour > 23 || minute === null || minute > 59 || second === null || second > 59 || !fractionOk || !offsetOk)
    return null
  // A real date is one Date writes back unchanged (it refuses or rolls over 2026-02-30, 2026-13-01).
  const date = `${p.year}-${p.month}-${p.day}`
  const midnight = Date.parse(`${date}T00:00:00Z`)
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== date) return null
  const ms = Date.parse(`${date}T${p.hour}:${p.minute}:${p.second ?? '00'}${p.offset}`)
  return { seconds: ms / 1000, nanos: p.fraction === undefined ? 0 : Number(p.fraction.padEnd(9, '0')) }
}

const padded = (min: number, max: number, width = 2) => fc.integer({ min, max }).map((n) => String(n).padStart(width, '0'))
const digitString = (minLength: number, maxLength: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength, maxLength }).map((ds) => ds.join(''))

const valid = {
  year: padded(1, 9999, 4),
  month: padded(1, 12),
  day: padded(1, 31), // 29 to 31 are not real in every month: the oracle judges it
  separator: fc.constant('T'),
  hour: padded(0, 23),
  minute: padded(0, 59),
  second: fc.option(padded(0, 59), { nil: undefined }),
  fraction: fc.option(digitString(1, 9), { nil: undefined }),
  offset: fc.oneof(
    fc.constant('Z'),
    fc.tuple(fc.constantFrom('+', '-'), padded(0, 23), padded(0, 59)).map(([s, h, m]) => `${s}${h}:${m}`)
  )
}

const broken = {
  year: fc.oneof(fc.constant('0000'), padded(0, 999, 3), padded(10000, 99999, 5)),
  month: fc.oneof(fc.constant('00'), padded(13, 99), padded(1, 9, 1)),
  day: fc.oneof(fc.constant('00'), padded(32, 99), padded(1, 9, 1)),
  separator: fc.constantFrom('t', ' ', '', 'TT'),
  hour: fc.oneof(padded(24, 99), padded(0, 9, 1)),
  minute: fc.oneof(padded(60, 99), padded(0, 9, 1)),
  second: fc.oneof(padded(60, 99), padded(0, 9, 1)),
  fraction: fc.oneof(fc.constant(''), digitString(10, 12)),
  offset: fc.oneof(
    fc.constantFrom('', 'z', '+0300', 'Z ', '+03', '+3:00', '+03:0', '03:00'),
    fc.tuple(fc.constantFrom('+', '-'), padded(24, 99), padded(0, 59)).map(([s, h, m]) => `${s}${h}:${m}`),
    fc.tuple(fc.constantFrom('+', '-'), padded(0, 23), padded(60, 99)).map(([s, h, m]) => `${s}${h}:${m}`)
  )
}

type Part = keyof typeof valid

/** An instant's parts: about two in three intact, the rest with one part broken. */
const instantParts: fc.Arbitrary<Parts> = fc
  .oneof(
    { arbitrary: fc.constant(null), weight: 20 },
    { arbitrary: fc.constantFrom(...(Object.keys(valid) as Array<Part>)), weight: 9 }
  )
  .chain((part) =>
    fc.record({ ...valid, ...(part === null ? {} : { [part]: broken[part] }) }).map((p): Parts => {
      // A fraction needs seconds to hang on.
      const second = p.second ?? (part === 'fraction' ? '00' : undefined)
      return { ...p, second, fraction: second === undefined ? undefined : p.fraction }
    })
  )

describe('parseInstant', () => {
  it.each([
    ['2026-11-22T10:15:00Z', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T07:15:00-03:00', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T10:15Z', { seconds: 1795342500, nanos: 0 }],
    ['2026-11-22T10:15:00.5+00:00', { seconds: 1795342500, nanos: 500000000 }],
    ['2026-11-22T10:15:00.000000001Z', { seconds: 1795342500, nanos: 1 }],
    ['2026-11-23T10:14:00+23:59', { seconds: 1795342500, nanos: 0 }],
    ['1970-01-01T00:00:00Z', { seconds: 0, nanos: 0 }],
    ['1969-12-31T23:59:59.5Z', { seconds: -1, nanos: 500000000 }],
    ['2000-01-01T00:00:00Z', { seconds: 946684800, nanos: 0 }],
    ['2038-01-19T03:14:07Z', { seconds: 2147483647, nanos: 0 }],
    ['0001-01-01T00:00:00Z', { seconds: -62135596800, nanos: 0 }],
    ['9999-12-31T23:59:59.999999999Z', { seconds: 253402300799, nanos: 999999999 }],
    ['2028-02-29T12:00:00+14:00', { seconds: 1835388000, nanos: 0 }]
  ])('reads %s', (text, instant) => {
    expect(parseInstant(text)).toEqual(instant)
  })

  it.each([
    ['2026-11-22'],
    ['2026-11-22T10:15:00'],
    ['2026-02-29T00:00:00Z'],
    ['2026-11-22T24:00:00Z'],
    ['2026-11-22T10:60Z'],
    ['2026-11-22T10:15:60Z'],
    ['2026-11-22T10:15:00.Z'],
    ['2026-11-22T10:15:00.1234567890Z'],
    ['2026-11-22T10:15:00+24:00'],
    ['2026-11-22T10:15:00+03:60'],
    ['2026-11-22T10:15:00+0300'],
    ['2026-11-22T10:15:60.000Z'],
    ['2026-11-22T10:15:00.00aZ'],
    ['2026-11-22T10:15:00:000Z'],
    ['2026-11-22T10:1500.000Z'],
    ['2026-11-22T24:15:00.000Z'],
    ['2026-11-22T10:15:00z'],
    ['2026-11-22t10:15:00Z'],
    ['2026-11-22 10:15:00Z'],
    ['0000-01-01T00:00:00Z'],
    ['']
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeNull()
  })

  it('reads the instant its parts name, and refuses one with a part broken', () => {
    let moments = 0
    let total = 0
    fc.assert(
      fc.property(instantParts, (p) => {
        total++
        const expected = oracle(p)
        if (expected !== null) moments++
        expect(parseInstant(textOf(p))).toEqual(expected)
      }),
      { numRuns: runs(5000) }
    )
    expect(moments / total).toBeGreaterThanOrEqual(0.5)
  })

  it('never throws, and what it accepts names the moment Date.parse finds, at the millisecond', () => {
    // Any string, valid instants, and valid instants with one character deleted, inserted or
    // replaced (most of them no longer valid).
    const validText = fc.record({ ...valid, day: padded(1, 28) }).map(textOf)
    const edited = fc
      .tuple(
        validText,
        fc.nat(),
        fc.constantFrom('delete', 'insert', 'replace'),
        fc.constantFrom('0', '1', '5', '9', ':', '-', '+', '.', 'T', 'Z', ' ', 't', 'z')
      )
      .map(([text, at, edit, c]) => {
        const i = at % (text.length + 1)
        return edit === 'delete'
          ? text.slice(0, i) + text.slice(i + 1)
          : text.slice(0, i) + c + text.slice(edit === 'insert' ? i : i + 1)
      })
    let accepted = 0
    let total = 0
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: fc.string(), weight: 1 }, { arbitrary: validText, weight: 4 }, { arbitrary: edited, weight: 2 }),
        (text) => {
          total++
          const instant = parseInstant(text)
          if (instant === null) return
          accepted++
          expect(
            Number.isSafeInteger(instant.seconds) && Number.isInteger(instant.nanos) && instant.nanos >= 0 && instant.nanos < 1e9
          ).toBe(true)
          // An explicit offset, so Date.parse does not read it in local time.
          expect(text).toMatch(/(Z|[+-]\d\d:\d\d)$/)
          expect(instant.seconds * 1000 + Math.floor(instant.nanos / 1e6)).toBe(Date.parse(text))
        }
      ),
      { numRuns: runs(1000) }
    )
    // Most runs reach the moment check; a good share are refusals (no exception, no moment).
    expect(accepted / total).toBeGreaterThanOrEqual(0.5)
    expect(accepted / total).toBeLessThanOrEqual(0.8)
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

describe('readInstant', () => {
  // Sequences whose texts share their date, or their date, hour and minute, with one before them
  // often (a few of each per sequence), repeat the text before them sometimes, and are broken in
  // one part now and then.
  const step = fc.record({ parts: instantParts, pooled: fc.nat(7), again: fc.nat(5) })
  const sequence = fc.record({
    dates: fc.array(fc.record({ year: valid.year, month: valid.month, day: padded(1, 28) }), { minLength: 1, maxLength: 3 }),
    minute: fc.record({ hour: valid.hour, minute: valid.minute }),
    steps: fc.array(step, { minLength: 1, maxLength: 40 })
  })

  it('reads each text of a sequence as the oracle reads it alone, whatever was read before it', () => {
    let reads = 0
    let sameDate = 0
    let sameMinute = 0
    let again = 0
    fc.assert(
      fc.property(sequence, ({ dates, minute, steps }) => {
        const into = instantSlot()
        let last: string | null = null
        let lastValid: string | null = null
        for (const { parts, pooled, again: repeat } of steps) {
          const date = dates[pooled < 3 ? 0 : pooled % dates.length]
          // 0 to 2: the first date of the pool at the sequence's minute (so that most runs read the
          // same minute again well over the 5% asked below); 3 and 4: a date of the pool; 5 to 7:
          // the parts drawn.
          const p = pooled < 5 && date !== undefined ? { ...parts, ...date, ...(pooled < 3 ? minute : {}) } : parts
          const text: string = repeat === 0 && last !== null ? last : textOf(p)
          const expected = repeat === 0 && last !== null ? parseInstant(last) : oracle(p)
          const before = { seconds: into.seconds, nanos: into.nanos }
          expect(readInstant(text, into)).toBe(expected !== null)
          expect({ seconds: into.seconds, nanos: into.nanos }).toEqual(expected ?? before)
          reads++
          if (expected !== null && text === lastValid) again++
          else if (expected !== null && lastValid !== null && text.slice(0, 16) === lastValid.slice(0, 16)) sameMinute++
          else if (expected !== null && lastValid !== null && text.slice(0, 11) === lastValid.slice(0, 11)) sameDate++
          if (expected !== null) lastValid = text
          last = text
        }
      }),
      { numRuns: runs(1000) }
    )
    expect(sameDate / reads).toBeGreaterThanOrEqual(0.05)
    expect(sameMinute / reads).toBeGreaterThanOrEqual(0.05)
    expect(again / reads).toBeGreaterThanOrEqual(0.05)
  })

  it('reads the minute a text shares with one before it as the oracle does: 59 past, a new hour, day and year', () => {
    const into = instantSlot()
    const texts = [
      '2026-12-31T23:59:58.000Z',
      '2026-12-31T23:59:59.999Z',
      '2026-12-31T23:59:59+01:00',
      '2026-12-31T23:59Z',
      '2027-01-01T00:00:00.000Z',
      '2026-12-31T23:59:60.000Z',
      '2026-12-31T23:59:5a.000Z',
      '2026-12-31T23:59:59.000',
      '2026-12-31T23:5:00.000Z',
      '2026-12-31T23:59:59.000Z'
    ]
    expect(texts.map((t) => (readInstant(t, into) ? [into.seconds, into.nanos] : null))).toEqual(
      texts.map((t) => {
        const i = parseInstant(t)
        return i === null ? null : [i.seconds, i.nanos]
      })
    )
  })

  it('reads instants on a new date each, many in a row, then on one date, as Date writes them', () => {
    const into = instantSlot()
    const ms = [
      ...Array.from({ length: 70 }, (_, i) => Date.UTC(2026, 0, 1) + i * 86_400_000 + i * 1001),
      ...Array.from({ length: 10 }, (_, i) => Date.UTC(2026, 5, 1) + i * 61_001)
    ]
    const read = ms.map((m) => (readInstant(new Date(m).toISOString(), into) ? [into.seconds, into.nanos] : null))
    expect(read).toEqual(ms.map((m) => [Math.floor(m / 1000), (m % 1000) * 1_000_000]))
  })

  it('reads no empty text as an instant, first or after others', () => {
    const into = instantSlot()
    expect(readInstant('', into)).toBe(false)
    expect(readInstant('2026-11-22T10:15:00Z', into)).toBe(true)
    expect(readInstant('', into)).toBe(false)
    expect([into.seconds, into.nanos]).toEqual([1795342500, 0])
  })

  it('keeps the moment it held when the text is not an instant, on a date it knows or another', () => {
    const into = instantSlot()
    expect(readInstant('2026-11-22T10:15:00Z', into)).toBe(true)
    expect(['2026-11-22T10:15:60Z', '2026-11-31T10:15:00Z', '2026-11-22T10:15:00'].map((t) => readInstant(t, into))).toEqual([
      false,
      false,
      false
    ])
    expect([into.seconds, into.nanos]).toEqual([1795342500, 0])
  })
})
