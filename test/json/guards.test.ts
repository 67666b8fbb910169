import { either as E } from 'fp-ts'
import fc from 'fast-check'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { Role, Session } from '../../src/auth/session'
import { CalendarDate } from '../../src/calendar/codec'
import { BudgetContext } from '../../src/facade/budget-context'
import { StoredObject } from '../../src/facade/context'
import { getterOf, isHeaderValue } from '../../src/http/headers'
import { HeadersCodec, Request } from '../../src/http/request'
import { runs, timeoutFor } from '../runs'

// The hand-written guards of src/json/guard.ts stand in for io-ts's `is`: for every input they
// must answer as the io-ts combinators they replace did, reading the same properties in the same
// order, so that a getter that throws, or a proxy's trap, sees the very same sequence. The
// oracles below are those combinators, written here as the codecs were before the guards.

// -------------------------------------------------------------------------------------
// oracles
// -------------------------------------------------------------------------------------

/** The oracle of HeadersCodec: its decoder's verdict. */
const headersByValidate = (u: unknown): boolean => E.isRight(HeadersCodec.validate(u, []))

/** `validateHeaders` as it was before `headersFault` (commit e7e955b), its verdict only. */
const headersBefore = (u: unknown): boolean => {
  try {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return false
    if (getterOf(u) !== undefined) return true
    for (const k of Object.keys(u)) {
      let v: unknown
      try {
        v = (u as Record<string, unknown>)[k]
      } catch {
        return false
      }
      if (!isHeaderValue(v)) return false
    }
    return true
  } catch {
    return false
  }
}

const HeadersOracle = new t.Type<unknown>('Headers', (u): u is unknown => headersByValidate(u), HeadersCodec.validate, t.identity)

const RequestOracle = t.intersection(
  [
    t.type({ headers: HeadersOracle }),
    t.partial({ query: t.union([t.string, t.undefined]), body: t.union([t.string, t.undefined]) })
  ],
  'Request'
)

const SessionOracle = t.type(
  {
    user: t.union([t.null, t.type({ id: t.string, email_verified: t.boolean })]),
    memberships: t.record(t.string, t.type({ role: Role, permissions: t.array(t.string) }))
  },
  'Session'
)

const BudgetContextOracle = t.intersection(
  [
    t.type({
      request: RequestOracle,
      session: SessionOracle,
      budget: t.union([t.null, StoredObject]),
      today: CalendarDate,
      request_id: t.string
    }),
    t.partial({ company_member_ids: t.array(t.string) })
  ],
  'BudgetContext'
)

// -------------------------------------------------------------------------------------
// valid values
// -------------------------------------------------------------------------------------

const headerName = fc.constantFrom('Authorization', 'authorization', 'company-id', 'Company-Id', 'x-n', 'set-cookie')
const headerText = fc.oneof(fc.constantFrom('Bearer key-1', 'c-1', 'a=1', ''), fc.string({ maxLength: 6 }))
const plainHeaders = fc.dictionary(
  headerName,
  fc.oneof(
    headerText,
    fc.array(headerText, { maxLength: 3 }),
    fc.sparseArray(headerText, { maxLength: 4 }),
    fc.constant(undefined)
  ),
  { maxKeys: 4 }
)
const fetchHeaders = fc
  .array(fc.tuple(headerName, fc.constantFrom('Bearer key-1', 'c-1', 'a=1')), { maxLength: 3 })
  .map((entries) => {
    const h = new Headers()
    for (const [name, value] of entries) h.append(name, value)
    return h
  })
const mapHeaders = fc.constantFrom('c-1', 'c-2').map((company) => new Map([['company-id', company]]))
const validHeaders = fc.oneof({ weight: 4, arbitrary: plainHeaders }, fetchHeaders, mapHeaders)

const maybeText = fc.option(fc.string({ maxLength: 6 }), { nil: undefined })
const validRequest = fc.record({ headers: validHeaders, query: maybeText, body: maybeText }, { requiredKeys: ['headers'] })

const permission = fc.constantFrom('budgets_manage', 'transactions_read', 'x', '')
const membership = fc.record({
  role: fc.constantFrom('owner', 'admin', 'member'),
  permissions: fc.oneof(fc.array(permission, { maxLength: 3 }), fc.sparseArray(permission, { maxLength: 4 }))
})
const validSession = fc.record({
  user: fc.option(fc.record({ id: fc.string({ maxLength: 6 }), email_verified: fc.boolean() }), { nil: null }),
  memberships: fc.dictionary(fc.constantFrom('c-1', 'c-2', 'c-3', 'c-4', 'toString'), membership, { maxKeys: 4 })
})

const twoDigits = (n: number): string => String(n).padStart(2, '0')
const validDate = fc.oneof(
  fc
    .record({
      year: fc.integer({ min: 1, max: 9999 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 })
    })
    .map(({ year, month, day }) => `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`),
  fc.constantFrom('2028-02-29', '2026-12-31', '0001-01-01', '9999-12-31')
)

class Row {
  readonly id = 'b-1'
}
const storedBudget = fc.oneof(
  fc.constant(null),
  fc.object({ maxDepth: 1 }),
  fc.constant(null).map(() => new Row()),
  fc.constant(null).map(() => Object.assign(() => 1, { id: 'b-1' }))
)

const validContext = fc.record(
  {
    request: validRequest,
    session: validSession,
    budget: storedBudget,
    today: validDate,
    request_id: fc.string({ maxLength: 6 }),
    company_member_ids: fc.oneof(
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      fc.sparseArray(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      fc.constant(undefined)
    )
  },
  { requiredKeys: ['request', 'session', 'budget', 'today', 'request_id'] }
)

// -------------------------------------------------------------------------------------
// hostile values, and where they go
// -------------------------------------------------------------------------------------

/**
 * A value made only once it is put in place: fast-check itself asks the values it generates
 * about their keys (and prints them), which a proxy whose traps throw would not survive.
 */
class Made {
  constructor(
    readonly label: string,
    readonly make: () => unknown
  ) {}
  toString(): string {
    return this.label
  }
}

/** A copy of `target` behind a proxy whose every trap throws, naming the trap and the key. */
const trapsThrow = (target: object): object => {
  const refuse = (trap: string, key?: string | symbol): never => {
    throw new Error(`${trap} ${String(key)}`)
  }
  return new Proxy(Array.isArray(target) ? [...(target as ReadonlyArray<unknown>)] : { ...target }, {
    get: (_, key) => refuse('get', key),
    has: (_, key) => refuse('has', key),
    getOwnPropertyDescriptor: (_, key) => refuse('getOwnPropertyDescriptor', key),
    ownKeys: () => refuse('ownKeys')
  })
}

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    maxDepth: 2,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withTypedArray: true,
    withBigInt: true
  }),
  fc.constantFrom<unknown>(null, undefined, 0, -1, 1.5, Number.NaN, true, '', 'Admin', 'OWNER', 'owner', 'admin', 'member'),
  fc.constantFrom<unknown>('toString', '__proto__', '2026-02-30', '2026-11-22', '2026-2-3', 'Bearer key-1'),
  fc.sparseArray(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(undefined)), { maxLength: 4 }),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.record(
    {
      role: fc.constantFrom<unknown>('owner', 'Admin', undefined, 1),
      permissions: fc.constantFrom<unknown>([], ['x'], [1], undefined)
    },
    { requiredKeys: [] }
  ),
  fc.record(
    { id: fc.constantFrom<unknown>('u-1', 1, undefined), email_verified: fc.constantFrom<unknown>(true, 'true', undefined) },
    { requiredKeys: [] }
  ),
  fc.constant(null).map(() => ({ id: undefined })),
  fc.constant(null).map(() => new Headers({ 'company-id': 'c-1' })),
  fc.constant(null).map(() => () => undefined),
  fc.constantFrom(
    new Made('a proxy of {} whose traps throw', () => trapsThrow({})),
    new Made('a proxy of [] whose traps throw', () => trapsThrow([])),
    new Made('a proxy of a membership whose traps throw', () => trapsThrow({ role: 'owner', permissions: [] })),
    new Made('a revoked proxy', () => {
      const { proxy, revoke } = Proxy.revocable({}, {})
      revoke()
      return proxy
    })
  )
)

type Path = ReadonlyArray<string>

type Change =
  | { readonly at: number; readonly kind: 'set'; readonly value: unknown }
  | { readonly at: number; readonly kind: 'delete' | 'undefined' }

const change: fc.Arbitrary<Change | null> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.record({ at: fc.nat(), kind: fc.constant('set' as const), value: hostile }) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(), kind: fc.constantFrom('delete' as const, 'undefined' as const) }) }
)

/** The nodes of a tree built by `copy`: the only objects a test changes (never a generated value). */
type Mine = WeakSet<object>

const own = (o: object, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
}

/** A deep copy of the plain objects and arrays (holes kept), each recorded in `mine`; anything else as it is. */
const copy = (u: unknown, mine: Mine): unknown => {
  if (Array.isArray(u)) {
    const a = new Array<unknown>(u.length)
    for (const k of Object.keys(u)) own(a, k, copy((u as ReadonlyArray<unknown>)[Number(k)], mine))
    mine.add(a)
    return a
  }
  if (typeof u === 'object' && u !== null && Object.getPrototypeOf(u) === Object.prototype) {
    const o = {}
    for (const k of Object.keys(u)) own(o, k, copy((u as Record<string, unknown>)[k], mine))
    mine.add(o)
    return o
  }
  return u
}

/** The own value at `key`, never running a getter. */
const valueAt = (o: object, key: string): unknown => Reflect.getOwnPropertyDescriptor(o, key)?.value

/** The object holding the last key of `path`, when every step lies inside `mine`. */
const parentAt = (root: unknown, path: Path, mine: Mine): object | undefined => {
  let node = root
  for (const key of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !mine.has(node)) return undefined
    node = valueAt(node, key)
  }
  return typeof node === 'object' && node !== null && mine.has(node) ? node : undefined
}

/** Every own key of every node of `mine` in the tree, and the absent keys of `extras` whose parent is there. */
const pathsIn = (root: unknown, mine: Mine, extras: ReadonlyArray<Path>): ReadonlyArray<Path> => {
  const found: Array<Path> = []
  const walk = (node: unknown, path: Path): void => {
    if (typeof node !== 'object' || node === null || !mine.has(node)) return
    for (const key of Object.keys(node)) {
      found.push([...path, key])
      walk(valueAt(node, key), [...path, key])
    }
  }
  walk(root, [])
  for (const extra of extras) {
    const parent = parentAt(root, extra, mine)
    const last = extra[extra.length - 1] as string
    if (parent !== undefined && !Object.prototype.hasOwnProperty.call(parent, last)) found.push(extra)
  }
  return found
}

/** A copy of `valid` with `c` applied (or the whole value replaced, at the path of no keys). */
const changed = (
  valid: unknown,
  c: Change | null,
  extras: ReadonlyArray<Path>
): { readonly root: unknown; readonly mine: Mine } => {
  const mine: Mine = new WeakSet()
  const root = copy(valid, mine)
  if (c === null) return { root, mine }
  const paths: ReadonlyArray<Path> = [[], ...pathsIn(root, mine, extras)]
  const path = paths[c.at % paths.length] as Path
  const value = c.kind === 'set' ? (c.value instanceof Made ? c.value.make() : c.value) : undefined
  if (path.length === 0) return { root: value, mine }
  const parent = parentAt(root, path, mine) as object
  const key = path[path.length - 1] as string
  if (c.kind === 'delete') Reflect.deleteProperty(parent, key)
  else own(parent, key, value)
  return { root, mine }
}

/** A getter that throws `new Error(<path>)` put at one of the paths of the tree (when there is one). */
const withThrower = (root: unknown, mine: Mine, at: number, extras: ReadonlyArray<Path>): string | null => {
  const paths = pathsIn(root, mine, extras)
  if (paths.length === 0) return null
  const path = paths[at % paths.length] as Path
  const parent = parentAt(root, path, mine) as object
  const message = path.join('.')
  Object.defineProperty(parent, path[path.length - 1] as string, {
    get: () => {
      throw new Error(message)
    },
    enumerable: true,
    configurable: true
  })
  return message
}

// -------------------------------------------------------------------------------------
// what a guard does
// -------------------------------------------------------------------------------------

type Attempt<A> = { readonly returned: A } | { readonly threw: string }
type Outcome = Attempt<boolean>

const attempt = <A>(f: () => A): Attempt<A> => {
  try {
    return { returned: f() }
  } catch (e) {
    return { threw: e instanceof Error ? e.message : `a non-error: ${typeof e}` }
  }
}

const outcome = (is: (u: unknown) => boolean, u: unknown): Outcome => attempt(() => is(u))

const keyName = (key: string | symbol): string => (typeof key === 'symbol' ? `@@${key.description ?? ''}` : key)

/**
 * `root` behind proxies (every object reached through it too, each once) that log each trap
 * with the path it was reached by and the key asked about.
 */
const logged = (root: unknown, log: Array<string>): unknown => {
  const proxies = new WeakMap<object, object>()
  const wrap = (u: unknown, path: string): unknown => {
    if (typeof u !== 'object' || u === null) return u
    const known = proxies.get(u)
    if (known !== undefined) return known
    const proxy = new Proxy(u, {
      get: (target, key, receiver) => {
        log.push(`${path} get ${keyName(key)}`)
        const value: unknown = Reflect.get(target, key, receiver)
        const d = Reflect.getOwnPropertyDescriptor(target, key)
        // A proxy's `get` must give back the very value of a frozen data property.
        const frozen = d !== undefined && d.configurable === false && d.writable === false
        return frozen ? value : wrap(value, `${path}.${keyName(key)}`)
      },
      has: (target, key) => {
        log.push(`${path} has ${keyName(key)}`)
        return Reflect.has(target, key)
      },
      getOwnPropertyDescriptor: (target, key) => {
        log.push(`${path} getOwnPropertyDescriptor ${keyName(key)}`)
        return Reflect.getOwnPropertyDescriptor(target, key)
      },
      ownKeys: (target) => {
        log.push(`${path} ownKeys`)
        return Reflect.ownKeys(target)
      }
    })
    proxies.set(u, proxy)
    return proxy
  }
  return wrap(root, '$')
}

const tracedRun = (
  is: (u: unknown) => boolean,
  root: unknown
): { readonly outcome: Outcome; readonly log: ReadonlyArray<string> } => {
  const log: Array<string> = []
  return { outcome: outcome(is, logged(root, log)), log }
}

// -------------------------------------------------------------------------------------
// the guards against their oracles
// -------------------------------------------------------------------------------------

interface Subject {
  readonly name: string
  readonly guard: (u: unknown) => boolean
  readonly oracles: ReadonlyArray<readonly [string, (u: unknown) => boolean]>
  readonly valid: fc.Arbitrary<unknown>
  /** Optional or absent keys a change may add. */
  readonly extras: ReadonlyArray<Path>
  /** Whether an error thrown inside escapes the guard (headers catch every error). */
  readonly throws: boolean
  /** The codec, and the io-ts one it stands for: the decoders must agree too (only `is` was replaced). */
  readonly codecs?: readonly [t.Decoder<unknown, unknown>, t.Decoder<unknown, unknown>]
}

/**
 * The errors of a decoding, by path, message and value (the codecs at each step differ): an
 * object by its number in `seen`, never looked into (it may be a proxy whose traps throw).
 */
const failures = (d: t.Decoder<unknown, unknown>, u: unknown, seen: Map<unknown, number>) => {
  const name = (v: unknown): string => {
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null) return `${typeof v} ${String(v)}`
    if (!seen.has(v)) seen.set(v, seen.size)
    return `object #${String(seen.get(v))}`
  }
  const decoded = d.decode(u)
  return E.isRight(decoded)
    ? E.right(name(decoded.right))
    : E.left(decoded.left.map((e) => ({ path: e.context.map((c) => c.key).join('.'), message: e.message, value: name(e.value) })))
}

const requestExtras: ReadonlyArray<Path> = [['query'], ['body'], ['headers', 'x-new'], ['headers', 'get']]
const sessionExtras: ReadonlyArray<Path> = [
  ['memberships', 'c-9'],
  ['memberships', '__proto__']
]

const subjects: ReadonlyArray<Subject> = [
  {
    name: 'HeadersCodec',
    guard: (u) => HeadersCodec.is(u),
    oracles: [
      ['HeadersCodec.validate', headersByValidate],
      ['validateHeaders before the change', headersBefore]
    ],
    valid: validHeaders,
    extras: [['x-new'], ['get']],
    throws: false
  },
  {
    name: 'Request',
    guard: (u) => Request.is(u),
    oracles: [['io-ts Request', (u) => RequestOracle.is(u)]],
    valid: validRequest,
    extras: requestExtras,
    throws: true,
    codecs: [Request, RequestOracle]
  },
  {
    name: 'Session',
    guard: (u) => Session.is(u),
    oracles: [['io-ts Session', (u) => SessionOracle.is(u)]],
    valid: validSession,
    extras: sessionExtras,
    throws: true,
    codecs: [Session, SessionOracle]
  },
  {
    name: 'BudgetContext',
    guard: (u) => BudgetContext.is(u),
    oracles: [['io-ts BudgetContext', (u) => BudgetContextOracle.is(u)]],
    valid: validContext,
    extras: [
      ['company_member_ids'],
      ...requestExtras.map((p) => ['request', ...p]),
      ...sessionExtras.map((p) => ['session', ...p])
    ],
    throws: true,
    codecs: [BudgetContext, BudgetContextOracle]
  }
]

const RUNS = 400

/** At least a fifth of `total`: what "common" means for an outcome below. */
const common = (count: number, total: number): void => {
  expect(count).toBeGreaterThanOrEqual(Math.ceil(total / 5))
}

describe.each(subjects)('$name: the hand guard answers as io-ts did', (s) => {
  /** The property over valid values with one part made hostile; both answers must be common. */
  const bothAnswersCommon = (check: (root: unknown, c: Change | null) => Outcome): void => {
    let passed = 0
    let failed = 0
    fc.assert(
      fc.property(s.valid, change, (valid, c) => {
        const answer = check(changed(valid, c, s.extras).root, c)
        if ('returned' in answer && answer.returned) passed++
        else failed++
      }),
      { numRuns: runs(RUNS) }
    )
    common(passed, passed + failed)
    common(failed, passed + failed)
  }

  it(
    'gives the same boolean (or throws the same error) for valid values and for values with one part made hostile',
    () => {
      bothAnswersCommon((root, c) => {
        const answer = outcome(s.guard, root)
        for (const [name, oracle] of s.oracles) expect(answer, name).toStrictEqual(outcome(oracle, root))
        // The generators make valid values: unchanged, every oracle takes them.
        if (c === null) expect(answer).toStrictEqual({ returned: true })
        if (s.codecs !== undefined) {
          const [codec, oracle] = s.codecs
          // Not always `answer`: io-ts's `is` skips the holes of a sparse array, its decoder does not.
          const seen = new Map<unknown, number>()
          expect(attempt(() => failures(codec, root, seen))).toStrictEqual(attempt(() => failures(oracle, root, seen)))
        }
        return answer
      })
    },
    timeoutFor(RUNS, 20_000)
  )

  it(
    'makes the same traps, on the same keys, in the same order (a proxy logs them at every depth)',
    () => {
      bothAnswersCommon((root) => {
        const guard = tracedRun(s.guard, root)
        for (const [name, oracle] of s.oracles) {
          const expected = tracedRun(oracle, root)
          expect(guard.log, name).toStrictEqual(expected.log)
          expect(guard.outcome, name).toStrictEqual(expected.outcome)
        }
        return guard.outcome
      })
    },
    timeoutFor(RUNS, 20_000)
  )

  it(
    'throws the error of a getter that throws wherever it is, or answers the same when it is never reached',
    () => {
      let threw = 0
      let answered = 0
      fc.assert(
        fc.property(s.valid, change, fc.nat(), (valid, c, at) => {
          const { root, mine } = changed(valid, c, s.extras)
          const placed = withThrower(root, mine, at, s.extras)
          const guard = outcome(s.guard, root)
          for (const [name, oracle] of s.oracles) expect(guard, name).toStrictEqual(outcome(oracle, root))
          if (!('threw' in guard)) answered++
          else if (guard.threw === placed) threw++
          // Else only the trap of a hostile proxy put in by the change threw.
          else expect(c?.kind).toBe('set')
        }),
        { numRuns: runs(RUNS) }
      )
      if (s.throws) {
        common(threw, threw + answered)
        common(answered, threw + answered)
      } else expect(threw).toBe(0)
    },
    timeoutFor(RUNS, 20_000)
  )
})

// -------------------------------------------------------------------------------------
// examples
// -------------------------------------------------------------------------------------

/** `o` with a getter at `key` that throws `new Error(key)`. */
const throwing = (o: object, key: string): object =>
  Object.defineProperty({ ...o }, key, {
    get: () => {
      throw new Error(key)
    },
    enumerable: true
  })

/** An array of `length` with only the entries `at` (holes elsewhere). */
const sparse = (length: number, at: Readonly<Record<number, string>>): Array<string> =>
  Object.assign(new Array<string>(length), at)

/** Every path to a key of `u`'s plain objects (arrays are left whole). */
const keyPaths = (u: unknown, path: ReadonlyArray<string> = []): ReadonlyArray<ReadonlyArray<string>> =>
  typeof u !== 'object' || u === null || Array.isArray(u)
    ? []
    : Object.keys(u).flatMap((k) => [[...path, k], ...keyPaths((u as Record<string, unknown>)[k], [...path, k])])

/** A deep copy of plain data without the key at `path`. */
const without = (u: unknown, path: ReadonlyArray<string>): unknown => {
  const copy = structuredClone(u) as Record<string, unknown>
  let at = copy
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>
  Reflect.deleteProperty(at, path[path.length - 1] as string)
  return copy
}

describe('a key taken away, one at a time, from a fixed valid value', () => {
  const headers = { Authorization: 'Bearer k', 'company-id': 'c-1' }
  const session = {
    user: { id: 'u-1', email_verified: true },
    memberships: { 'c-1': { role: 'admin', permissions: ['budgets_manage'] } }
  }
  const request = { headers, query: '_start=0', body: '{}' }
  const context = { request, session, budget: {}, today: '2026-11-22', request_id: 'req-1', company_member_ids: ['u-1'] }
  // Each with how many of its keys are required: headers; user, id, email_verified, memberships,
  // role, permissions; and those with request, session, budget, today and request_id.
  const fixed: ReadonlyArray<readonly [string, unknown, number]> = [
    ['Request', request, 1],
    ['Session', session, 6],
    ['BudgetContext', context, 12]
  ]
  it.each(fixed)('%s: the same answer and the same traps as io-ts, for every key', (name, valid, required) => {
    const s = subjects.find((x) => x.name === name) as Subject
    let absentAsked = 0
    for (const path of keyPaths(valid)) {
      const root = without(valid, path)
      const guard = tracedRun(s.guard, root)
      for (const [oracleName, oracle] of s.oracles)
        expect(guard, `${oracleName} without ${path.join('.')}`).toStrictEqual(tracedRun(oracle, root))
      // A required key that is gone is asked for as an own property, as `t.type` does.
      if (guard.log.some((line) => line.endsWith(`getOwnPropertyDescriptor ${path[path.length - 1] ?? ''}`))) absentAsked++
    }
    expect(absentAsked).toBe(required)
  })
})

describe('the guards on literal inputs', () => {
  it('each codec keeps the name of the io-ts codec it stands for', () => {
    expect([HeadersCodec.name, Request.name, Session.name, BudgetContext.name]).toStrictEqual([
      'Headers',
      RequestOracle.name,
      SessionOracle.name,
      BudgetContextOracle.name
    ])
    expect([Request.name, Session.name, BudgetContext.name]).toStrictEqual(['Request', 'Session', 'BudgetContext'])
  })

  it('HeadersCodec names the header it could not read, or whose value is wrong, in its error', () => {
    const headers = {
      get 'x-bad'(): string {
        throw new Error('gone')
      }
    }
    const unreadable = HeadersCodec.decode(headers)
    expect(E.isLeft(unreadable) && unreadable.left.map((e) => [e.context.map((c) => c.key), e.value, e.message])).toStrictEqual([
      [['', 'x-bad'], headers, 'header x-bad cannot be read']
    ])
    const wrong = HeadersCodec.decode({ 'x-n': 7 })
    expect(E.isLeft(wrong) && wrong.left.map((e) => [e.context.map((c) => [c.key, c.actual]), e.value, e.message])).toStrictEqual(
      [
        [
          [
            ['', { 'x-n': 7 }],
            ['x-n', 7]
          ],
          7,
          'header x-n is not a string or a list of strings'
        ]
      ]
    )
  })

  it('each codec is still the io-ts codec it was, but for `is`: its tag, its parts, its decoder', () => {
    expect([Request._tag, Session._tag, BudgetContext._tag]).toStrictEqual([
      'IntersectionType',
      'InterfaceType',
      'IntersectionType'
    ])
    expect(Object.keys(Session.props)).toStrictEqual(['user', 'memberships'])
    expect(Request.types.map((c) => c._tag)).toStrictEqual(['InterfaceType', 'PartialType'])
    expect(BudgetContext.types[0].props.session).toBe(Session)
    expect(t.exact(Session).is({ user: null, memberships: {} })).toBe(true)
    expect(Object.keys(Session)).toStrictEqual(['is'])
    const malformed = Session.decode({ user: null, memberships: { 'c-1': { role: 'Admin', permissions: [] } } })
    expect(E.isLeft(malformed) && malformed.left.map((e) => e.context.map((c) => c.key).join('.'))).toStrictEqual([
      '.memberships.c-1.role'
    ])
  })

  it.each<[string, unknown, boolean]>([
    ['a list of strings', { 'set-cookie': ['a=1', 'b=2'] }, true],
    ['a sparse list of strings', { 'set-cookie': sparse(3, { 0: 'a=1', 2: 'b=2' }) }, true],
    ['an own undefined value', { 'x-n': undefined }, true],
    ['a Fetch Headers', new Headers({ 'company-id': 'c-1' }), true],
    ['a Map (it has get)', new Map([['company-id', 'c-1']]), true],
    ['a get that is no function, and a string', { get: 'x' }, true],
    ['a number', { 'x-n': 1 }, false],
    ['a list holding a number', { 'x-n': ['a', 1] }, false],
    ['null as a value', { 'x-n': null }, false],
    ['an array', [], false],
    ['null', null, false],
    ['a string', 'Authorization: Bearer k', false],
    ['a header that cannot be read', throwing({}, 'authorization'), false]
  ])('HeadersCodec: %s', (_, u, expected) => {
    expect(HeadersCodec.is(u)).toBe(expected)
    expect(headersBefore(u)).toBe(expected)
  })

  it.each<[string, unknown, boolean]>([
    ['headers alone', { headers: {} }, true],
    ['an own body: undefined', { headers: {}, body: undefined }, true],
    ['an own query: undefined', { headers: {}, query: undefined }, true],
    ['Fetch headers and a query', { headers: new Headers(), query: '_start=0' }, true],
    ['a body that is not a string', { headers: {}, body: { amount_cents: 1 } }, false],
    ['a query that is a number', { headers: {}, query: 1 }, false],
    ['no headers', {}, false],
    ['own headers: undefined', { headers: undefined }, false],
    ['headers inherited', Object.create({ headers: {} }) as unknown, true],
    ['malformed headers', { headers: { 'x-n': 1 } }, false],
    ['an array', [{ headers: {} }], false]
  ])('Request: %s', (_, u, expected) => {
    expect(Request.is(u)).toBe(expected)
    expect(RequestOracle.is(u)).toBe(expected)
  })

  const member = { role: 'admin', permissions: ['budgets_manage'] }
  it.each<[string, unknown, boolean]>([
    ['no user, no memberships', { user: null, memberships: {} }, true],
    ['several memberships', { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': member, 'c-2': member } }, true],
    [
      'a sparse list of permissions',
      { user: null, memberships: { 'c-1': { role: 'owner', permissions: sparse(2, { 1: 'x' }) } } },
      true
    ],
    ['a company named toString', { user: null, memberships: { toString: member } }, true],
    ['role Admin', { user: null, memberships: { 'c-1': { role: 'Admin', permissions: [] } } }, false],
    ['role toString', { user: null, memberships: { 'c-1': { role: 'toString', permissions: [] } } }, false],
    ['a permission that is a number', { user: null, memberships: { 'c-1': { role: 'member', permissions: [1] } } }, false],
    ['no permissions', { user: null, memberships: { 'c-1': { role: 'member' } } }, false],
    ['email_verified a string', { user: { id: 'u-1', email_verified: 'true' }, memberships: {} }, false],
    ['a user without an id', { user: { email_verified: true }, memberships: {} }, false],
    ['own user: undefined', { user: undefined, memberships: {} }, false],
    ['no memberships', { user: null }, false],
    ['memberships an array', { user: null, memberships: [] }, false],
    ['memberships null', { user: null, memberships: null }, false]
  ])('Session: %s', (_, u, expected) => {
    expect(Session.is(u)).toBe(expected)
    expect(SessionOracle.is(u)).toBe(expected)
  })

  const context = {
    request: { headers: { Authorization: 'Bearer key-1', 'company-id': 'c-1' } },
    session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': member } },
    budget: null,
    today: '2026-11-22',
    request_id: 'req-1'
  }
  it.each<[string, unknown, boolean]>([
    ['a valid context', context, true],
    ['a leap day', { ...context, today: '2028-02-29' }, true],
    ['a budget that is a function', { ...context, budget: () => 1 }, true],
    ['an own company_member_ids: undefined', { ...context, company_member_ids: undefined }, true],
    ['company_member_ids of strings', { ...context, company_member_ids: ['u-1', 'u-2'] }, true],
    ['company_member_ids: [1]', { ...context, company_member_ids: [1] }, false],
    ['today 2026-02-30', { ...context, today: '2026-02-30' }, false],
    ['today a date of another shape', { ...context, today: '22/11/2026' }, false],
    ['an own budget: undefined', { ...context, budget: undefined }, false],
    ['a budget that is a string', { ...context, budget: 'b-1' }, false],
    ['request_id a number', { ...context, request_id: 1 }, false],
    [
      'a membership role Admin',
      { ...context, session: { user: null, memberships: { 'c-1': { role: 'Admin', permissions: [] } } } },
      false
    ],
    ['a request whose body is a number', { ...context, request: { headers: {}, body: 1 } }, false]
  ])('BudgetContext: %s', (_, u, expected) => {
    expect(BudgetContext.is(u)).toBe(expected)
    expect(BudgetContextOracle.is(u)).toBe(expected)
  })

  it('a sparse list of permissions passes `is` but not `decode`, in io-ts as in the guard', () => {
    const u = { user: null, memberships: { 'c-1': { role: 'owner', permissions: sparse(2, { 1: 'x' }) } } }
    expect([Session.is(u), E.isRight(Session.decode(u))]).toStrictEqual([true, false])
    expect([SessionOracle.is(u), E.isRight(SessionOracle.decode(u))]).toStrictEqual([true, false])
  })

  it('BudgetContext: with no request_id, both stop there, before company_member_ids', () => {
    const rest: Record<string, unknown> = { ...context }
    delete rest.request_id
    const u = throwing(rest, 'company_member_ids')
    expect(BudgetContext.is(u)).toBe(false)
    expect(BudgetContextOracle.is(u)).toBe(false)
    const read = throwing(context, 'company_member_ids')
    expect(() => BudgetContext.is(read)).toThrow('company_member_ids')
    expect(() => BudgetContextOracle.is(read)).toThrow('company_member_ids')
  })
})
