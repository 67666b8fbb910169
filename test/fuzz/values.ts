/**
 * Valid inputs for the fuzz (the contexts each run starts from before one part is made hostile),
 * and independent checks of what is valid: dates by a round trip through `UTCDate` (never the
 * process's local time), budgets field by field against contract section 2 and R-17.
 *
 * Nothing here imports src/: the fuzz must keep compiling while the library's surface changes.
 */
import { UTCDate } from '@date-fns/utc'
import { addMonths, differenceInCalendarMonths } from 'date-fns'
import fc from 'fast-check'

// -------------------------------------------------------------------------------------
// dates and instants
// -------------------------------------------------------------------------------------

const DAY_MS = 86_400_000

/** Days since 1970-01-01 of a date written `YYYY-MM-DD` (date-only ISO text is read as UTC). */
export const dayOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS

export const dateOf = (day: number): string => new UTCDate(day * DAY_MS).toISOString().slice(0, 10)

export const FIRST_DAY = dayOf('0001-01-01')
export const LAST_DAY = dayOf('9999-12-31')

const clampDay = (day: number): number => Math.min(LAST_DAY, Math.max(FIRST_DAY, day))

/** A real date within 0001-01-01..9999-12-31, by a round trip through UTCDate. */
export const isRealDate = (u: unknown): u is string => {
  if (typeof u !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(u) || u < '0001-01-01') return false
  const t = Date.parse(`${u}T00:00:00Z`)
  return Number.isFinite(t) && dateOf(t / DAY_MS) === u
}

export const dayArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: dayOf('1990-01-01'), max: dayOf('2100-12-31') }) },
  { weight: 1, arbitrary: fc.integer({ min: FIRST_DAY, max: LAST_DAY - 4000 }) },
  { weight: 1, arbitrary: fc.constantFrom(FIRST_DAY, LAST_DAY - 4000, dayOf('2027-01-31'), dayOf('2028-02-29')) }
)

export const dateArb: fc.Arbitrary<string> = dayArb.map(dateOf)

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** An instant of `seconds` since the epoch, in one of the spellings the service uses. */
const spellInstant = (seconds: number, spelling: number, offsetMinutes: number): string => {
  const local = seconds + (spelling >= 3 ? offsetMinutes * 60 : 0)
  const iso = new UTCDate(local * 1000).toISOString() // YYYY-MM-DDTHH:MM:SS.sssZ
  const base = iso.slice(0, 19)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`
  switch (spelling) {
    case 0:
      return `${base}Z`
    case 1:
      return `${base}.000Z`
    case 2:
      return `${base.slice(0, 16)}Z`
    default:
      return `${base}${offset}`
  }
}

export const instantArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: dayOf('2020-01-01') * 86400, max: dayOf('2030-01-01') * 86400 }),
      // few distinct moments, so that ties are common
      fc.constantFrom(dayOf('2026-11-22') * 86400 + 36000, dayOf('2026-11-22') * 86400 + 36060)
    ),
    fc.nat({ max: 4 }),
    fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m - (m % 15))
  )
  .map(([s, spelling, offset]) => spellInstant(s - (spelling === 2 ? s % 60 : 0), spelling, offset))

/** An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as a Date or Retry-After header carries it. */
export const httpDateArb: fc.Arbitrary<string> = fc
  .integer({ min: dayOf('1995-01-01') * 86400, max: dayOf('2040-01-01') * 86400 })
  .map((s) => new UTCDate(s * 1000).toUTCString())

// -------------------------------------------------------------------------------------
// budgets
// -------------------------------------------------------------------------------------

export const BUDGET_FIELDS = [
  'id',
  'company_id',
  'name',
  'description',
  'access',
  'currency',
  'mode',
  'manager_id',
  'co_manager_id',
  'status',
  'created_on',
  'ends_on',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents',
  'recurrence_starts_on',
  'period_starts_on',
  'period_ends_on',
  'period_amount_cents',
  'balance_cents'
] as const

export const UPDATE_FIELDS = [
  'name',
  'description',
  'access',
  'ends_on',
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
] as const

export type BudgetJson = Record<(typeof BUDGET_FIELDS)[number], unknown>

export const COMPANY = 'c-1'

const centsArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 10_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, Number.MAX_SAFE_INTEGER) },
  { weight: 1, arbitrary: fc.maxSafeNat() }
)

export const nameArb: fc.Arbitrary<string> = fc.string({ minLength: 0, maxLength: 20 }).map((s) => `B${s}`)

/** Every valid, consistent (R-17) stored budget shape: both modes, every status, renewing or not. */
export const budgetArb: fc.Arbitrary<BudgetJson> = fc
  .record({
    mode: fc.constantFrom('funded', 'tracking'),
    status: fc.constantFrom('open', 'open', 'open', 'closing', 'closed'),
    unit: fc.option(fc.constantFrom('day', 'week', 'month', 'year'), { nil: null, freq: 3 }),
    every: fc.oneof(fc.constantFrom(1, 1, 1, 2, 3, 12, 366), fc.integer({ min: 1, max: 366 })),
    created: dayArb,
    startOffset: fc.integer({ min: 0, max: 3000 }),
    length: fc.integer({ min: 1, max: 400 }),
    stopped: fc.boolean(),
    endsOffset: fc.option(fc.integer({ min: -100, max: 3500 }), { nil: null }),
    base: centsArb,
    periodAmount: fc.option(centsArb, { nil: null, freq: 5 }),
    balance: centsArb,
    name: nameArb,
    description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    access: fc.constantFrom('everyone', 'members'),
    currency: fc.constantFrom('CLP', 'USD'),
    manager: fc.constantFrom(null, 'u-manager', 'u-other'),
    coManager: fc.constantFrom(null, 'u-comanager')
  })
  .map((r): BudgetJson => {
    const starts = clampDay(r.created + r.startOffset)
    const renews = r.unit !== null
    const ends = renews || r.stopped ? clampDay(starts + r.length) : null
    return {
      id: 'b-1',
      company_id: COMPANY,
      name: r.name,
      description: r.description,
      access: r.access,
      currency: r.currency,
      mode: r.mode,
      manager_id: r.manager,
      co_manager_id: r.coManager,
      status: r.status,
      created_on: dateOf(r.created),
      ends_on: r.endsOffset === null ? null : dateOf(clampDay(r.created + r.endsOffset)),
      recurrence_unit: r.unit,
      recurrence_every: renews ? r.every : null,
      base_amount_cents: renews ? r.base : null,
      recurrence_starts_on: renews ? dateOf(starts) : null,
      period_starts_on: dateOf(starts),
      period_ends_on: ends === null ? null : dateOf(ends),
      period_amount_cents: r.periodAmount,
      balance_cents: r.mode === 'funded' ? r.balance : null
    }
  })

/** A day to decide on: near the period in progress, years later, or the calendar's last day. */
export const todayFor = (b: BudgetJson): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 8, arbitrary: fc.integer({ min: -30, max: 4000 }) },
      { weight: 1, arbitrary: fc.constant(LAST_DAY - dayOf(String(b.period_starts_on))) }
    )
    .map((offset) => dateOf(clampDay(dayOf(String(b.period_starts_on)) + offset)))

const isCents = (u: unknown): boolean => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0
const isNullable =
  (test: (u: unknown) => boolean) =>
  (u: unknown): boolean =>
    u === null || test(u)
const isString = (u: unknown): boolean => typeof u === 'string'
const oneOf =
  (...values: ReadonlyArray<string>) =>
  (u: unknown): boolean =>
    typeof u === 'string' && values.includes(u)

const FIELD_TYPES: Readonly<Record<(typeof BUDGET_FIELDS)[number], (u: unknown) => boolean>> = {
  id: isString,
  company_id: isString,
  name: isString,
  description: isNullable(isString),
  access: oneOf('everyone', 'members'),
  currency: isString,
  mode: oneOf('funded', 'tracking'),
  manager_id: isNullable(isString),
  co_manager_id: isNullable(isString),
  status: oneOf('open', 'closing', 'closed'),
  created_on: isRealDate,
  ends_on: isNullable(isRealDate),
  recurrence_unit: isNullable(oneOf('day', 'week', 'month', 'year')),
  recurrence_every: isNullable((u) => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 366),
  base_amount_cents: isNullable(isCents),
  recurrence_starts_on: isNullable(isRealDate),
  period_starts_on: isRealDate,
  period_ends_on: isNullable(isRealDate),
  period_amount_cents: isNullable(isCents),
  balance_cents: isNullable(isCents)
}

/**
 * The fields of `u` outside the Budget type of contract section 2, read by property access (own
 * or inherited, as R-18 reads them); `['budget']` when it is not an object at all.
 */
export const budgetTypeErrors = (u: unknown): ReadonlyArray<string> => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return ['budget']
  const o = u as Record<string, unknown>
  return BUDGET_FIELDS.filter((f) => !FIELD_TYPES[f](o[f]))
}

/**
 * Whether the first boundary after `after` of the schedule from `anchor` lies past 9999-12-31,
 * computed with date-fns on UTCDate (months from the anchor, clamped to the month's end), not the
 * library's arithmetic. ADR 0017: a renewing budget whose next boundary lies past the calendar
 * has `period_ends_on` null, and is consistent.
 */
export const nextBoundaryPastCalendar = (anchor: string, unit: string, every: number, after: string): boolean => {
  if (unit === 'day' || unit === 'week') {
    const step = every * (unit === 'week' ? 7 : 1)
    const k = Math.max(0, Math.floor((dayOf(after) - dayOf(anchor)) / step) + 1)
    return dayOf(anchor) + k * step > LAST_DAY
  }
  const months = every * (unit === 'year' ? 12 : 1)
  const start = new UTCDate(Date.parse(`${anchor}T00:00:00Z`))
  const limit = new UTCDate(Date.parse(`${after}T00:00:00Z`))
  let k = Math.max(0, Math.floor(differenceInCalendarMonths(limit, start) / months) - 1)
  while (addMonths(start, k * months) <= limit) k++
  return addMonths(start, k * months).getUTCFullYear() > 9999
}

/** The R-17 inconsistencies of a budget whose fields are all of their types. */
export const budgetInconsistencies = (b: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (b.mode === 'funded' && b.balance_cents === null) out.push('funded without a balance')
  if (b.mode === 'tracking' && b.balance_cents !== null) out.push('tracking with a balance')
  if (
    b.recurrence_unit === null &&
    (b.recurrence_every !== null || b.base_amount_cents !== null || b.recurrence_starts_on !== null)
  )
    out.push('recurrence settings without a unit')
  const openEndedPastCalendar =
    b.period_ends_on === null &&
    typeof b.recurrence_unit === 'string' &&
    typeof b.recurrence_every === 'number' &&
    typeof b.recurrence_starts_on === 'string' &&
    nextBoundaryPastCalendar(b.recurrence_starts_on, b.recurrence_unit, b.recurrence_every, b.period_starts_on as string)
  if (
    b.recurrence_unit !== null &&
    (b.recurrence_every === null ||
      b.base_amount_cents === null ||
      b.recurrence_starts_on === null ||
      (b.period_ends_on === null && !openEndedPastCalendar))
  )
    out.push(
      `a unit without ${['recurrence_every', 'base_amount_cents', 'recurrence_starts_on', 'period_ends_on'].filter((f) => b[f] === null).join(', ')}`
    )
  if (typeof b.period_ends_on === 'string' && typeof b.period_starts_on === 'string' && b.period_ends_on <= b.period_starts_on)
    out.push('period_ends_on not after period_starts_on')
  if (
    b.recurrence_unit !== null &&
    typeof b.recurrence_starts_on === 'string' &&
    typeof b.period_ends_on === 'string' &&
    b.recurrence_starts_on > b.period_ends_on
  )
    out.push('renewals that count from after the period in progress ends')
  return out
}

/** Why `u` is not a valid stored budget (type errors, then R-17), or an empty list. */
export const budgetProblems = (u: unknown): ReadonlyArray<string> => {
  const typeErrors = budgetTypeErrors(u)
  return typeErrors.length > 0 ? typeErrors : budgetInconsistencies(u as Record<string, unknown>)
}

// -------------------------------------------------------------------------------------
// callers, sessions, requests
// -------------------------------------------------------------------------------------

export type Who = 'admin' | 'owner' | 'budgets_manage' | 'manager' | 'co_manager' | 'member'

const USER: Readonly<Record<Who, string>> = {
  admin: 'u-admin',
  owner: 'u-owner',
  budgets_manage: 'u-bm',
  manager: 'u-manager',
  co_manager: 'u-comanager',
  member: 'u-member'
}

export const whoArb: fc.Arbitrary<Who> = fc.constantFrom('admin', 'owner', 'budgets_manage', 'manager', 'co_manager', 'member')

export const callerOf = (who: Who) => ({
  user_id: USER[who],
  role: who === 'admin' ? 'admin' : who === 'owner' ? 'owner' : 'member',
  permissions: who === 'budgets_manage' ? ['budgets_manage'] : []
})

export const callerArb = whoArb.map(callerOf)

/** Whether this caller may update this budget at all (contract 5 row 6): full rights or a manager. */
export const mayUpdate = (who: Who, b: Readonly<Record<string, unknown>>): boolean =>
  who === 'admin' || who === 'owner' || who === 'budgets_manage' || b.manager_id === USER[who] || b.co_manager_id === USER[who]

export const sessionArb = (who: Who) =>
  fc
    .record({
      verified: fc.oneof({ weight: 19, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      other: fc.boolean()
    })
    .map(({ verified, other }) => {
      const { role, permissions } = callerOf(who)
      return {
        user: { id: USER[who], email_verified: verified },
        memberships: {
          [COMPANY]: { role, permissions },
          ...(other ? { 'c-2': { role: 'admin', permissions: [] } } : {})
        }
      }
    })

/** Clean request headers: Bearer key and company-id, names in any case. */
export const requestHeadersArb: fc.Arbitrary<Record<string, string>> = fc
  .record({
    auth: fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
    company: fc.constantFrom('company-id', 'Company-Id', 'COMPANY-ID'),
    scheme: fc.constantFrom('Bearer', 'bearer', 'BEARER'),
    extra: fc.boolean()
  })
  .map(({ auth, company, scheme, extra }) => ({
    [auth]: `${scheme} k-1`,
    [company]: COMPANY,
    ...(extra ? { Accept: 'application/json' } : {})
  }))

// -------------------------------------------------------------------------------------
// bodies: valid ones, invalid ones, and JSON with hostile contents
// -------------------------------------------------------------------------------------

const DEEP_OBJECT = `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`
const DEEP_ARRAY = `${'['.repeat(1000)}${']'.repeat(1000)}`
const HUGE_ARRAY = `[${'1,'.repeat(99_999)}1]`

/** JSON texts of hostile values, to put where a JSON value goes. */
const hostileJsonValue: fc.Arbitrary<string> = fc.constantFrom(
  '"2026-02-30"',
  '"+275760-09-13"',
  '"0000-01-01"',
  '"\\ud800"',
  '"a\\udc00b"',
  '1e308',
  '1e400',
  '-0',
  '1.5',
  '9007199254740993',
  '-1',
  '0',
  'null',
  'true',
  '""',
  '"   "',
  '[]',
  '{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  DEEP_OBJECT,
  DEEP_ARRAY,
  HUGE_ARRAY,
  `"${'x'.repeat(300)}"`
)

const sentValueArb = (field: (typeof UPDATE_FIELDS)[number], today: string): fc.Arbitrary<unknown> => {
  const after = dateOf(Math.min(LAST_DAY, dayOf(today) + 1))
  switch (field) {
    case 'name':
      return fc.oneof(nameArb, fc.constantFrom('', '   ', 'x'.repeat(256), '💶'.repeat(255)))
    case 'description':
      return fc.option(fc.string({ maxLength: 20 }), { nil: null })
    case 'access':
      return fc.constantFrom('everyone', 'members', 'nobody')
    case 'ends_on':
      return fc.oneof(fc.constantFrom(null, after, today, '2026-02-30', '+275760-09-13', '9999-12-31'), dateArb)
    case 'manager_id':
      return fc.constantFrom(null, 'u-manager', 'u-other', 'u-admin')
    case 'recurrence_unit':
      return fc.constantFrom(null, 'day', 'week', 'month', 'year', 'fortnight')
    case 'recurrence_every':
      return fc.oneof(fc.integer({ min: 1, max: 366 }), fc.constantFrom(null, 0, 367, 1.5, -1, 1e308))
    case 'base_amount_cents':
      return fc.oneof(centsArb, fc.constantFrom(null, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e308))
  }
}

const wrap = (entries: ReadonlyArray<readonly [string, string]>): string =>
  `{"budget":{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}}`

/** The body of a budget update: valid and invalid values, the budget sent back whole, raw texts. */
export const updateBodyArb = (b: BudgetJson, today: string): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .subarray([...UPDATE_FIELDS], { minLength: 0, maxLength: 4 })
        .chain((fields) => fc.tuple(...fields.map((f) => sentValueArb(f, today).map((v) => [f, JSON.stringify(v)] as const))))
        .map(wrap)
    },
    {
      // one field holds a hostile JSON value (deep nesting, huge array, prototype keys, ...)
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...UPDATE_FIELDS, 'currency', 'balance_cents', 'colour', '__proto__', 'constructor'),
          hostileJsonValue
        )
        .map(([k, v]) => wrap([[k, v]]))
    },
    { weight: 2, arbitrary: fc.constant(JSON.stringify({ budget: b })) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        '   ',
        'null',
        '[]',
        '{}',
        '"budget"',
        '{"budget":null}',
        '{"budget":[]}',
        '{"budget":"x"}',
        '{"budget":{}}',
        '{"budget":{"__proto__":{"name":"Hacked"}}}',
        '{"__proto__":{"budget":{"name":"x"}}}',
        '{"budget":{"name":"a","name":"b"}}',
        `{"budget":${DEEP_OBJECT}}`,
        `{"budget":{"name":${DEEP_ARRAY}}}`,
        `{"budget":{"name":${HUGE_ARRAY}}}`,
        '{"budget":{"name":"x"',
        '{"budget":{"name":"\\ud800"}}',
        '{"budget":{"recurrence_every":-0}}',
        '{"budget":{"base_amount_cents":1e400}}',
        '<html>502 Bad Gateway</html>'
      )
    }
  )

/** The body of a money operation. */
export const moneyBodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .oneof(centsArb, fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e308, -0))
      .map((n) => JSON.stringify({ amount_cents: n }))
  },
  { weight: 2, arbitrary: hostileJsonValue.map((v) => `{"amount_cents":${v}}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'null',
      '[]',
      '{}',
      '5',
      '{"amount_cents":"5"}',
      '{"amount_cents":null}',
      '{"__proto__":{"amount_cents":5}}',
      '{"amount_cents":5,"amount_cents":"x"}',
      '{"amount_cents":-0}',
      '{"amount_cents":1e400}',
      `{"amount_cents":${DEEP_ARRAY}}`,
      `{"x":${HUGE_ARRAY},"amount_cents":1}`,
      '{"amount_cents":1'
    )
  }
)

// -------------------------------------------------------------------------------------
// index endpoints: queries and records
// -------------------------------------------------------------------------------------

export type EndpointName = 'bankTransactions' | 'companies'

/** A lone surrogate, a replacement character and an astral character: what encoders trip over. */
const awkwardText = fc.constantFrom('\uD800', 'a\uDC00', '\uFFFD', '💶', '', ' ', '%', '&', '=', '+', '[', '__proto__')

const filterValueArb = (field: string): fc.Arbitrary<string> => {
  switch (field) {
    case 'amount':
      return fc.oneof(
        fc.integer({ min: -5, max: 1100 }).map(String),
        fc.constantFrom('1.5', '1e3', '', 'x', '9'.repeat(30), '-0')
      )
    case 'status':
      return fc.constantFrom('authorized', 'pending', 'declined', 'PENDING', '')
    case 'created_at':
    case 'updated_at':
      return fc.oneof(instantArb, fc.constantFrom('2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-11-22', 'x'))
    case 'name':
      return fc.oneof(fc.string({ maxLength: 8 }), awkwardText)
    default:
      return fc.oneof(fc.constantFrom('tx-1', 'co-1', ''), awkwardText)
  }
}

const FIELDS: Readonly<Record<EndpointName, ReadonlyArray<string>>> = {
  bankTransactions: ['id', 'amount', 'status', 'created_at', 'updated_at'],
  companies: ['id', 'name', 'created_at', 'updated_at']
}

const filterParamArb = (endpoint: EndpointName): fc.Arbitrary<readonly [string, string]> =>
  fc.constantFrom(...FIELDS[endpoint], 'colour', '__proto__', 'constructor').chain((field) =>
    fc.oneof(
      fc
        .tuple(fc.constantFrom('', '[$eq]', '[$ne]', '[$gt]', '[$gte]', '[$lt]', '[$lte]', '[$regex]'), filterValueArb(field))
        .map(([op, value]) => [`${field}${op}`, value] as const),
      fc
        .tuple(
          fc.constantFrom('[$in]', '[$nin]'),
          fc.array(filterValueArb(field), { maxLength: 8 }),
          fc.constantFrom('list', 'raw', 'big')
        )
        .map(([op, values, how]) => {
          const list = field === 'amount' ? values.map((v) => (/^-?\d+$/.test(v) ? Number(v) : v)) : values
          const text =
            how === 'raw'
              ? values.join(',')
              : how === 'big'
                ? JSON.stringify(Array.from({ length: 501 }, (_, i) => list[i % Math.max(1, list.length)] ?? i))
                : JSON.stringify(list)
          return [`${field}${op}`, text] as const
        })
    )
  )

/** A query string as a client sends it: window, order, field, filters, and some junk. */
export const queryArb = (endpoint: EndpointName): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .record(
          {
            start: fc.oneof(fc.nat({ max: 60 }).map(String), fc.constantFrom('-1', '1e3', '', '00', '9'.repeat(30), '1.5')),
            size: fc.oneof(fc.nat({ max: 60 }), fc.constantFrom(0, 1, 2000, 2001, 100_000)),
            order: fc.constantFrom('asc', 'desc', 'ASC', 'DESC', 'Asc', ''),
            field: fc.constantFrom(...FIELDS[endpoint], 'name', 'amount', '__proto__'),
            filters: fc.array(filterParamArb(endpoint), { maxLength: 3 }),
            extra: fc.constantFrom(undefined, ['_unknown', '1'] as const, ['__proto__', '1'] as const, ['_start', '3'] as const)
          },
          { requiredKeys: ['filters'] }
        )
        .map((q) => {
          const pairs: Array<readonly [string, string]> = []
          if (q.start !== undefined) pairs.push(['_start', q.start])
          if (q.size !== undefined) pairs.push(['_end', String((Number(q.start ?? 0) || 0) + q.size)])
          if (q.order !== undefined) pairs.push(['_order', q.order])
          if (q.field !== undefined) pairs.push(['_field', q.field])
          pairs.push(...q.filters)
          if (q.extra !== undefined) pairs.push(q.extra)
          // URLSearchParams is the independent encoder: it writes a lone surrogate as U+FFFD.
          return new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString()
        })
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        '&&&',
        '=',
        '%',
        '_start=%ZZ',
        'name=%ED%A0%80',
        'name=\uD800',
        'name[$in]=["\uD800"]',
        'id=\uD800&_end=1',
        'a=1&'.repeat(101),
        '_start=0&_start=1',
        '__proto__[$eq]=1',
        'constructor=1',
        `amount[$nin]=${JSON.stringify(Array.from({ length: 500 }, (_, i) => i))}`
      )
    }
  )

const recordArb = (endpoint: EndpointName, ids: number): fc.Arbitrary<Record<string, unknown>> =>
  endpoint === 'bankTransactions'
    ? fc.record({
        id: fc.nat({ max: ids }).map((n) => `tx-${n}`),
        amount: fc.integer({ min: -1000, max: 1000 }),
        status: fc.constantFrom('authorized', 'pending'),
        created_at: instantArb,
        updated_at: instantArb
      })
    : fc.record({
        id: fc.nat({ max: ids }).map((n) => `co-${n}`),
        name: fc.oneof(fc.string({ maxLength: 8 }), awkwardText),
        created_at: instantArb,
        updated_at: instantArb
      })

const spellings = new Map<string, string>()
const spellOnce = (seconds: number, spelling: number, offset: number): string => {
  const key = `${seconds} ${spelling} ${offset}`
  const known = spellings.get(key)
  if (known !== undefined) return known
  const text = spellInstant(seconds, spelling, offset)
  spellings.set(key, text)
  return text
}

const collections = new Map<string, ReadonlyArray<Record<string, unknown>>>()

/**
 * `n` records built by arithmetic from a seed, with many ties; kept for later runs (a generator
 * takes seconds for 100,000, and a call must not mutate them: that is checked on every run).
 */
const collection = (endpoint: EndpointName, n: number, seed: number): ReadonlyArray<Record<string, unknown>> => {
  const key = `${endpoint} ${n} ${seed}`
  const known = collections.get(key)
  if (known !== undefined) return known
  const made = Array.from({ length: n }, (_, j) => {
    const i = (j * 7919 + seed * 104_729) % 1_000_003
    return endpoint === 'bankTransactions'
      ? {
          id: `tx-${i % Math.max(1, Math.floor(n / 2))}`,
          amount: (i % 2001) - 1000,
          status: i % 3 === 0 ? 'pending' : 'authorized',
          created_at: spellOnce(dayOf('2026-01-01') * 86400 + (i % 977) * 60, i % 4, 60),
          updated_at: spellOnce(dayOf('2026-11-22') * 86400 + (i % 13) * 3600, i % 5, -180)
        }
      : {
          id: `co-${i % Math.max(1, n - 3)}`,
          name: i % 11 === 0 ? `Co \uD800 ${i % 7}` : `Co ${i % 100}`,
          created_at: spellOnce(dayOf('2026-11-22') * 86400, i % 4, 0),
          updated_at: '2026-11-22T10:00:00Z'
        }
  })
  collections.set(key, made)
  return made
}

export const recordsArb = (endpoint: EndpointName): fc.Arbitrary<ReadonlyArray<Record<string, unknown>>> =>
  fc.oneof(
    { weight: 40, arbitrary: fc.array(recordArb(endpoint, 40), { maxLength: 40 }) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(41, 120, 333, 999, 2000, 4999), fc.nat({ max: 9 }))
        .map(([n, seed]) => collection(endpoint, n, seed))
    },
    { weight: 1, arbitrary: fc.nat({ max: 2 }).map((seed) => collection(endpoint, 100_000, seed)) }
  )

/** A live-feed page: records as the endpoint returns them, oldest first. */
export const pageArb: fc.Arbitrary<ReadonlyArray<{ created_at: string }>> = fc
  .array(instantArb, { maxLength: 12 })
  .map((instants) => instants.sort().map((created_at, i) => ({ id: `tx-${i}`, created_at })))

// -------------------------------------------------------------------------------------
// replies, as a client receives them
// -------------------------------------------------------------------------------------

export const STATUSES = [200, 201, 204, 301, 400, 401, 403, 404, 409, 412, 416, 418, 422, 429, 500, 501, 502, 503, 504] as const

/** The kind of each status, from the table of contract section 9 (anything else: unexpected). */
export const KIND_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'precondition_failed',
  416: 'range_not_satisfiable',
  422: 'validation',
  429: 'rate_limited',
  500: 'server_error',
  502: 'upstream',
  503: 'upstream',
  504: 'upstream'
}

export const replyHeadersArb: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      requestId: fc.constantFrom('r-1', 'req-2'),
      retryAfter: fc.oneof(fc.nat({ max: 120 }).map(String), httpDateArb, fc.constantFrom('-1', '1.5', 'soon', '9'.repeat(40))),
      date: httpDateArb,
      contentType: fc.constant('application/json; charset=utf-8')
    },
    { requiredKeys: [] }
  )
  .chain((h) =>
    fc.constantFrom('lower', 'canonical').map((spelling) => {
      const out: Record<string, string> = {}
      const name = (canonical: string) => (spelling === 'lower' ? canonical.toLowerCase() : canonical)
      if (h.requestId !== undefined) out[name('X-Request-Id')] = h.requestId
      if (h.retryAfter !== undefined) out[name('Retry-After')] = h.retryAfter
      if (h.date !== undefined) out[name('Date')] = h.date
      if (h.contentType !== undefined) out[name('Content-Type')] = h.contentType
      return out
    })
  )

export const replyBodyArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    '<html><body>502 Bad Gateway</body></html>',
    '{"error":"bad_request","message":"The body is not valid JSON"}',
    '{"error_code":"budgets/cannot_change_manager","message":"No"}',
    '{"errors":{"name":["can\'t be blank"],"__proto__":["x"]}}',
    '{"message":"Requested page size 2001 exceeds maximum of 2000"}',
    '{"error":"rate_limit_exceeded","message":"Too many requests","retry_after":5}',
    '{"retry_after":1.5}',
    '{"retry_after":-3}',
    '{"error":',
    '[1,2]',
    'null',
    DEEP_OBJECT,
    DEEP_ARRAY,
    `{"errors":${HUGE_ARRAY}}`,
    `{"message":"${'x'.repeat(1_000_000)}"}`
  ),
  fc.json({ maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 2 })
)

export const replyArb = fc.record({
  status: fc.oneof(fc.constantFrom(...STATUSES), fc.integer({ min: 100, max: 599 })),
  headers: replyHeadersArb,
  body: replyBodyArb
})

export const METHODS = [
  'GET',
  'HEAD',
  'OPTIONS',
  'PUT',
  'PATCH',
  'DELETE',
  'POST',
  'get',
  'Get',
  'TRACE',
  'CONNECT',
  'PURGE'
] as const

export const retryInputArb = fc.record(
  {
    method: fc.constantFrom(...METHODS),
    status: fc.oneof(fc.constantFrom(429, 500, 502, 503, 504, 400, 404, 200), fc.integer({ min: 100, max: 599 })),
    headers: replyHeadersArb,
    attempt: fc.oneof(fc.nat({ max: 6 }), fc.constantFrom(-1, 1.5, 100)),
    random: fc.oneof(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom(0, 0.999999)),
    now: instantArb,
    max_retry_after_s: fc.oneof(fc.nat({ max: 120 }), fc.constantFrom(0, 1e9))
  },
  { requiredKeys: ['method', 'status', 'attempt', 'random'] }
)
