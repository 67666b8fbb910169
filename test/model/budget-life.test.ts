/**
 * A budget's whole life, model-based (fast-check `commands` / `modelRun`): a tiny in-memory
 * server holds one budget and answers each request with the library's facades, persisting
 * `reply.budget` on a 200; a plain model of the contract (./model.ts) says what each reply and the
 * budget held must be. Commands: updates by random callers (valid, no-op resends, invalid values,
 * bad bodies), recurrence stops and restarts, reopenings, top-ups, withdrawals, amount changes, day
 * advances (1 day to 10 years), reaching the closing date, and the server closing a closing budget.
 * After each step the reply agrees with the model and the invariants hold on what the server holds.
 */
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  advanceBudget,
  permittedUpdateFields,
  respondAmount,
  respondBudgetUpdate,
  respondTopUp,
  respondWithdraw,
  upcomingPeriods
} from '../api'
import { runs } from '../runs'
import {
  advance,
  boundary,
  COMPANY,
  dateOf,
  dayOf,
  type Expected,
  expectMoney,
  expectUpdate,
  hasFullRights,
  isRealDate,
  MEMBERS,
  type ModelBudget,
  type ModelRequest,
  type MoneyOperation,
  onSchedule,
  OTHER_COMPANY,
  plusDays,
  READ_ONLY,
  scheduleOf,
  type Unit,
  upcoming,
  USERS
} from './model'
import { budgetOf } from '../fixtures'

// -------------------------------------------------------------------------------------
// statistics: what the commands reached
// -------------------------------------------------------------------------------------

const stats = {
  requests: 0,
  reached: 0,
  other: 0,
  outcomes: new Map<string, number>(),
  transitions: new Map<string, number>()
}
const bump = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1)

// -------------------------------------------------------------------------------------
// the real system: a server holding one budget
// -------------------------------------------------------------------------------------

interface Model {
  today: string
  stored: ModelBudget
}

// The library's own types, taken from the functions under test alone.
type Context = Parameters<typeof respondBudgetUpdate>[0]
type BudgetReply = ReturnType<typeof respondBudgetUpdate>
type BudgetJson = Context['budget'] & object
type Budget = ReturnType<typeof advanceBudget>
type CalendarDate = Parameters<typeof advanceBudget>[1]

class Server {
  private requests = 0
  constructor(
    public stored: BudgetJson,
    public today: string
  ) {}

  /** Calls a facade as a server would, and persists the budget of a 200. */
  call(facade: (c: Context) => BudgetReply, request: ServerRequest): { reply: BudgetReply; id: string } {
    const id = `req-${++this.requests}`
    const reply = facade({
      request: request.body === undefined ? { headers: request.headers } : { headers: request.headers, body: request.body },
      session: request.session,
      budget: this.stored,
      today: this.today,
      request_id: id,
      company_member_ids: MEMBERS
    })
    if (reply.status === 200) this.stored = reply.budget
    return { reply, id }
  }

  /** The budget as of today, as a client reads it. */
  observe(): Budget {
    return advanceBudget(decoded(this.stored), calendarDate(this.today))
  }
}

/** A stored budget as the typed functions take it (checkConsistent and the model vouch for it). */
const decoded = (json: BudgetJson | ModelBudget): Budget => json as Budget

const calendarDate = (s: string): CalendarDate => {
  if (!isRealDate(s)) throw new Error(`not a date: ${s}`)
  return s as CalendarDate
}

// -------------------------------------------------------------------------------------
// callers
// -------------------------------------------------------------------------------------

type CallerKind =
  'admin' | 'owner' | 'budgets_manage' | 'manager' | 'co_manager' | 'member' | 'unverified' | 'other_company' | 'anonymous'

/** Mostly callers who may act, so that most sequences get 200s. */
const callerArb = (): fc.Arbitrary<Caller> =>
  fc.record({
    kind: fc.oneof(
      { weight: 3, arbitrary: fc.constant<CallerKind>('admin') },
      { weight: 2, arbitrary: fc.constant<CallerKind>('owner') },
      { weight: 2, arbitrary: fc.constant<CallerKind>('budgets_manage') },
      { weight: 3, arbitrary: fc.constant<CallerKind>('manager') },
      { weight: 2, arbitrary: fc.constant<CallerKind>('co_manager') },
      { weight: 1, arbitrary: fc.constantFrom<CallerKind>('member', 'unverified', 'other_company', 'anonymous') }
    ),
    // header spellings; the other company's user sends either company's id
    style: fc.nat(5)
  })

interface Caller {
  readonly kind: CallerKind
  readonly style: number
}

interface ServerRequest {
  readonly headers: Record<string, string>
  readonly session: {
    user: { id: string; email_verified: boolean } | null
    memberships: Record<string, { role: 'owner' | 'admin' | 'member'; permissions: Array<string> }>
  }
  readonly body: string | undefined
  readonly model: ModelRequest
}

const userOf = (kind: CallerKind, b: ModelBudget): string | null => {
  switch (kind) {
    case 'admin':
      return 'u-admin'
    case 'owner':
      return 'u-owner'
    case 'budgets_manage':
      return 'u-bm'
    case 'manager':
      return b.manager_id ?? 'u-dave'
    case 'co_manager':
      return b.co_manager_id ?? 'u-dave'
    case 'member':
      return ['u-carol', 'u-dave', 'u-alice', 'u-bob'].find((u) => u !== b.manager_id && u !== b.co_manager_id) ?? 'u-dave'
    case 'unverified':
      return 'u-unverified'
    case 'other_company':
      return 'u-other'
    case 'anonymous':
      return null
  }
}

const requestOf = (caller: Caller, b: ModelBudget, body: string | undefined): ServerRequest => {
  const user = userOf(caller.kind, b)
  const company = caller.kind === 'other_company' && caller.style % 2 === 1 ? OTHER_COMPANY : COMPANY
  const authName = ['Authorization', 'authorization', 'AUTHORIZATION'][caller.style % 3] ?? 'Authorization'
  const companyName = caller.style < 3 ? 'company-id' : 'Company-Id'
  const headers: Record<string, string> = { [companyName]: company }
  if (user !== null) headers[authName] = `${caller.style % 2 === 0 ? 'Bearer' : 'bearer'} key-${user}`
  else if (caller.style % 3 === 1) headers[authName] = 'Bearer '
  else if (caller.style % 3 === 2) headers[authName] = 'Basic dTpw'
  const found = user === null ? undefined : USERS[user]
  const session: ServerRequest['session'] =
    user === null || found === undefined
      ? { user: null, memberships: {} }
      : {
          user: { id: user, email_verified: found.verified },
          memberships: { [found.company]: { role: found.role, permissions: [...found.permissions] } }
        }
  return { headers, session, body, model: { user, company, body } }
}

/** The reply a caller alone decides (section 4 and the guard of row 6), or undefined. */
const callerTarget = (kind: CallerKind, money: boolean): number | undefined =>
  kind === 'other_company'
    ? 404
    : kind === 'member' || kind === 'unverified' || kind === 'anonymous'
      ? 401
      : money && (kind === 'manager' || kind === 'co_manager')
        ? 401
        : undefined

// -------------------------------------------------------------------------------------
// update bodies: edits resolved against the budget as the client reads it
// -------------------------------------------------------------------------------------

/** An edit of one field: a valid value, the value held (a no-op resend), an invalid value (422), a wrong JSON type (400). */
type Edit = { readonly kind: 'valid' | 'invalid' | 'wrongType'; readonly value: unknown } | { readonly kind: 'keep' }

/** A date relative to today, resolved when the command runs. */
interface InDays {
  readonly in: number
}
const isInDays = (u: unknown): u is InDays => typeof u === 'object' && u !== null && 'in' in u

const edit = (
  valid: fc.Arbitrary<unknown>,
  invalid: fc.Arbitrary<unknown>,
  wrongType: fc.Arbitrary<unknown>
): fc.Arbitrary<Edit> =>
  fc.oneof(
    { weight: 85, arbitrary: valid.map((value) => ({ kind: 'valid' as const, value })) },
    { weight: 8, arbitrary: fc.constant({ kind: 'keep' as const }) },
    { weight: 5, arbitrary: invalid.map((value) => ({ kind: 'invalid' as const, value })) },
    { weight: 2, arbitrary: wrongType.map((value) => ({ kind: 'wrongType' as const, value })) }
  )

const futureDays = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 60 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3000 }) }
)

const edits = {
  name: edit(
    fc.constantFrom('Travel', 'Team lunch', 'Q3 marketing', '  Padded  ', 'Ünïcödé ✈', 'x'.repeat(255), '✈'.repeat(255)),
    fc.constantFrom('', '   ', '\t\n', 'x'.repeat(256), '✈'.repeat(256)),
    fc.constantFrom(42, null, true)
  ),
  description: edit(fc.constantFrom('Flights and hotels', null, '', 'Ops'), fc.constant(null), fc.constantFrom(5, {})),
  access: edit(fc.constantFrom('everyone', 'members'), fc.constantFrom('public', 'Everyone', ''), fc.constantFrom(1, null)),
  ends_on: edit(
    fc.oneof({ weight: 5, arbitrary: futureDays.map((n): InDays => ({ in: n })) }, { weight: 1, arbitrary: fc.constant(null) }),
    fc.oneof(
      fc.integer({ min: -400, max: 0 }).map((n): InDays => ({ in: n })),
      fc.constantFrom('2026-02-30', '2027-13-01', 'tomorrow', '2027-1-05', '0000-01-01', '10000-01-01')
    ),
    fc.constantFrom(20270101, false)
  ),
  manager_id: edit(
    fc.constantFrom(...MEMBERS, null),
    fc.constantFrom('u-stranger', 'u-other', ''),
    fc.constantFrom(7, ['u-alice'])
  )
}
type EditedField = keyof typeof edits

const units: ReadonlyArray<Unit> = ['day', 'week', 'month', 'year']
const unitArb = fc.constantFrom(...units)
const everyArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 366 }) }
)
const baseArb = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(0))

/** A change of recurrence, resolved against what the budget holds when it runs. */
type RecurrenceEdit =
  | { readonly kind: 'on'; readonly unit: Unit; readonly every: number | null | undefined; readonly base: number | undefined }
  | { readonly kind: 'base'; readonly base: number }
  | { readonly kind: 'stop'; readonly resend: 'none' | 'nulls' | 'values' }
  | { readonly kind: 'keep' }
  | { readonly kind: 'invalidEvery'; readonly every: number }
  | { readonly kind: 'invalidBase'; readonly base: number }
  | { readonly kind: 'invalidUnit'; readonly unit: string; readonly withBase: boolean }
  | { readonly kind: 'everyWhileOff' }
  | { readonly kind: 'onWithoutBase'; readonly unit: Unit }
  | { readonly kind: 'wrongType'; readonly field: string; readonly value: unknown }

const onArb = fc
  .record({
    unit: unitArb,
    // null: "not sent" as far as a budget that does not renew is concerned (it holds null)
    every: fc.oneof(
      { weight: 10, arbitrary: fc.option(everyArb, { nil: undefined }) },
      { weight: 1, arbitrary: fc.constant(null) }
    ),
    base: baseArb
  })
  .map(({ unit, every, base }): RecurrenceEdit => ({ kind: 'on', unit, every, base }))
const stopArb = fc
  .constantFrom<'none' | 'nulls' | 'values'>('none', 'none', 'nulls', 'values')
  .map((resend): RecurrenceEdit => ({ kind: 'stop', resend }))

const recurrenceArb: fc.Arbitrary<RecurrenceEdit> = fc.oneof(
  { weight: 30, arbitrary: onArb },
  { weight: 15, arbitrary: baseArb.map((base): RecurrenceEdit => ({ kind: 'base', base })) },
  { weight: 15, arbitrary: stopArb },
  { weight: 10, arbitrary: fc.constant<RecurrenceEdit>({ kind: 'keep' }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 367, 1.5, -2).map((every): RecurrenceEdit => ({ kind: 'invalidEvery', every })) },
  { weight: 2, arbitrary: fc.constantFrom(-1, 1.5, 2 ** 53).map((base): RecurrenceEdit => ({ kind: 'invalidBase', base })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ unit: fc.constantFrom('fortnight', 'Month', ''), withBase: fc.boolean() })
      .map(({ unit, withBase }): RecurrenceEdit => ({ kind: 'invalidUnit', unit, withBase }))
  },
  { weight: 1, arbitrary: fc.constant<RecurrenceEdit>({ kind: 'everyWhileOff' }) },
  { weight: 1, arbitrary: unitArb.map((unit): RecurrenceEdit => ({ kind: 'onWithoutBase', unit })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<[string, unknown]>(
        ['recurrence_every', '2'],
        ['base_amount_cents', '100'],
        ['recurrence_unit', 5],
        ['recurrence_every', true]
      )
      .map(([field, value]): RecurrenceEdit => ({ kind: 'wrongType', field, value }))
  }
)

/** The fields a recurrence edit sends, and the outcome it is made for. */
const resolveRecurrence = (
  r: RecurrenceEdit,
  b: ModelBudget
): { fields: Record<string, unknown>; target: number; changes: boolean } => {
  const off = b.recurrence_unit === null
  switch (r.kind) {
    case 'on': {
      const fields: Record<string, unknown> = { recurrence_unit: r.unit }
      if (r.every !== undefined && (r.every !== null || off)) fields.recurrence_every = r.every
      if (off || r.base !== undefined) fields.base_amount_cents = r.base
      return { fields, target: 200, changes: true }
    }
    case 'base':
      // Over a budget that does not renew, a base comes with a unit: turning recurrence on.
      return {
        fields: off ? { recurrence_unit: 'month', base_amount_cents: r.base } : { base_amount_cents: r.base },
        target: 200,
        changes: true
      }
    case 'stop':
      return {
        fields: {
          recurrence_unit: null,
          ...(r.resend === 'nulls' ? { recurrence_every: null, base_amount_cents: null } : {}),
          ...(r.resend === 'values' ? { recurrence_every: b.recurrence_every, base_amount_cents: b.base_amount_cents } : {})
        },
        target: 200,
        changes: true
      }
    case 'keep':
      return {
        fields: {
          recurrence_unit: b.recurrence_unit,
          recurrence_every: b.recurrence_every,
          base_amount_cents: b.base_amount_cents
        },
        target: 200,
        changes: false
      }
    case 'invalidEvery':
      return { fields: { recurrence_every: r.every }, target: 422, changes: true }
    case 'invalidBase':
      return { fields: { base_amount_cents: r.base }, target: 422, changes: true }
    case 'invalidUnit':
      // An invalid unit names only itself: it turns nothing on (so it asks for no base).
      return {
        fields: r.withBase ? { recurrence_unit: r.unit, base_amount_cents: 100 } : { recurrence_unit: r.unit },
        target: 422,
        changes: true
      }
    case 'everyWhileOff':
      return { fields: { recurrence_unit: null, recurrence_every: b.recurrence_every === 3 ? 5 : 3 }, target: 422, changes: true }
    case 'onWithoutBase':
      return { fields: off ? { recurrence_unit: r.unit } : { base_amount_cents: null }, target: 422, changes: true }
    case 'wrongType':
      return { fields: { [r.field]: r.value }, target: 400, changes: true }
  }
}

const describeRecurrence = (r: RecurrenceEdit): string => {
  switch (r.kind) {
    case 'on':
      return `on(${r.unit}${r.every === undefined ? '' : ` every ${String(r.every)}`}${r.base === undefined ? '' : ` base ${r.base}`})`
    case 'base':
      return `base(${r.base})`
    case 'stop':
      return `stop(${r.resend})`
    case 'keep':
      return 'keep'
    case 'invalidEvery':
      return `every(${r.every})`
    case 'invalidBase':
      return `base(${r.base})`
    case 'invalidUnit':
      return `unit(${JSON.stringify(r.unit)}${r.withBase ? ', base 100' : ''})`
    case 'everyWhileOff':
      return 'off with an every'
    case 'onWithoutBase':
      return `on(${r.unit}) without a base`
    case 'wrongType':
      return `${r.field}=${JSON.stringify(r.value)}`
  }
}

const wrappers = [
  'ok',
  'extraTopKey',
  'noBody',
  'blank',
  'noWrapper',
  'nullWrapper',
  'badJson',
  'notObject',
  'budgetNotObject'
] as const
type Wrapper = (typeof wrappers)[number]
const wrapperTarget: Readonly<Record<Wrapper, number | undefined>> = {
  ok: undefined,
  extraTopKey: undefined,
  noBody: 412,
  blank: 412,
  noWrapper: 412,
  nullWrapper: 412,
  badJson: 400,
  notObject: 400,
  budgetNotObject: 400
}

interface UpdateSpec {
  readonly edits: Partial<Record<EditedField, Edit>>
  readonly recurrence?: RecurrenceEdit
  /** a field outside the update list, sent with the value held or another one */
  readonly readOnly?: { readonly field: (typeof READ_ONLY)[number]; readonly same: boolean }
  readonly unknownKey?: string
  /** the whole budget as read, with the edits on top */
  readonly resend: boolean
  readonly wrapper: Wrapper
}

/** `arb` in `percent` of the cases, else undefined (the field is not sent). */
const maybe = <T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary: arb })

const wrapperArb: fc.Arbitrary<Wrapper> = fc.oneof(
  { weight: 50, arbitrary: fc.constantFrom<Wrapper>('ok', 'ok', 'extraTopKey') },
  { weight: 4, arbitrary: fc.constantFrom(...wrappers) }
)

const readOnlyArb = fc.record({ field: fc.constantFrom(...READ_ONLY), same: fc.boolean() })

const updateSpecArb: fc.Arbitrary<UpdateSpec> = fc
  .record({
    name: maybe(edits.name, 30),
    description: maybe(edits.description, 20),
    access: maybe(edits.access, 20),
    ends_on: maybe(edits.ends_on, 30),
    manager_id: maybe(edits.manager_id, 20),
    recurrence: maybe(recurrenceArb, 40),
    readOnly: maybe(readOnlyArb, 10),
    unknownKey: maybe(fc.constantFrom('colour', 'budget_id', 'balance', '__proto__', 'constructor'), 5),
    resend: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    wrapper: wrapperArb
  })
  .map((r) => {
    const chosen: Partial<Record<EditedField, Edit>> = {}
    for (const field of Object.keys(edits) as Array<EditedField>) {
      const e = r[field]
      if (e !== undefined) chosen[field] = e
    }
    return {
      edits: chosen,
      resend: r.resend,
      wrapper: r.wrapper,
      ...(r.recurrence === undefined ? {} : { recurrence: r.recurrence }),
      ...(r.readOnly === undefined ? {} : { readOnly: r.readOnly }),
      ...(r.unknownKey === undefined ? {} : { unknownKey: r.unknownKey })
    }
  })

/** A value of the same JSON type as `v` but different from it. */
const otherValue = (field: string, v: unknown, today: string): unknown => {
  if (field === 'status') return v === 'open' ? 'closing' : 'open'
  if (field === 'mode') return v === 'funded' ? 'tracking' : 'funded'
  if (typeof v === 'number') return v + 1
  if (typeof v === 'string') return isRealDate(v) ? plusDays(v, 1) : `${v}-x`
  return field.endsWith('_on') ? today : field.endsWith('_cents') ? 5 : 'u-carol'
}

/** The request body text of an update, and the outcome it is made for (before the caller's part). */
const updateBody = (
  spec: UpdateSpec,
  b: ModelBudget,
  today: string,
  manages: boolean
): { body: string | undefined; target: number } => {
  // A null-prototype object, so that `__proto__` is an own key like any other.
  const fields = Object.create(null) as Record<string, unknown>
  if (spec.resend) Object.assign(fields, b)
  let target = 200
  const aim = (t: number) => {
    // the contract's order: 400 before 403 before 422
    const rank = (s: number) => [400, 403, 422, 200].indexOf(s)
    if (rank(t) < rank(target)) target = t
  }
  for (const [field, e] of Object.entries(spec.edits) as Array<[EditedField, Edit]>) {
    const value = e.kind === 'keep' ? b[field] : isInDays(e.value) ? plusDays(today, e.value.in) : e.value
    fields[field] = value
    if (e.kind === 'invalid') aim(422)
    if (e.kind === 'wrongType') aim(400)
    if (field === 'manager_id' && e.kind !== 'keep' && manages) aim(403)
  }
  if (spec.recurrence !== undefined) {
    const r = resolveRecurrence(spec.recurrence, b)
    Object.assign(fields, r.fields)
    aim(r.target)
    if (r.changes && manages) aim(403)
  }
  if (spec.readOnly !== undefined) {
    const held = (b as unknown as Record<string, unknown>)[spec.readOnly.field]
    fields[spec.readOnly.field] = spec.readOnly.same ? held : otherValue(spec.readOnly.field, held, today)
    if (!spec.readOnly.same) aim(422)
  }
  if (spec.unknownKey !== undefined) {
    fields[spec.unknownKey] = 'x'
    aim(422)
  }
  const wrapped = JSON.stringify({ budget: fields })
  const body: Record<Wrapper, string | undefined> = {
    ok: wrapped,
    extraTopKey: JSON.stringify({ note: 'ignored', budget: fields }),
    noBody: undefined,
    blank: ' \n ',
    noWrapper: JSON.stringify(fields),
    nullWrapper: '{"budget":null}',
    badJson: wrapped.slice(0, -1),
    notObject: `[${wrapped}]`,
    budgetNotObject: JSON.stringify({ budget: [fields] })
  }
  return { body: body[spec.wrapper], target: wrapperTarget[spec.wrapper] ?? target }
}

const describeEdit = (e: Edit): string =>
  e.kind === 'keep'
    ? 'keep'
    : `${e.kind === 'valid' ? '' : `${e.kind} `}${isInDays(e.value) ? `today${e.value.in < 0 ? '' : '+'}${e.value.in}` : JSON.stringify(e.value)}`

const describeUpdate = (spec: UpdateSpec): string => {
  const parts = Object.entries(spec.edits).map(([f, e]) => `${f}: ${describeEdit(e)}`)
  if (spec.recurrence !== undefined) parts.push(`recurrence: ${describeRecurrence(spec.recurrence)}`)
  if (spec.readOnly !== undefined) parts.push(`${spec.readOnly.field}: ${spec.readOnly.same ? 'as held' : 'changed'}`)
  if (spec.unknownKey !== undefined) parts.push(`${spec.unknownKey}: "x"`)
  return `${spec.resend ? 'whole budget + ' : ''}{${parts.join(', ')}}${spec.wrapper === 'ok' ? '' : ` as ${spec.wrapper}`}`
}

// -------------------------------------------------------------------------------------
// money bodies
// -------------------------------------------------------------------------------------

const moneyBodies = ['ok', 'extraKey', 'noBody', 'badJson', 'missing', 'string', 'null', 'array'] as const
type MoneyBody = (typeof moneyBodies)[number]

interface MoneySpec {
  readonly op: MoneyOperation
  /** 'fit': the operation the budget's mode takes (top-up or withdraw when funded, amount when tracking) */
  readonly mode: 'fit' | 'wrong'
  readonly amount:
    | { readonly kind: 'fit'; readonly n: number; readonly share: number }
    | { readonly kind: 'toLimit' }
    | { readonly kind: 'over' }
    | { readonly kind: 'invalid'; readonly value: number }
  readonly body: MoneyBody
}

const moneySpecArb: fc.Arbitrary<MoneySpec> = fc.record({
  op: fc.constantFrom<MoneyOperation>('top_up', 'withdraw', 'amount'),
  mode: fc.oneof({ weight: 19, arbitrary: fc.constant<'fit'>('fit') }, { weight: 1, arbitrary: fc.constant<'wrong'>('wrong') }),
  amount: fc.oneof(
    {
      weight: 16,
      arbitrary: fc.record({
        kind: fc.constant('fit' as const),
        n: fc.integer({ min: 1, max: 1_000_000 }),
        share: fc.double({ min: 0, max: 1, noNaN: true })
      })
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'toLimit' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'over' as const }) },
    { weight: 1, arbitrary: fc.constantFrom(-5, 1.5, 2 ** 53).map((value) => ({ kind: 'invalid' as const, value })) }
  ),
  body: fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom<MoneyBody>('ok', 'ok', 'extraKey') },
    { weight: 3, arbitrary: fc.constantFrom(...moneyBodies) }
  )
})

const operationOf = (spec: MoneySpec, b: ModelBudget): MoneyOperation => {
  const funded = b.mode === 'funded'
  const takes = funded ? (spec.op === 'amount' ? 'top_up' : spec.op) : 'amount'
  return spec.mode === 'fit' ? takes : funded ? 'amount' : spec.op === 'withdraw' ? 'withdraw' : 'top_up'
}

const moneyBody = (
  spec: MoneySpec,
  op: MoneyOperation,
  b: ModelBudget
): { body: string | undefined; target: number; amount: number } => {
  const balance = b.balance_cents ?? 0
  const max = Number.MAX_SAFE_INTEGER
  const a = spec.amount
  const amount =
    a.kind === 'fit'
      ? op === 'withdraw'
        ? Math.max(1, Math.floor(balance * a.share))
        : op === 'amount'
          ? Math.floor(a.n * a.share)
          : a.n
      : a.kind === 'toLimit'
        ? op === 'top_up'
          ? max - balance
          : op === 'withdraw'
            ? balance
            : max
        : a.kind === 'over'
          ? op === 'top_up'
            ? max - balance + 1
            : op === 'withdraw'
              ? balance + 1
              : -1
          : a.value
  const target = spec.mode === 'wrong' || a.kind === 'over' || a.kind === 'invalid' ? 422 : 200
  const bodies: Record<MoneyBody, string | undefined> = {
    ok: JSON.stringify({ amount_cents: amount }),
    extraKey: JSON.stringify({ amount_cents: amount, balance_cents: 0, currency: 'USD' }),
    noBody: undefined,
    badJson: `{"amount_cents": ${amount}`,
    missing: JSON.stringify({ amount: amount }),
    string: JSON.stringify({ amount_cents: String(amount) }),
    null: '{"amount_cents":null}',
    array: JSON.stringify([{ amount_cents: amount }])
  }
  return { body: bodies[spec.body], target: spec.body === 'ok' || spec.body === 'extraKey' ? target : 400, amount }
}

// -------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------

const show = (u: unknown) => JSON.stringify(u, null, 1).replace(/\n\s*/g, ' ')

/** Runs `f`, and on failure says where: the step, the states, the request and the replies. */
const explained = (context: () => string, f: () => void) => {
  try {
    f()
  } catch (e) {
    throw new Error(`${context()}\n${e instanceof Error ? e.message : String(e)}`)
  }
}

/**
 * Deep equality of JSON-shaped data, prototypes and keys included (as `toStrictEqual`), cheap
 * enough to run thousands of times a second; `expect` is called only to render a failure.
 */
const equal = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  const ob = b as Record<string, unknown>
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as Record<string, unknown>)[k], ob[k]))
  )
}

const same = (actual: unknown, expected: unknown, what: string) => {
  if (equal(actual, expected)) return
  const record = (u: unknown) =>
    typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined
  const [a, e] = [record(actual), record(expected)]
  // Name the fields that differ: a budget's diff is otherwise cut short.
  const differ =
    a === undefined || e === undefined
      ? ''
      : [...new Set([...Object.keys(a), ...Object.keys(e)])]
          .filter((k) => !equal(a[k], e[k]))
          .map((k) => `\n  ${k}: expected ${show(e[k])}, got ${show(a[k])}`)
          .join('')
  expect(actual, `${what}${differ}`).toStrictEqual(expected)
}

const holds = (condition: boolean, what: string) => {
  if (!condition) expect.fail(what)
}

/** `{ ...fixed, message: <a string> }` exactly. */
const shaped = (body: unknown, fixed: Record<string, unknown>) => {
  const message = (body as { message?: unknown } | null)?.message
  same(body, { ...fixed, message: typeof message === 'string' && message !== '' ? message : '<a non-empty string>' }, 'body')
}

/** The reply agrees with the model: status, headers, body as the contract fixes it, budget to persist. */
const checkReply = (reply: BudgetReply, id: string, expected: Expected) => {
  same(reply.status, expected.status, 'status')
  const body = reply.body as Record<string, unknown> | null
  switch (expected.body) {
    case 'empty':
      same(body, null, 'body')
      break
    case 'guard':
      same(body, { message: 'Unauthorized (401)' }, 'body')
      break
    case 'message':
      shaped(body, {})
      break
    case 'error':
      shaped(body, { error: expected.error })
      break
    case 'error_code':
      shaped(body, { error_code: expected.error_code })
      break
    case 'errors': {
      same(Object.keys(body ?? {}), ['errors'], 'body keys')
      const errors = (body?.errors ?? {}) as Record<string, unknown>
      same(Object.keys(errors).sort(), expected.fields, 'fields in errors')
      for (const texts of Object.values(errors))
        holds(
          Array.isArray(texts) && texts.length > 0 && texts.every((t) => typeof t === 'string' && t !== ''),
          `texts ${show(texts)}`
        )
      break
    }
    case 'budget':
      same(body, expected.budget, 'body')
      break
  }
  same(budgetOf(reply), expected.body === 'budget' ? expected.budget : undefined, 'budget to persist')
  const headers: Record<string, string> = { 'X-Request-Id': id }
  if (reply.body !== null) headers['Content-Type'] = 'application/json; charset=utf-8'
  same(reply.headers, headers, 'headers')
  holds(reply.reasons.length > 0, 'reasons name the rules consulted')
}

/** R-17: what the server holds is consistent. */
const checkConsistent = (b: Budget) => {
  holds(
    b.mode === 'funded' ? b.balance_cents !== null && b.balance_cents >= 0 : b.balance_cents === null,
    'balance_cents fits the mode'
  )
  if (b.recurrence_unit === null)
    same(
      [b.recurrence_every, b.base_amount_cents, b.recurrence_starts_on],
      [null, null, null],
      'no recurrence settings without a unit'
    )
  else
    holds(
      b.recurrence_every !== null && b.base_amount_cents !== null && b.recurrence_starts_on !== null && b.period_ends_on !== null,
      'a renewing budget has every, base, recurrence_starts_on and period_ends_on'
    )
  holds(b.period_ends_on === null || b.period_ends_on > b.period_starts_on, 'period_ends_on after period_starts_on')
}

type Event =
  | { readonly kind: 'days' }
  | { readonly kind: 'update'; readonly status: number }
  | { readonly kind: 'money'; readonly op: MoneyOperation; readonly status: number; readonly amount: number }
  | { readonly kind: 'close' }

/**
 * The invariants between two readings of what the server holds (each as of its day): balance
 * moved only by money operations, periods contiguous, the period in progress untouched by
 * requests, status only along the documented arrows, a closed budget never changes.
 */
const checkStep = (before: Budget, after: Budget, event: Event, today: string) => {
  checkConsistent(after)
  for (const k of ['id', 'company_id', 'currency', 'mode', 'created_on', 'co_manager_id'] as const)
    same(after[k], before[k], `${k} never changes`)

  const moved = event.kind === 'money' && event.status === 200 && event.op !== 'amount'
  const delta = moved ? (event.op === 'top_up' ? event.amount : -event.amount) : 0
  same(
    after.balance_cents === null ? null : after.balance_cents - delta,
    before.balance_cents,
    'balance moved only by a top-up or withdrawal, by its amount'
  )
  if (moved) bump(stats.transitions, `balance ${event.op}`)

  if (before.status === 'closed') {
    same(after, before, 'a closed budget never changes')
    return
  }
  if (after.status !== before.status) {
    const arrow = `${before.status} -> ${after.status}`
    bump(stats.transitions, arrow)
    if (arrow === 'open -> closing') holds(event.kind === 'days', `${arrow} only as days pass`)
    else if (arrow === 'closing -> open')
      holds(
        event.kind === 'update' && event.status === 200 && after.ends_on !== before.ends_on,
        `${arrow} only by an update of ends_on`
      )
    else if (arrow === 'closing -> closed') holds(event.kind === 'close', `${arrow} only by the server`)
    else expect.fail(`status ${arrow} is not an arrow of the lifecycle`)
  }
  if (after.status === 'closed') return
  // As of its day: open until ends_on, closing from it.
  holds((after.status === 'closing') === (after.ends_on !== null && after.ends_on <= today), 'closing exactly from ends_on')

  // The period in progress contains today, and a renewing one ends on its schedule.
  holds(
    after.period_starts_on <= today && (after.period_ends_on === null || today < after.period_ends_on),
    'the period in progress contains today'
  )
  const s = scheduleOf(after)
  if (s !== null && after.period_ends_on !== null) holds(onSchedule(s, after.period_ends_on), 'period_ends_on on the schedule')

  if (event.kind === 'days') {
    if (after.period_starts_on !== before.period_starts_on) {
      // A roll-over: the new period starts where the last ended, or on the schedule.
      bump(stats.transitions, 'period rolled')
      holds(before.period_ends_on !== null && before.period_ends_on <= today, 'a period rolls over only once it has ended')
      holds(after.period_starts_on > before.period_starts_on, 'periods move forward')
      holds(
        after.period_starts_on === before.period_ends_on || (s !== null && onSchedule(s, after.period_starts_on)),
        'the new period starts where the last ended, or on the schedule'
      )
      same(after.period_amount_cents, after.base_amount_cents, 'a new period gets base_amount_cents')
    } else {
      same(after.period_amount_cents, before.period_amount_cents, 'the amount of the period in progress')
      if (after.period_ends_on !== before.period_ends_on) {
        // Renewals stopped earlier: the period became open-ended on its end.
        bump(stats.transitions, 'period open-ended')
        same([before.recurrence_unit, after.period_ends_on], [null, null], 'only a stopped period becomes open-ended')
      }
    }
    return
  }
  // A request, or the server closing: the period in progress is untouched.
  same(after.period_starts_on, before.period_starts_on, 'period_starts_on untouched by a request')
  const amountSet = event.kind === 'money' && event.op === 'amount' && event.status === 200
  same(
    after.period_amount_cents,
    amountSet ? event.amount : before.period_amount_cents,
    'period_amount_cents moved only by the amount operation'
  )
  if (after.period_ends_on !== before.period_ends_on)
    // except that turning recurrence on over an open-ended period gives it an end (R-12)
    holds(
      before.period_ends_on === null && before.recurrence_unit === null && after.recurrence_unit !== null,
      'period_ends_on untouched, but when recurrence is turned on over an open-ended period'
    )
  if (event.kind === 'update' && event.status === 200) {
    if (before.recurrence_unit === null && after.recurrence_unit !== null)
      bump(stats.transitions, before.period_ends_on === null ? 'recurrence on (from created_on)' : 'recurrence resumed')
    else if (before.recurrence_unit !== null && after.recurrence_unit === null) bump(stats.transitions, 'recurrence stopped')
    else if (after.recurrence_starts_on !== before.recurrence_starts_on) bump(stats.transitions, 'cadence changed')
    else if (after.base_amount_cents !== before.base_amount_cents) bump(stats.transitions, 'base changed')
  }
}

/** Model and server agree on what is held, on the budget as of today and on what comes next. */
const checkAgreement = (m: Model, r: Server, seen: Budget) => {
  same(r.today, m.today, 'today')
  same(r.stored, m.stored, 'what the server holds')
  same(seen, advance(m.stored, m.today), 'the budget as of today')
  same(
    upcomingPeriods(decoded(r.stored), calendarDate(r.today), 3),
    upcoming(m.stored, m.today, 3),
    'upcomingPeriods(budget, today, 3)'
  )
}

const ALL_FIELDS = [
  'name',
  'description',
  'access',
  'ends_on',
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
]

/** permittedUpdateFields for the caller of a request (a verified member of the company). */
const checkPermitted = (user: string | null, m: Model) => {
  const found = user === null ? undefined : USERS[user]
  if (user === null || found === undefined || found.company !== COMPANY) return
  const b = advance(m.stored, m.today)
  const expected =
    b.status === 'closed'
      ? []
      : hasFullRights(found)
        ? ALL_FIELDS
        : user === b.manager_id || user === b.co_manager_id
          ? ALL_FIELDS.slice(0, 4)
          : []
  same(
    permittedUpdateFields({ user_id: user, role: found.role, permissions: found.permissions }, decoded(m.stored)),
    expected,
    `permittedUpdateFields for ${user}`
  )
}

/** What model and server held before a step, and what the server holds after it. */
const stateOf = (today: string, model: ModelBudget, server: BudgetJson, after: BudgetJson) =>
  `today ${today}\nmodel held   ${show(model)}\nserver held  ${show(server)}\nserver holds ${show(after)}\n` +
  `model as of today ${show(advance(model, today))}`

// -------------------------------------------------------------------------------------
// commands
// -------------------------------------------------------------------------------------

type BudgetCommand = fc.Command<Model, Server>

/** A request: resolved against the budget as the client reads it, answered by both, compared. */
abstract class RequestCommand implements BudgetCommand {
  constructor(
    readonly label: string,
    readonly caller: Caller
  ) {}
  check() {
    return true
  }
  protected abstract prepare(b: ModelBudget, today: string): { body: string | undefined; target: number; amount: number }
  protected abstract facade(b: ModelBudget): { name: string; respond: (c: Context) => BudgetReply; money?: MoneyOperation }
  protected abstract expect(m: Model, request: ModelRequest, op: MoneyOperation | undefined): Expected

  run(m: Model, r: Server) {
    const read = advance(m.stored, m.today)
    const { body, target, amount } = this.prepare(read, m.today)
    const request = requestOf(this.caller, read, body)
    const { name, respond, money } = this.facade(read)
    const expected = this.expect(m, request.model, money)
    const before = r.observe()
    const [modelHeld, serverHeld] = [m.stored, r.stored]
    const { reply, id } = r.call(respond, request)
    const context = () =>
      `step: ${this.toString()}\n${name} by ${request.model.user ?? 'no key'} (company-id ${request.model.company}), body ${body ?? '(none)'}\n` +
      `expected ${show(expected)}\nreplied ${show({ status: reply.status, body: reply.body })}\n${stateOf(m.today, modelHeld, serverHeld, r.stored)}`
    explained(context, () => {
      checkReply(reply, id, expected)
      if (expected.body === 'budget') m.stored = expected.budget
      const seen = r.observe()
      checkAgreement(m, r, seen)
      const event: Event =
        money === undefined
          ? { kind: 'update', status: reply.status }
          : { kind: 'money', op: money, status: reply.status, amount }
      checkStep(before, seen, event, m.today)
      checkPermitted(request.model.user, m)
    })
    const aimed = callerTarget(this.caller.kind, money !== undefined) ?? target
    stats.requests++
    if (reply.status === 200 || reply.status === aimed) stats.reached++
    bump(stats.outcomes, `${name} ${reply.status}${reply.status === 409 ? ` (${before.status})` : ''}`)
  }
  abstract toString(): string
}

class UpdateCommand extends RequestCommand {
  constructor(
    label: string,
    caller: Caller,
    readonly spec: UpdateSpec
  ) {
    super(label, caller)
  }
  protected prepare(b: ModelBudget, today: string) {
    const manages = this.caller.kind === 'manager' || this.caller.kind === 'co_manager'
    return { ...updateBody(this.spec, b, today, manages), amount: 0 }
  }
  protected facade() {
    return { name: 'update', respond: respondBudgetUpdate }
  }
  protected expect(m: Model, request: ModelRequest) {
    return expectUpdate(m.stored, m.today, request)
  }
  toString() {
    return `${this.label}[${this.caller.kind}/${this.caller.style}] ${describeUpdate(this.spec)}`
  }
}

class MoneyCommand extends RequestCommand {
  constructor(
    caller: Caller,
    readonly spec: MoneySpec
  ) {
    super('money', caller)
  }
  protected prepare(b: ModelBudget) {
    return moneyBody(this.spec, operationOf(this.spec, b), b)
  }
  protected facade(b: ModelBudget) {
    const op = operationOf(this.spec, b)
    return { name: op, respond: op === 'top_up' ? respondTopUp : op === 'withdraw' ? respondWithdraw : respondAmount, money: op }
  }
  protected expect(m: Model, request: ModelRequest, op: MoneyOperation | undefined) {
    return expectMoney(op ?? 'top_up', m.stored, m.today, request)
  }
  toString() {
    const a = this.spec.amount
    const amount = a.kind === 'fit' ? `fit(${a.n}, ${a.share.toFixed(3)})` : a.kind === 'invalid' ? `${a.value}` : a.kind
    return `money[${this.caller.kind}/${this.caller.style}] ${this.spec.op}${this.spec.mode === 'wrong' ? ' (wrong mode)' : ''} ${amount}${this.spec.body === 'ok' ? '' : ` as ${this.spec.body}`}`
  }
}

/** Days pass: no request; what the server holds, read as of the new day, agrees with the model. */
class AdvanceCommand implements BudgetCommand {
  constructor(
    readonly days: number | 'ends_on',
    readonly label = 'advance'
  ) {}
  check(m: Readonly<Model>) {
    if (this.days !== 'ends_on') return true
    const b = advance(m.stored, m.today)
    return b.status !== 'closed' && b.ends_on !== null && b.ends_on > m.today
  }
  run(m: Model, r: Server) {
    const before = r.observe()
    const [modelHeld, serverHeld] = [m.stored, r.stored]
    const b = advance(m.stored, m.today)
    const today = this.days === 'ends_on' ? (b.ends_on ?? m.today) : plusDays(m.today, this.days)
    const was = m.today
    m.today = today
    r.today = today
    explained(
      () => `step: ${this.toString()} (${was} -> ${today})\n${stateOf(today, modelHeld, serverHeld, r.stored)}`,
      () => {
        const seen = r.observe()
        checkAgreement(m, r, seen)
        checkStep(before, seen, { kind: 'days' }, today)
      }
    )
    stats.other++
    bump(stats.outcomes, this.label)
  }
  toString() {
    return this.days === 'ends_on' ? 'reach ends_on' : `advance ${this.days} day(s)`
  }
}

/** The server closes a closing budget (the library never does): status closed, as of today. */
class ServerCloseCommand implements BudgetCommand {
  check(m: Readonly<Model>) {
    return advance(m.stored, m.today).status === 'closing'
  }
  run(m: Model, r: Server) {
    const before = r.observe()
    const [modelHeld, serverHeld] = [m.stored, r.stored]
    m.stored = { ...advance(m.stored, m.today), status: 'closed' }
    r.stored = { ...r.observe(), status: 'closed' }
    explained(
      () => `step: ${this.toString()}\n${stateOf(m.today, modelHeld, serverHeld, r.stored)}`,
      () => {
        const seen = r.observe()
        checkAgreement(m, r, seen)
        checkStep(before, seen, { kind: 'close' }, m.today)
      }
    )
    stats.other++
    bump(stats.outcomes, 'server close')
  }
  toString() {
    return 'server closes'
  }
}

const plain = (edits: Partial<Record<EditedField, Edit>>, recurrence?: RecurrenceEdit): UpdateSpec => ({
  edits,
  resend: false,
  wrapper: 'ok',
  ...(recurrence === undefined ? {} : { recurrence })
})

const commandArb: fc.Arbitrary<BudgetCommand> = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(callerArb(), updateSpecArb).map(([c, s]) => new UpdateCommand('update', c, s)) },
  { weight: 2, arbitrary: fc.tuple(callerArb(), stopArb).map(([c, r]) => new UpdateCommand('stop', c, plain({}, r))) },
  { weight: 3, arbitrary: fc.tuple(callerArb(), onArb).map(([c, r]) => new UpdateCommand('restart', c, plain({}, r))) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        callerArb(),
        fc.oneof(
          futureDays.map((n): InDays => ({ in: n })),
          fc.constant(null)
        )
      )
      .map(([c, v]) => new UpdateCommand('reopen', c, plain({ ends_on: { kind: 'valid', value: v } })))
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(callerArb(), maybe(edits.name, 50), maybe(recurrenceArb, 30))
      .map(([c, name, r]) => new UpdateCommand('resend', c, { ...plain(name === undefined ? {} : { name }, r), resend: true }))
  },
  { weight: 7, arbitrary: fc.tuple(callerArb(), moneySpecArb).map(([c, s]) => new MoneyCommand(c, s)) },
  {
    weight: 6,
    arbitrary: fc
      .oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) },
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 45 }) },
        { weight: 2, arbitrary: fc.integer({ min: 1, max: 400 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 3650 }) }
      )
      .map((n) => new AdvanceCommand(n))
  },
  { weight: 2, arbitrary: fc.constant(null).map(() => new AdvanceCommand('ends_on', 'reach ends_on')) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new ServerCloseCommand()) }
)

// -------------------------------------------------------------------------------------
// the budget at creation
// -------------------------------------------------------------------------------------

const FIRST = dayOf('2000-01-01')
const LAST = dayOf('2030-12-31')

/** Any day, or a day near a month's end (28th-31st, clamped), where month anchors clamp. */
const createdArb = fc.oneof(
  fc.integer({ min: FIRST, max: LAST }).map(dateOf),
  fc
    .record({
      year: fc.integer({ min: 2000, max: 2030 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 28, max: 31 })
    })
    .map(({ year, month, day }) => {
      const month2 = String(month).padStart(2, '0')
      let d = day
      while (!isRealDate(`${year}-${month2}-${String(d)}`)) d--
      return `${year}-${month2}-${String(d)}`
    })
)

interface Start {
  readonly budget: ModelBudget
  readonly today: string
}

/** A budget as created (its first period from created_on), and the day the sequence starts. */
const startArb: fc.Arbitrary<Start> = fc
  .record({
    created_on: createdArb,
    age: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2000 })),
    recurrence: fc.option(fc.record({ unit: unitArb, every: everyArb, base: baseArb }), { nil: null }),
    mode: fc.constantFrom<'funded' | 'tracking'>('funded', 'tracking'),
    balance: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(0)),
    amount: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
    endsIn: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
    manager: fc.constantFrom('u-alice', 'u-alice', 'u-carol', null),
    coManager: fc.constantFrom('u-bob', 'u-bob', null),
    access: fc.constantFrom<'everyone' | 'members'>('everyone', 'members'),
    description: fc.constantFrom('Trips', null)
  })
  .map((r) => {
    const rec = r.recurrence
    const budget: ModelBudget = {
      id: 'b-1',
      company_id: COMPANY,
      name: 'Travel',
      description: r.description,
      access: r.access,
      currency: 'CLP',
      mode: r.mode,
      manager_id: r.manager,
      co_manager_id: r.coManager,
      status: 'open',
      created_on: r.created_on,
      ends_on: r.endsIn === null ? null : plusDays(r.created_on, r.endsIn),
      recurrence_unit: rec?.unit ?? null,
      recurrence_every: rec?.every ?? null,
      base_amount_cents: rec?.base ?? null,
      recurrence_starts_on: rec === null ? null : r.created_on,
      period_starts_on: r.created_on,
      period_ends_on: null,
      period_amount_cents: rec === null ? r.amount : rec.base,
      balance_cents: r.mode === 'funded' ? r.balance : null
    }
    const s = scheduleOf(budget)
    // The first period ends on the schedule's next boundary.
    if (s !== null) budget.period_ends_on = boundary(s, 1)
    return { budget, today: plusDays(r.created_on, r.age) }
  })

// -------------------------------------------------------------------------------------
// the property
// -------------------------------------------------------------------------------------

const NUM_RUNS = runs(200)

describe("a budget's whole life against a model of the contract", () => {
  afterAll(() => {
    if (process.env.MODEL_STATS === undefined) return
    const share = (n: number) => `${((100 * n) / stats.requests).toFixed(1)}%`
    const lines = [...stats.outcomes.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([k, n]) =>
          `  ${k}: ${n}${k.includes(' ') && !k.startsWith('server') && !k.startsWith('reach') ? ` (${share(n)} of requests)` : ''}`
      )
    const arrows = [...stats.transitions.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `  ${k}: ${n}`)
    console.info(
      `runs ${NUM_RUNS}; requests ${stats.requests}, reached their target ${share(stats.reached)}; other steps ${stats.other}\n` +
        `outcomes:\n${lines.join('\n')}\ntransitions:\n${arrows.join('\n')}`
    )
  })

  // About 10 ms a run on a shared 2-core machine; the margin covers a busy one.
  it('replies agree with the model after every step, and the invariants hold', { timeout: 30_000 + 50 * NUM_RUNS }, () => {
    fc.assert(
      fc.property(
        startArb,
        fc.commands([commandArb], { maxCommands: 50, size: 'max' }).filter((cs) => [...cs].length > 0),
        (start, commands) => {
          fc.modelRun(
            () => ({
              model: { today: start.today, stored: { ...start.budget } },
              real: new Server({ ...start.budget }, start.today)
            }),
            commands
          )
        }
      ),
      { numRuns: NUM_RUNS }
    )
    // Most requests reach a 200 or the error they were made for.
    expect(stats.reached / stats.requests).toBeGreaterThanOrEqual(0.5)
    if (NUM_RUNS >= 200) {
      // and the life of a budget is walked through, not only its first steps
      for (const arrow of [
        'open -> closing',
        'closing -> open',
        'closing -> closed',
        'period rolled',
        'period open-ended',
        'recurrence on (from created_on)',
        'recurrence resumed',
        'recurrence stopped',
        'cadence changed',
        'base changed',
        'balance top_up',
        'balance withdraw'
      ])
        expect(stats.transitions.get(arrow) ?? 0, arrow).toBeGreaterThan(0)
    }
  })
})
