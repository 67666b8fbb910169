/**
 * Every entry point of src/index.ts, what it promises under hostile input (contract R-19), the
 * valid arguments a run starts from, and the checks of what it returns.
 *
 * - `facade` (`respond*`): never throws, never hangs; replies with a status in 200..599, string
 *   headers with X-Request-Id, a JSON body.
 * - `client` (the client functions of contract section 3): never throws; returns its typed reply.
 * - `typed` (the rules layer): returns, or throws a TypeError; `strict` ones (those R-19 names)
 *   throw a TypeError naming the value as soon as a value is outside their type.
 *
 * The library is read through a plain record, not its types, so that this table keeps compiling
 * while the surface changes; an export with no entry here is fuzzed by a generic one.
 */
import fc from 'fast-check'
import { unitArb } from './hostile'
import { describe } from './inspect'
import {
  budgetArb,
  type BudgetJson,
  budgetProblems,
  budgetTypeErrors,
  callerArb,
  COMPANY,
  dateArb,
  dayOf,
  type EndpointName,
  httpDateArb,
  instantArb,
  isRealDate,
  KIND_OF_STATUS,
  mayUpdate,
  moneyBodyArb,
  pageArb,
  queryArb,
  recordsArb,
  replyArb,
  requestHeadersArb,
  retryInputArb,
  sessionArb,
  todayFor,
  UPDATE_FIELDS,
  updateBodyArb,
  whoArb,
  type Who
} from './values'

export type Path = ReadonlyArray<string | number>

export type Kind = 'facade' | 'client' | 'typed'

export type FacadeGroup = 'budget update' | 'money' | 'index' | 'index page' | 'role' | 'transaction' | 'recipient' | 'other'

export interface Spec {
  readonly kind: Kind
  /** The names of the parameters, for reports and for the TypeError that must name a value. */
  readonly params: ReadonlyArray<string>
  /** Valid arguments, the start of every run. */
  readonly args: fc.Arbitrary<ReadonlyArray<unknown>>
  /** How to call it (curried functions); the default applies the function to the arguments. */
  readonly call?: (f: (...a: ReadonlyArray<unknown>) => unknown, args: ReadonlyArray<unknown>) => unknown
  /** Where stored budgets and records are (R-18: class instances and ORM rows read the same). */
  readonly rows?: ReadonlyArray<Path>
  /** Places most hostile values go (a facade's request: what a client controls). */
  readonly focus?: ReadonlyArray<Path>
  /** Where headers are (R-54: a Fetch Headers object and lists of values read the same). */
  readonly headers?: ReadonlyArray<Path>
  /** Parameters typed `unknown`: every value is of their type, so not even a TypeError. */
  readonly unknownParams?: ReadonlyArray<number>
  /** R-19 strict: the name of a value outside the function's type, or null when all are inside. */
  readonly outside?: (args: ReadonlyArray<unknown>) => string | null
  /** Whether arguments are of the type for which the function must return (never throw). */
  readonly total?: (args: ReadonlyArray<unknown>) => boolean
  /**
   * Checks of a returned value: the violations found. `valid` tells arguments of the type (no
   * change, or one that keeps the meaning) from hostile ones, for checks that only hold of the former.
   */
  readonly check?: (result: unknown, args: ReadonlyArray<unknown>, valid: boolean) => ReadonlyArray<string>
  readonly group?: FacadeGroup
  /** Whether this spec is the generic one of an export this table does not know. */
  readonly generic?: boolean
}

type Lib = Readonly<Record<string, unknown>>

// -------------------------------------------------------------------------------------
// small checks
// -------------------------------------------------------------------------------------

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)
const isSafeNat = (u: unknown): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0
const ok: ReadonlyArray<string> = []

/** An argument's own data property, read without calling a getter or a proxy trap that throws. */
const own = (o: unknown, key: string): unknown => {
  try {
    return typeof o === 'object' && o !== null ? Object.getOwnPropertyDescriptor(o, key)?.value : undefined
  } catch {
    return undefined
  }
}
const when = (cond: boolean, violation: string): ReadonlyArray<string> => (cond ? ok : [violation])

/** never a garbage date (`0NaN-NaN-01`), whatever the arguments. */
const dateOrNull = (what: string) => (r: unknown) =>
  when(r === null || isRealDate(r), `${what} returned a date that is not real (R-19) :: ${describe(r)}`)

const isEither = (r: unknown): boolean => isObject(r) && (r._tag === 'Left' || r._tag === 'Right')
const eitherCheck = (r: unknown) => when(isEither(r), 'did not return an Either')
const trailCheck = (r: unknown) => when(isObject(r) && Array.isArray(r.reasons) && isEither(r.result), 'did not return a Trail')

/** A query string as encoders write it: well-formed, URL-safe characters, every escape decodable. */
export const queryTextViolations = (r: unknown): ReadonlyArray<string> => {
  if (typeof r !== 'string') return ['did not return a string']
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(r))
    return ['returned text with a lone surrogate']
  if (!/^[A-Za-z0-9\-_.!~*'()%&=]*$/.test(r)) return [`returned characters that are not URL-safe :: ${r.slice(0, 60)}`]
  for (const part of r.split(/[&=]/))
    try {
      decodeURIComponent(part)
    } catch {
      return [`returned an undecodable escape :: ${part.slice(0, 40)}`]
    }
  return ok
}

const periodsCheck = (r: unknown, args: ReadonlyArray<unknown>): ReadonlyArray<string> => {
  if (!Array.isArray(r)) return ['did not return an array']
  const n = args[2]
  const out: Array<string> = []
  if (r.length > 1000) out.push(`returned more than 1,000 periods (R-19) :: ${r.length}`)
  if (typeof n === 'number' && Number.isInteger(n) && r.length > Math.max(0, n))
    out.push(`returned more than n periods :: ${r.length} for n = ${n}`)
  r.forEach((p: unknown, i) => {
    if (!isObject(p) || !isRealDate(p.starts_on) || !(p.ends_on === null || isRealDate(p.ends_on)))
      out.push(`a period has a date that is not real (R-19) :: period ${i}: ${describe(p)}`)
    else if (p.ends_on !== null && p.ends_on <= p.starts_on) out.push(`a period is empty :: period ${i}`)
    const next: unknown = r[i + 1]
    if (isObject(p) && isObject(next) && p.ends_on !== next.starts_on)
      out.push(`periods are not contiguous :: periods ${i} and ${i + 1}`)
  })
  return out.slice(0, 2)
}

// -------------------------------------------------------------------------------------
// valid arguments
// -------------------------------------------------------------------------------------

const copy = <T>(u: T): T => structuredClone(u)

const endpointOf = (lib: Lib, name: EndpointName): Record<string, unknown> =>
  copy(((lib.endpoints as Record<string, unknown> | undefined)?.[name] ?? {}) as Record<string, unknown>)

const budgetContextArb = (body: (b: BudgetJson, today: string) => fc.Arbitrary<string | undefined>) =>
  budgetArb.chain((b) =>
    fc.tuple(todayFor(b), whoArb).chain(([today, who]) =>
      fc.record(
        {
          request: fc.record({ headers: requestHeadersArb, body: body(b, today) }, { requiredKeys: ['headers'] }),
          session: sessionArb(who),
          budget: fc.constant(b),
          today: fc.constant(today),
          request_id: fc.constantFrom('req-1', 'req-2'),
          company_member_ids: fc.constantFrom(['u-manager', 'u-admin', 'u-other'], ['u-admin'])
        },
        { requiredKeys: ['request', 'session', 'budget', 'today', 'request_id'] }
      )
    )
  )

const indexContextArb = (lib: Lib) =>
  fc.constantFrom<EndpointName>('bankTransactions', 'bankTransactions', 'companies').chain((name) =>
    fc.record({
      request: fc.record({ headers: requestHeadersArb, query: queryArb(name) }, { requiredKeys: ['headers'] }),
      session: whoArb.chain(sessionArb),
      endpoint: fc.constant(null).map(() => endpointOf(lib, name)),
      records: recordsArb(name),
      request_id: fc.constantFrom('req-1', 'req-2')
    })
  )

/** An index request with the page and count that `respondIndex` finds for it: what a database would return. */
const indexPageContextArb = (lib: Lib) =>
  indexContextArb(lib).map(({ records, ...c }) => {
    const reply = (lib.respondIndex as (c: unknown) => { status: number; headers: Record<string, string>; body: unknown })({
      ...c,
      records
    })
    const body = reply.body
    const page = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.data) ? body.data : []
    return { ...c, page, total: reply.status === 200 ? Number(reply.headers['X-Total-Count']) : records.length }
  })

/** planIndex: a reply (checked as a facade's) or the page request to query, never a throw. */
const planCheck = (r: unknown, args: ReadonlyArray<unknown>): ReadonlyArray<string> => {
  if (!isObject(r)) return ['did not return an object']
  if (r._tag === 'Reply') return facadeReplyViolations(r.reply, own(args[0], 'request_id'), 'index')
  if (r._tag !== 'Page') return [`returned a plan that is neither Reply nor Page :: ${describe(r._tag)}`]
  const request = r.request
  const window = isObject(request) ? request.window : undefined
  return when(
    isObject(window) && isSafeNat(window.start) && isSafeNat(window.end) && window.end - window.start <= 2000,
    `returned a Page plan without a window of at most 2000 :: ${describe(window)}`
  )
}

const scheduleArb = fc.record({
  anchor: dateArb,
  unit: fc.constantFrom('day', 'week', 'month', 'year'),
  every: fc.oneof(fc.constantFrom(1, 2, 12, 366), fc.integer({ min: 1, max: 366 }))
})

const windowArb = fc.nat({ max: 5000 }).chain((start) => fc.nat({ max: 2500 }).map((size) => ({ start, end: start + size })))

const budgetTodayArb = budgetArb.chain((b) => todayFor(b).map((today) => [b, today] as const))

const instantValue = (text: string) => {
  const t = Date.parse(text)
  return { seconds: Math.floor(t / 1000), nanos: (t % 1000) * 1_000_000 }
}

const fieldTypeArb = fc.constantFrom<Record<string, unknown>>(
  { type: 'integer' },
  { type: 'instant' },
  { type: 'id' },
  { type: 'string' },
  { type: 'enum', values: ['authorized', 'pending'] }
)

const valueOfType = (type: Record<string, unknown>): fc.Arbitrary<unknown> => {
  switch (type.type) {
    case 'integer':
      return fc.integer({ min: -1000, max: 1000 })
    case 'instant':
      return instantArb.map(instantValue)
    case 'enum':
      return fc.constantFrom('authorized', 'pending')
    default:
      return fc.string({ maxLength: 6 })
  }
}

const filterArb = fieldTypeArb.chain((type) =>
  fc.record({
    field: fc.constantFrom('amount', 'created_at', 'status', 'id'),
    type: fc.constant(type),
    op: fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'),
    values: fc.array(valueOfType(type), { minLength: 1, maxLength: 5 })
  })
)

const RULE_IDS = (lib: Lib): ReadonlyArray<string> =>
  Object.keys((lib.rules as Record<string, unknown> | undefined) ?? { 'server.input': 0 })

const problemArb = (lib: Lib): fc.Arbitrary<unknown> => {
  const p = (lib.problem ?? {}) as Record<string, (...a: ReadonlyArray<unknown>) => unknown>
  const rule = fc.constantFrom(...RULE_IDS(lib))
  const make = (name: string, args: fc.Arbitrary<ReadonlyArray<unknown>>) =>
    args.map((a) => {
      const f = p[name]
      return typeof f === 'function' ? f(...a) : { _tag: 'InternalError', rule: 'server.input', detail: 'x' }
    })
  return fc.oneof(
    ...[
      'unauthenticated',
      'emailNotVerified',
      'guardRejected',
      'notFound',
      'badRequest',
      'preconditionFailed',
      'conflict',
      'internalError',
      'denied'
    ].map((name) => make(name, fc.tuple(rule, fc.string({ maxLength: 10 })))),
    make('rateLimited', fc.tuple(rule, fc.nat({ max: 3600 }))),
    make('upstream', fc.tuple(rule, fc.constantFrom(502, 503, 504), fc.string({ maxLength: 10 }))),
    make(
      'forbidden',
      fc.tuple(rule, fc.constantFrom('budgets/cannot_change_manager', 'roles/owner_required'), fc.string({ maxLength: 10 }))
    ),
    make(
      'invalid',
      fc.tuple(
        rule,
        fc.array(
          fc.record({ field: fc.constantFrom('name', '__proto__', 'x'), messages: fc.array(fc.string(), { maxLength: 2 }) }),
          { maxLength: 3 }
        )
      )
    ),
    make('rangeNotSatisfiable', fc.tuple(rule, fc.nat({ max: 10_000 }), fc.constant(2000)))
  )
}

const reasonsArb = (lib: Lib) =>
  fc.array(fc.record({ rule: fc.constantFrom(...RULE_IDS(lib)), detail: fc.string({ maxLength: 10 }) }), { maxLength: 3 })

const sentArb = fc.array(
  fc.record({
    key: fc.constantFrom(...UPDATE_FIELDS, 'currency', 'colour', '__proto__'),
    value: fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer({ min: -1, max: 400 }),
      dateArb,
      fc.constant(null),
      fc.constantFrom('month', 'everyone')
    )
  }),
  { maxLength: 4 }
)

const rutArb = (lib: Lib) =>
  fc.nat({ max: 99_999_999 }).chain((n) => {
    const digit = lib.rutCheckDigit
    const check = typeof digit === 'function' ? String((digit as (s: string) => unknown)(String(n))) : '0'
    return fc.constantFrom(`${n}-${check}`, `${n}${check}`, `${n}-0`, `${new Intl.NumberFormat('es-CL').format(n)}-${check}`)
  })

const roleBodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom('owner', 'admin', 'member', 'Owner', ' owner', 'ADMIN', '', null, 1)
      .map((role) => JSON.stringify({ role }))
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      '[]',
      'null',
      '{}',
      '{"__proto__":{"role":"owner"}}',
      '{"role":"admin","role":"owner"}',
      '{"role":"\\ud800"}',
      '{"role":'
    )
  }
)

const recipientBodyArb = (lib: Lib): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          rut: fc.oneof(rutArb(lib), fc.constantFrom('', '1-1', '12.345.678-K', '\uD800')),
          account_number: fc.constantFrom('12345678', '1234-5678-90', '12', ''),
          bank_id: fc.constantFrom('bank-1', 'bank-9', ''),
          name: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('  ', 'x'.repeat(256)))
        })
        .map((r) => JSON.stringify({ bank_recipient: r }))
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        '[]',
        '{}',
        '{"bank_recipient":null}',
        '{"bank_recipient":[]}',
        '{"__proto__":{"bank_recipient":{}}}',
        '{"bank_recipient":{"rut":'
      )
    }
  )

// -------------------------------------------------------------------------------------
// R-19 strict checks: is a value outside the type?
// -------------------------------------------------------------------------------------

/** The name of the first budget field outside its type, or null (property access, as R-18 reads). */
const budgetOutside = (b: unknown): string | null => {
  try {
    const errors = budgetTypeErrors(b)
    // One field wrong is named; a budget replaced whole is the budget.
    return errors.length === 0 ? null : errors.length > 1 || errors[0] === 'budget' ? 'budget' : `budget.${errors[0] ?? ''}`
  } catch {
    return 'budget'
  }
}

const callerOutside = (c: unknown): string | null => {
  try {
    if (!isObject(c)) return 'caller'
    if (typeof c.user_id !== 'string') return 'caller.user_id'
    if (!['owner', 'admin', 'member'].includes(c.role as string)) return 'caller.role'
    if (!Array.isArray(c.permissions) || !(c.permissions as ReadonlyArray<unknown>).every((p) => typeof p === 'string'))
      return 'caller.permissions'
    return null
  } catch {
    return 'caller'
  }
}

/** What permittedUpdateFields and lockedUpdateFields name outside their types: the caller, then the budget's managers and status. */
const permissionsOutside = (a: ReadonlyArray<unknown>): string | null => {
  const c = callerOutside(a[0])
  if (c !== null) return c
  try {
    const b = a[1]
    if (!isObject(b)) return 'budget'
    for (const f of ['manager_id', 'co_manager_id']) if (b[f] !== null && typeof b[f] !== 'string') return `budget.${f}`
    return ['open', 'closing', 'closed'].includes(b.status as string) ? null : 'budget.status'
  } catch {
    return 'budget'
  }
}

/** The rules that lock an update field, as the contract's section 5 names them (rows 6, 9, 10 and 11). */
const LOCK_RULES: ReadonlyArray<string> = [
  'budget.permission.update',
  'budget.permission.manager',
  'budget.permission.recurrence',
  'budget.status.closed'
]

const numberOutside = (u: unknown, name: string): string | null => (typeof u !== 'number' || Number.isNaN(u) ? name : null)

// -------------------------------------------------------------------------------------
// the table
// -------------------------------------------------------------------------------------

const REPLY_KINDS = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'precondition_failed',
  'range_not_satisfiable',
  'validation',
  'rate_limited',
  'server_error',
  'upstream',
  'unexpected'
]

const parsedProblemCheck = (r: unknown, args: ReadonlyArray<unknown>, valid: boolean): ReadonlyArray<string> => {
  if (!isObject(r)) return ['did not return an object']
  const out: Array<string> = []
  if (typeof r.status !== 'number' || !Number.isInteger(r.status)) out.push('status is not an integer')
  if (!REPLY_KINDS.includes(r.kind as string)) out.push(`returned a kind that is not one :: ${describe(r.kind)}`)
  if (typeof r.status === 'number' && r.kind !== (KIND_OF_STATUS[r.status] ?? 'unexpected'))
    out.push(`returned a kind that is not the status's (contract 9) :: kind ${describe(r.kind)} for status ${r.status}`)
  const given = own(args[0], 'status')
  if (valid && typeof given === 'number' && Number.isInteger(given) && r.status !== given)
    out.push(`returned another status than the reply's :: ${describe(r.status)} for ${given}`)
  for (const key of ['code', 'message', 'request_id'])
    if (key in r && typeof r[key] !== 'string') out.push(`${key} is not a string`)
  if ('retry_after_s' in r && !isSafeNat(r.retry_after_s))
    out.push(`returned a retry_after_s that is not whole seconds :: ${describe(r.retry_after_s)}`)
  if ('field_errors' in r) {
    const fe = r.field_errors
    if (!isObject(fe) || !Object.values(fe).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string')))
      out.push('field_errors is not a record of string lists')
  }
  return out
}

const TRANSIENT = [500, 502, 503, 504]
const IDEMPOTENT = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']

const retryCheck = (r: unknown, args: ReadonlyArray<unknown>): ReadonlyArray<string> => {
  if (!isObject(r) || typeof r.retry !== 'boolean') return ['did not return a decision']
  if (!r.retry) return Object.keys(r).length === 1 ? ok : ['a refusal with extra keys']
  const out: Array<string> = []
  const delay = r.delay_ms
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 2 ** 31 - 1)
    out.push(`returned a delay_ms that is not whole ms a timer holds (R-55) :: ${describe(delay)}`)
  const input = args[0]
  const d = (key: string): unknown => own(input, key)
  const method = d('method')
  const status = d('status')
  const attempt = d('attempt')
  if (typeof attempt === 'number' && attempt >= 5) out.push(`retried after 5 retries or more :: attempt ${attempt}`)
  if (status !== 429 && !TRANSIENT.includes(status as number))
    out.push(`retried a status that is neither 429 nor 500/502/503/504 :: ${describe(status)}`)
  if (TRANSIENT.includes(status as number) && !IDEMPOTENT.includes(method as string))
    out.push(
      `retried a method that is not exactly GET, HEAD, OPTIONS, PUT, PATCH or DELETE on a 5xx (R-55) :: ${describe(method)} on ${String(status)}`
    )
  return out
}

const replyViolations = (r: unknown, requestId: unknown): ReadonlyArray<string> => {
  if (!isObject(r)) return ['did not return an object']
  const out: Array<string> = []
  if (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < 200 || r.status > 599)
    out.push(`replied a status outside 200..599 :: ${describe(r.status)}`)
  const h = r.headers
  if (!isObject(h)) out.push('headers is not an object')
  else {
    if (!Object.values(h).every((v) => typeof v === 'string')) out.push('a header value is not a string')
    if (typeof h['X-Request-Id'] !== 'string') out.push('no X-Request-Id')
    else if (typeof requestId === 'string' && h['X-Request-Id'] !== requestId)
      out.push('X-Request-Id is not the request id given')
    if ((r.body === null) === 'Content-Type' in h) out.push('Content-Type present exactly when there is a body: not so')
    if (r.status === 429 && !/^\d+$/.test(String(h['Retry-After'])))
      out.push(`replied a 429 whose Retry-After is not whole seconds (R-55) :: ${describe(h['Retry-After'])}`)
  }
  return out
}

export const FACADE_STATUSES: Readonly<Record<FacadeGroup, ReadonlyArray<number>>> = {
  'budget update': [200, 400, 401, 403, 404, 409, 412, 422],
  money: [200, 400, 401, 404, 409, 422],
  index: [200, 400, 401, 404, 416],
  // The page given answers the query given: another query (a hostile one) may not fit it, a 500.
  'index page': [200, 400, 401, 404, 416, 500],
  role: [200, 400, 401, 403, 404, 422],
  transaction: [200, 401, 404, 409],
  recipient: [201, 400, 401, 404, 409, 422],
  other: [200, 201, 400, 401, 403, 404, 409, 412, 416, 422, 429]
}

const budgetFacade = (group: FacadeGroup, body: (b: BudgetJson, today: string) => fc.Arbitrary<string | undefined>): Spec => ({
  kind: 'facade',
  group,
  params: ['context'],
  args: budgetContextArb(body).map((c) => [c]),
  rows: [[0, 'budget']],
  headers: [[0, 'request', 'headers']],
  focus: [
    [0, 'request', 'body'],
    [0, 'request', 'headers'],
    [0, 'request', 'headers']
  ]
})

export const buildSpecs = (lib: Lib): ReadonlyMap<string, Spec> => {
  const typed = (params: ReadonlyArray<string>, args: fc.Arbitrary<ReadonlyArray<unknown>>, more: Partial<Spec> = {}): Spec => ({
    kind: 'typed',
    params,
    args,
    ...more
  })
  const bt = () => endpointOf(lib, 'bankTransactions')
  const endpointArb = fc.constantFrom<EndpointName>('bankTransactions', 'companies').map((n) => endpointOf(lib, n))
  const money = (b: Record<string, unknown>) => fc.constant(b)
  const specs: Array<readonly [string, Spec]> = [
    // facades
    ['respondBudgetUpdate', budgetFacade('budget update', updateBodyArb)],
    ['respondTopUp', budgetFacade('money', () => moneyBodyArb)],
    ['respondWithdraw', budgetFacade('money', () => moneyBodyArb)],
    ['respondAmount', budgetFacade('money', () => moneyBodyArb)],
    [
      'respondIndex',
      {
        kind: 'facade',
        group: 'index',
        params: ['context'],
        args: indexContextArb(lib).map((c) => [c]),
        rows: [[0, 'records', '*']],
        headers: [[0, 'request', 'headers']],
        focus: [
          [0, 'request', 'query'],
          [0, 'request', 'headers']
        ]
      }
    ],
    [
      'respondIndexPage',
      {
        kind: 'facade',
        group: 'index page',
        params: ['context'],
        args: indexPageContextArb(lib).map((c) => [c]),
        rows: [[0, 'page', '*']],
        headers: [[0, 'request', 'headers']],
        focus: [
          [0, 'request', 'query'],
          [0, 'request', 'headers']
        ]
      }
    ],
    [
      'planIndex',
      {
        kind: 'client',
        params: ['context'],
        args: indexContextArb(lib).map((c) => [
          { request: c.request, session: c.session, endpoint: c.endpoint, request_id: c.request_id }
        ]),
        headers: [[0, 'request', 'headers']],
        focus: [
          [0, 'request', 'query'],
          [0, 'request', 'headers']
        ],
        check: planCheck
      }
    ],

    [
      'respondRoleAssignment',
      {
        kind: 'facade',
        group: 'role',
        params: ['context'],
        args: whoArb.chain((who) =>
          fc
            .record(
              {
                request: fc.record({ headers: requestHeadersArb, body: roleBodyArb }, { requiredKeys: ['headers'] }),
                session: sessionArb(who),
                user_id: fc.constantFrom('u-member', 'u-admin', 'u-other'),
                request_id: fc.constantFrom('req-1', 'req-2'),
                company_member_ids: fc.constantFrom(['u-member', 'u-admin'], ['u-admin'])
              },
              { requiredKeys: ['request', 'session', 'user_id', 'request_id'] }
            )
            .map((c) => [c])
        ),
        headers: [[0, 'request', 'headers']],
        focus: [
          [0, 'request', 'body'],
          [0, 'request', 'headers']
        ]
      }
    ],
    [
      'respondAuthorizeTransaction',
      {
        kind: 'facade',
        group: 'transaction',
        params: ['context'],
        args: whoArb.chain((who) =>
          fc
            .record({
              request: fc.record({ headers: requestHeadersArb }),
              session: sessionArb(who),
              transaction: fc.option(
                fc.record({
                  id: fc.constant('tx-1'),
                  company_id: fc.constantFrom(COMPANY, COMPANY, 'c-2'),
                  amount: fc.integer({ min: -1000, max: 1000 }),
                  status: fc.constantFrom('pending', 'pending', 'authorized'),
                  created_at: instantArb,
                  updated_at: instantArb
                }),
                { nil: null, freq: 8 }
              ),
              request_id: fc.constantFrom('req-1', 'req-2')
            })
            .map((c) => [c])
        ),
        rows: [[0, 'transaction']],
        headers: [[0, 'request', 'headers']],
        focus: [[0, 'request', 'headers']]
      }
    ],
    [
      'respondBankRecipient',
      {
        kind: 'facade',
        group: 'recipient',
        params: ['context'],
        args: whoArb.chain((who) =>
          fc
            .record({
              request: fc.record({ headers: requestHeadersArb, body: recipientBodyArb(lib) }, { requiredKeys: ['headers'] }),
              session: sessionArb(who),
              bank_ids: fc.constant(['bank-1', 'bank-2']),
              enrolled: fc.array(
                fc.record({ rut: rutArb(lib), bank_id: fc.constant('bank-1'), account_number: fc.constant('12345678') }),
                { maxLength: 3 }
              ),
              request_id: fc.constantFrom('req-1', 'req-2')
            })
            .map((c) => [c])
        ),
        rows: [[0, 'enrolled', '*']],
        headers: [[0, 'request', 'headers']],
        focus: [
          [0, 'request', 'body'],
          [0, 'request', 'headers']
        ]
      }
    ],

    ['respondBudget', budgetFacade('other', () => fc.constant(undefined))],

    // decision records: built, refused or replayed, never thrown
    [
      'decisionRecord',
      {
        kind: 'client',
        params: ['endpoint', 'context', 'reply', 'meta'],
        args: budgetContextArb(updateBodyArb).map((c) => [
          'budget.update',
          c,
          (lib.respondBudgetUpdate as (c: unknown) => unknown)(c),
          { at: '2026-11-22T12:00:00Z', key_id: null, method: 'PATCH', path: '/v1/budgets/b-1' }
        ]),
        rows: [[1, 'budget']],
        headers: [[1, 'request', 'headers']],
        focus: [
          [1, 'request', 'headers'],
          [2, 'body'],
          [3, 'at']
        ],
        check: eitherCheck
      }
    ],
    [
      'replayedRecord',
      {
        kind: 'client',
        params: ['replayed', 'meta'],
        args: fc.tuple(
          fc.record({
            request_id: fc.string(),
            company_id: fc.option(fc.string(), { nil: null }),
            actor_id: fc.option(fc.string(), { nil: null }),
            endpoint: fc.constant('budget.top_up'),
            resource_id: fc.option(fc.string(), { nil: null }),
            replay_of: fc.string(),
            reply: fc.record({ status: fc.constantFrom(200, 422), headers: fc.constant({}), body: fc.jsonValue() })
          }),
          fc.constant({ at: '2026-11-22T12:00:00Z', key_id: null, method: 'POST', path: '/' })
        ),
        check: eitherCheck
      }
    ],
    [
      'replay',
      {
        kind: 'client',
        params: ['record'],
        args: budgetContextArb(updateBodyArb).map((c) => {
          const made = (lib.decisionRecord as (...a: ReadonlyArray<unknown>) => { _tag: string; right?: unknown })(
            'budget.update',
            c,
            (lib.respondBudgetUpdate as (c: unknown) => unknown)(c),
            { at: '2026-11-22T12:00:00Z', key_id: null, method: 'PATCH', path: '/v1/budgets/b-1' }
          )
          return [made.right ?? null]
        }),
        focus: [
          [0, 'case'],
          [0, 'reply'],
          [0, 'rules']
        ],
        check: (r) => when(isObject(r) && typeof r.replayable === 'boolean', 'did not return a replay result')
      }
    ],
    [
      'decideCase',
      {
        kind: 'client',
        params: ['case'],
        args: budgetContextArb(updateBodyArb).map((c) => [{ endpoint: 'budget.update', ...c }]),
        check: eitherCheck
      }
    ],
    [
      'answerCase',
      typed(
        ['case', 'meta'],
        budgetContextArb(updateBodyArb).map((c) => [
          { endpoint: 'budget.update', ...c },
          { at: '2026-11-22T12:00:00Z', request_id: 'r' }
        ]),
        {
          // Its type as R-19 reads it: any case (refused or answered), a meta of text but for keyId.
          outside: (a) => {
            const m = a[1]
            try {
              return isObject(m) &&
                typeof m.at === 'string' &&
                (m.request_id === undefined || typeof m.request_id === 'string') &&
                (m.at_path === undefined || typeof m.at_path === 'string') &&
                (m.keyId === undefined || typeof m.keyId === 'function') &&
                (m.recorded === undefined || typeof m.recorded === 'boolean')
                ? null
                : 'meta'
            } catch {
              return 'meta'
            }
          },
          check: eitherCheck
        }
      )
    ],
    ['isDecisionEndpoint', { kind: 'client', params: ['u'], args: fc.constantFrom('budget.update', 'x').map((e) => [e]) }],
    [
      'bearerKey',
      {
        kind: 'client',
        params: ['headers'],
        args: requestHeadersArb.map((h) => [h]),
        headers: [[0]],
        check: (r) => when(r === undefined || typeof r === 'string', 'did not return a key or undefined')
      }
    ],

    // client functions (contract section 3)
    [
      'parseErrorResponse',
      { kind: 'client', params: ['reply'], args: replyArb.map((r) => [r]), headers: [[0, 'headers']], check: parsedProblemCheck }
    ],
    [
      'retryDecision',
      { kind: 'client', params: ['input'], args: retryInputArb.map((r) => [r]), headers: [[0, 'headers']], check: retryCheck }
    ],
    [
      'buildQuery',
      {
        kind: 'client',
        params: ['endpoint', 'spec'],
        args: fc.tuple(
          endpointArb,
          fc.record(
            {
              window: windowArb,
              order: fc.constantFrom('asc', 'desc'),
              field: fc.constantFrom('created_at', 'amount', 'name'),
              filters: fc.array(
                fc.record({
                  field: fc.constantFrom('status', 'amount', 'created_at', 'name', 'id'),
                  op: fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'),
                  // strings of every kind are of the type: a lone surrogate included
                  value: fc.oneof(
                    fc.string({ unit: unitArb, maxLength: 6 }),
                    fc.integer(),
                    fc.array(fc.oneof(fc.string({ unit: unitArb, maxLength: 4 }), fc.integer()), { maxLength: 4 })
                  )
                }),
                { maxLength: 3 }
              )
            },
            { requiredKeys: [] }
          )
        ),
        check: queryTextViolations
      }
    ],
    [
      'liveFeedQuery',
      {
        kind: 'client',
        params: ['endpoint', 'cursor', 'size'],
        args: fc.tuple(
          endpointArb,
          fc.oneof(
            fc.constant({ after: null, seen_at_after: 0 }),
            fc.record({
              after: fc.oneof(instantArb, fc.string({ unit: unitArb, maxLength: 4 })),
              seen_at_after: fc.nat({ max: 3000 })
            })
          ),
          fc.integer({ min: 1, max: 2000 })
        ),
        check: queryTextViolations
      }
    ],
    [
      'nextLiveCursor',
      {
        kind: 'client',
        params: ['cursor', 'page'],
        args: fc.tuple(
          fc.oneof(
            fc.constant({ after: null, seen_at_after: 0 }),
            fc.record({ after: instantArb, seen_at_after: fc.nat({ max: 30 }) })
          ),
          pageArb
        ),
        rows: [[1, '*']],
        check: (r) =>
          when(
            isObject(r) && (r.after === null || typeof r.after === 'string') && isSafeNat(r.seen_at_after),
            `did not return a live cursor :: ${describe(r)}`
          )
      }
    ],

    // calendar
    ['addDays', typed(['date', 'n'], fc.tuple(dateArb, fc.integer({ min: -5000, max: 5000 })), { check: dateOrNull('addDays') })],
    ['daysInMonth', typed(['year', 'month'], fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 })))],
    [
      'isLeapYear',
      typed(['year'], fc.tuple(fc.integer({ min: 1, max: 9999 })), {
        check: (r) => when(typeof r === 'boolean', 'not a boolean')
      })
    ],
    ['toDayNumber', typed(['date'], fc.tuple(dateArb))],
    [
      'fromDayNumber',
      typed(['n'], fc.tuple(fc.integer({ min: -800_000, max: 3_000_000 })), { check: dateOrNull('fromDayNumber') })
    ],
    [
      'isCalendarDate',
      typed(['u'], fc.tuple(fc.oneof(dateArb, fc.string({ maxLength: 10 }))), {
        unknownParams: [0],
        check: (r, args) =>
          when(r === isRealDate(args[0]), `disagrees with the independent date check :: ${String(r)} for ${describe(args[0])}`)
      })
    ],
    [
      'parseInstant',
      typed(['text'], fc.tuple(instantArb), {
        check: (r) =>
          when(
            r === null || (isObject(r) && Number.isSafeInteger(r.seconds) && isSafeNat(r.nanos) && r.nanos < 1e9),
            `did not return an instant or null :: ${describe(r)}`
          )
      })
    ],
    ['compareInstants', typed(['a', 'b'], fc.tuple(instantArb.map(instantValue), instantArb.map(instantValue)))],
    [
      'parseHttpDate',
      typed(['text', 'referenceYear'], fc.tuple(httpDateArb, fc.integer({ min: 1900, max: 2100 })), {
        check: (r) => when(r === null || Number.isSafeInteger(r), `did not return whole seconds or null :: ${describe(r)}`)
      })
    ],

    // schedules and budgets
    [
      'boundaryOf',
      typed(['schedule', 'k'], fc.tuple(scheduleArb, fc.integer({ min: -100, max: 5000 })), { check: dateOrNull('boundaryOf') })
    ],
    ['indexAt', typed(['schedule', 'date'], fc.tuple(scheduleArb, dateArb))],
    [
      'periodAt',
      typed(['schedule', 'date'], fc.tuple(scheduleArb, dateArb), {
        check: (r) =>
          when(
            r === null || (isObject(r) && isRealDate(r.starts_on) && (r.ends_on === null || isRealDate(r.ends_on))),
            `returned a period with a date that is not real (R-19) :: ${describe(r)}`
          )
      })
    ],
    [
      'nextBoundaryAfter',
      typed(['schedule', 'date'], fc.tuple(scheduleArb, dateArb), { check: dateOrNull('nextBoundaryAfter') })
    ],
    [
      'advanceBudget',
      typed(['budget', 'today'], budgetTodayArb, {
        rows: [[0]],
        outside: (a) => budgetOutside(a[0]) ?? (isRealDate(a[1]) ? null : 'today'),
        check: (r, _, valid) => {
          if (!valid) return ok
          const problems = budgetProblems(r)
          return when(problems.length === 0, `returned a budget that is not valid :: ${problems.join(', ')}`)
        }
      })
    ],
    [
      'upcomingPeriods',
      typed(
        ['budget', 'today', 'n'],
        budgetTodayArb.chain(([b, t]) =>
          fc.oneof(fc.nat({ max: 30 }), fc.constantFrom(0, 1000, 5000, Infinity, -1)).map((n) => [b, t, n])
        ),
        {
          rows: [[0]],
          outside: (a) => budgetOutside(a[0]) ?? (isRealDate(a[1]) ? null : 'today') ?? numberOutside(a[2], 'n'),
          check: periodsCheck
        }
      )
    ],
    [
      'permittedUpdateFields',
      typed(['caller', 'budget'], fc.tuple(callerArb, budgetArb), {
        rows: [[1]],
        outside: permissionsOutside,
        // Called twice: R-18 wants a fresh array each time, shared with nothing.
        call: (f, a) => {
          const first = f(...a)
          return { fields: first, fresh: first !== f(...a) }
        },
        check: (r) => {
          const { fields, fresh } = r as { fields: unknown; fresh: boolean }
          return [
            ...when(
              Array.isArray(fields) &&
                fields.every(
                  (f, i) =>
                    UPDATE_FIELDS.includes(f as (typeof UPDATE_FIELDS)[number]) &&
                    (i === 0 || UPDATE_FIELDS.indexOf(f as never) > UPDATE_FIELDS.indexOf(fields[i - 1] as never))
                ),
              `did not return update fields in order :: ${describe(fields)}`
            ),
            ...when(fresh, 'returned the same array twice (R-18: a fresh array each call)')
          ]
        }
      })
    ],
    [
      'lockedUpdateFields',
      typed(['caller', 'budget'], fc.tuple(callerArb, budgetArb), {
        rows: [[1]],
        outside: permissionsOutside,
        // Called twice: R-18 wants a fresh object each time, shared with nothing.
        call: (f, a) => {
          const first = f(...a)
          return { locked: first, fresh: first !== f(...a) }
        },
        check: (r) => {
          const { locked, fresh } = r as { locked: unknown; fresh: boolean }
          const keys = isObject(locked) ? Object.keys(locked) : null
          return [
            ...when(
              keys !== null &&
                keys.every(
                  (f, i) =>
                    UPDATE_FIELDS.includes(f as (typeof UPDATE_FIELDS)[number]) &&
                    (i === 0 || UPDATE_FIELDS.indexOf(f as never) > UPDATE_FIELDS.indexOf(keys[i - 1] as never)) &&
                    LOCK_RULES.includes((locked as Record<string, unknown>)[f] as string)
                ),
              `did not return update fields in order, each with a lock rule :: ${describe(locked)}`
            ),
            ...when(fresh, 'returned the same object twice (R-18: a fresh object each call)')
          ]
        }
      })
    ],
    ['hasFullBudgetRights', typed(['caller'], fc.tuple(callerArb))],
    ['budgetRights', typed(['caller', 'budget'], fc.tuple(callerArb, budgetArb), { rows: [[1]] })],
    ['scheduleOf', typed(['budget'], fc.tuple(budgetArb), { rows: [[0]] })],
    [
      'changeRecurrence',
      typed(
        ['budget', 'today', 'settings'],
        budgetTodayArb.chain(([b, t]) =>
          fc
            .record({
              unit: fc.constantFrom(null, 'day', 'week', 'month', 'year'),
              every: fc.option(fc.integer({ min: 1, max: 366 }), { nil: null }),
              base: fc.option(fc.nat({ max: 100_000 }), { nil: null })
            })
            .map((s) => [b, t, s])
        )
        // No re-dressed rows: the rules layer takes plain values of its types (ADR 0018); only
        // the facades and advanceBudget / upcomingPeriods read class instances and ORM rows.
      )
    ],
    ['authorizeMoney', typed(['caller', 'budget'], fc.tuple(callerArb, budgetArb), { rows: [[1]], check: trailCheck })],
    ['decodeMoneyBody', typed(['body'], fc.tuple(moneyBodyArb), { check: trailCheck })],
    ['moneyStatus', typed(['budget'], fc.tuple(budgetArb), { rows: [[0]], check: trailCheck })],
    [
      'applyMoney',
      typed(
        ['operation', 'budget', 'amount'],
        fc.tuple(
          fc.constantFrom('top_up', 'withdraw', 'amount'),
          budgetArb.chain(money),
          fc.integer({ min: -10, max: 1_000_000 })
        ),
        {
          check: trailCheck
        }
      )
    ],
    [
      'decideUpdate',
      typed(
        ['request'],
        budgetTodayArb.chain(([b, today]) =>
          fc
            .record({
              rights: fc.constantFrom('full', 'manager'),
              budget: fc.constant(b),
              sent: sentArb,
              today: fc.constant(today),
              company_member_ids: fc.constant(['u-manager'])
            })
            .map((r) => [r])
        ),
        { check: trailCheck }
      )
    ],
    [
      'validateUpdate',
      typed(
        ['request', 'changed'],
        budgetTodayArb.chain(([b, today]) =>
          fc
            .record({
              rights: fc.constantFrom('full', 'manager'),
              budget: fc.constant(b),
              sent: sentArb,
              today: fc.constant(today),
              company_member_ids: fc.constant(['u-manager'])
            })
            .map((r) => [r, r.sent])
        ),
        { check: trailCheck }
      )
    ],
    ['reopen', typed(['budget', 'ends_on'], fc.tuple(budgetArb, fc.oneof(fc.constant(undefined), fc.constant(null), dateArb)))],
    ['authorizeUpdate', typed(['caller', 'budget'], fc.tuple(callerArb, budgetArb), { rows: [[1]], check: trailCheck })],
    [
      'decodeUpdateBody',
      typed(
        ['body'],
        budgetTodayArb.chain(([b, t]) => updateBodyArb(b, t)).map((s) => [s]),
        { check: eitherCheck }
      )
    ],

    // authentication
    [
      'authenticate',
      typed(['request', 'session'], fc.tuple(fc.record({ headers: requestHeadersArb }), whoArb.chain(sessionArb)), {
        headers: [[0, 'headers']],
        check: trailCheck
      })
    ],
    [
      'identify',
      typed(['request', 'session'], fc.tuple(fc.record({ headers: requestHeadersArb }), whoArb.chain(sessionArb)), {
        headers: [[0, 'headers']],
        check: trailCheck
      })
    ],
    [
      'budgetInScope',
      typed(
        ['scope', 'budget'],
        fc.tuple(
          callerArb.map((caller) => ({ company_id: COMPANY, caller })),
          fc.option(budgetArb, { nil: null })
        ),
        {
          rows: [[1]],
          check: trailCheck
        }
      )
    ],
    [
      'headerOf',
      typed(
        ['headers', 'name', 'normalise'],
        fc.tuple(requestHeadersArb, fc.constantFrom('authorization', 'Company-Id', 'x-missing')),
        {
          headers: [[0]],
          unknownParams: [0],
          check: (r) => when(r === undefined || typeof r === 'string', 'not a string or undefined')
        }
      )
    ],
    [
      'anyHeader',
      typed(
        ['headers', 'name'],
        fc.tuple(
          replyArb.map((r) => r.headers),
          fc.constantFrom('retry-after', 'X-Request-Id', 'date')
        ),
        { headers: [[0]], unknownParams: [0] }
      )
    ],

    // replies and problems
    ['statusAndBody', typed(['problem'], fc.tuple(problemArb(lib)))],
    [
      'problemReply',
      typed(['requestId', 'reasons', 'problem'], fc.tuple(fc.constantFrom('req-1', ''), reasonsArb(lib), problemArb(lib)), {
        call: (f, a) => (f(a[0], a[1]) as (p: unknown) => unknown)(a[2]),
        check: (r, a, valid) => (valid ? replyViolations(r, a[0]) : ok)
      })
    ],

    // paging
    [
      'defineEndpoint',
      typed(
        ['endpoint'],
        endpointArb.map((e) => [{ path: e.path, fields: e.fields, sortable: e.sortable }])
      )
    ],
    [
      'fieldOf',
      typed(
        ['endpoint', 'field'],
        fc.tuple(endpointArb, fc.constantFrom('amount', 'name', '__proto__', 'constructor', 'toString')),
        {
          check: (r, _, valid) => when(!valid || r === undefined || isObject(r), 'did not return a field type or undefined')
        }
      )
    ],
    [
      'rawQuery',
      typed(
        ['source'],
        queryArb('bankTransactions').chain((q) =>
          fc
            .constantFrom<(text: string) => unknown>(
              (text) => text,
              (text) => `?${text}`,
              (text) => `/v1/banking/bank_transactions?${text}`,
              (text) => new URL(`https://api.example/v1/banking/bank_transactions?${text}`),
              (text) => new URLSearchParams(text)
            )
            .map((form) => [form(q ?? '')])
        ),
        {
          outside: (a) => (typeof a[0] === 'string' || a[0] instanceof URL || a[0] instanceof URLSearchParams ? null : 'source'),
          check: (r, _, valid) => when(!valid || typeof r === 'string', `did not return a query :: ${describe(r)}`)
        }
      )
    ],
    [
      'toResponse',
      typed(
        ['reply'],
        fc
          .record({
            status: fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 409, 412, 422, 429, 500, 503),
            headers: fc.constantFrom(
              { 'X-Request-Id': 'req-1' },
              { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json' }
            ),
            body: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 }))
          })
          .map((r) => [r.status === 204 ? { ...r, body: null } : r]),
        {
          // Its type as R-19 reads it: an object with an integer status from 200 to 599, headers and a body.
          outside: (a) => {
            const r = a[0]
            try {
              return isObject(r) &&
                Number.isInteger(r.status) &&
                (r.status as number) >= 200 &&
                (r.status as number) <= 599 &&
                isObject(r.headers) &&
                'body' in r
                ? null
                : 'reply'
            } catch {
              return 'reply'
            }
          },
          check: (r, _, valid) => when(!valid || r instanceof Response, `did not return a Response :: ${describe(r)}`)
        }
      )
    ],
    [
      'nextWindow',
      typed(
        ['window', 'received'],
        windowArb.chain((w) => fc.oneof(fc.nat({ max: 2600 }), fc.constant(w.end - w.start)).map((n) => [w, n])),
        {
          outside: (a) => {
            const w = a[0]
            try {
              if (!isObject(w)) return 'window'
              return numberOutside(w.start, 'start') ?? numberOutside(w.end, 'end') ?? numberOutside(a[1], 'received')
            } catch {
              return 'window'
            }
          },
          check: (r, a, valid) => {
            const w = a[0]
            if (r === null || !valid) return ok
            if (
              !isObject(r) ||
              typeof r.start !== 'number' ||
              typeof r.end !== 'number' ||
              !Number.isFinite(r.start) ||
              !Number.isFinite(r.end) ||
              r.end <= r.start
            )
              return [`did not return a window :: ${describe(r)}`]
            if (isObject(w) && isSafeNat(w.start) && isSafeNat(w.end) && w.start <= w.end && isSafeNat(a[1])) {
              const size = w.end - w.start
              const expected = size <= 0 || a[1] < size ? null : { start: w.end, end: w.end + size }
              return when(
                r.start === expected?.start && r.end === expected.end,
                `returned another window than the walk's :: ${describe(r)}, not ${describe(expected)}`
              )
            }
            return ok
          }
        }
      )
    ],
    [
      'decodeWindow',
      typed(
        ['endpoint', 'parameters'],
        fc.tuple(
          endpointArb,
          fc
            .array(
              fc.tuple(
                fc.constantFrom('_start', '_end', '_order', '_field'),
                fc.oneof(fc.nat({ max: 100 }).map(String), fc.constantFrom('asc', 'desc', 'amount', 'x'))
              )
            )
            .map((ps) => new Map(ps))
        ),
        { check: eitherCheck }
      )
    ],
    ['checkWindowSize', typed(['window'], fc.tuple(windowArb), { check: eitherCheck })],
    [
      'spellOrder',
      typed(
        ['endpoint', 'order'],
        fc.tuple(fc.record({ orderCase: fc.constantFrom('lower', 'upper') }), fc.constantFrom('asc', 'desc'))
      )
    ],
    [
      'decodeFilter',
      typed(
        ['endpoint', 'key', 'text'],
        fc.tuple(
          fc.constant(null).map(bt),
          fc.constantFrom('amount[$gte]', 'status', 'created_at[$lt]', 'id[$in]', 'amount[$nin]'),
          fc.oneof(fc.nat().map(String), instantArb, fc.constant('["tx-1"]'), fc.constant('[1,2]'))
        ),
        {
          check: eitherCheck
        }
      )
    ],
    [
      'compileFilter',
      typed(
        ['filter', 'value'],
        filterArb.chain((f) => valueOfType(f.type).map((v) => [f, v])),
        {
          call: (f, a) => (f(a[0]) as (v: unknown) => unknown)(a[1]),
          check: (r) => when(typeof r === 'boolean', 'the predicate did not return a boolean')
        }
      )
    ],
    [
      'fieldValue',
      typed(
        ['type', 'u'],
        fieldTypeArb.chain((t) => valueOfType(t).map((v) => [t, v])),
        { unknownParams: [1] }
      )
    ],
    [
      'compareValues',
      typed(
        ['type', 'a', 'b'],
        fieldTypeArb.chain((t) => fc.tuple(valueOfType(t), valueOfType(t)).map(([a, b]) => [t, a, b])),
        {
          call: (f, a) => (f(a[0]) as (x: unknown, y: unknown) => unknown)(a[1], a[2]),
          check: (r, _, valid) =>
            when(
              !valid || (typeof r === 'number' && !Number.isNaN(r)),
              `compared two values of the type to something else than a number :: ${String(r)}`
            )
        }
      )
    ],
    ['decodeQuery', typed(['query'], fc.tuple(queryArb('bankTransactions').map((q) => q ?? '')), { check: eitherCheck })],
    [
      'encodeQuery',
      typed(
        ['parameters'],
        fc.tuple(
          fc.array(fc.tuple(fc.string({ unit: unitArb, maxLength: 6 }), fc.string({ unit: unitArb, maxLength: 6 })), {
            maxLength: 5
          })
        ),
        {
          // encoding never throws; a lone surrogate is written as U+FFFD
          total: (a) =>
            Array.isArray(a[0]) &&
            (a[0] as ReadonlyArray<unknown>).every(
              (p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === 'string')
            ),
          check: queryTextViolations
        }
      )
    ],
    [
      'decodePageRequest',
      typed(
        ['endpoint', 'query'],
        fc.tuple(
          fc.constant(null).map(bt),
          queryArb('bankTransactions').map((q) => q ?? '')
        ),
        { check: trailCheck }
      )
    ],
    [
      'selectPage',
      typed(
        ['endpoint', 'records', 'filters', 'sort', 'window'],
        fc.tuple(
          fc.constant(null).map(bt),
          recordsArb('bankTransactions'),
          fc.constant([]),
          fc.record({ field: fc.constantFrom('created_at', 'amount', 'updated_at'), order: fc.constantFrom('asc', 'desc') }),
          windowArb.map((w) => ({ start: w.start % 100, end: (w.start % 100) + (w.end - w.start) }))
        ),
        { rows: [[1, '*']], check: eitherCheck }
      )
    ],
    [
      'firstK',
      typed(
        ['items', 'k', 'cmp'],
        fc.tuple(
          fc.array(fc.integer(), { maxLength: 200 }),
          fc.integer({ min: -1, max: 250 }),
          fc.constant((a: number, b: number) => a - b)
        ),
        {
          check: (r) => when(Array.isArray(r), 'not an array')
        }
      )
    ],
    [
      'pageHeaders',
      typed(
        ['window', 'count', 'total'],
        windowArb.chain((w) => fc.tuple(fc.nat({ max: w.end - w.start }), fc.nat({ max: 10_000 })).map(([c, t]) => [w, c, t])),
        { check: eitherCheck }
      )
    ],

    // client helpers beyond the contract's table
    [
      'kindOf',
      typed(['status'], fc.tuple(fc.integer({ min: 100, max: 599 })), {
        check: (r) => when(REPLY_KINDS.includes(r as string), `returned a kind that is not one :: ${describe(r)}`)
      })
    ],
    [
      'retryAfterSeconds',
      typed(
        ['value', 'now'],
        fc.tuple(
          fc.oneof(fc.nat().map(String), httpDateArb),
          fc.option(fc.integer({ min: dayOf('2020-01-01') * 86400, max: dayOf('2030-01-01') * 86400 }), { nil: undefined })
        ),
        {
          check: (r, _, valid) =>
            when(
              !valid || r === undefined || (typeof r === 'number' && r >= 0 && Number.isFinite(r)),
              `returned a wait that is not a number of seconds >= 0 :: ${describe(r)}`
            )
        }
      )
    ],

    // banking and roles
    [
      'validateBankRecipient',
      typed(
        ['input', 'context'],
        fc.tuple(
          fc.record({
            rut: rutArb(lib),
            account_number: fc.constantFrom('12345678', '1234-5678-90', '12'),
            bank_id: fc.constantFrom('bank-1', 'bank-9'),
            name: fc.string({ maxLength: 10 })
          }),
          fc.record({
            bank_ids: fc.constant(['bank-1', 'bank-2']),
            enrolled: fc.array(
              fc.record({ rut: rutArb(lib), bank_id: fc.constant('bank-1'), account_number: fc.constant('12345678') }),
              { maxLength: 2 }
            )
          })
        ),
        { unknownParams: [0], check: eitherCheck }
      )
    ],
    [
      'normaliseRut',
      typed(['text'], fc.tuple(rutArb(lib)), {
        check: (r) =>
          when(
            r === null || (typeof r === 'string' && /^\d{1,9}-[\dK]$/.test(r)),
            `did not return a normalised RUT or null :: ${describe(r)}`
          )
      })
    ],
    [
      'rutCheckDigit',
      typed(['digits'], fc.tuple(fc.nat({ max: 99_999_999 }).map(String)), {
        check: (r, _, valid) =>
          when(!valid || (typeof r === 'string' && /^[\dK]$/.test(r)), `did not return a check digit :: ${describe(r)}`)
      })
    ],
    [
      'authorizeTransaction',
      typed(
        ['transaction'],
        fc.tuple(
          fc.record({
            id: fc.constant('tx-1'),
            company_id: fc.constant(COMPANY),
            status: fc.constantFrom('pending', 'authorized')
          })
        ),
        { check: eitherCheck }
      )
    ],
    [
      'guardRoleAssignment',
      typed(['caller', 'role'], fc.tuple(callerArb, fc.constantFrom('owner', 'admin', 'member')), { check: eitherCheck })
    ],
    [
      'nameError',
      typed(['value'], fc.tuple(fc.oneof(fc.string(), fc.constantFrom('', '  ', 'x'.repeat(256)))), {
        unknownParams: [0],
        check: (r) => when(r === null || typeof r === 'string', 'not a message or null')
      })
    ],

    // message builders
    ['fieldMessages.notAfter', typed(['today'], fc.tuple(dateArb))],
    ['moneyMessages.mode', typed(['operation'], fc.tuple(fc.constantFrom('top_up', 'withdraw', 'amount')))],
    ['moneyMessages.overBalance', typed(['balance'], fc.tuple(fc.nat()))]
  ]
  const out = new Map<string, Spec>(specs)

  // problem constructors: R-55 says a 429 carries whole seconds
  for (const name of [
    'unauthenticated',
    'emailNotVerified',
    'guardRejected',
    'notFound',
    'badRequest',
    'preconditionFailed',
    'conflict',
    'internalError',
    'denied'
  ])
    out.set(
      `problem.${name}`,
      typed(['rule', 'detail'], fc.tuple(fc.constantFrom(...RULE_IDS(lib)), fc.string({ maxLength: 20 })))
    )
  out.set(
    'problem.rateLimited',
    typed(['rule', 'retry_after_s'], fc.tuple(fc.constantFrom(...RULE_IDS(lib)), fc.nat({ max: 3600 })), {
      check: (r) =>
        when(
          isObject(r) && isSafeNat(r.retry_after_s),
          `built a 429 whose retry_after_s is not a whole number of seconds >= 0 (R-55) :: ${isObject(r) ? describe(r.retry_after_s) : '?'}`
        )
    })
  )
  out.set(
    'problem.upstream',
    typed(['rule', 'status', 'detail'], fc.tuple(fc.constantFrom(...RULE_IDS(lib)), fc.constantFrom(502, 503, 504), fc.string()))
  )
  out.set(
    'problem.forbidden',
    typed(['rule', 'error_code', 'detail'], fc.tuple(fc.constantFrom(...RULE_IDS(lib)), fc.string(), fc.string()))
  )
  out.set(
    'problem.invalid',
    typed(
      ['rule', 'errors'],
      fc.tuple(
        fc.constantFrom(...RULE_IDS(lib)),
        fc.array(fc.record({ field: fc.string(), messages: fc.array(fc.string()) }), { maxLength: 3 })
      )
    )
  )
  out.set(
    'problem.rangeNotSatisfiable',
    typed(['rule', 'size', 'maximum'], fc.tuple(fc.constantFrom(...RULE_IDS(lib)), fc.nat(), fc.constant(2000)))
  )

  // codecs: decode and is take unknown, so they return whatever they are given
  const domains: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
    Budget: budgetArb,
    BudgetContext: budgetContextArb(updateBodyArb),
    CalendarDate: dateArb,
    Cents: fc.nat(),
    Every: fc.integer({ min: 1, max: 366 }),
    EndpointCodec: endpointArb,
    IndexContext: indexContextArb(lib),
    Request: fc.record({ headers: requestHeadersArb, body: fc.string() }),
    HeadersCodec: requestHeadersArb,
    Role: fc.constantFrom('owner', 'admin', 'member'),
    Session: whoArb.chain(sessionArb)
  }
  for (const [name, value] of Object.entries(lib))
    if (isCodec(value)) {
      const domain = domains[name] ?? fc.anything()
      out.set(
        `${name}.decode`,
        typed(
          ['input'],
          domain.map((d) => [d]),
          { unknownParams: [0], check: eitherCheck }
        )
      )
      out.set(
        `${name}.is`,
        typed(
          ['input'],
          domain.map((d) => [d]),
          { unknownParams: [0], check: (r) => when(typeof r === 'boolean', 'not a boolean') }
        )
      )
    }
  return out
}

export const isCodec = (u: unknown): boolean =>
  typeof u === 'object' &&
  u !== null &&
  typeof (u as { decode?: unknown }).decode === 'function' &&
  typeof (u as { is?: unknown }).is === 'function'

/** Every function exported from the library, by name (`problem.badRequest`, `Budget.decode`). */
export const entryPoints = (
  lib: Lib
): ReadonlyMap<string, { readonly fn: (...a: ReadonlyArray<unknown>) => unknown; readonly self: unknown }> => {
  const out = new Map<string, { readonly fn: (...a: ReadonlyArray<unknown>) => unknown; readonly self: unknown }>()
  for (const [name, value] of Object.entries(lib)) {
    if (typeof value === 'function') out.set(name, { fn: value as (...a: ReadonlyArray<unknown>) => unknown, self: undefined })
    else if (isCodec(value)) {
      const codec = value as Record<string, (...a: ReadonlyArray<unknown>) => unknown>
      for (const m of ['decode', 'is']) {
        const fn = codec[m]
        if (fn !== undefined) out.set(`${name}.${m}`, { fn, self: codec })
      }
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value as Record<string, unknown>))
        if (typeof inner === 'function')
          out.set(`${name}.${key}`, { fn: inner as (...a: ReadonlyArray<unknown>) => unknown, self: value })
  }
  return out
}

/** The spec of an export this table does not know: a facade by its name, else a typed function. */
export const genericSpec = (name: string, arity: number): Spec =>
  name.startsWith('respond')
    ? {
        kind: 'facade',
        group: 'other',
        params: ['context'],
        generic: true,
        args: whoArb.chain((who: Who) =>
          fc
            .record({
              request: fc.record({ headers: requestHeadersArb, body: fc.constantFrom('{}', '{"role":"admin"}') }),
              session: sessionArb(who),
              request_id: fc.constant('req-1')
            })
            .map((c) => [c])
        ),
        headers: [[0, 'request', 'headers']]
      }
    : {
        kind: 'typed',
        generic: true,
        params: Array.from({ length: Math.max(1, arity) }, (_, i) => `arg${i}`),
        args: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), dateArb, fc.constant(null)), {
          minLength: Math.max(1, arity),
          maxLength: Math.max(1, arity)
        })
      }

/** The checks of a facade reply (contract section 2, R-18, R-55). */
export const facadeReplyViolations = (r: unknown, requestId: unknown, group: FacadeGroup): ReadonlyArray<string> => {
  const out = [...replyViolations(r, requestId)]
  if (!isObject(r)) return out
  if (
    !Array.isArray(r.reasons) ||
    !r.reasons.every((x) => isObject(x) && typeof x.rule === 'string' && typeof x.detail === 'string')
  )
    out.push('reasons is not a list of {rule, detail}')
  if (group === 'budget update' || group === 'money') {
    if (r.status === 200) {
      const problems = budgetProblems(r.budget)
      if (problems.length > 0) out.push(`replied 200 with a budget to persist that is not valid (R-17) :: ${problems.join(', ')}`)
      else if (Object.getPrototypeOf(r.budget) !== Object.prototype || Object.keys(r.budget as object).length !== 20)
        out.push('replied 200 with a budget that is not a plain object of the 20 fields (R-18)')
    } else if ('budget' in r && r.budget !== undefined)
      out.push(`replied another status than 200 with a budget to persist :: ${describe(r.status)}`)
  }
  const persisted = (key: 'transaction' | 'recipient', status: number) => {
    if (r.status === status) {
      const value = r[key]
      if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype)
        out.push(`replied ${status} without a plain ${key} to persist (R-18)`)
      else if (key === 'transaction' && value.status !== 'authorized')
        out.push('replied 200 with a transaction to persist that is not authorized (R-71)')
    } else if (key in r && r[key] !== undefined)
      out.push(`replied another status than ${status} with a ${key} to persist :: ${describe(r.status)}`)
  }
  if (group === 'transaction') persisted('transaction', 200)
  if (group === 'recipient') persisted('recipient', 201)
  return out
}

export { mayUpdate }
