/**
 * A plain model of one budget, written from the contract (sections 4-7, R-10..R-17) and not
 * from `src/`: what a server holding one budget should answer to each request, and what it
 * should then hold. Dates are `YYYY-MM-DD` strings; the calendar arithmetic goes through
 * `UTCDate` and date-fns (month ends clamp in `addMonths`), never the process time zone.
 */
import { UTCDate } from '@date-fns/utc'
import { addMonths, addYears } from 'date-fns'

// -------------------------------------------------------------------------------------
// the budget
// -------------------------------------------------------------------------------------

export type Unit = 'day' | 'week' | 'month' | 'year'
export type Status = 'open' | 'closing' | 'closed'

/** Contract section 2, as JSON. */
export interface ModelBudget {
  id: string
  company_id: string
  name: string
  description: string | null
  access: 'everyone' | 'members'
  currency: string
  mode: 'funded' | 'tracking'
  manager_id: string | null
  co_manager_id: string | null
  status: Status
  created_on: string
  ends_on: string | null
  recurrence_unit: Unit | null
  recurrence_every: number | null
  base_amount_cents: number | null
  recurrence_starts_on: string | null
  period_starts_on: string
  period_ends_on: string | null
  period_amount_cents: number | null
  balance_cents: number | null
}

export const UNITS: ReadonlyArray<string> = ['day', 'week', 'month', 'year']
export const ACCESS: ReadonlyArray<string> = ['everyone', 'members']

/** The update list of section 5 with the JSON types of section 2 (a wrong type is row 7's 400). */
const UPDATE_TYPES: Readonly<Record<string, (v: unknown) => boolean>> = {
  name: (v) => typeof v === 'string',
  description: (v) => v === null || typeof v === 'string',
  access: (v) => typeof v === 'string',
  ends_on: (v) => v === null || typeof v === 'string',
  manager_id: (v) => v === null || typeof v === 'string',
  recurrence_unit: (v) => v === null || typeof v === 'string',
  recurrence_every: (v) => v === null || typeof v === 'number',
  base_amount_cents: (v) => v === null || typeof v === 'number'
}

/** The Budget fields outside the update list: sent with another value, "cannot be changed". */
export const READ_ONLY = [
  'id',
  'company_id',
  'currency',
  'mode',
  'co_manager_id',
  'status',
  'created_on',
  'recurrence_starts_on',
  'period_starts_on',
  'period_ends_on',
  'period_amount_cents',
  'balance_cents'
] as const

const BUDGET_KEYS = new Set([...Object.keys(UPDATE_TYPES), ...READ_ONLY])

// -------------------------------------------------------------------------------------
// calendar (UTC only)
// -------------------------------------------------------------------------------------

const MS_PER_DAY = 86_400_000

const parts = (date: string): [number, number, number] => date.split('-').map(Number) as [number, number, number]

const utc = (date: string): UTCDate => {
  const [y, m, d] = parts(date)
  return new UTCDate(y, m - 1, d)
}

const iso = (d: Date): string => d.toISOString().slice(0, 10)

// Day numbers through the UTC time line of `Date` (`Date.UTC`, `toISOString`): no zone is read.
// (The model's dates all lie in 1990..4000, where `Date.UTC` takes the year as given.)
export const dayOf = (date: string): number => {
  const [y, m, d] = parts(date)
  return Date.UTC(y, m - 1, d) / MS_PER_DAY
}
export const dateOf = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10)
export const plusDays = (date: string, n: number): string => dateOf(dayOf(date) + n)

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** A real `YYYY-MM-DD` date of 0001-01-01..9999-12-31. */
export const isRealDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (m === null) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false
  return d <= (mo === 2 && leap(y) ? 29 : (MONTH_DAYS[mo - 1] ?? 0))
}

// -------------------------------------------------------------------------------------
// schedules: boundary k = anchor + k * every units, always from the anchor
// -------------------------------------------------------------------------------------

export interface Schedule {
  readonly anchor: string
  readonly unit: Unit
  readonly every: number
}

export const scheduleOf = (b: ModelBudget): Schedule | null =>
  b.recurrence_unit === null || b.recurrence_every === null || b.recurrence_starts_on === null
    ? null
    : { anchor: b.recurrence_starts_on, unit: b.recurrence_unit, every: b.recurrence_every }

export const boundary = (s: Schedule, k: number): string => {
  const n = k * s.every
  const date =
    s.unit === 'day'
      ? plusDays(s.anchor, n)
      : s.unit === 'week'
        ? plusDays(s.anchor, 7 * n)
        : iso(s.unit === 'month' ? addMonths(utc(s.anchor), n) : addYears(utc(s.anchor), n))
  // The model's sequences stay far from 9999-12-31, where the contract has no boundary left.
  if (date > '9999-12-31' || date.length !== 10) throw new Error(`model out of the calendar: ${date}`)
  return date
}

const AVERAGE_DAYS: Readonly<Record<Unit, number>> = { day: 1, week: 7, month: 30.436875, year: 365.2425 }

/** The smallest k >= 0 with boundary(k) > date: an estimate by average lengths, then walked. */
export const firstBoundaryAfter = (s: Schedule, date: string): number => {
  const estimate = Math.floor((dayOf(date) - dayOf(s.anchor)) / (AVERAGE_DAYS[s.unit] * s.every)) - 1
  let k = Math.max(0, estimate)
  while (k > 0 && boundary(s, k) > date) k--
  while (boundary(s, k) <= date) k++
  return k
}

/** Whether `date` is a boundary of the schedule. */
export const onSchedule = (s: Schedule, date: string): boolean => {
  const k = firstBoundaryAfter(s, date)
  return k > 0 && boundary(s, k - 1) === date
}

// -------------------------------------------------------------------------------------
// advance (section 6)
// -------------------------------------------------------------------------------------

/** The budget as of `today`: periods rolled from the schedule, open -> closing on ends_on. */
export const advance = (b: ModelBudget, today: string): ModelBudget => {
  // Model budgets are never mutated once made, so the last answer per budget can be kept.
  const memo = advanced.get(b)
  if (memo?.today === today) return memo.budget
  const budget = advanceNow(b, today)
  advanced.set(b, { today, budget })
  return budget
}

const advanced = new WeakMap<ModelBudget, { today: string; budget: ModelBudget }>()

const advanceNow = (b: ModelBudget, today: string): ModelBudget => {
  if (b.status === 'closed') return b
  const next = { ...b }
  const s = scheduleOf(b)
  if (s !== null && b.period_ends_on !== null && b.period_ends_on <= today) {
    const k = firstBoundaryAfter(s, today)
    next.period_starts_on = boundary(s, k - 1)
    next.period_ends_on = boundary(s, k)
    next.period_amount_cents = b.base_amount_cents
  } else if (s === null && b.period_ends_on !== null && b.period_ends_on <= today) {
    // Renewals were stopped: no new period starts, the period becomes open-ended.
    next.period_ends_on = null
  }
  if (next.status === 'open' && next.ends_on !== null && today >= next.ends_on) next.status = 'closing'
  return next
}

/** The `n` periods after the one in progress (none once renewals stop, none when closed). */
export const upcoming = (
  b0: ModelBudget,
  today: string,
  n: number
): Array<{ starts_on: string; ends_on: string; amount_cents: number | null }> => {
  const b = advance(b0, today)
  const s = scheduleOf(b)
  if (b.status === 'closed' || s === null || b.period_ends_on === null) return []
  const k = firstBoundaryAfter(s, b.period_ends_on) - 1
  return Array.from({ length: n }, (_, i) => ({
    starts_on: boundary(s, k + i),
    ends_on: boundary(s, k + i + 1),
    amount_cents: b.base_amount_cents
  }))
}

// -------------------------------------------------------------------------------------
// the company and its callers
// -------------------------------------------------------------------------------------

export const COMPANY = 'c-1'
export const OTHER_COMPANY = 'c-2'

export interface User {
  readonly role: 'owner' | 'admin' | 'member'
  readonly permissions: ReadonlyArray<string>
  readonly verified: boolean
  readonly company: string
}

export const USERS: Readonly<Record<string, User>> = {
  'u-admin': { role: 'admin', permissions: [], verified: true, company: COMPANY },
  'u-owner': { role: 'owner', permissions: [], verified: true, company: COMPANY },
  'u-bm': { role: 'member', permissions: ['budgets_manage'], verified: true, company: COMPANY },
  'u-alice': { role: 'member', permissions: [], verified: true, company: COMPANY },
  'u-bob': { role: 'member', permissions: ['payables_manage'], verified: true, company: COMPANY },
  'u-carol': { role: 'member', permissions: [], verified: true, company: COMPANY },
  'u-dave': { role: 'member', permissions: [], verified: true, company: COMPANY },
  'u-unverified': { role: 'admin', permissions: [], verified: false, company: COMPANY },
  // An admin, but of another company: rights never cross companies.
  'u-other': { role: 'admin', permissions: ['budgets_manage'], verified: true, company: OTHER_COMPANY }
}

/** company_member_ids: who may be named manager. */
export const MEMBERS = Object.keys(USERS).filter((u) => USERS[u]?.company === COMPANY)

/** Section 4 and R-21: full budget rights. */
export const hasFullRights = (user: User): boolean =>
  user.role === 'admin' || user.role === 'owner' || user.permissions.includes('budgets_manage')

/** A request as the model reads it: who calls (null: no key), the company-id header, the body. */
export interface ModelRequest {
  readonly user: string | null
  readonly company: string
  readonly body: string | undefined
}

// -------------------------------------------------------------------------------------
// replies
// -------------------------------------------------------------------------------------

/** What the model expects: the status and the body as far as the contract fixes it. */
export type Expected =
  | { readonly status: 401 | 412; readonly body: 'empty' | 'guard' | 'message' }
  | { readonly status: number; readonly body: 'error'; readonly error: string }
  | { readonly status: 403; readonly body: 'error_code'; readonly error_code: string }
  | { readonly status: 422; readonly body: 'errors'; readonly fields: ReadonlyArray<string> }
  | { readonly status: 200; readonly body: 'budget'; readonly budget: ModelBudget }

const empty401: Expected = { status: 401, body: 'empty' }
const guard: Expected = { status: 401, body: 'guard' }
const badRequest: Expected = { status: 400, body: 'error', error: 'bad_request' }
const conflict: Expected = { status: 409, body: 'error', error: 'conflict' }
const notFound: Expected = { status: 404, body: 'error', error: 'not_found' }
const unprocessable = (fields: Iterable<string>): Expected => ({
  status: 422,
  body: 'errors',
  fields: [...new Set(fields)].sort()
})

/** Section 4, rows 1-5: the caller, or the reply that stops the request. */
const authenticate = (stored: ModelBudget, req: ModelRequest): User | Expected => {
  if (req.user === null) return empty401
  const user = USERS[req.user]
  if (user === undefined) return empty401
  if (!user.verified) return { status: 401, body: 'error', error: 'email_not_verified' }
  if (req.company === '') return empty401
  if (user.company !== req.company) return notFound
  if (stored.company_id !== req.company) return notFound
  return user
}

const isReply = (u: User | Expected): u is Expected => 'status' in u

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

// -------------------------------------------------------------------------------------
// PATCH /v1/budgets/{id} (section 5, R-12..R-15)
// -------------------------------------------------------------------------------------

export const expectUpdate = (stored: ModelBudget, today: string, req: ModelRequest): Expected => {
  const caller = authenticate(stored, req)
  if (isReply(caller)) return caller
  const b = advance(stored, today)
  const full = hasFullRights(caller)
  if (!full && req.user !== b.manager_id && req.user !== b.co_manager_id) return guard

  // rows 7 and 8
  if (req.body === undefined || req.body.trim() === '') return { status: 412, body: 'message' }
  const parsed = parse(req.body)
  if (!parsed.ok || !isObject(parsed.value)) return badRequest
  if (!own(parsed.value, 'budget') || parsed.value.budget === null) return { status: 412, body: 'message' }
  const sent = parsed.value.budget
  if (!isObject(sent)) return badRequest
  for (const [field, typed] of Object.entries(UPDATE_TYPES)) if (own(sent, field) && !typed(sent[field])) return badRequest

  // A value equal to the one held (as of today) is not a change.
  const current = b as unknown as Record<string, unknown>
  const changed = (f: string) => own(sent, f) && sent[f] !== current[f]

  // rows 9, 10
  if (!full && changed('manager_id')) return { status: 403, body: 'error_code', error_code: 'budgets/cannot_change_manager' }
  if (!full && (changed('recurrence_unit') || changed('recurrence_every') || changed('base_amount_cents')))
    return { status: 403, body: 'error_code', error_code: 'budgets/cannot_change_recurrence' }
  // row 11
  if (b.status === 'closed') return conflict

  // row 12: every invalid field at once
  const errors: Array<string> = []
  if (changed('name')) {
    const name = sent.name as string
    // length in code points: a surrogate pair is one character
    if (name.trim() === '' || name.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length > 255) errors.push('name')
  }
  if (changed('access') && !ACCESS.includes(sent.access as string)) errors.push('access')
  if (changed('ends_on') && sent.ends_on !== null) {
    const endsOn = sent.ends_on as string
    if (!isRealDate(endsOn) || endsOn <= today) errors.push('ends_on')
  }
  if (changed('manager_id') && sent.manager_id !== null && !MEMBERS.includes(sent.manager_id as string)) errors.push('manager_id')
  if (changed('recurrence_unit') && sent.recurrence_unit !== null && !UNITS.includes(sent.recurrence_unit as string))
    errors.push('recurrence_unit')
  const unitAfter = (changed('recurrence_unit') ? sent.recurrence_unit : b.recurrence_unit) as string | null
  if (changed('recurrence_every')) {
    const every = sent.recurrence_every as number | null
    // While recurrence ends up off, only null may be sent (ADR 0007: null is what the stop sets).
    if (unitAfter === null ? every !== null : every === null || !Number.isInteger(every) || every < 1 || every > 366)
      errors.push('recurrence_every')
  }
  if (changed('base_amount_cents')) {
    const base = sent.base_amount_cents as number | null
    if (unitAfter === null ? base !== null : base === null || !Number.isSafeInteger(base) || base < 0)
      errors.push('base_amount_cents')
  }
  // Turned on (to a unit of the list) without a base: a budget that does not renew holds none.
  if (b.recurrence_unit === null && unitAfter !== null && UNITS.includes(unitAfter) && !changed('base_amount_cents'))
    errors.push('base_amount_cents')
  for (const key of Object.keys(sent)) if (!BUDGET_KEYS.has(key)) errors.push(key)
  for (const field of READ_ONLY) if (changed(field)) errors.push(field)
  if (errors.length > 0) return unprocessable(errors)

  return { status: 200, body: 'budget', budget: applyUpdate(b, today, sent, changed) }
}

const applyUpdate = (
  b: ModelBudget,
  today: string,
  sent: Record<string, unknown>,
  changed: (f: string) => boolean
): ModelBudget => {
  const next: ModelBudget = { ...b }
  if (changed('name')) next.name = sent.name as string
  if (changed('description')) next.description = sent.description as string | null
  if (changed('access')) next.access = sent.access as ModelBudget['access']
  if (changed('manager_id')) next.manager_id = sent.manager_id as string | null
  if (changed('ends_on')) {
    next.ends_on = sent.ends_on as string | null
    // a closing budget given a new closing date (or none) is open again.
    if (b.status === 'closing') next.status = 'open'
  }

  const unit = (changed('recurrence_unit') ? sent.recurrence_unit : b.recurrence_unit) as Unit | null
  const every = (changed('recurrence_every') ? sent.recurrence_every : b.recurrence_every) as number | null
  const base = (changed('base_amount_cents') ? sent.base_amount_cents : b.base_amount_cents) as number | null
  if (b.recurrence_unit === null && unit === null) return next
  if (unit === null) {
    // Stop: the period in progress keeps its end and amount.
    return { ...next, recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null }
  }
  if (b.recurrence_unit === null) {
    // Turn on: every defaults to 1; an open-ended period counts from created_on and ends at the
    // first boundary after today; a stopped period that still has an end resumes from it.
    const turnedOn = { ...next, recurrence_unit: unit, recurrence_every: every ?? 1, base_amount_cents: base }
    if (b.period_ends_on !== null) return { ...turnedOn, recurrence_starts_on: b.period_ends_on }
    const s: Schedule = { anchor: b.created_on, unit, every: every ?? 1 }
    return { ...turnedOn, recurrence_starts_on: b.created_on, period_ends_on: boundary(s, firstBoundaryAfter(s, today)) }
  }
  if (unit !== b.recurrence_unit || every !== b.recurrence_every)
    // A new cadence counts from the end of the period in progress.
    return {
      ...next,
      recurrence_unit: unit,
      recurrence_every: every,
      base_amount_cents: base,
      recurrence_starts_on: b.period_ends_on
    }
  return { ...next, base_amount_cents: base }
}

// -------------------------------------------------------------------------------------
// money operations (section 7, R-16)
// -------------------------------------------------------------------------------------

export type MoneyOperation = 'top_up' | 'withdraw' | 'amount'

export const expectMoney = (operation: MoneyOperation, stored: ModelBudget, today: string, req: ModelRequest): Expected => {
  const caller = authenticate(stored, req)
  if (isReply(caller)) return caller
  const b = advance(stored, today)
  if (!hasFullRights(caller)) return guard
  if (req.body === undefined) return badRequest
  const parsed = parse(req.body)
  if (!parsed.ok || !isObject(parsed.value) || !own(parsed.value, 'amount_cents')) return badRequest
  const amount = parsed.value.amount_cents
  if (typeof amount !== 'number') return badRequest
  if (b.status !== 'open') return conflict

  const errors: Array<string> = []
  if ((operation === 'amount') !== (b.mode === 'tracking')) errors.push('mode')
  if (!Number.isSafeInteger(amount) || amount < (operation === 'amount' ? 0 : 1)) errors.push('amount_cents')
  if (errors.length > 0) return unprocessable(errors)
  const balance = b.balance_cents ?? 0
  if (operation === 'withdraw' && amount > balance) return unprocessable(['amount_cents'])
  if (operation === 'top_up' && balance + amount > Number.MAX_SAFE_INTEGER) return unprocessable(['amount_cents'])

  const budget =
    operation === 'amount'
      ? { ...b, period_amount_cents: amount }
      : { ...b, balance_cents: operation === 'top_up' ? balance + amount : balance - amount }
  return { status: 200, body: 'budget', budget }
}
