/**
 * PATCH /v1/budgets/{id} as a user would write it by hand from the spec and the contract
 * (sections 4, 5, 6, 11, and the decision records that settle what they leave open): object
 * literals and if/else, no fp-ts, no io-ts, no rule ids. It gives the reply of
 * `respondBudgetUpdate` without `reasons`, which only the library keeps. Its steps are exported
 * so that the json-rules-engine and CASL contenders can reuse everything but the permission
 * and status rules.
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

type Role = 'owner' | 'admin' | 'member'
type Unit = 'day' | 'week' | 'month' | 'year'

/** Headers as Node gives them (names in any case, repeated values as a list), or a Fetch `Headers`. */
export type RequestHeaders =
  Readonly<Record<string, string | ReadonlyArray<string> | undefined>> | { readonly get: (name: string) => unknown }

/** A budget as contract section 2 has it. */
export interface Budget {
  id: string
  company_id: string
  name: string
  description: string | null
  access: 'everyone' | 'members'
  currency: string
  mode: 'funded' | 'tracking'
  manager_id: string | null
  co_manager_id: string | null
  status: 'open' | 'closing' | 'closed'
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

/** What the server hands the decision: the request as received and what it looked up. */
export interface UpdateContext {
  readonly request: { readonly headers: RequestHeaders; readonly body?: string | undefined; readonly query?: string | undefined }
  readonly session: {
    readonly user: { readonly id: string; readonly email_verified: boolean } | null
    readonly memberships: Readonly<Record<string, { readonly role: Role; readonly permissions: ReadonlyArray<string> }>>
  }
  readonly budget: Readonly<Budget> | null
  readonly today: string
  readonly request_id: string
  readonly company_member_ids?: ReadonlyArray<string>
}

/** The reply: status, headers, JSON body (null: empty), and on a 200 the budget to persist. */
export interface UpdateReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly budget?: Budget
}

/** The member of the company the request runs in. */
export interface Caller {
  readonly user_id: string
  readonly role: Role
  readonly permissions: ReadonlyArray<string>
}

/** A caller let through rows 1-5, and the budget of the path, checked and rolled to today. */
export interface Admitted {
  readonly caller: Caller
  readonly budget: Budget
}

/** The fields sent inside `budget`, and those of them that change something. */
export interface Update {
  readonly sent: Readonly<Record<string, unknown>>
  readonly changed: ReadonlyArray<string>
}

export type Rights = 'full' | 'manager' | 'none'

// -------------------------------------------------------------------------------------
// replies
// -------------------------------------------------------------------------------------

export const messages = {
  manager: 'Only an admin or a user with budgets_manage can change the manager',
  recurrence: 'Only an admin or a user with budgets_manage can change the recurrence',
  closed: 'The budget is closed',
  unauthorized: 'Unauthorized (401)'
} as const

/** A reply; `Content-Type` only with a body. */
export const replyWith = (requestId: string, status: number, body: unknown): UpdateReply => ({
  status,
  headers:
    body === null
      ? { 'X-Request-Id': requestId }
      : { 'X-Request-Id': requestId, 'Content-Type': 'application/json; charset=utf-8' },
  body
})

export const internalError = (requestId: string): UpdateReply =>
  replyWith(requestId, 500, { error: 'internal_error', message: 'Internal server error' })

const notFound = (requestId: string): UpdateReply => replyWith(requestId, 404, { error: 'not_found', message: 'Not found' })

const badRequest = (requestId: string, message: string): UpdateReply =>
  replyWith(requestId, 400, { error: 'bad_request', message })

/** The request id to echo, even when the server passed none (the header is always sent). */
export const requestIdOf = (c: UpdateContext): string => {
  try {
    const id: unknown = c.request_id
    return typeof id === 'string' ? id : ''
  } catch {
    return ''
  }
}

// -------------------------------------------------------------------------------------
// dates (YYYY-MM-DD, 0001-01-01..9999-12-31, no time zone involved)
// -------------------------------------------------------------------------------------

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 86_400_000

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31

/** A real calendar date written YYYY-MM-DD (Date.parse would take 2026-02-30 for 2 March). */
export const isDate = (v: unknown): v is string => {
  if (typeof v !== 'string' || !DATE.test(v)) return false
  const year = Number(v.slice(0, 4))
  const month = Number(v.slice(5, 7))
  const day = Number(v.slice(8, 10))
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/** Days since 1970-01-01: an ISO date alone is read as UTC, so no time zone enters. */
const dayNumber = (date: string): number => Date.parse(date) / DAY_MS
const LAST_DAY = dayNumber('9999-12-31')
const dateOf = (day: number): string | null => (day > LAST_DAY ? null : new Date(day * DAY_MS).toISOString().slice(0, 10))

const pad = (n: number, width: number): string => String(n).padStart(width, '0')
const monthsOf = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1

interface Schedule {
  readonly anchor: string
  readonly unit: Unit
  readonly every: number
}

/** Boundary k: anchor + k * every units, from the anchor each time so month ends clamp without drifting. */
const boundary = (s: Schedule, k: number): string | null => {
  if (s.unit === 'day' || s.unit === 'week') return dateOf(dayNumber(s.anchor) + k * s.every * (s.unit === 'week' ? 7 : 1))
  const months = monthsOf(s.anchor) + k * s.every * (s.unit === 'year' ? 12 : 1)
  const year = Math.floor(months / 12)
  const month = months - year * 12 + 1
  if (year > 9999) return null
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(Math.min(Number(s.anchor.slice(8, 10)), daysInMonth(year, month)), 2)}`
}

/** The index of the last boundary on or before `date`. */
const indexAt = (s: Schedule, date: string): number => {
  if (s.unit === 'day' || s.unit === 'week')
    return Math.floor((dayNumber(date) - dayNumber(s.anchor)) / (s.every * (s.unit === 'week' ? 7 : 1)))
  const k = Math.floor((monthsOf(date) - monthsOf(s.anchor)) / (s.every * (s.unit === 'year' ? 12 : 1)))
  const b = boundary(s, k)
  return b !== null && b > date ? k - 1 : k
}

/** The first boundary after `date` (the anchor when `date` is before it); null past 9999-12-31. */
const boundaryAfter = (s: Schedule, date: string): string | null => boundary(s, Math.max(0, indexAt(s, date) + 1))

// -------------------------------------------------------------------------------------
// what the server passes in (contract preamble, R-17, R-18)
// -------------------------------------------------------------------------------------

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)
const isStrings = (u: unknown): boolean => Array.isArray(u) && u.every((s) => typeof s === 'string')
const isNullableString = (u: unknown): boolean => u === null || typeof u === 'string'
const isCents = (u: unknown): u is number => Number.isSafeInteger(u) && (u as number) >= 0
const isEvery = (u: unknown): u is number => Number.isInteger(u) && (u as number) >= 1 && (u as number) <= 366
const isUnit = (u: unknown): u is Unit => u === 'day' || u === 'week' || u === 'month' || u === 'year'

/** The server's own data, checked: a malformed one is its fault, a 500, never a throw. */
const isWellFormed = (c: UpdateContext): boolean => {
  const { request, session } = c
  if (!isObject(request) || !isObject(session)) return false
  const headers: unknown = request.headers
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return false
  if (request.body !== undefined && typeof request.body !== 'string') return false
  if (request.query !== undefined && typeof request.query !== 'string') return false
  const user: unknown = session.user
  if (user !== null && !(isObject(user) && typeof user.id === 'string' && typeof user.email_verified === 'boolean')) return false
  if (!isObject(session.memberships)) return false
  for (const m of Object.values(session.memberships) as ReadonlyArray<unknown>)
    if (!isObject(m) || !(m.role === 'owner' || m.role === 'admin' || m.role === 'member') || !isStrings(m.permissions))
      return false
  const budget: unknown = c.budget
  if (budget !== null && typeof budget !== 'object' && typeof budget !== 'function') return false
  return (
    isDate(c.today) && typeof c.request_id === 'string' && (c.company_member_ids === undefined || isStrings(c.company_member_ids))
  )
}

/**
 * The value of one header, names in any case; absent when two spellings or repeated values
 * disagree, and `false` when a value is neither a string nor a list of strings.
 */
const headerOf = (headers: RequestHeaders, name: string): string | undefined | false => {
  if (typeof headers.get === 'function') {
    const v: unknown = (headers as { readonly get: (name: string) => unknown }).get(name)
    return typeof v === 'string' ? v : undefined
  }
  const plain = headers as Readonly<Record<string, unknown>>
  let found: string | undefined
  let disagree = false
  for (const key of Object.keys(plain)) {
    const v = plain[key]
    if (v === undefined) continue
    if (typeof v !== 'string' && !isStrings(v)) return false
    if (key.toLowerCase() !== name) continue
    for (const s of typeof v === 'string' ? [v] : (v as ReadonlyArray<string>)) {
      if (found !== undefined && found !== s) disagree = true
      found = s
    }
  }
  return disagree ? undefined : found
}

/** `Bearer <key>`, the scheme in any case, the key one run of visible ASCII (RFC 9110's VCHAR). */
const BEARER = /^bearer +[\x21-\x7e]+ *$/i

const BUDGET_FIELDS: ReadonlySet<string> = new Set([
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
])

/** A budget as read from the server's store, before anything is known of its fields. */
type StoredFields = { readonly [K in keyof Budget]: unknown }

/** Each field of the type contract section 2 gives it. */
const hasFieldTypes = (b: StoredFields): b is Budget =>
  typeof b.id === 'string' &&
  typeof b.company_id === 'string' &&
  typeof b.name === 'string' &&
  isNullableString(b.description) &&
  (b.access === 'everyone' || b.access === 'members') &&
  typeof b.currency === 'string' &&
  (b.mode === 'funded' || b.mode === 'tracking') &&
  isNullableString(b.manager_id) &&
  isNullableString(b.co_manager_id) &&
  (b.status === 'open' || b.status === 'closing' || b.status === 'closed') &&
  isDate(b.created_on) &&
  (b.ends_on === null || isDate(b.ends_on)) &&
  (b.recurrence_unit === null || isUnit(b.recurrence_unit)) &&
  (b.recurrence_every === null || isEvery(b.recurrence_every)) &&
  (b.base_amount_cents === null || isCents(b.base_amount_cents)) &&
  (b.recurrence_starts_on === null || isDate(b.recurrence_starts_on)) &&
  isDate(b.period_starts_on) &&
  (b.period_ends_on === null || isDate(b.period_ends_on)) &&
  (b.period_amount_cents === null || isCents(b.period_amount_cents)) &&
  (b.balance_cents === null || isCents(b.balance_cents))

/**
 * the budget consistent. Two choices of the decision records beyond the contract's list:
 * a renewing budget whose next boundary lies past 9999-12-31 has no period_ends_on (ADR 0010),
 * and recurrence_starts_on is never after period_ends_on (ADR 0017).
 */
const isConsistent = (b: Budget): boolean => {
  if (b.mode === 'funded' ? b.balance_cents === null : b.balance_cents !== null) return false
  if (b.period_ends_on !== null && b.period_ends_on <= b.period_starts_on) return false
  if (b.recurrence_unit === null)
    return b.recurrence_every === null && b.base_amount_cents === null && b.recurrence_starts_on === null
  if (b.recurrence_every === null || b.base_amount_cents === null || b.recurrence_starts_on === null) return false
  if (b.period_ends_on !== null) return b.recurrence_starts_on <= b.period_ends_on
  const s = { anchor: b.recurrence_starts_on, unit: b.recurrence_unit, every: b.recurrence_every }
  return boundaryAfter(s, b.period_starts_on) === null
}

/** A stored budget as the contract has it: each field of its type, and consistent. */
export const isStoredBudget = (b: StoredFields): b is Budget => hasFieldTypes(b) && isConsistent(b)

/** Section 6: the period in progress rolled forward to today, and open -> closing on ends_on. */
const rollForward = (b: Budget, today: string): void => {
  if (b.status === 'closed') return
  if (b.period_ends_on !== null && today >= b.period_ends_on) {
    if (b.recurrence_unit === null || b.recurrence_every === null || b.recurrence_starts_on === null) {
      // Renewals stopped: the last period stays, open-ended, with its amount.
      b.period_ends_on = null
    } else {
      const s = { anchor: b.recurrence_starts_on, unit: b.recurrence_unit, every: b.recurrence_every }
      const k = indexAt(s, today)
      b.period_starts_on = boundary(s, k) ?? b.period_starts_on
      b.period_ends_on = boundary(s, k + 1)
      b.period_amount_cents = b.base_amount_cents
    }
  }
  if (b.status === 'open' && b.ends_on !== null && today >= b.ends_on) b.status = 'closing'
}

// -------------------------------------------------------------------------------------
// steps
// -------------------------------------------------------------------------------------

/**
 * Contract section 4 rows 1-5, then the stored budget checked and rolled to today.
 * The budget is read field by field into a fresh object: it is what gets persisted.
 */
export const admit = (c: UpdateContext): UpdateReply | Admitted => {
  const requestId = requestIdOf(c)
  if (!isWellFormed(c)) return internalError(requestId)
  const { headers } = c.request
  const authorization = headerOf(headers, 'authorization')
  const companyHeader = headerOf(headers, 'company-id')
  if (authorization === false || companyHeader === false) return internalError(requestId)
  const user = c.session.user
  if (authorization === undefined || !BEARER.test(authorization) || user === null) return replyWith(requestId, 401, null)
  if (!user.email_verified)
    return replyWith(requestId, 401, { error: 'email_not_verified', message: 'Email address not verified' })
  const companyId = companyHeader === undefined ? '' : companyHeader.trim()
  if (companyId === '') return replyWith(requestId, 401, null)
  if (!Object.hasOwn(c.session.memberships, companyId)) return notFound(requestId)
  const membership = c.session.memberships[companyId]
  const stored = c.budget
  if (membership === undefined || stored === null) return notFound(requestId)
  // Only company_id decides the scope: another company's budget is a 404 whatever it holds.
  const company_id = stored.company_id
  if (company_id !== companyId) return notFound(requestId)
  const budget: StoredFields = {
    id: stored.id,
    company_id,
    name: stored.name,
    description: stored.description,
    access: stored.access,
    currency: stored.currency,
    mode: stored.mode,
    manager_id: stored.manager_id,
    co_manager_id: stored.co_manager_id,
    status: stored.status,
    created_on: stored.created_on,
    ends_on: stored.ends_on,
    recurrence_unit: stored.recurrence_unit,
    recurrence_every: stored.recurrence_every,
    base_amount_cents: stored.base_amount_cents,
    recurrence_starts_on: stored.recurrence_starts_on,
    period_starts_on: stored.period_starts_on,
    period_ends_on: stored.period_ends_on,
    period_amount_cents: stored.period_amount_cents,
    balance_cents: stored.balance_cents
  }
  if (!hasFieldTypes(budget) || !isConsistent(budget)) return internalError(requestId)
  rollForward(budget, c.today)
  return { caller: { user_id: user.id, role: membership.role, permissions: membership.permissions }, budget }
}

/** owner, admin or budgets_manage may do everything; the manager and co-manager the rest. */
export const rightsOf = (caller: Caller, budget: Budget): Rights =>
  caller.role === 'owner' || caller.role === 'admin' || caller.permissions.includes('budgets_manage')
    ? 'full'
    : budget.manager_id === caller.user_id || budget.co_manager_id === caller.user_id
      ? 'manager'
      : 'none'

/** JSON types of the update fields (section 2); a value of the right type may still be a 422. */
const expectedTypes: Readonly<Record<string, string>> = {
  name: 'a string',
  description: 'a string or null',
  access: 'a string',
  ends_on: 'a string or null',
  manager_id: 'a string or null',
  recurrence_unit: 'a string or null',
  recurrence_every: 'a number or null',
  base_amount_cents: 'a number or null'
}

const hasExpectedType = (key: string, v: unknown): boolean => {
  switch (key) {
    case 'name':
    case 'access':
      return typeof v === 'string'
    case 'recurrence_every':
    case 'base_amount_cents':
      return v === null || typeof v === 'number'
    default:
      return v === null || typeof v === 'string'
  }
}

/**
 * Rows 7 and 8: the body parsed, its `budget` wrapper read, the update fields of their JSON
 * types; then which of the keys sent change the budget (a value it already holds does not).
 */
export const readUpdate = (c: UpdateContext, budget: Budget): UpdateReply | Update => {
  const requestId = requestIdOf(c)
  const text = c.request.body
  const precondition = { message: 'The request body must hold the budget under the key "budget"' }
  if (text === undefined || text.trim() === '') return replyWith(requestId, 412, precondition)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return badRequest(requestId, 'The body is not valid JSON')
  }
  if (!isObject(body)) return badRequest(requestId, 'The body must be a JSON object')
  const sent = Object.hasOwn(body, 'budget') ? body.budget : undefined
  if (sent === undefined || sent === null) return replyWith(requestId, 412, precondition)
  if (!isObject(sent)) return badRequest(requestId, 'budget must be a JSON object')
  const keys = Object.keys(sent)
  let wrong = ''
  for (const key of keys) {
    const expected = Object.hasOwn(expectedTypes, key) ? expectedTypes[key] : undefined
    if (expected !== undefined && !hasExpectedType(key, sent[key]))
      wrong += `${wrong === '' ? '' : '; '}budget.${key} must be ${expected}`
  }
  if (wrong !== '') return badRequest(requestId, wrong)
  const changed: Array<string> = []
  for (const key of keys) if (!BUDGET_FIELDS.has(key) || sent[key] !== budget[key as keyof Budget]) changed.push(key)
  return { sent, changed }
}

/** Rows 9 and 10: manager_id, then the recurrence fields, need full rights. */
export const fieldRightsRefusal = (requestId: string, rights: Rights, changed: ReadonlyArray<string>): UpdateReply | null => {
  if (rights === 'full') return null
  if (changed.includes('manager_id'))
    return replyWith(requestId, 403, { error_code: 'budgets/cannot_change_manager', message: messages.manager })
  if (changed.includes('recurrence_unit') || changed.includes('recurrence_every') || changed.includes('base_amount_cents'))
    return replyWith(requestId, 403, { error_code: 'budgets/cannot_change_recurrence', message: messages.recurrence })
  return null
}

/** Row 11: a closed budget takes no update. */
export const closedRefusal = (requestId: string, budget: Budget): UpdateReply | null =>
  budget.status === 'closed' ? replyWith(requestId, 409, { error: 'conflict', message: messages.closed }) : null

/** ADR 0013: no text the service keeps holds U+0000. */
const NUL = 'must not contain the NUL character'

const nameProblem = (v: unknown): string | null => {
  if (typeof v !== 'string' || v.trim() === '') return "can't be blank"
  if (v.includes('\u0000')) return NUL
  return v.length > 255 && Array.from(v).length > 255 ? 'is too long (maximum is 255 characters)' : null
}

/**
 * Rows 12 and 13: every changed value validated (one 422 naming every invalid field), else the
 * budget updated with what R-12 (recurrence) and R-15 (reopen) derive.
 */
export const applyUpdate = (c: UpdateContext, b: Budget, { sent, changed }: Update): UpdateReply => {
  const requestId = requestIdOf(c)
  const today = c.today
  const errors = new Map<string, Array<string>>()
  const reject = (field: string, message: string): void => {
    const list = errors.get(field)
    if (list === undefined) errors.set(field, [message])
    else list.push(message)
  }
  const unitChanged = changed.includes('recurrence_unit')
  const everyChanged = changed.includes('recurrence_every')
  const baseChanged = changed.includes('base_amount_cents')
  const sentUnit = sent.recurrence_unit
  // The unit the budget will have; undefined when the one sent is not a unit.
  const unit = !unitChanged ? b.recurrence_unit : sentUnit === null || isUnit(sentUnit) ? sentUnit : undefined
  const renewing = unit !== null && unit !== undefined

  for (const key of changed) {
    const v = sent[key]
    switch (key) {
      case 'name': {
        const problem = nameProblem(v)
        if (problem !== null) reject(key, problem)
        break
      }
      case 'description':
        if (typeof v === 'string' && v.includes('\u0000')) reject(key, NUL)
        break
      case 'access':
        if (v !== 'everyone' && v !== 'members') reject(key, 'is not included in the list')
        break
      case 'ends_on':
        if (v === null) break
        if (!isDate(v)) reject(key, 'is not a valid date (YYYY-MM-DD)')
        else if (v <= today) reject(key, `must be after ${today}`)
        break
      case 'manager_id':
        if (typeof v !== 'string') break
        if (v.includes('\u0000')) reject(key, NUL)
        else if (c.company_member_ids !== undefined && !c.company_member_ids.includes(v))
          reject(key, 'is not a member of the company')
        break
      case 'recurrence_unit':
        if (unit === undefined) reject(key, 'is not included in the list')
        break
      case 'recurrence_every':
        if (v === null ? renewing : !isEvery(v)) reject(key, 'must be an integer from 1 to 366')
        else if (v !== null && unit === null) reject(key, 'must be null while recurrence_unit is null')
        break
      case 'base_amount_cents':
        if (v === null) {
          if (renewing) reject(key, 'is required while recurrence is on')
        } else if (!isCents(v)) reject(key, 'must be a whole number of cents, 0 or more')
        else if (unit === null) reject(key, 'must be null while recurrence_unit is null')
        break
      default:
        reject(key, BUDGET_FIELDS.has(key) ? 'cannot be changed' : 'is not a field of a budget')
    }
  }
  // Recurrence turned on needs a base amount, sent or already held.
  if (renewing && b.recurrence_unit === null && !baseChanged && b.base_amount_cents === null)
    reject('base_amount_cents', 'is required while recurrence is on')
  if (errors.size > 0) return replyWith(requestId, 422, { errors: Object.fromEntries(errors) })

  for (const key of changed)
    if (key === 'name' || key === 'description' || key === 'access' || key === 'ends_on' || key === 'manager_id')
      (b as unknown as Record<string, unknown>)[key] = sent[key]
  // a closing budget given a new closing date is open again.
  if (b.status === 'closing' && changed.includes('ends_on')) b.status = 'open'
  if ((unitChanged || everyChanged || baseChanged) && !changeRecurrence(b, today, unit ?? null, everyChanged, baseChanged, sent))
    return replyWith(requestId, 422, {
      errors: { recurrence_unit: ['cannot take effect: the period in progress lasts past 9999-12-31'] }
    })
  return {
    status: 200,
    headers: { 'X-Request-Id': requestId, 'Content-Type': 'application/json; charset=utf-8' },
    body: b,
    budget: b
  }
}

/**
 * the period in progress keeps its start, end and amount; a change applies from the next
 * period. False when the result cannot be kept (no boundary left before 9999-12-31).
 */
const changeRecurrence = (
  b: Budget,
  today: string,
  unit: Unit | null,
  everyChanged: boolean,
  baseChanged: boolean,
  sent: Readonly<Record<string, unknown>>
): boolean => {
  const base = baseChanged ? (sent.base_amount_cents as number | null) : b.base_amount_cents
  if (unit === null) {
    // Renewals stop; the period in progress runs to its end.
    b.recurrence_unit = null
    b.recurrence_every = null
    b.base_amount_cents = null
    b.recurrence_starts_on = null
    return true
  }
  const every = (everyChanged ? (sent.recurrence_every as number | null) : null) ?? b.recurrence_every ?? 1
  if (b.recurrence_unit === null) {
    // Turned on: renewals resume from the end of the period in progress, or count from created_on.
    if (b.period_ends_on !== null) b.recurrence_starts_on = b.period_ends_on
    else {
      b.recurrence_starts_on = b.created_on
      b.period_ends_on = boundaryAfter({ anchor: b.created_on, unit, every }, today)
    }
  } else if (unit !== b.recurrence_unit || every !== b.recurrence_every)
    b.recurrence_starts_on = b.period_ends_on ?? b.recurrence_starts_on
  b.recurrence_unit = unit
  b.recurrence_every = every
  b.base_amount_cents = base
  return isConsistent(b)
}

// -------------------------------------------------------------------------------------
// the decision
// -------------------------------------------------------------------------------------

/** PATCH /v1/budgets/{id}, contract sections 4 and 5 in order. Never throws. */
export const respondPlain = (c: UpdateContext): UpdateReply => {
  try {
    const admitted = admit(c)
    if ('status' in admitted) return admitted
    const { caller, budget } = admitted
    const requestId = c.request_id
    const rights = rightsOf(caller, budget)
    if (rights === 'none') return replyWith(requestId, 401, { message: messages.unauthorized })
    const update = readUpdate(c, budget)
    if ('status' in update) return update
    return (
      fieldRightsRefusal(requestId, rights, update.changed) ?? closedRefusal(requestId, budget) ?? applyUpdate(c, budget, update)
    )
  } catch {
    // A getter of the server's objects that throws.
    return internalError(requestIdOf(c))
  }
}
