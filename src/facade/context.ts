/**
 * What every facade is handed by the server, checked before anything else: the server's own
 * data is trusted, but a malformed one (a budget missing a field, `today` not a date) gets a
 * 500 rather than an exception or a wrong answer (contract preamble).
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import type { Trail } from '../decision/trail'
import { type AnyReply, problemReply, type ProblemReply, reply, type ReplyOf } from '../reply/reply'
import * as problem from '../decision/problem'
import { describeValue } from '../json/describe'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * Any object (a class instance or a function with properties counts): what the server hands
 * over as a stored budget or transaction, to be read field by field once it is in scope.
 *
 * @example
 * StoredObject.is(new Map()) //=> true
 * StoredObject.is(null) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const StoredObject = /*#__PURE__*/ new t.Type<object>(
  'object',
  (u): u is object => (typeof u === 'object' || typeof u === 'function') && u !== null,
  (u, c) => ((typeof u === 'object' || typeof u === 'function') && u !== null ? t.success(u) : t.failure(u, c)),
  t.identity
)

/**
 * `codec` for a context it checks without converting (its `decode` gives back the very value
 * given): a context that passes `is` is used as it is, and only a malformed one pays for
 * `validate`, which builds the path of every key it visits (a third of an update decision).
 * Not for a codec that builds a value of its own (a recipient read field by field, say).
 *
 * @example
 * import * as t from 'io-ts'
 *
 * const context = { request_id: 'req-1' }
 * checkOnly(t.type({ request_id: t.string })).decode(context) //=> right(context)
 *
 * @category codecs
 * @since 0.2.0
 */
export const checkOnly = <C>(codec: t.Type<C, unknown>): t.Type<C, unknown> => {
  const checked = new t.Type<C, unknown>(
    codec.name,
    codec.is,
    (u, c) => (codec.is(u) ? t.success(u) : codec.validate(u, c)),
    codec.encode
  )
  // io-ts's `decode` builds a context for `validate` on every call: a context that passes needs none.
  checked.decode = (u) => (codec.is(u) ? t.success(u) : codec.validate(u, [{ key: '', type: checked, actual: u }]))
  return checked
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const pathOf = (e: t.ValidationError): string =>
  e.context
    .map((c) => c.key)
    .filter((k) => k !== '' && !/^\d+$/.test(k))
    .join('.')

/**
 * An error's path as a developer writes it: `records[0].created_at`, `session.memberships.c7.role`
 * (a union's or an intersection's branch, a number within no array, is no step of it; nor is an
 * empty key).
 */
const placeOf = (e: t.ValidationError): string => {
  let place = ''
  for (const [i, { key }] of e.context.entries()) {
    const within = (e.context[i - 1]?.type as { readonly _tag?: unknown } | undefined)?._tag
    if (/^\d+$/.test(key)) place += within === 'ArrayType' ? `[${key}]` : ''
    else if (key !== '') place += place === '' ? key : `.${key}`
  }
  return place
}

/** The codecs' names a developer reads in other words. */
const WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  CalendarDate: 'a date (YYYY-MM-DD)',
  WholeSeconds: 'a whole number of seconds (0 or more)',
  'Array<string>': 'a list of strings',
  UnknownArray: 'an array',
  count: 'a whole number of records (0 or more)'
}

/** What an error's codec takes: a keyof's keys, a name in words, else the codec's name. */
const shapeOf = (e: t.ValidationError): string => {
  const type = e.context[e.context.length - 1]?.type as { readonly _tag?: unknown; readonly keys?: object; readonly name: string }
  if (type._tag === 'KeyofType') return `one of ${Object.keys(type.keys as object).join(', ')}`
  return Object.hasOwn(WORDS, type.name) ? (WORDS[type.name] as string) : type.name
}

/**
 * A value as the 500's message names it: the request's as its type alone (its headers hold the
 * caller's key, its body the tenant's data: the message goes back over the wire), any other as
 * written.
 */
const valueAt = (place: string, value: unknown): string =>
  (place === 'request' || place.startsWith('request.')) && (typeof value === 'string' || typeof value === 'number')
    ? `a ${typeof value}`
    : describeValue(value)

/**
 * the field, value and shape expected of the first malformed places (five at most), for
 * the 500's message. A union tried each branch: a place some branch reached deeper is left for
 * the deeper one, and the shapes its branches expected at one place are named together (`502 or
 * 503 or 504`). A codec that says what is wrong itself (the headers') does so in its own words.
 */
const mistakeOf = (errors: t.Errors): string => {
  const found = errors.map((e) => ({ place: placeOf(e), e }))
  const deeper = (place: string) => found.some((f) => f.place.startsWith(`${place}.`))
  const byPlace = new Map<string, { readonly e: t.ValidationError; readonly shapes: Array<string> }>()
  for (const { place, e } of found) {
    if (deeper(place)) continue
    const at = byPlace.get(place) ?? { e, shapes: [] }
    const shape = shapeOf(e)
    if (!at.shapes.includes(shape)) at.shapes.push(shape)
    byPlace.set(place, at)
  }
  return [...byPlace]
    .slice(0, 5)
    .map(([place, { e, shapes }]) => {
      // The whole context: an object, not the codec's name of every field it holds.
      if (place === '') return `the context is ${describeValue(e.value)}, not an object`
      return e.message === undefined
        ? `${place} is ${valueAt(place, e.value)}, not ${shapes.join(' or ')}`
        : `${place}: ${e.message}`
    })
    .join('; ')
}

/**
 * The request id to echo even when the context is malformed.
 */
const requestIdOf = (u: unknown): string => {
  try {
    const id: unknown = typeof u === 'object' && u !== null ? (u as { request_id?: unknown }).request_id : undefined
    return typeof id === 'string' ? id : ''
  } catch {
    // Read again from the catch of `respondWith`: a getter that throws must not escape it.
    return ''
  }
}

/**
 * Runs a decision over a decoded context: a malformed context is a 500 (`server.input`), and
 * anything thrown on the way (a getter that throws, say) is a 500 (`server.unexpected`), handed
 * to `refuse` so that a decision whose result is not a reply (a plan) can carry it. Never throws.
 *
 * @category utils
 * @since 0.1.0
 */
export const guarded =
  <C extends { readonly request_id: string }, R>(
    codec: t.Decoder<unknown, C>,
    decide: (c: C) => R,
    refuse: (reply: ProblemReply) => R
  ) =>
  (context: unknown): R => {
    try {
      const decoded = codec.decode(context)
      if (E.isLeft(decoded)) {
        const paths = [...new Set(decoded.left.map(pathOf))].slice(0, 5)
        const p = problem.serverMistake('server.input', `malformed server input at ${paths.join(', ')}`, mistakeOf(decoded.left))
        return refuse(problemReply(requestIdOf(context), [{ rule: p.rule, detail: p.detail }])(p))
      }
      return decide(decoded.right)
    } catch (e) {
      const p = problem.internalError('server.unexpected', e instanceof Error ? e.message : 'a non-error was thrown')
      return refuse(problemReply(requestIdOf(context), [{ rule: p.rule, detail: p.detail }])(p))
    }
  }

/**
 * Runs a facade over a decoded context (see {@link guarded}), so a facade never throws.
 *
 * @category utils
 * @since 0.1.0
 */
export const respondWith = <C extends { readonly request_id: string }, R extends AnyReply>(
  codec: t.Decoder<unknown, C>,
  decide: (c: C) => R
): ((context: unknown) => R | ProblemReply) => guarded<C, R | ProblemReply>(codec, decide, (reply) => reply)

/**
 * The reply of a finished decision: the problem's reply, or a 200 with the body, headers and
 * extra fields (the budget to persist) that `ok` makes of the value reached.
 *
 * @category utils
 * @since 0.1.0
 */
export const settle = <A, B, X extends object = object, S extends number = 200>(
  requestId: string,
  trail: Trail<A>,
  ok: (a: A) => {
    readonly status?: S
    readonly body: B
    readonly headers?: Readonly<Record<string, string>>
    readonly extra?: X
  }
): (ReplyOf<S, B> & X) | ProblemReply => {
  if (E.isLeft(trail.result)) return problemReply(requestId, trail.reasons)(trail.result.left)
  const { status, body, headers, extra } = ok(trail.result.right)
  // The reply is a fresh object: the extra fields are added to it rather than copied with it.
  return Object.assign(reply((status ?? 200) as S, requestId, trail.reasons, body, headers), extra as X)
}
