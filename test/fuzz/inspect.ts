/**
 * Looking at values without being fooled by them: a snapshot of an input (own property
 * descriptors, never calling a getter or a proxy trap) to tell whether a call mutated it; a
 * bounded description for failure reports; whether a body is a JSON value; and a guard on the
 * built-in prototypes.
 */
import { isOpaque, labelOf } from './hostile'

// -------------------------------------------------------------------------------------
// snapshots: was the input mutated?
// -------------------------------------------------------------------------------------

type Snap =
  | { readonly t: 'prim'; readonly v: unknown }
  | { readonly t: 'opaque'; readonly ref: object }
  | { readonly t: 'seen'; readonly ref: object }
  | {
      readonly t: 'big'
      readonly ref: object
      readonly items: ReadonlyArray<unknown>
      readonly sample: ReadonlyArray<readonly [number, Snap]>
    }
  | {
      readonly t: 'obj'
      readonly ref: object
      readonly proto: object | null
      readonly extensible: boolean
      readonly props: ReadonlyArray<readonly [PropertyKey, PropSnap]>
      readonly slots: unknown
    }

/** Arrays longer than this are snapshot by their items' identity and a sample in depth. */
const BIG = 500

type PropSnap =
  | { readonly v: Snap; readonly w: boolean | undefined; readonly e: boolean | undefined; readonly c: boolean | undefined }
  | { readonly get: unknown; readonly set: unknown; readonly e: boolean | undefined; readonly c: boolean | undefined }

/** What an object holds outside its properties (Map, Set, Date, Headers). */
const slotsOf = (o: object): unknown => {
  if (o instanceof Map) return [...(o as Map<unknown, unknown>).entries()]
  if (o instanceof Set) return [...(o as Set<unknown>).values()]
  if (o instanceof Date) return o.getTime()
  if (o instanceof Headers) return [...o.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')
  return undefined
}

const sameSlots = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((x, i) => (Array.isArray(x) ? sameSlots(x, b[i]) : Object.is(x, b[i])))
    : Object.is(a, b)

export const snapshot = (value: unknown, seen = new Set<object>()): Snap => {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return { t: 'prim', v: value }
  const o = value
  if (isOpaque(o)) return { t: 'opaque', ref: o }
  if (seen.has(o)) return { t: 'seen', ref: o }
  seen.add(o)
  if (Array.isArray(o) && o.length > BIG && Object.getPrototypeOf(o) === Array.prototype) {
    // A huge array: which items it holds, and a sample of them in depth (a full walk costs more than the call).
    const step = Math.ceil(o.length / 64)
    const sample: Array<readonly [number, Snap]> = []
    for (let i = 0; i < o.length; i += step) sample.push([i, snapshot(o[i] as unknown, seen)])
    return { t: 'big', ref: o, items: o.slice(), sample }
  }
  const props: Array<readonly [PropertyKey, PropSnap]> = []
  for (const key of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key)
    if (d === undefined) continue
    props.push([
      key,
      'value' in d
        ? { v: snapshot(d.value, seen), w: d.writable, e: d.enumerable, c: d.configurable }
        : { get: Reflect.get(d, 'get') as unknown, set: Reflect.get(d, 'set') as unknown, e: d.enumerable, c: d.configurable }
    ])
  }
  return {
    t: 'obj',
    ref: o,
    proto: Object.getPrototypeOf(o) as object | null,
    extensible: Object.isExtensible(o),
    props,
    slots: slotsOf(o)
  }
}

const keyText = (key: PropertyKey): string =>
  typeof key === 'symbol' ? `[${String(key)}]` : /^\d+$/.test(key.toString()) ? `[${key.toString()}]` : `.${key.toString()}`

/** The path of the first difference between a snapshot and the value now, or `null`. */
export const changedAt = (snap: Snap, value: unknown, path = ''): string | null => {
  switch (snap.t) {
    case 'prim':
      return Object.is(snap.v, value) ? null : path || '(the value)'
    case 'opaque':
    case 'seen':
      return snap.ref === value ? null : path || '(the value)'
    case 'big': {
      if (snap.ref !== value) return path || '(the value)'
      const a = value as ReadonlyArray<unknown>
      if (a.length !== snap.items.length) return `${path} (its length)`
      if (Object.getPrototypeOf(a) !== Array.prototype) return `${path} (its prototype)`
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], snap.items[i])) return `${path}[${i}]`
      for (const [i, inner] of snap.sample) {
        const at = changedAt(inner, a[i], `${path}[${i}]`)
        if (at !== null) return at
      }
      return null
    }
    case 'obj': {
      if (snap.ref !== value) return path || '(the value)'
      const o = value
      if (Object.getPrototypeOf(o) !== snap.proto) return `${path} (its prototype)`
      if (Object.isExtensible(o) !== snap.extensible) return `${path} (made non-extensible)`
      if (!sameSlots(slotsOf(o), snap.slots)) return `${path} (its entries)`
      const keys = Reflect.ownKeys(o)
      if (keys.length !== snap.props.length) return `${path} (keys ${keys.length - snap.props.length > 0 ? 'added' : 'removed'})`
      for (const [key, p] of snap.props) {
        const d = Object.getOwnPropertyDescriptor(o, key)
        const at = `${path}${keyText(key)}`
        if (d === undefined) return `${at} (removed)`
        if (d.enumerable !== p.e || d.configurable !== p.c) return `${at} (redefined)`
        if ('v' in p) {
          if (!('value' in d) || d.writable !== p.w) return `${at} (redefined)`
          const inner = changedAt(p.v, d.value, at)
          if (inner !== null) return inner
        } else if (d.get !== p.get || d.set !== p.set) return `${at} (redefined)`
      }
      return null
    }
  }
}

// -------------------------------------------------------------------------------------
// built-in prototypes
// -------------------------------------------------------------------------------------

const GUARDED: ReadonlyArray<readonly [string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype]
]

const descriptorsOf = (o: object) => new Map(Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]))
const PRISTINE = GUARDED.map(([name, o]) => [name, o, descriptorsOf(o)] as const)

/** The changes made to Object.prototype and friends since the fuzz started, undone. */
export const prototypeChanges = (): ReadonlyArray<string> => {
  const changes: Array<string> = []
  for (const [name, o, before] of PRISTINE) {
    for (const key of Reflect.ownKeys(o)) {
      const was = before.get(key)
      const now = Object.getOwnPropertyDescriptor(o, key)
      if (was === undefined) {
        changes.push(`${name} gained ${String(key)}`)
        Reflect.deleteProperty(o, key)
      } else if (now !== undefined && (now.value !== was.value || now.get !== was.get || now.set !== was.set)) {
        changes.push(`${name}.${String(key)} replaced`)
        Object.defineProperty(o, key, was)
      }
    }
    for (const [key, was] of before)
      if (!Reflect.ownKeys(o).includes(key) && was !== undefined) {
        changes.push(`${name} lost ${String(key)}`)
        Object.defineProperty(o, key, was)
      }
  }
  return changes
}

// -------------------------------------------------------------------------------------
// JSON values
// -------------------------------------------------------------------------------------

/** Where `u` stops being a JSON value (a plain tree of null, booleans, finite numbers, strings), or `null`. */
export const notJsonAt = (u: unknown, path = 'body', depth = 0): string | null => {
  if (depth > 2000) return `${path} (nested over 2,000 deep or cyclic)`
  if (u === null || typeof u === 'boolean' || typeof u === 'string') return null
  if (typeof u === 'number') return Number.isFinite(u) ? null : `${path} (${String(u)})`
  if (typeof u !== 'object') return `${path} (a ${typeof u})`
  if (Array.isArray(u)) {
    if (Object.getPrototypeOf(u) !== Array.prototype) return `${path} (an array subclass)`
    for (let i = 0; i < u.length; i++) {
      if (!(i in u)) return `${path}[${i}] (a hole)`
      const inner = notJsonAt(u[i], `${path}[${i}]`, depth + 1)
      if (inner !== null) return inner
    }
    return null
  }
  const proto = Object.getPrototypeOf(u) as unknown
  if (proto !== Object.prototype && proto !== null) return `${path} (not a plain object)`
  for (const key of Reflect.ownKeys(u)) {
    if (typeof key === 'symbol') return `${path} (a symbol key)`
    const d = Object.getOwnPropertyDescriptor(u, key)
    if (d === undefined || !('value' in d)) return `${path}.${key} (an accessor)`
    if (!d.enumerable) return `${path}.${key} (not enumerable)`
    if (d.value === undefined) continue // JSON.stringify leaves it out
    const inner = notJsonAt(d.value, `${path}.${key}`, depth + 1)
    if (inner !== null) return inner
  }
  return null
}

// -------------------------------------------------------------------------------------
// descriptions for reports
// -------------------------------------------------------------------------------------

const escapeText = (s: string): string =>
  JSON.stringify(s).replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`)

const textOf = (s: string): string => (s.length > 80 ? `${escapeText(s.slice(0, 60))}… (${s.length} chars)` : escapeText(s))

const isIdentifier = (k: string): boolean => /^[A-Za-z_$][\w$]*$/.test(k)

/** A short, readable description of any value: never calls a getter or a proxy trap. */
export const describe = (u: unknown, depth = 0, seen = new Set<object>()): string => {
  if (u === undefined) return 'undefined'
  if (u === null) return 'null'
  if (typeof u === 'number') return Object.is(u, -0) ? '-0' : String(u)
  if (typeof u === 'bigint') return `${u.toString()}n`
  if (typeof u === 'symbol') return u.toString()
  if (typeof u === 'string') return textOf(u)
  if (typeof u === 'boolean') return String(u)
  const o = u
  const label = labelOf(o)
  if (label !== undefined) return `‹${label}›`
  if (isOpaque(o)) return '‹opaque›'
  if (seen.has(o)) return '‹cycle›'
  if (typeof u === 'function') return `‹function ${(u as { name?: string }).name ?? ''}›`
  if (depth > 5) return Array.isArray(u) ? '[…]' : '{…}'
  seen.add(o)
  const frozen = Object.isFrozen(o) && Reflect.ownKeys(o).length > 0 ? 'frozen ' : ''
  if (o instanceof Headers) return `${frozen}Headers {${[...o.entries()].map(([k, v]) => `${k}: ${textOf(v)}`).join(', ')}}`
  if (o instanceof Map) return `Map(${o.size})`
  if (o instanceof Set) return `Set(${o.size})`
  if (o instanceof Date) return `Date(${String(o.getTime())})`
  if (Array.isArray(u)) {
    const shown = Array.from({ length: Math.min(6, u.length) }, (_, i) => (i in u ? describe(u[i], depth + 1, seen) : '‹hole›'))
    seen.delete(o)
    return `${frozen}[${shown.join(', ')}${u.length > 6 ? `, … ${u.length} items` : ''}]`
  }
  const proto = Object.getPrototypeOf(o) as object | null
  const prefix =
    proto === Object.prototype
      ? ''
      : proto === null
        ? '[null prototype] '
        : typeof (proto as { constructor?: unknown }).constructor === 'function' &&
            Object.prototype.hasOwnProperty.call(proto, 'constructor')
          ? `${String((proto.constructor as { name?: string }).name)} `
          : `Object.create(${describe(proto, depth + 1, seen)}) `
  const keys = Reflect.ownKeys(o)
  const parts = keys.slice(0, 24).map((key) => {
    const d = Object.getOwnPropertyDescriptor(o, key)
    const name = typeof key === 'symbol' ? `[${key.toString()}]` : isIdentifier(key) ? key : JSON.stringify(key)
    if (d === undefined) return name
    return 'value' in d ? `${name}: ${describe(d.value, depth + 1, seen)}` : `get ${name}()`
  })
  seen.delete(o)
  return `${frozen}${prefix}{${parts.join(', ')}${keys.length > 24 ? `, … ${keys.length} keys` : ''}}`
}
