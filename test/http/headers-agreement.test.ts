/**
 * headerOf agrees on a value as it finds them (src/http/headers.ts, written so for speed): held
 * here to a reading that first lists every string of every spelling, normalises them all, and
 * answers the one value when they are all the same. Headers of several spellings of one name,
 * each a string, a list of strings and other values, or no string at all; read as they are or
 * trimmed; as a plain object or behind `get`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headerOf } from '../../src/http/headers'
import { runs } from '../runs'

const spellings = ['company-id', 'Company-Id', 'COMPANY-ID', 'company-ID'] as const
// Few values, some equal once trimmed: most headers agree, many only once trimmed.
const text = fc.constantFrom('c-1', ' c-1', 'c-1 ', 'c-2', '')
const value = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: fc.array(fc.oneof(text, fc.constantFrom(7, null, undefined, {})), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 1, true, {}) }
)
const headers = fc.dictionary(fc.constantFrom(...spellings, 'authorization', 'x-company-id'), value, { maxKeys: 5 })

/** The model: every string of every spelling listed, then normalised; one value if all agree. */
const listedFirst = (h: Readonly<Record<string, unknown>>, name: string, normalise: (v: string) => string) => {
  const listed = Object.keys(h)
    .filter((k) => k.toLowerCase() === name.toLowerCase())
    .flatMap((k) => {
      const v = h[k]
      return typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
    })
    .map(normalise)
  return listed.length > 0 && listed.every((v) => v === listed[0]) ? listed[0] : undefined
}

const trim = (v: string) => v.trim()

describe('headerOf: the values of a name agree', () => {
  it('answers what a reading that lists them first answers, as they are or trimmed, plain or behind get', () => {
    const seen = { found: 0, clash: 0, trimmedOnly: 0, made: 0 }
    fc.assert(
      fc.property(headers, fc.constantFrom(...spellings), (h, name) => {
        const asIs = listedFirst(h, name, (v) => v)
        const trimmed = listedFirst(h, name, trim)
        expect(headerOf(h, name)).toBe(asIs)
        expect(headerOf(h, name, trim)).toBe(trimmed)
        // Behind `get`, the one lower-case value stands for all (a Fetch Headers joins them).
        const lower = h['company-id']
        const got = listedFirst(lower === undefined ? {} : { 'company-id': lower }, name, trim)
        expect(headerOf({ get: (n: string) => (n === 'company-id' ? lower : undefined) }, name, trim)).toBe(got)
        seen.made++
        if (asIs !== undefined) seen.found++
        if (trimmed === undefined && Object.keys(h).filter((k) => k.toLowerCase() === 'company-id').length > 1) seen.clash++
        if (asIs === undefined && trimmed !== undefined) seen.trimmedOnly++
      }),
      { numRuns: runs(2000) }
    )
    // Over the runs made: under Stryker a property makes a fifth of them.
    expect(seen.made).toBeGreaterThanOrEqual(400)
    expect(seen.found).toBeGreaterThan(seen.made / 5)
    expect(seen.clash).toBeGreaterThan(seen.made / 20)
    expect(seen.trimmedOnly).toBeGreaterThan(seen.made / 50)
  })

  it('agrees across spellings and lists, and a clash is final', () => {
    expect(headerOf({ 'company-id': 'c-1', 'Company-Id': ['c-1', 7, 'c-1'] }, 'company-id')).toBe('c-1')
    expect(headerOf({ 'company-id': 'c-1', 'Company-Id': ['c-2'], COMPANY_ID: 'c-1' }, 'company-id')).toBeUndefined()
    expect(headerOf({ 'company-id': ['c-1', 'c-2', 'c-1'] }, 'company-id')).toBeUndefined()
    expect(headerOf({ 'company-id': 'c-1', 'Company-Id': 'c-2', 'COMPANY-ID': 'c-1' }, 'company-id')).toBeUndefined()
    expect(headerOf({ 'company-id': ' c-1', 'Company-Id': 'c-1 ' }, 'company-id', trim)).toBe('c-1')
    expect(headerOf({ 'company-id': [], 'Company-Id': 5 }, 'company-id')).toBeUndefined()
    // Only a list holds values: an object with a filter of its own is none, whatever it filters to.
    expect(headerOf({ 'company-id': 'c-1', 'Company-Id': { filter: () => ['c-9'] } }, 'company-id')).toBe('c-1')
    expect(headerOf({ get: () => ['c-1', ' c-1'] }, 'company-id', trim)).toBe('c-1')
    expect(headerOf({ get: () => ['c-1', 'c-2'] }, 'company-id')).toBeUndefined()
  })

  it('counts a spelling whose list throws part way as absent, and keeps the others', () => {
    // The list's second element throws when read: none of the list counts, not even its first.
    const throwing = new Proxy(['c-2', 'c-3'], {
      get: (target, key, receiver) => {
        if (key === '1') throw new Error('unreadable')
        return Reflect.get(target, key, receiver) as unknown
      }
    })
    expect(headerOf({ 'company-id': 'c-1', 'Company-Id': throwing }, 'company-id')).toBe('c-1')
    expect(headerOf({ 'Company-Id': throwing, 'company-id': 'c-1' }, 'company-id')).toBe('c-1')
  })
})
