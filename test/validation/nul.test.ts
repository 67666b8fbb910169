/**
 * U+0000 in text the service keeps or queries by (ADR 0013): a PostgreSQL `text` cannot hold it,
 * so the facades refuse it where it comes in instead of letting the store fail with a 500. A
 * budget's name, description and manager_id and each field of a bank recipient are a 422 on that
 * field; a query key or value is a 400 where the query is decoded, so that respondIndex,
 * planIndex and respondIndexPage agree. A value the budget already holds is no change.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type BankRecipientContext,
  type Endpoint,
  endpoints,
  type IndexQueryContext,
  planIndex,
  respondBankRecipient,
  respondBudgetUpdate,
  respondIndex,
  respondIndexPage
} from '../api'
import { adminUpdateUpTo, budget, headers, JSON_HEADERS, patch, refusedUpdate, session } from '../fixtures'
import { runs } from '../runs'

const NUL_TEXT = 'must not contain the NUL character'
const NUL_QUERY = { error: 'bad_request', message: 'The query holds a NUL character' }

/** Whether `s` holds U+0000, read code point by code point (the library tests the text whole). */
const hasNul = (s: string): boolean => Array.from(s).some((c) => c.codePointAt(0) === 0)

/**
 * Text around NUL: the character itself often, its neighbours, white space, an astral character,
 * a lone surrogate, JSON's own escapes; long enough at times to pass 255 code points.
 */
const text = fc.string({
  unit: fc.oneof(
    { weight: 1, arbitrary: fc.constant('\u0000') },
    { weight: 4, arbitrary: fc.constantFrom('\u0001', ' ', '\t', 'a', 'Z', '0', '-', '💶', '\uD800', '"', '\\', '%', '&', '=') },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }
  ),
  maxLength: 300
})

// -------------------------------------------------------------------------------------
// the budget update
// -------------------------------------------------------------------------------------

describe('respondBudgetUpdate: text holding U+0000 is a 422 on its field', () => {
  it.each<[string, string]>([
    ['name', 'A\u0000na'],
    ['name', '\u0000'],
    ['name', 'Travel\u0000'],
    ['description', '\u0000Flights'],
    ['description', 'a\u0000\u0000b'],
    ['manager_id', 'u-\u0000member']
  ])('%s %j', (field, value) => {
    const r = respondBudgetUpdate(patch('admin', { budget: { [field]: value } }))
    expect(r).toStrictEqual(refusedUpdate(1, [[field, NUL_TEXT]]))
  })

  it('manager_id: U+0000 is that text rather than "is not a member of the company" when the members are given', () => {
    const r = respondBudgetUpdate(
      patch('admin', { budget: { manager_id: 'u-member\u0000' } }, budget(), { company_member_ids: ['u-member'] })
    )
    expect(r).toStrictEqual(refusedUpdate(1, [['manager_id', NUL_TEXT]]))
  })

  it('a name holding U+0000 is refused for that alone, whatever its length', () => {
    const r = respondBudgetUpdate(patch('admin', { budget: { name: `${'x'.repeat(300)}\u0000` } }))
    expect(r).toStrictEqual(refusedUpdate(1, [['name', NUL_TEXT]]))
  })

  it('is named with every other invalid field, in the order sent', () => {
    const r = respondBudgetUpdate(
      patch('admin', { budget: { description: 'a\u0000', access: 'nobody', name: '  ', manager_id: '\u0000', colour: 'red' } })
    )
    expect(r).toStrictEqual(
      refusedUpdate(5, [
        ['description', NUL_TEXT],
        ['access', 'is not included in the list'],
        ['name', "can't be blank"],
        ['manager_id', NUL_TEXT],
        ['colour', 'is not a field of a budget']
      ])
    )
  })

  it('a stored name or description holding U+0000, sent back unchanged, is no change', () => {
    const stored = budget({ name: 'A\u0000na', description: 'x\u0000' })
    // Sent back whole (20 keys): nothing changes, nothing is validated again.
    expect(respondBudgetUpdate(patch('admin', { budget: stored }, stored))).toStrictEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: stored,
      budget: stored,
      reasons: [
        ...adminUpdateUpTo(20),
        { rule: 'budget.validation', detail: 'nothing changes' },
        { rule: 'budget.update', detail: 'no field changes' }
      ]
    })
    // The unchanged name is still not judged when a new value is: only the new one is named.
    expect(respondBudgetUpdate(patch('admin', { budget: { name: 'A\u0000na', description: '\u0000y' } }, stored))).toStrictEqual(
      refusedUpdate(2, [['description', NUL_TEXT]])
    )
    // And a name holding one can be replaced by one that does not.
    const renamed = { ...stored, name: 'Ana' }
    expect(respondBudgetUpdate(patch('admin', { budget: { name: 'Ana' } }, stored))).toStrictEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: renamed,
      budget: renamed,
      reasons: [
        ...adminUpdateUpTo(1),
        { rule: 'budget.validation', detail: 'every changed value is valid' },
        { rule: 'budget.update', detail: 'changes name' }
      ]
    })
  })

  it('refuses any name, description or manager_id for U+0000 exactly when it holds one', () => {
    const counts = { nul: 0, clean: 0 }
    fc.assert(
      fc.property(fc.constantFrom('name', 'description', 'manager_id'), text, (field, value) => {
        const r = respondBudgetUpdate(patch('admin', { budget: { [field]: value } }))
        const messages =
          r.status === 422 ? ((r.body as { errors: Record<string, ReadonlyArray<string>> }).errors[field] ?? []) : []
        expect(messages.includes(NUL_TEXT)).toBe(hasNul(value))
        if (hasNul(value)) {
          expect([r.status, messages]).toStrictEqual([422, [NUL_TEXT]])
          counts.nul++
        } else counts.clean++
      }),
      { numRuns: runs(300) }
    )
    expect(Math.min(counts.nul, counts.clean)).toBeGreaterThan(30)
  })
})

// -------------------------------------------------------------------------------------
// bank recipients
// -------------------------------------------------------------------------------------

const RECIPIENT_HEADERS = { Authorization: 'Bearer key-1', 'company-id': 'c-1' }
const VALID = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-2', name: 'Ana Pérez' }
const FIELDS = ['rut', 'account_number', 'bank_id', 'name'] as const

const enroll = (recipient: Record<string, unknown>): BankRecipientContext => {
  const body = JSON.stringify({ bank_recipient: recipient })
  return {
    request: { headers: RECIPIENT_HEADERS, body },
    session: session('admin'),
    bank_ids: ['bank-1', 'bank-2'],
    enrolled: [],
    request_id: 'req-1'
  }
}

/** The whole 422 of an admin's enrolment of four keys naming `errors` (field and text). */
const refusedRecipient = (errors: ReadonlyArray<readonly [string, string]>) => ({
  status: 422,
  headers: JSON_HEADERS,
  body: { errors: Object.fromEntries(errors.map(([field, message]) => [field, [message]])) },
  reasons: [
    { rule: 'auth.bearer', detail: 'key of user u-admin' },
    { rule: 'auth.email_verified', detail: 'email verified' },
    { rule: 'auth.company_header', detail: 'company c-1' },
    { rule: 'auth.membership', detail: 'role admin' },
    { rule: 'recipient.permission', detail: 'role admin' },
    { rule: 'recipient.body', detail: 'bank_recipient holds 4 keys' },
    { rule: 'recipient.validation', detail: errors.map(([field, message]) => `${field}: ${message}`).join('; ') }
  ]
})

describe('respondBankRecipient: a field holding U+0000 is a 422 on that field', () => {
  it.each<[string, string]>([
    ['rut', '12.345.678-5\u0000'],
    ['rut', '\u000012345678-5'],
    ['account_number', '0012-3456\u0000'],
    ['account_number', '\u0000'],
    ['bank_id', 'bank-2\u0000'],
    ['name', 'Ana\u0000Pérez'],
    ['name', '\u0000']
  ])('%s %j', (field, value) => {
    expect(respondBankRecipient(enroll({ ...VALID, [field]: value }))).toStrictEqual(refusedRecipient([[field, NUL_TEXT]]))
  })

  it('names every field holding one, with the other invalid fields', () => {
    const all = { rut: '1\u00001', account_number: '12', bank_id: '\u0000', name: `${'n'.repeat(256)}\u0000` }
    expect(respondBankRecipient(enroll(all))).toStrictEqual(
      refusedRecipient([
        ['rut', NUL_TEXT],
        ['account_number', 'must be 5 to 20 digits'],
        ['bank_id', NUL_TEXT],
        ['name', NUL_TEXT]
      ])
    )
  })

  it('refuses any field for U+0000 exactly when it holds one', () => {
    const counts = { nul: 0, clean: 0 }
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), text, (field, value) => {
        const r = respondBankRecipient(enroll({ ...VALID, [field]: value }))
        const messages =
          r.status === 422 ? ((r.body as { errors: Record<string, ReadonlyArray<string>> }).errors[field] ?? []) : []
        expect(messages.includes(NUL_TEXT)).toBe(hasNul(value))
        if (hasNul(value)) {
          expect([r.status, messages]).toStrictEqual([422, [NUL_TEXT]])
          counts.nul++
        } else counts.clean++
      }),
      { numRuns: runs(300) }
    )
    expect(Math.min(counts.nul, counts.clean)).toBeGreaterThan(30)
  })
})

// -------------------------------------------------------------------------------------
// index queries
// -------------------------------------------------------------------------------------

const indexContext = (query: string, endpoint: Endpoint = endpoints.bankTransactions): IndexQueryContext => ({
  request: endpoint.requiresCompany ? { headers: headers(), query } : { headers: { Authorization: 'Bearer key-1' }, query },
  session: session('member'),
  endpoint,
  request_id: 'req-1'
})

const REFUSED_QUERY = {
  status: 400,
  headers: JSON_HEADERS,
  body: NUL_QUERY,
  reasons: [
    { rule: 'auth.bearer', detail: 'key of user u-member' },
    { rule: 'auth.email_verified', detail: 'email verified' },
    { rule: 'auth.company_header', detail: 'company c-1' },
    { rule: 'auth.membership', detail: 'role member' },
    { rule: 'page.query', detail: 'The query holds a NUL character' }
  ]
}

const TRANSACTION = {
  id: 'a',
  amount: 1,
  status: 'pending',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z'
}

/** The reply of each way in: respondIndex, planIndex and respondIndexPage. */
const threeWays = (query: string, endpoint: Endpoint = endpoints.bankTransactions) => {
  const c = indexContext(query, endpoint)
  const plan = planIndex(c)
  return [
    respondIndex({ ...c, records: [] }),
    plan._tag === 'Reply' ? plan.reply : plan,
    respondIndexPage({ ...c, page: [], total: 0 })
  ]
}

const list = (values: ReadonlyArray<string>) => encodeURIComponent(JSON.stringify(values))

describe('index queries: a key or value holding U+0000 is a 400', () => {
  it.each<[string, string]>([
    ['an escaped NUL in a value', 'id=a%00'],
    ['a literal NUL in a value', 'id=a\u0000'],
    ['a value that is NUL alone', '_start=0&status=%00'],
    ['an $in list holding %00', `id[$in]=%5B%22a%22%2C%22b%00%22%5D`],
    ['a $nin list holding a literal NUL', `id[$nin]=["\u0000"]`],
    ['an $ne value', 'id[$ne]=%00x'],
    ['a key', 'i%00d=a'],
    ['a key that is NUL alone', '%00'],
    ['a form-encoded space next to it', 'id=+%00+']
  ])('%s: %j', (_, query) => {
    for (const reply of threeWays(query)) expect(reply).toStrictEqual(REFUSED_QUERY)
  })

  it.each<[string, string]>([
    ['an $in list', `id[$in]=${list(['a', 'b\u0000'])}`],
    ['a $nin list', `_end=5&id[$nin]=${list(['\u0000'])}`],
    ['an enum list', `status[$in]=${list(['pending\u0000'])}`]
  ])('%s holding a JSON-escaped NUL (%s): the same 400, found by the filter', (_, query) => {
    const parameters = query.split('&').length
    const window = query.startsWith('_end=5') ? '[0, 5) by created_at asc' : '[0, 25) by created_at asc'
    const refused = {
      ...REFUSED_QUERY,
      reasons: [
        ...REFUSED_QUERY.reasons.slice(0, 4),
        { rule: 'page.query', detail: `${parameters} parameters` },
        { rule: 'page.window', detail: window },
        { rule: 'page.filter', detail: 'The query holds a NUL character' }
      ]
    }
    for (const reply of threeWays(query)) expect(reply).toStrictEqual(refused)
  })

  it('on GET /v1/companies too: a filter, and a cursor carrying one', () => {
    const refused = {
      status: 400,
      headers: JSON_HEADERS,
      body: NUL_QUERY,
      reasons: [
        { rule: 'auth.bearer', detail: 'key of user u-member' },
        { rule: 'auth.email_verified', detail: 'email verified' },
        { rule: 'page.query', detail: 'The query holds a NUL character' }
      ]
    }
    for (const query of ['name=Acme%00', '_start=2&_end=4&_order=asc&_field=created_at&name%5B%24ne%5D=%00'])
      for (const reply of threeWays(query, endpoints.companies)) expect(reply).toStrictEqual(refused)
  })

  it('comes where the lone surrogate comes: after the escape and the surrogate, before the repeated key', () => {
    const bad = (message: string) => ({ error: 'bad_request', message })
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      ['id=%00%ZZ', bad('The query has a malformed % escape')],
      ['id=%00\uD800', bad('The query holds a lone surrogate')],
      ['id=a&id=%00', NUL_QUERY],
      ['id=%00&id=a', NUL_QUERY],
      ['id=a&id=b&x=%00', bad('The parameter id is repeated')],
      ['x=%00&id=\uDC00', NUL_QUERY],
      [Array.from({ length: 101 }, () => 'x=%00').join('&'), bad('The query has 101 parameters, more than 100')]
    ]
    for (const [query, body] of cases)
      for (const reply of threeWays(query))
        expect([query, (reply as { status: number }).status, (reply as { body: unknown }).body]).toStrictEqual([query, 400, body])
  })

  it('refuses any key or value for U+0000 exactly when it holds one', () => {
    const counts = { nul: 0, clean: 0 }
    fc.assert(
      fc.property(text, fc.boolean(), (s, asKey) => {
        // URLSearchParams is an independent encoder (a lone surrogate becomes U+FFFD, as R-47 has it).
        const query = new URLSearchParams([asKey ? [s, '1'] : ['id', s]]).toString()
        const r = respondIndex({ ...indexContext(query), records: [] })
        const refusedForNul = r.status === 400 && (r.body as { message?: unknown }).message === NUL_QUERY.message
        expect(refusedForNul).toBe(hasNul(s))
        if (hasNul(s)) counts.nul++
        else counts.clean++
      }),
      { numRuns: runs(300) }
    )
    expect(Math.min(counts.nul, counts.clean)).toBeGreaterThan(30)
    // Its neighbour U+0001, in a list, is any other character.
    const r = respondIndex({ ...indexContext(`id[$in]=${list(['a', '\u0001'])}`), records: [TRANSACTION] })
    expect([r.status, r.body]).toStrictEqual([200, [TRANSACTION]])
  })
})
