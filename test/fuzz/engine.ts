/**
 * One entry point fuzzed: each run starts from valid arguments and changes one part (a hostile
 * value at a random place, a getter that throws, a prototype key as an own key), or re-dresses
 * them in a form that must not change the answer (R-18 rows, R-54 headers, frozen). Each call is
 * timed, its reply checked, its inputs compared with a snapshot, Object.prototype watched.
 * Violations are grouped by what happened (and, for answers that differ from the plain arguments,
 * by the form that made them differ); each group is then shrunk by fast-check to
 * a small input.
 */
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import {
  asHeaders,
  asR18,
  buildHostile,
  deepFreeze,
  HEADER_TRANSFORMS,
  HostileError,
  type Hostile,
  hostileArb,
  hostileTextArb,
  isOpaque,
  labelOf,
  PROTOTYPE_KEYS,
  R18_TRANSFORMS,
  readsOverOne,
  resetReads,
  withOwnKey,
  withThrowingGetter
} from './hostile'
import { changedAt, describe, notJsonAt, prototypeChanges, snapshot } from './inspect'
import {
  entryPoints,
  FACADE_STATUSES,
  facadeReplyViolations,
  genericSpec,
  mayUpdate,
  type Path,
  type Spec,
  buildSpecs
} from './targets'
import { BUDGET_FIELDS, budgetProblems, COMPANY, isRealDate, type Who } from './values'

type Lib = Readonly<Record<string, unknown>>
type Fn = (...a: ReadonlyArray<unknown>) => unknown

// -------------------------------------------------------------------------------------
// settings
// -------------------------------------------------------------------------------------

const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(raw)}`)
  return n
}

/** A call slower than this, twice in a row, is a hang in the making (not a speed test). */
export const SLOW_MS = envNumber('FUZZ_SLOW_MS', 200)
/** The bound for a call given a huge value (100,000 items, 1 MB of text, 1,000 levels): linear work on it is no hang. */
export const SLOW_HUGE_MS = envNumber('FUZZ_SLOW_HUGE_MS', 2000)
/** The time fast-check may spend shrinking one failure, and all of one entry point's. */
const SHRINK_MS = envNumber('FUZZ_SHRINK_MS', 1000)
const SHRINK_TOTAL_MS = envNumber('FUZZ_SHRINK_TOTAL_MS', 10_000)

// -------------------------------------------------------------------------------------
// cases
// -------------------------------------------------------------------------------------

type Change =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'hostile'
      readonly choices: ReadonlyArray<number>
      readonly hostile: Hostile
      readonly text: string
      readonly preferText: boolean
      /** Somewhere under one of the spec's `focus` places (the request of a facade). */
      readonly focus: boolean
    }
  | { readonly kind: 'getter' | 'own key'; readonly choices: ReadonlyArray<number>; readonly key: number }
  | { readonly kind: 'row'; readonly choices: ReadonlyArray<number>; readonly how: (typeof R18_TRANSFORMS)[number] }
  | { readonly kind: 'headers'; readonly choices: ReadonlyArray<number>; readonly how: (typeof HEADER_TRANSFORMS)[number] }
  | { readonly kind: 'frozen' }

export interface Case {
  readonly args: ReadonlyArray<unknown>
  readonly change: Change
}

const choicesArb = fc.array(fc.nat({ max: 1 << 20 }), { minLength: 7, maxLength: 7 })

const caseArb = (spec: Spec): fc.Arbitrary<Case> => {
  const changes: Array<fc.WeightedArbitrary<Change>> = [
    { weight: 2, arbitrary: fc.constant<Change>({ kind: 'none' }) },
    {
      weight: 12,
      arbitrary: fc
        .record({
          choices: choicesArb,
          hostile: hostileArb,
          text: hostileTextArb,
          preferText: fc.nat({ max: 3 }).map((n) => n > 0),
          focus: fc.nat({ max: 3 }).map((n) => n > 0)
        })
        .map((r): Change => ({ kind: 'hostile', ...r }))
    },
    { weight: 1, arbitrary: fc.record({ choices: choicesArb, key: fc.nat() }).map((r): Change => ({ kind: 'getter', ...r })) },
    { weight: 1, arbitrary: fc.record({ choices: choicesArb, key: fc.nat() }).map((r): Change => ({ kind: 'own key', ...r })) },
    { weight: 1, arbitrary: fc.constant<Change>({ kind: 'frozen' }) }
  ]
  if (spec.rows !== undefined)
    changes.push({
      weight: 4,
      arbitrary: fc
        .record({ choices: choicesArb, how: fc.constantFrom(...R18_TRANSFORMS) })
        .map((r): Change => ({ kind: 'row', ...r }))
    })
  if (spec.headers !== undefined)
    changes.push({
      weight: 3,
      arbitrary: fc
        .record({ choices: choicesArb, how: fc.constantFrom(...HEADER_TRANSFORMS) })
        .map((r): Change => ({ kind: 'headers', ...r }))
    })
  return fc.record({ args: spec.args, change: fc.oneof(...changes) })
}

const isPlainContainer = (u: unknown): u is Record<string | number, unknown> =>
  typeof u === 'object' && u !== null && (Array.isArray(u) || Object.getPrototypeOf(u) === Object.prototype)

/** fast-check's records may have a null prototype: valid arguments are made plain objects. */
const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' &&
  u !== null &&
  !Array.isArray(u) &&
  (Object.getPrototypeOf(u) === Object.prototype || Object.getPrototypeOf(u) === null)

const childKeys = (u: unknown): ReadonlyArray<string | number> => {
  if (!isPlainContainer(u)) return []
  if (Array.isArray(u)) return [...new Set([0, 1, 2, u.length - 1])].filter((i) => i >= 0 && i < u.length)
  return Object.keys(u)
}

/** A random place in the arguments: descend a level at a time, stopping now and then. */
const pickPath = (args: ReadonlyArray<unknown>, choices: ReadonlyArray<number>, containersOnly: boolean): Path => {
  let node: unknown = args
  const path: Array<string | number> = []
  for (let depth = 0; depth < choices.length; depth++) {
    const keys = childKeys(node)
    const c = choices[depth] ?? 0
    if (keys.length === 0 || (depth > 0 && c % 3 === 0)) break
    const key = keys[(c >> 2) % keys.length] as string | number
    const child = (node as Record<string | number, unknown>)[key]
    if (containersOnly && !isPlainContainer(child)) break
    path.push(key)
    node = child
  }
  return path
}

/** A declared place (`*` is any element of an array), or null when there is none. */
const resolvePattern = (
  args: ReadonlyArray<unknown>,
  patterns: ReadonlyArray<Path>,
  choices: ReadonlyArray<number>
): Path | null => {
  const pattern = patterns[(choices[0] ?? 0) % patterns.length]
  if (pattern === undefined) return null
  let node: unknown = args
  const path: Array<string | number> = []
  for (const [i, step] of pattern.entries()) {
    let key: string | number = step
    if (step === '*') {
      if (!Array.isArray(node) || node.length === 0) return null
      key = (choices[i + 1] ?? 0) % node.length
    }
    if (!isPlainContainer(node)) return null
    path.push(key)
    node = node[key]
  }
  return path
}

const valueAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (isPlainContainer(node) ? node[key] : undefined), root)

/** The arguments with the value at `path` replaced (copies along the path, shares the rest). */
const replaceAt = (root: ReadonlyArray<unknown>, path: Path, f: (old: unknown) => unknown): ReadonlyArray<unknown> => {
  const rec = (node: unknown, i: number): unknown => {
    if (i === path.length) return f(node)
    const key = path[i] as string | number
    const source = node as Record<string | number, unknown>
    const copy = (Array.isArray(node) ? [...(node as ReadonlyArray<unknown>)] : { ...source }) as Record<string | number, unknown>
    Object.defineProperty(copy, key, { value: rec(source[key], i + 1), enumerable: true, writable: true, configurable: true })
    return copy
  }
  return rec(root, 0) as ReadonlyArray<unknown>
}

/** A copy of the plain part of a value (arrays and plain objects); anything else is shared. */
const copyPlain = (u: unknown): unknown => {
  // Large collections are shared: they are plain data already, and a mutation is reported anyway.
  if (Array.isArray(u)) return u.length > 1000 ? u : u.map(copyPlain)
  if (isRecord(u)) return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, copyPlain(v)]))
  return u
}

interface Run {
  readonly args: ReadonlyArray<unknown>
  /** Where the change is, in the parameters' names (`context.budget.recurrence_every`). */
  readonly where: string
  readonly path: Path | null
  readonly what: string
  readonly kind: Change['kind']
  /** The value put at `path` by a hostile change. */
  readonly value?: unknown
  readonly equivalent: boolean
}

const whereOf = (spec: Spec, path: Path): string =>
  path
    .map((k, i) => (i === 0 ? (spec.params[k as number] ?? `arg${String(k)}`) : typeof k === 'number' ? '[i]' : `.${k}`))
    .join('')

/** The arguments of a case, hostile values built fresh (a proxy, a getter that counts its reads). */
const materialize = (spec: Spec, c: Case): Run => {
  const plain = copyPlain(c.args) as ReadonlyArray<unknown>
  const none: Run = { args: plain, where: '', path: null, what: 'valid arguments', kind: 'none', equivalent: false }
  const ch = c.change
  switch (ch.kind) {
    case 'none':
      return none
    case 'frozen':
      return {
        args: deepFreeze(plain),
        where: '',
        path: null,
        what: 'every argument deep-frozen',
        kind: 'frozen',
        equivalent: true
      }
    case 'hostile': {
      const root = ch.focus && spec.focus !== undefined ? resolvePattern(plain, spec.focus, ch.choices) : null
      const path =
        root === null
          ? pickPath(plain, ch.choices, false)
          : [...root, ...pickPath([valueAt(plain, root)], ch.choices.slice(1), false).slice(1)]
      if (path.length === 0) return none
      const old = valueAt(plain, path)
      const value = typeof old === 'string' && ch.preferText ? ch.text : buildHostile(ch.hostile)
      return {
        args: replaceAt(plain, path, () => value),
        where: whereOf(spec, path),
        path,
        what: `${whereOf(spec, path)} = ${describe(value)}`,
        kind: 'hostile',
        value,
        equivalent: false
      }
    }
    case 'getter':
    case 'own key': {
      const path = pickPath(plain, ch.choices, true)
      const target = valueAt(plain, path)
      if (path.length === 0 || !isPlainContainer(target)) return none
      if (ch.kind === 'getter') {
        const keys = childKeys(target)
        if (keys.length === 0) return none
        const key = String(keys[ch.key % keys.length])
        return {
          args: replaceAt(plain, path, (o) => withThrowingGetter(o as object, key)),
          where: `${whereOf(spec, path)}.${key}`,
          path,
          what: `${whereOf(spec, path)}.${key} is a getter that throws`,
          kind: 'getter',
          equivalent: false
        }
      }
      const key = PROTOTYPE_KEYS[ch.key % PROTOTYPE_KEYS.length] ?? '__proto__'
      return {
        args: replaceAt(plain, path, (o) => withOwnKey(o as object, key)),
        where: whereOf(spec, path),
        path,
        what: `${whereOf(spec, path)} has an own key ${key}`,
        kind: 'own key',
        equivalent: false
      }
    }
    case 'row': {
      const path = resolvePattern(plain, spec.rows ?? [], ch.choices)
      const row = path === null ? undefined : valueAt(plain, path)
      if (path === null || !isPlainContainer(row) || Array.isArray(row)) return none
      const name = path.at(-1) === undefined || typeof path.at(-1) === 'number' ? 'record' : String(path.at(-1))
      return {
        args: replaceAt(plain, path, () => asR18(ch.how, row, name)),
        where: whereOf(spec, path),
        path,
        what: `${whereOf(spec, path)} as a ${ch.how}`,
        kind: 'row',
        equivalent: true
      }
    }
    case 'headers': {
      const path = resolvePattern(plain, spec.headers ?? [], ch.choices)
      const headers = path === null ? null : asHeaders(ch.how, valueAt(plain, path))
      if (path === null || headers === null) return none
      return {
        args: replaceAt(plain, path, () => headers),
        where: whereOf(spec, path),
        path,
        what: `${whereOf(spec, path)} as ${ch.how}`,
        kind: 'headers',
        equivalent: true
      }
    }
  }
}

// -------------------------------------------------------------------------------------
// calls and checks
// -------------------------------------------------------------------------------------

type Outcome =
  | { readonly ok: true; readonly value: unknown; readonly ms: number }
  | { readonly ok: false; readonly error: unknown; readonly ms: number }

export interface Probe {
  /** Called before each call: the watchdog of the main thread sees progress. */
  beat(): void
}

const invoke = (spec: Spec, fn: Fn, self: unknown, args: ReadonlyArray<unknown>, probe: Probe): Outcome => {
  const bound: Fn = (...a) => Reflect.apply(fn, self, a)
  resetReads()
  probe.beat()
  const t0 = performance.now()
  try {
    const value = spec.call === undefined ? bound(...args) : spec.call(bound, args)
    return { ok: true, value, ms: performance.now() - t0 }
  } catch (error) {
    return { ok: false, error, ms: performance.now() - t0 }
  }
}

const errorText = (e: unknown): string =>
  e instanceof Error ? `${e.name}: ${e.message.slice(0, 140)}` : `a non-error (${describe(e)})`

const errorName = (e: unknown): string => (e instanceof Error ? e.name : typeof e)

/** The value seen through property access, as R-18 reads a row: for comparing typed results. */
const view = (u: unknown, depth = 0): unknown => {
  if (typeof u !== 'object' || u === null || depth > 50) return u
  if (Array.isArray(u)) return u.map((x) => view(x, depth + 1))
  const o = u as Record<string, unknown>
  const keys = new Set(Object.keys(o))
  for (const f of BUDGET_FIELDS) if (f in o) keys.add(f)
  return Object.fromEntries([...keys].sort().map((k) => [k, view(o[k], depth + 1)]))
}

const replyView = (u: unknown): unknown => {
  if (typeof u !== 'object' || u === null) return u
  const r = u as Record<string, unknown>
  return {
    status: r.status,
    headers: r.headers,
    body: r.body,
    budget: r.budget,
    rules: Array.isArray(r.reasons) ? (r.reasons as ReadonlyArray<{ rule?: unknown }>).map((x) => x.rule) : r.reasons
  }
}

const ownValue = (o: unknown, key: string): unknown => {
  try {
    return typeof o === 'object' && o !== null ? Object.getOwnPropertyDescriptor(o, key)?.value : undefined
  } catch {
    return undefined // a proxy given as the whole context
  }
}

/** What the contract fixes about a facade's status for this run, if anything. */
const expectedStatuses = (
  spec: Spec,
  run: Run,
  plainArgs: ReadonlyArray<unknown>
): { readonly allowed: ReadonlyArray<number>; readonly why: string } | null => {
  const group = spec.group ?? 'other'
  const clientOnly = {
    allowed: FACADE_STATUSES[group],
    why: 'the server side is valid: only the request can be wrong, never a 500'
  }
  if (spec.generic === true) return null
  if (run.kind === 'none' || run.equivalent) return clientOnly
  const path = run.path ?? []
  if (run.kind !== 'hostile') return null
  const [, top, second] = path
  const text = typeof run.value === 'string' || run.value === undefined
  if (top === 'request' && (second === 'body' || second === 'query') && path.length === 3 && text) return clientOnly
  if (top === 'request' && second === 'headers' && path.length === 4 && text) return clientOnly
  const context = plainArgs[0] as Record<string, unknown>
  const verified = (context.session as { user: { email_verified: boolean } }).user.email_verified
  const malformed = (why: string) => ({ allowed: verified ? [500] : [401, 500], why: `${why}: malformed server input` })
  if (top === 'request_id') return typeof run.value === 'string' ? clientOnly : malformed('request_id is not a string')
  if (group === 'index') {
    if (top === 'records' && path.length === 2 && !Array.isArray(run.value)) return malformed('records is not a list')
    return null
  }
  if (group !== 'budget update' && group !== 'money') return null
  if (top === 'today') return isRealDate(run.value) ? clientOnly : malformed('today is not a date')
  if (top !== 'budget') return null
  const mutated = (run.args[0] as Record<string, unknown>).budget
  // Authentication (contract 4 rows 1-4) may come first: an unverified email is a 401 either way.
  const session = context.session as {
    user: { id: string; email_verified: boolean }
    memberships: Record<string, { role: string; permissions: ReadonlyArray<string> }>
  }
  const unverified = session.user.email_verified ? [] : [401]
  if (path.length === 2)
    return run.value === null
      ? { allowed: session.user.email_verified ? [404] : [401], why: 'no budget: 404 after authentication' }
      : { allowed: [404, 500, ...unverified], why: 'the budget is not an object: malformed or not found' }
  if (path.length !== 3) return null
  let problems: ReadonlyArray<string>
  try {
    problems = budgetProblems(mutated)
  } catch {
    return null
  }
  if (problems.length === 0) return clientOnly
  if (second === 'company_id') return { allowed: [404, 500, ...unverified], why: 'company_id is not a string' }
  const m = session.memberships[COMPANY]
  const who: Who =
    m?.role === 'admin'
      ? 'admin'
      : m?.role === 'owner'
        ? 'owner'
        : m?.permissions.includes('budgets_manage') === true
          ? 'budgets_manage'
          : session.user.id === 'u-manager'
            ? 'manager'
            : session.user.id === 'u-comanager'
              ? 'co_manager'
              : 'member'
  const passes =
    group === 'money'
      ? who === 'admin' || who === 'owner' || who === 'budgets_manage'
      : mayUpdate(who, context.budget as Record<string, unknown>)
  return passes && session.user.email_verified && second !== 'manager_id' && second !== 'co_manager_id'
    ? { allowed: [500], why: `a stored budget with ${problems.join(', ')} is malformed (R-17): 500, nothing to persist` }
    : { allowed: [401, 500], why: `a stored budget with ${problems.join(', ')} is malformed (R-17)` }
}

/** Whether the arguments hold a huge value, looked for without calling a getter or a trap. */
const holdsHugeValue = (args: ReadonlyArray<unknown>): boolean => {
  let budget = 2000
  const huge = (u: unknown, depth: number): boolean => {
    if (budget-- <= 0 || depth > 6) return false
    if (typeof u === 'string') return u.length >= 100_000
    if (typeof u !== 'object' || u === null || isOpaque(u)) return false
    if (labelOf(u)?.includes('1,000 deep') === true) return true
    if (!isPlainContainer(u)) return false
    if (Array.isArray(u)) return u.length >= 10_000 || u.slice(0, 8).some((x) => huge(x, depth + 1))
    return Object.values(u).some((x) => huge(x, depth + 1))
  }
  return args.some((a) => huge(a, 0))
}

const totalFor = (spec: Spec, args: ReadonlyArray<unknown>): boolean => {
  try {
    return spec.total?.(args) ?? false
  } catch {
    return false // a getter or proxy in the arguments: not of the type
  }
}

export interface Verdict {
  readonly violations: ReadonlyArray<string>
  readonly where: string
  readonly what: string
  readonly kind: Change['kind']
  /** The call got past the check of the context (a facade) or returned (anything else). */
  readonly deep: boolean
  readonly outcome: 'returned' | 'TypeError' | 'caller error' | 'other error'
  readonly ms: number
}

/** Runs one case and judges it. */
export const judge = (spec: Spec, fn: Fn, self: unknown, c: Case, probe: Probe): Verdict => {
  const run = materialize(spec, c)
  const before = snapshot(run.args)
  let outside: string | null = null
  if (spec.outside !== undefined && !run.equivalent && run.kind !== 'none')
    try {
      outside = spec.outside(run.args)
    } catch {
      outside = spec.params[run.path?.[0] as number] ?? 'an argument'
    }
  let out = invoke(spec, fn, self, run.args, probe)
  const reads = readsOverOne()
  const violations: Array<string> = []
  const mutated = changedAt(before, run.args)
  if (mutated !== null)
    violations.push(
      `mutated its input at ${mutated.replace(/^\[(\d+)\]/, (_, i: string) => spec.params[Number(i)] ?? `arg${i}`)}`
    )
  const bound = holdsHugeValue(run.args) ? SLOW_HUGE_MS : SLOW_MS
  if (out.ms > bound) {
    // Once more on fresh arguments: a pause of the collector is not a hang.
    const again = invoke(spec, fn, self, materialize(spec, c).args, probe)
    if (again.ms > bound)
      violations.push(`took over ${bound} ms twice (a hang in the making) :: ${Math.round(Math.min(out.ms, again.ms))} ms`)
    out = again.ms < out.ms ? again : out
  }
  for (const change of prototypeChanges()) violations.push(`polluted a prototype: ${change}`)

  const outcome: Verdict['outcome'] = out.ok
    ? 'returned'
    : out.error instanceof HostileError
      ? 'caller error'
      : out.error instanceof TypeError
        ? 'TypeError'
        : 'other error'
  let deep = out.ok
  if (!out.ok) {
    const mayThrowTypeError =
      spec.kind === 'typed' &&
      run.kind !== 'none' &&
      !run.equivalent &&
      !(spec.unknownParams ?? []).includes(run.path?.[0] as number) &&
      !totalFor(spec, run.args)
    const mayPassCallerError = spec.kind === 'typed' && (run.kind === 'hostile' || run.kind === 'getter')
    if (outcome === 'TypeError' && mayThrowTypeError) {
      if ((out.error as TypeError).message.trim() === '') violations.push('threw a TypeError without a message')
      else if (outside !== null) {
        const named = outside.split('.').at(-1) ?? outside
        if (!(out.error as TypeError).message.includes(named))
          violations.push(`threw a TypeError that does not name ${outside} (R-19)`)
      }
    } else if (outcome === 'caller error' && mayPassCallerError) {
      // the caller's own getter or proxy threw, and the error went back to it unchanged
    } else if (outcome === 'caller error')
      violations.push(`let the error of the caller's own getter or proxy escape :: ${errorText(out.error)}`)
    else violations.push(`threw ${errorText(out.error)}`)
  } else {
    if (outside !== null) violations.push(`returned for ${outside} outside its type (R-19: a TypeError naming it)`)
    else if (spec.kind === 'facade') {
      const requestId = ownValue(run.args[0], 'request_id')
      violations.push(...facadeReplyViolations(out.value, requestId, spec.group ?? 'other'))
      const reply = out.value as { status?: unknown; body?: unknown; reasons?: unknown }
      const json = notJsonAt(reply.body)
      if (json !== null) violations.push(`the body is not JSON at ${json}`)
      const expected = expectedStatuses(spec, run, c.args)
      if (expected !== null && !expected.allowed.includes(reply.status as number))
        violations.push(
          `replied a status the contract rules out (${expected.why}) :: ${String(reply.status)}, not ${expected.allowed.join('/')}`
        )
      const reasons: ReadonlyArray<unknown> = Array.isArray(reply.reasons) ? reply.reasons : []
      deep = reasons.some((r) => {
        const rule = (r as { rule?: unknown } | null)?.rule
        return typeof rule === 'string' && !rule.startsWith('server.')
      })
      if (reads.length > 0) violations.push(`read fields more than once (R-18: each field once) :: ${reads.join(', ')}`)
    } else if (spec.check !== undefined && !(spec.generic ?? false))
      try {
        violations.push(...spec.check(out.value, run.args, run.kind === 'none' || run.equivalent))
      } catch (e) {
        violations.push(`returned a value that cannot be read :: ${errorText(e)}`)
      }
  }

  if (run.equivalent) {
    // The same call on the plain arguments must give the same answer.
    const plain = invoke(spec, fn, self, copyPlain(c.args) as ReadonlyArray<unknown>, probe)
    prototypeChanges()
    if (plain.ok !== out.ok)
      violations.push(
        `${out.ok ? 'returned' : `threw ${errorName(out.error)}`} where the plain arguments ${plain.ok ? 'return' : 'throw'}`
      )
    else if (plain.ok && out.ok) {
      const same =
        spec.kind === 'facade'
          ? isDeepStrictEqual(replyView(plain.value), replyView(out.value))
          : isDeepStrictEqual(view(plain.value), view(out.value))
      if (!same)
        violations.push(
          spec.kind === 'facade'
            ? `replies ${String((out.value as { status?: unknown }).status)} where the plain arguments reply ${String((plain.value as { status?: unknown }).status)}${(out.value as { status?: unknown }).status === (plain.value as { status?: unknown }).status ? ' (other headers, body or budget)' : ''}`
            : 'answers otherwise than for the plain arguments'
        )
    } else if (!plain.ok && !out.ok && errorName(plain.error) !== errorName(out.error))
      violations.push(`threw ${errorName(out.error)} where the plain arguments throw ${errorName(plain.error)}`)
  }
  return { violations: [...new Set(violations)], where: run.where, what: run.what, kind: run.kind, deep, outcome, ms: out.ms }
}

// -------------------------------------------------------------------------------------
// an entry point, many runs
// -------------------------------------------------------------------------------------

export interface Failure {
  readonly name: string
  readonly key: string
  readonly violation: string
  readonly where: string
  readonly input: string
  readonly count: number
  readonly firstRun: number
  readonly shrunk: boolean
}

export interface Stats {
  readonly runs: number
  readonly deep: number
  readonly outcomes: Readonly<Record<Verdict['outcome'], number>>
  readonly changes: Readonly<Record<string, number>>
  /** Of those, how many got deep (past the check of a facade's context; returned, otherwise). */
  readonly deepChanges: Readonly<Record<string, number>>
  /** The slowest call, in ms: how far from the hang detector's bound. */
  readonly maxMs: number
}

export interface TargetResult {
  readonly name: string
  readonly kind: Spec['kind']
  readonly generic: boolean
  readonly seed: number
  readonly ms: number
  readonly stats: Stats
  readonly failures: ReadonlyArray<Failure>
}

/** The group of a violation: what happened (numbers and quoted text left out) and where. */
const keyOf = (name: string, violation: string, verdict: Verdict): string => {
  const what = (violation.split(' :: ')[0] ?? violation)
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(/"[^"]*"|'[^']*'/g, '…')
    .slice(0, 120)
  // One failure wherever the change was (the shrunk input shows where), but for answers that
  // differ from the plain arguments', told apart by the form that made them differ.
  const byForm = /where the plain arguments|otherwise than for the plain/.test(violation)
  return `${name} | ${what}${byForm ? ` | ${verdict.what.replace(/^.* as (a |an )?/, '')}` : ''}`
}

export const describeCase = (spec: Spec, c: Case): string => {
  const run = materialize(spec, c)
  const args = run.args.map((a, i) => `${spec.params[i] ?? `arg${i}`}: ${describe(a)}`).join('; ')
  return `${run.what} — ${args}`.slice(0, 3000)
}

export class Fuzz {
  private readonly specs: ReadonlyMap<string, Spec>
  private readonly entries: ReturnType<typeof entryPoints>

  constructor(lib: Lib) {
    this.specs = buildSpecs(lib)
    this.entries = entryPoints(lib)
  }

  /** Every exported function, with the kind of promise it makes. */
  list(): ReadonlyArray<{ readonly name: string; readonly kind: Spec['kind']; readonly generic: boolean }> {
    return [...this.entries.keys()].sort().map((name) => {
      const spec = this.specOf(name)
      return { name, kind: spec.kind, generic: spec.generic ?? false }
    })
  }

  specOf(name: string): Spec {
    return this.specs.get(name) ?? genericSpec(name, this.entries.get(name)?.fn.length ?? 1)
  }

  /** The description of run `index` of a seed, without calling anything (after a hang). */
  describeRun(name: string, seed: number, index: number): string {
    const spec = this.specOf(name)
    let text = `run ${index} not regenerated`
    fc.check(
      fc.property(caseArb(spec), (c) => {
        text = describeCase(spec, c)
        return true
      }),
      { seed, path: String(index), numRuns: 1 }
    )
    return text
  }

  run(
    name: string,
    runs: number,
    seed: number,
    skip: number,
    probe: Probe & { at(index: number, phase: number): void },
    events: { failure(f: Failure): void; runsDone(r: TargetResult): void }
  ): TargetResult {
    const entry = this.entries.get(name)
    if (entry === undefined) throw new Error(`no export ${name}`)
    const spec = this.specOf(name)
    const t0 = performance.now()
    const outcomes: Record<Verdict['outcome'], number> = { returned: 0, TypeError: 0, 'caller error': 0, 'other error': 0 }
    const changes: Record<string, number> = {}
    const deepChanges: Record<string, number> = {}
    let deep = 0
    let maxMs = 0
    let index = -1
    const found = new Map<string, { failure: Failure; index: number }>()
    const arb = caseArb(spec)
    fc.check(
      fc.property(arb, (c) => {
        index++
        if (index < skip) return true
        probe.at(index, 0)
        let verdict: Verdict
        try {
          verdict = judge(spec, entry.fn, entry.self, c, probe)
        } catch (e) {
          // A fault of the fuzz itself: reported, never hidden.
          verdict = {
            violations: [`the fuzz failed: ${errorText(e)}`],
            where: '',
            what: '',
            kind: 'none',
            deep: false,
            outcome: 'other error',
            ms: 0
          }
        }
        outcomes[verdict.outcome]++
        changes[verdict.kind] = (changes[verdict.kind] ?? 0) + 1
        maxMs = Math.max(maxMs, verdict.ms)
        if (verdict.deep) {
          deep++
          deepChanges[verdict.kind] = (deepChanges[verdict.kind] ?? 0) + 1
        }
        for (const violation of verdict.violations) {
          const key = keyOf(name, violation, verdict)
          const seen = found.get(key)
          if (seen !== undefined) {
            found.set(key, { ...seen, failure: { ...seen.failure, count: seen.failure.count + 1 } })
            continue
          }
          const failure: Failure = {
            name,
            key,
            violation,
            where: verdict.where,
            input: describeCase(spec, c),
            count: 1,
            firstRun: index,
            shrunk: false
          }
          found.set(key, { failure, index })
          events.failure(failure)
        }
        return true
      }),
      { seed, numRuns: runs }
    )
    const ms = performance.now() - t0
    const stats: Stats = { runs: Math.max(0, index + 1 - skip), deep, outcomes, changes, deepChanges, maxMs }
    events.runsDone({
      name,
      kind: spec.kind,
      generic: spec.generic ?? false,
      seed,
      ms,
      stats,
      failures: [...found.values()].map((f) => f.failure)
    })

    // Shrink each group to a small input, within a time budget.
    const shrinkStart = performance.now()
    const failures: Array<Failure> = []
    for (const { failure, index: first } of found.values()) {
      if (performance.now() - shrinkStart > SHRINK_TOTAL_MS) {
        failures.push(failure)
        continue
      }
      let smallest: Failure = failure
      fc.check(
        fc.property(arb, (c) => {
          probe.at(first, 1)
          let verdict: Verdict
          try {
            verdict = judge(spec, entry.fn, entry.self, c, probe)
          } catch {
            return true
          }
          const hit = verdict.violations.find((v) => keyOf(name, v, verdict) === failure.key)
          if (hit !== undefined) smallest = { ...failure, violation: hit, input: describeCase(spec, c), shrunk: true }
          return hit === undefined
        }),
        { seed, path: String(first), interruptAfterTimeLimit: SHRINK_MS, markInterruptAsFailure: false }
      )
      failures.push(smallest)
    }
    return { name, kind: spec.kind, generic: spec.generic ?? false, seed, ms, stats, failures }
  }
}

export { buildHostile }
