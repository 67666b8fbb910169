import { either as E } from 'fp-ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BudgetField, budgetFields, BudgetFields, type BudgetJson } from '../../src/budget/model'
import { type BudgetRow, checkRow, readRow } from '../../src/budget/stored'
import { describeValue } from '../../src/json/describe'
import { baseBudget, monthly } from '../fixtures'
import { runs } from '../runs'

// readRow reads the twenty fields by name, in the order of `budgetFields`, each once, and after
// a getter throws reads the rest one at a time; checkRow takes a fast path when every field has
// its type. Both are pinned here to what they replaced: a loop over `budgetFields` with a
// try/catch per field, and `BudgetFields.is` with the slow path's messages.

const monthlyRow: BudgetJson = monthly()
const budgets: ReadonlyArray<BudgetJson> = [baseBudget, monthlyRow]

/** The reader readRow replaced: one field at a time, a getter that throws leaving it undefined. */
const readByLoop = (u: object): BudgetRow => {
  const values: Partial<Record<BudgetField, unknown>> = {}
  const unreadable: Array<BudgetField> = []
  for (const field of budgetFields) {
    try {
      values[field] = (u as Readonly<Record<string, unknown>>)[field]
    } catch {
      values[field] = undefined
      unreadable.push(field)
    }
  }
  return { values: values as Record<BudgetField, unknown>, unreadable }
}

/** What a getter that throws throws: an error, or anything else. */
const thrown = fc.constantFrom<unknown>(new Error('gone'), new TypeError('revoked'), undefined, null, 'a string', 0)

interface Counted {
  readonly row: object
  /** How many times each field's getter ran. */
  readonly calls: Readonly<Record<BudgetField, number>>
  /** The fields read, in the order read. */
  readonly order: ReadonlyArray<BudgetField>
}

/**
 * `b` behind a getter per field that counts its calls, those of `throwing` throwing `error`;
 * the getters own, or inherited (an ORM row), each seeing the object read as `this`.
 */
const counted = (
  b: BudgetJson,
  throwing: ReadonlySet<BudgetField>,
  error: unknown = new Error('gone'),
  inherited = false
): Counted => {
  const calls = Object.fromEntries(budgetFields.map((field) => [field, 0])) as Record<BudgetField, number>
  const order: Array<BudgetField> = []
  const holder = {}
  const row: object = inherited ? (Object.create(holder) as object) : holder
  for (const field of budgetFields)
    Object.defineProperty(holder, field, {
      get(this: unknown) {
        calls[field]++
        order.push(field)
        expect(this).toBe(row)
        if (throwing.has(field)) throw error
        return b[field]
      },
      enumerable: true
    })
  return { row, calls, order }
}

const once = Object.fromEntries(budgetFields.map((field) => [field, 1]))

/** readRow and the loop on two objects alike, each getter run once, in the order of `budgetFields`. */
const readBoth = (b: BudgetJson, throwing: ReadonlySet<BudgetField>, error?: unknown, inherited?: boolean): BudgetRow => {
  const read = counted(b, throwing, error, inherited)
  const row = readRow(read.row)
  const loop = counted(b, throwing, error, inherited)
  expect(row).toStrictEqual(readByLoop(loop.row))
  expect(read.calls).toStrictEqual(once)
  expect(read.order).toStrictEqual(budgetFields)
  expect(Object.keys(row.values)).toStrictEqual(budgetFields)
  expect(row.unreadable).toStrictEqual(budgetFields.filter((field) => throwing.has(field)))
  // The others hold the budget's values; the unreadable ones hold undefined (own keys still).
  expect(row.values).toStrictEqual({ ...b, ...Object.fromEntries([...throwing].map((field) => [field, undefined])) })
  return row
}

describe('readRow reads each field once, in the order of budgetFields', () => {
  it.each(budgets.map((b) => [b.recurrence_unit ?? 'no recurrence', b] as const))(
    'a proxy over a valid budget (%s) sees a get of each field, in order, and nothing else',
    (_, b) => {
      const log: Array<string> = []
      const proxy = new Proxy(
        { ...b },
        {
          get: (target, key, receiver) => {
            log.push(`get ${String(key)}`)
            return Reflect.get(target, key, receiver) as unknown
          },
          has: (target, key) => {
            log.push(`has ${String(key)}`)
            return Reflect.has(target, key)
          },
          getOwnPropertyDescriptor: (target, key) => {
            log.push(`getOwnPropertyDescriptor ${String(key)}`)
            return Reflect.getOwnPropertyDescriptor(target, key)
          },
          ownKeys: (target) => {
            log.push('ownKeys')
            return Reflect.ownKeys(target)
          }
        }
      )
      const row = readRow(proxy)
      expect(log).toStrictEqual(budgetFields.map((field) => `get ${field}`))
      expect(row).toStrictEqual({ values: b, unreadable: [] })
      expect(checkRow(row)).toStrictEqual(E.right(b))
    }
  )

  it('reads an inherited field and a getter (an ORM row) as the plain budget', () => {
    expect(readRow(Object.create(monthlyRow) as object)).toStrictEqual({ values: monthlyRow, unreadable: [] })
    const read = counted(monthlyRow, new Set(), undefined, true)
    expect(readRow(read.row)).toStrictEqual({ values: monthlyRow, unreadable: [] })
    expect(read.calls).toStrictEqual(once)
  })

  it.each(budgetFields.map((field, i) => [i, field] as const))(
    'field %i (%s) whose getter throws is unreadable, undefined, and every getter runs once',
    (_, field) => {
      for (const b of budgets) {
        const row = readBoth(b, new Set([field]))
        expect(row.unreadable).toStrictEqual([field])
        expect(field in row.values).toBe(true)
        expect(row.values[field]).toBeUndefined()
        for (const other of budgetFields) if (other !== field) expect(row.values[other]).toBe(b[other])
        expect(checkRow(row)).toStrictEqual(E.left([`${field} could not be read`]))
      }
    }
  )

  it('two fields whose getters throw, for every pair: both unreadable, in order, every getter once', () => {
    let pairs = 0
    for (let i = 0; i < budgetFields.length; i++)
      for (let j = i + 1; j < budgetFields.length; j++) {
        const first = budgetFields[i] as BudgetField
        const second = budgetFields[j] as BudgetField
        const row = readBoth(monthlyRow, new Set([second, first]))
        expect(row.unreadable).toStrictEqual([first, second])
        expect(checkRow(row)).toStrictEqual(E.left([`${first} could not be read`, `${second} could not be read`]))
        pairs++
      }
    expect(pairs).toBe(190)
  })

  it('any fields whose getters throw anything, own or inherited: as the loop reads them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...budgets),
        fc.subarray([...budgetFields]),
        thrown,
        fc.boolean(),
        (b, throwing, error, inherited) => {
          readBoth(b, new Set(throwing), error, inherited)
        }
      ),
      { numRuns: runs(200) }
    )
  })

  it('a proxy whose get trap throws for some fields is asked each field once, in order', () => {
    fc.assert(
      fc.property(fc.constantFrom(...budgets), fc.subarray([...budgetFields]), (b, throwing) => {
        const log: Array<string | symbol> = []
        const proxy = new Proxy(
          { ...b },
          {
            get: (target, key, receiver) => {
              log.push(key)
              if ((throwing as ReadonlyArray<string | symbol>).includes(key)) throw new Error(String(key))
              return Reflect.get(target, key, receiver) as unknown
            }
          }
        )
        const row = readRow(proxy)
        expect(log).toStrictEqual(budgetFields)
        expect(row.unreadable).toStrictEqual(budgetFields.filter((field) => throwing.includes(field)))
        expect(row).toStrictEqual(readByLoop(proxy))
      }),
      { numRuns: runs(200) }
    )
  })
})

// -------------------------------------------------------------------------------------
// checkRow: the fast path is BudgetFields.is
// -------------------------------------------------------------------------------------

const twoDigits = (n: number): string => String(n).padStart(2, '0')
const validDate = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 })
  })
  .map(({ year, month, day }) => `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`)

/** Values of every field type, valid for some fields and not for others. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  // strings (id, name, currency, description, manager_id...)
  fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('b-1', 'c-1', 'u-manager', 'CLP', '')),
  // dates, real or not
  fc.oneof(
    validDate,
    fc.constantFrom('2028-02-29', '0001-01-01', '9999-12-31', '2026-12-18'),
    fc.constantFrom('2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '0000-01-01', '2026-1-01', ' 2026-01-01'),
    fc.constantFrom('2026-01-01T00:00:00Z', '10000-01-01')
  ),
  // the values of the enums, and near misses
  fc.constantFrom('everyone', 'members', 'funded', 'tracking', 'open', 'closing', 'closed', 'day', 'week', 'month', 'year'),
  fc.constantFrom('Members', 'FUNDED', 'Open', 'months', 'toString', '__proto__', 'constructor', 'hasOwnProperty'),
  // numbers: cents and every, and what neither takes
  fc.oneof(
    fc.integer({ min: 0, max: 400 }),
    fc.constantFrom(0, -0, 1, 366, 367, 50000, Number.MAX_SAFE_INTEGER),
    fc.integer({ min: -1000, max: -1 }),
    fc.constantFrom(0.5, 1.5, -1, Number.MAX_SAFE_INTEGER + 1, 2 ** 53 + 2, 1e21, Number.NaN, Number.POSITIVE_INFINITY),
    fc.double()
  ),
  // null, and what no field takes
  fc.constant(null),
  fc.constantFrom<unknown>(undefined, true, 5n, [], {}, ['2026-01-01'], Symbol('s'))
)

/** The message of the slow path for a field whose value is not of its type. */
const typeMessage = (field: BudgetField, value: unknown): string =>
  `${field} is ${describeValue(value)}, not ${BudgetFields.props[field].name}`

/** The slow path's list: every field, in order, whose value its codec refuses, the unreadable ones left out. */
const typeMessages = (values: Readonly<Record<BudgetField, unknown>>, unreadable: ReadonlyArray<BudgetField> = []) =>
  budgetFields
    .filter((field) => !unreadable.includes(field) && !BudgetFields.props[field].is(values[field]))
    .map((field) => typeMessage(field, values[field]))

/**
 * Every field of its type: the budget as a fresh copy, or only what is inconsistent in it (no
 * message of a field's type).
 */
const expectTyped = (b: Readonly<Record<BudgetField, unknown>>, checked: E.Either<ReadonlyArray<string>, unknown>): void => {
  if (E.isRight(checked)) {
    expect(checked.right).toStrictEqual(b)
    expect(checked.right).not.toBe(b)
  } else {
    expect(checked.left.length).toBeGreaterThan(0)
    for (const message of checked.left) for (const f of budgetFields) expect(message).not.toBe(typeMessage(f, b[f]))
  }
}

describe('checkRow agrees with BudgetFields.is and with the messages of the field-by-field check', () => {
  it.each<[string, Partial<BudgetJson> | Record<string, unknown>, ReadonlyArray<string>]>([
    ['a name that is a number', { name: 7 }, ['name is 7, not string']],
    ['a date that is not real', { created_on: '2026-02-30' }, ['created_on is "2026-02-30", not CalendarDate']],
    ['an access of another case', { access: 'Members' }, ['access is "Members", not Access']],
    ['a negative balance', { balance_cents: -1 }, ['balance_cents is -1, not (Cents | null)']],
    ['a fractional every', { recurrence_every: 1.5 }, ['recurrence_every is 1.5, not (Every | null)']],
    ['an unsafe amount', { base_amount_cents: 2 ** 53 }, ['base_amount_cents is 9007199254740992, not (Cents | null)']],
    ['a unit of another case', { recurrence_unit: 'Month' }, ['recurrence_unit is "Month", not (RecurrenceUnit | null)']],
    [
      'two fields, in the order of budgetFields',
      { balance_cents: '5000', mode: 'Funded' },
      ['mode is "Funded", not Mode', 'balance_cents is "5000", not (Cents | null)']
    ]
  ])('%s', (_, overrides, expected) => {
    const b = { ...monthlyRow, ...overrides }
    expect(BudgetFields.is(b)).toBe(false)
    expect(checkRow(readRow(b))).toStrictEqual(E.left(expected))
  })

  it('one field replaced by a value valid or not: Left whenever BudgetFields.is fails, with the slow path list', () => {
    let typed = 0
    let untyped = 0
    fc.assert(
      fc.property(fc.constantFrom(...budgets), fc.constantFrom(...budgetFields), fieldValue, (base, field, value) => {
        const b: Record<BudgetField, unknown> = { ...base, [field]: value }
        const checked = checkRow(readRow(b))
        const expected = typeMessages(b)
        if (!BudgetFields.is(b)) {
          untyped++
          expect(expected).toStrictEqual([typeMessage(field, value)])
          expect(checked).toStrictEqual(E.left(expected))
        } else {
          typed++
          expect(expected).toStrictEqual([])
          expectTyped(b, checked)
        }
      }),
      { numRuns: runs(1000) }
    )
    expect(typed).toBeGreaterThanOrEqual(Math.ceil((typed + untyped) / 5))
    expect(untyped).toBeGreaterThanOrEqual(Math.ceil((typed + untyped) / 5))
  })

  it('several fields replaced, some unreadable too: the unreadable ones first, then the slow path list', () => {
    let typed = 0
    let untyped = 0
    fc.assert(
      fc.property(
        fc.constantFrom(...budgets),
        fc.dictionary(fc.constantFrom(...budgetFields), fieldValue, { maxKeys: 2 }),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant([]) },
          { weight: 2, arbitrary: fc.subarray([...budgetFields], { maxLength: 2 }) }
        ),
        (base, replaced, throwing) => {
          const b = { ...base, ...replaced }
          const row = readRow(counted(b, new Set(throwing)).row)
          const checked = checkRow(row)
          const found = [...row.unreadable.map((field) => `${field} could not be read`), ...typeMessages(b, row.unreadable)]
          if (found.length > 0) {
            untyped++
            expect(checked).toStrictEqual(E.left(found))
          } else {
            typed++
            expect(BudgetFields.is(b)).toBe(true)
            expectTyped(b, checked)
          }
        }
      ),
      { numRuns: runs(500) }
    )
    expect(typed).toBeGreaterThanOrEqual(Math.ceil((typed + untyped) / 5))
    expect(untyped).toBeGreaterThanOrEqual(Math.ceil((typed + untyped) / 5))
  })
})
