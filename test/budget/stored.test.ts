import { describe, expect, it } from 'vitest'
import { Budget, type BudgetJson, respondBudgetUpdate, respondTopUp } from '../api'
import { baseBudget, JSON_HEADERS, monthly, patch, budgetOf } from '../fixtures'

// The stored budget as the server hands it over: consistent or a 500, read by property
// access whatever object carries it, and scoped by company_id alone (contract 4 row 5).

const AUTH = [
  { rule: 'auth.bearer', detail: 'key of user u-manager' },
  { rule: 'auth.email_verified', detail: 'email verified' },
  { rule: 'auth.company_header', detail: 'company c-1' },
  { rule: 'auth.membership', detail: 'role member' }
]

/** The 500 of a malformed stored budget: its message names what is wrong with it. */
const storedError = (problem: string) => ({ error: 'internal_error', message: `Internal server error: budget.${problem}` })

const monthlyRow: BudgetJson = monthly()

/** A manager's empty update of a stored row: the request that once "repaired" a budget. */
const emptyUpdate = (row: unknown) => respondBudgetUpdate(patch('manager', { budget: {} }, row as never))

describe('a stored budget must be consistent (R-17)', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'a unit without every',
      { ...monthlyRow, recurrence_every: null },
      'recurrence_every is null while recurrence_unit is "month"'
    ],
    [
      'a unit without base',
      { ...monthlyRow, base_amount_cents: null },
      'base_amount_cents is null while recurrence_unit is "month"'
    ],
    [
      'a unit without an anchor',
      { ...monthlyRow, recurrence_starts_on: null },
      'recurrence_starts_on is null while recurrence_unit is "month"'
    ],
    [
      'a unit with an open-ended period',
      { ...monthlyRow, period_ends_on: null },
      'period_ends_on is null while recurrence_unit is "month"'
    ],
    ['every 0', { ...monthlyRow, recurrence_every: 0 }, 'recurrence_every is 0, not (Every | null)'],
    ['every 367', { ...monthlyRow, recurrence_every: 367 }, 'recurrence_every is 367, not (Every | null)'],
    ['every NaN', { ...monthlyRow, recurrence_every: Number.NaN }, 'recurrence_every is NaN, not (Every | null)'],
    ['every without a unit', { ...baseBudget, recurrence_every: 1 }, 'recurrence_every is 1 while recurrence_unit is null'],
    ['base without a unit', { ...baseBudget, base_amount_cents: 10 }, 'base_amount_cents is 10 while recurrence_unit is null'],
    [
      'an anchor without a unit',
      { ...baseBudget, recurrence_starts_on: '2025-10-18' },
      'recurrence_starts_on is "2025-10-18" while recurrence_unit is null'
    ],
    ['a funded budget without a balance', { ...baseBudget, balance_cents: null }, 'balance_cents is null on a funded budget'],
    ['a funded budget with a negative balance', { ...baseBudget, balance_cents: -1 }, 'balance_cents is -1, not (Cents | null)'],
    ['a tracking budget with a balance', { ...baseBudget, mode: 'tracking' }, 'balance_cents is 5000 on a tracking budget'],
    ['a date that is not real', { ...baseBudget, created_on: '2026-02-30' }, 'created_on is "2026-02-30", not CalendarDate'],
    [
      'renewals that count from after the period in progress ends',
      { ...monthlyRow, recurrence_starts_on: '2027-01-10' },
      'recurrence_starts_on 2027-01-10 is after period_ends_on 2026-12-18'
    ],
    [
      'a period that ends before it starts',
      { ...monthlyRow, period_ends_on: '2026-11-18' },
      'period_ends_on 2026-11-18 is not after period_starts_on 2026-11-18'
    ]
  ])('%s is a 500 with nothing to persist', (_, row, problem) => {
    const r = emptyUpdate(row)
    expect(r).toStrictEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: storedError(problem),
      reasons: [
        ...AUTH,
        { rule: 'budget.scope', detail: 'budget b-1' },
        { rule: 'budget.stored', detail: `malformed stored budget: ${problem}` }
      ]
    })
    expect('budget' in r).toBe(false)
  })

  it('names every problem of a budget at once', () => {
    const r = emptyUpdate({ ...monthlyRow, recurrence_every: null, base_amount_cents: null })
    expect(r.reasons.at(-1)).toEqual({
      rule: 'budget.stored',
      detail:
        'malformed stored budget: recurrence_every is null while recurrence_unit is "month"; base_amount_cents is null while recurrence_unit is "month"'
    })
  })

  it('keeps a consistent budget as it was: an empty update changes nothing', () => {
    const r = emptyUpdate(monthlyRow)
    expect(r.status).toBe(200)
    expect(r.body).toStrictEqual(monthlyRow)
    expect((r as { budget?: unknown }).budget).toStrictEqual(monthlyRow)
  })

  it('accepts a renewing budget whose next boundary lies past 9999-12-31 with an open-ended period (ADR 0010)', () => {
    const row = {
      ...monthlyRow,
      recurrence_unit: 'year',
      recurrence_every: 366,
      recurrence_starts_on: '9990-01-01',
      period_starts_on: '9990-01-01',
      period_ends_on: null
    }
    const r = respondBudgetUpdate({ ...patch('manager', { budget: {} }, row as never), today: '9991-05-05' })
    expect([r.status, r.body]).toStrictEqual([200, row])
  })
})

describe('the scope check reads only company_id (contract 4 row 5, R-17)', () => {
  const missing = emptyUpdate(null)

  it.each<[string, Record<string, unknown>]>([
    ['consistent', { ...baseBudget, company_id: 'c-2' }],
    ['inconsistent', { ...monthlyRow, company_id: 'c-2', recurrence_every: null }],
    ['missing fields', { id: 'b-1', company_id: 'c-2' }],
    ['fields of the wrong type', { ...baseBudget, company_id: 'c-2', name: 7, status: 'gone' }]
  ])("another company's %s budget answers exactly as a missing one", (_, row) => {
    const r = emptyUpdate(row)
    expect({ status: r.status, headers: r.headers, body: r.body }).toStrictEqual({
      status: 404,
      headers: JSON_HEADERS,
      body: { error: 'not_found', message: 'Not found' }
    })
    expect({ status: r.status, headers: r.headers, body: r.body }).toStrictEqual({
      status: missing.status,
      headers: missing.headers,
      body: missing.body
    })
    expect(r.reasons.at(-1)).toEqual({ rule: 'budget.scope', detail: 'budget b-1 belongs to another company' })
  })

  it('a company_id whose getter throws is a 500: no scope can be decided', () => {
    const row = Object.defineProperty({ ...baseBudget }, 'company_id', {
      get() {
        throw new Error('connection lost')
      }
    })
    const r = emptyUpdate(row)
    expect(r).toStrictEqual({
      status: 500,
      headers: JSON_HEADERS,
      body: storedError('company_id could not be read'),
      reasons: [...AUTH, { rule: 'budget.stored', detail: 'malformed stored budget: company_id could not be read' }]
    })
  })
})

describe('budgets that are not plain objects (R-18)', () => {
  class BudgetRecord {
    readonly #row: BudgetJson
    reads = 0
    constructor(row: BudgetJson) {
      this.#row = row
    }
    static {
      for (const key of Object.keys(baseBudget))
        Object.defineProperty(BudgetRecord.prototype, key, {
          get(this: BudgetRecord) {
            this.reads++
            return this.#row[key as keyof BudgetJson]
          }
        })
    }
    save(): void {
      // an ORM method: never part of a reply
    }
  }

  const expected = { ...monthlyRow, name: 'Trips' }

  it.each<[string, () => object]>([
    ['a class instance with getters on its prototype', () => new BudgetRecord(monthlyRow)],
    ['an object whose fields are inherited (Object.create)', () => Object.create(monthlyRow) as object],
    ['a frozen plain object', () => Object.freeze({ ...monthlyRow })]
  ])('%s is read whole and the reply is a complete plain object', (_, make) => {
    const given = make()
    const r = respondBudgetUpdate(patch('manager', { budget: { name: 'Trips' } }, given as never))
    expect(r.status).toBe(200)
    expect(r.body).toStrictEqual(expected)
    expect(budgetOf(r)).toStrictEqual(expected)
    expect(Object.getPrototypeOf(budgetOf(r))).toBe(Object.prototype)
    expect(budgetOf(r)).not.toBe(given)
    expect(budgetOf(r)).not.toBe(r.body)
  })

  it('reads each field once', () => {
    const given = new BudgetRecord(monthlyRow)
    respondTopUp({
      ...patch('admin', null, given as never),
      request: { headers: patch('admin', null).request.headers, body: '{"amount_cents":1}' }
    })
    expect(given.reads).toBe(20)
  })

  it('a getter that throws on another field is a 500 naming the field', () => {
    const row = Object.defineProperty({ ...baseBudget }, 'balance_cents', {
      get() {
        throw new Error('lazy load failed')
      }
    })
    expect(emptyUpdate(row).reasons.at(-1)).toEqual({
      rule: 'budget.stored',
      detail: 'malformed stored budget: balance_cents could not be read'
    })
  })

  it('does not mutate what it is given', () => {
    const row = structuredClone(monthlyRow)
    const r = respondBudgetUpdate(patch('admin', { budget: { recurrence_every: 2, name: 'Trips' } }, row as never))
    expect(r.status).toBe(200)
    expect(row).toStrictEqual(monthlyRow)
  })
})

describe('the Budget codec (R-17, R-18)', () => {
  const messages = (u: unknown): ReadonlyArray<string> | 'valid' => {
    const d = Budget.decode(u)
    return d._tag === 'Right' ? 'valid' : d.left.map((e) => e.message ?? '')
  }

  it('decodes a consistent budget into a fresh plain object with the 20 fields, and encodes it as it is', () => {
    const row = { ...monthlyRow, extra: 'dropped' }
    const d = Budget.decode(row)
    expect(d).toStrictEqual({ _tag: 'Right', right: monthlyRow })
    expect(d._tag === 'Right' && d.right).not.toBe(row)
    expect(d._tag === 'Right' && Budget.encode(d.right)).toStrictEqual(monthlyRow)
  })

  it('is a guard that agrees with decode', () => {
    expect([
      Budget.is(monthlyRow),
      Budget.is({ ...monthlyRow, recurrence_every: null }),
      Budget.is(null),
      Budget.is(Object.create(monthlyRow))
    ]).toEqual([true, false, false, true])
  })

  it.each<[string, unknown, string]>([
    ['null', null, 'the budget is null, not an object'],
    ['a number', 5, 'the budget is 5, not an object'],
    ['a string', '{"id":"b-1"}', 'the budget is "{\\"id\\":\\"b-1\\"}", not an object'],
    ['undefined', undefined, 'the budget is undefined, not an object']
  ])('refuses %s as no object', (_, u, message) => {
    expect(messages(u)).toEqual([message])
  })

  it('reads the fields of a function object as of any other object', () => {
    const carrier = Object.defineProperties(
      function row() {
        return null
      },
      Object.fromEntries(Object.entries(monthlyRow).map(([k, v]) => [k, { value: v, enumerable: true }]))
    )
    expect(Budget.decode(carrier)).toStrictEqual({ _tag: 'Right', right: monthlyRow })
  })

  it('names every field of the wrong type, with the value and the type it should have', () => {
    expect(messages({ ...baseBudget, name: 7, status: 'gone', balance_cents: 1.5 })).toEqual([
      'name is 7, not string',
      'status is "gone", not BudgetStatus',
      'balance_cents is 1.5, not (Cents | null)'
    ])
    expect(messages({}).length).toBe(20)
  })
})

describe('an update never returns a budget its own check refuses (R-17)', () => {
  // Found by the fuzz: a cadence changed while the period in progress lasts past 9999-12-31
  // would leave a weekly budget with no end to its period.
  it('refuses a new cadence that has no boundary left for the period in progress', () => {
    const row = {
      ...monthly(),
      recurrence_unit: 'year',
      recurrence_every: 363,
      recurrence_starts_on: '1998-03-13',
      period_starts_on: '9984-03-13',
      period_ends_on: null
    }
    const r = respondBudgetUpdate({
      ...patch('admin', { budget: { recurrence_unit: 'week' } }, row as never),
      today: '9999-12-31'
    })
    expect([r.status, r.body]).toStrictEqual([
      422,
      { errors: { recurrence_unit: ['cannot take effect: the period in progress lasts past 9999-12-31'] } }
    ])
    expect(r.reasons.slice(-3).map((x) => x.rule)).toEqual(['budget.update', 'recurrence.change', 'budget.validation'])
  })
})
