/**
 * Hostile values, built fresh for each run (a proxy, a getter that counts its reads, a 100,000
 * element array), each labelled so that a failure report names it in a few words; and the
 * transforms that must not change an answer: a stored budget or record as a class instance, an
 * ORM row with getters, `Object.create(row)` (R-18), request and reply headers as a Fetch
 * `Headers` object or Node's lists of values (R-54), and frozen inputs.
 */
import fc from 'fast-check'

/** What a hostile getter or proxy throws: the caller's own error, told apart from the library's. */
export class HostileError extends Error {
  constructor(what: string) {
    super(`hostile ${what}`)
    this.name = 'HostileError'
  }
}

/** The description of a built value, used instead of walking it. */
const labels = new WeakMap<object, string>()
/** Values never walked (their traps throw): compared by identity only. */
const opaque = new WeakSet()

export const labelOf = (o: object): string | undefined => labels.get(o)
export const isOpaque = (o: object): boolean => opaque.has(o)

const labelled = <T extends object>(o: T, text: string): T => {
  labels.set(o, text)
  return o
}

const throwingProxy = <T extends object>(target: T, text: string): T => {
  const trap = (name: string) => () => {
    throw new HostileError(`proxy trap ${name}`)
  }
  const handler: ProxyHandler<T> = {}
  for (const name of [
    'get',
    'set',
    'has',
    'deleteProperty',
    'ownKeys',
    'getOwnPropertyDescriptor',
    'defineProperty',
    'getPrototypeOf',
    'setPrototypeOf',
    'isExtensible',
    'preventExtensions',
    'apply',
    'construct'
  ] as const)
    (handler as Record<string, unknown>)[name] = trap(name)
  const proxy = new Proxy(target, handler)
  opaque.add(proxy)
  return labelled(proxy, text)
}

// -------------------------------------------------------------------------------------
// read counters: R-18 reads each field once
// -------------------------------------------------------------------------------------

const reads = new Map<string, number>()
export const resetReads = (): void => {
  reads.clear()
}
export const readsOverOne = (): ReadonlyArray<string> =>
  [...reads].filter(([, n]) => n > 1).map(([k, n]) => `${k} read ${n} times`)
const count = (key: string): void => {
  reads.set(key, (reads.get(key) ?? 0) + 1)
}

const THROWING_KEYS = [
  'status',
  'headers',
  'body',
  'query',
  'id',
  'company_id',
  'start',
  'end',
  'method',
  'attempt',
  'user',
  'memberships',
  'request',
  'session',
  'budget',
  'today',
  'request_id',
  'records',
  'endpoint',
  'created_at',
  'after',
  'seen_at_after',
  'length',
  'then',
  'get',
  'toString',
  'valueOf',
  'toJSON'
]

/** An object each of whose likely keys is a getter that throws. */
const throwingGetters = (): object => {
  const o: Record<string | symbol, unknown> = {}
  for (const key of [...THROWING_KEYS, Symbol.toPrimitive, Symbol.iterator])
    Object.defineProperty(o, key, {
      enumerable: typeof key === 'string',
      get: () => {
        throw new HostileError(`getter ${String(key)}`)
      }
    })
  opaque.add(o)
  return labelled(o, 'an object whose getters throw')
}

const coercionThrows = (): object =>
  labelled(
    {
      toString: () => {
        throw new HostileError('toString')
      },
      valueOf: () => {
        throw new HostileError('valueOf')
      },
      [Symbol.toPrimitive]: () => {
        throw new HostileError('toPrimitive')
      },
      toJSON: () => {
        throw new HostileError('toJSON')
      }
    },
    'an object whose toString, valueOf, toPrimitive and toJSON throw'
  )

const deepObject = (): object => {
  let o: Record<string, unknown> = { leaf: 1 }
  for (let i = 0; i < 1000; i++) o = { a: o }
  return labelled(o, 'an object nested 1,000 deep')
}

const deepArray = (): object => {
  let a: Array<unknown> = []
  for (let i = 0; i < 1000; i++) a = [a]
  return labelled(a, 'an array nested 1,000 deep')
}

const cyclicObject = (): object => {
  const o: Record<string, unknown> = { a: 1 }
  o.self = o
  return labelled(o, 'a cyclic object')
}

const cyclicArray = (): object => {
  const a: Array<unknown> = [1]
  a.push(a)
  return labelled(a, 'a cyclic array')
}

class Thing {
  readonly x = 1
  get doubled(): number {
    return this.x * 2
  }
}

/** Every hostile value, simplest first (shrinking moves towards the start of the list). */
const BUILDERS: ReadonlyArray<() => unknown> = [
  () => undefined,
  () => null,
  () => 0,
  () => '',
  () => false,
  () => true,
  () => -0,
  () => Number.NaN,
  () => Infinity,
  () => -Infinity,
  () => 1e308,
  () => -1,
  () => 1.5,
  () => 2 ** 53,
  () => 2 ** 31,
  () => 5e-324,
  () => '0',
  () => ' ',
  () => '\uD800',
  () => 'a\uDC00b',
  () => '\u0000',
  () => '__proto__',
  () => 'constructor',
  () => 'prototype',
  () => '2026-02-30',
  () => '+275760-09-13',
  () => '0000-01-01',
  () => '10000-01-01',
  () => '2026-11-22T10:00:00Z',
  () => 'NaN',
  () => '1e308',
  () => '-0',
  () => '9'.repeat(400),
  () => '{"__proto__":{"polluted":true}}',
  () => `${'['.repeat(1000)}${']'.repeat(1000)}`,
  () => `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`,
  () => '{"budget":{"name":"x"',
  () => 'x'.repeat(1_000_000),
  () => '%E0%A4%A',
  () => ({}),
  () => [],
  () => labelled(Object.create(null) as object, 'Object.create(null)'),
  () => [undefined],
  () => labelled(new Array<unknown>(5), 'new Array(5) (holes)'),
  () =>
    labelled(
      JSON.parse(
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}'
      ) as object,
      'JSON.parse(\'{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{...}}\')'
    ),
  deepObject,
  deepArray,
  () =>
    labelled(
      Array.from({ length: 100_000 }, (_, i) => i),
      'an array of 100,000 numbers'
    ),
  () =>
    labelled(
      Array.from({ length: 100_000 }, (_, i) => `s${i}`),
      'an array of 100,000 strings'
    ),
  () => labelled(new Array<unknown>(100_000), 'new Array(100000) (holes)'),
  () => labelled({ length: 2 ** 32 - 1 }, '{ length: 2 ** 32 - 1 }'),
  () => new Thing(),
  () => labelled(Object.create({ inherited: true }) as object, 'Object.create({ inherited: true })'),
  throwingGetters,
  () => throwingProxy({}, 'a Proxy of {} that throws on every trap'),
  () => throwingProxy([], 'a Proxy of [] that throws on every trap'),
  () => throwingProxy(() => 1, 'a Proxy of a function that throws on every trap'),
  () => Object.freeze({ a: 1 }),
  () => Object.freeze([1, 2]),
  () => Symbol('hostile'),
  () => Symbol.iterator,
  () => 10n,
  () => 2n ** 70n,
  () => labelled(() => 1, '() => 1'),
  () =>
    labelled(() => {
      throw new HostileError('function called')
    }, 'a function that throws'),
  () =>
    labelled(
      class Hostile {
        hostile(): boolean {
          return true
        }
      },
      'class Hostile'
    ),
  () => new Date(Number.NaN),
  () => new Map([['a', 1]]),
  () => new Set([1]),
  () => /re/g,
  () => new Uint8Array(4),
  () => labelled(new Error('an error'), "new Error('an error')"),
  () => labelled(new String('2026-11-22'), "new String('2026-11-22')"),
  () => labelled(new Number(5), 'new Number(5)'),
  cyclicObject,
  cyclicArray,
  coercionThrows,
  () => labelled(new Headers({ 'x-a': '1' }), "new Headers({ 'x-a': '1' })"),
  () => labelled(new WeakMap(), 'new WeakMap()')
]

export type Hostile = { readonly builder: number } | { readonly value: unknown }

export const buildHostile = (h: Hostile): unknown => ('builder' in h ? (BUILDERS[h.builder] ?? (() => undefined))() : h.value)

/**
 * One UTF-16 unit or character: ASCII, lone surrogates, an astral character, a control character.
 * (fast-check's `'binary'` unit rebuilds a table of every code point each time a string arbitrary
 * is made, which fc.anything does on every run.)
 */
export const unitArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\uD800',
      '\uDBFF',
      '\uDC00',
      '\uDFFF',
      '\u0000',
      '\u007F',
      '\u00E9',
      '\uFFFD',
      '\uFEFF',
      '\u202E',
      '💶',
      '\u{10FFFF}'
    )
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }
)

/** Junk and JSON text, for the places that take text (bodies, queries, header values). */
export const hostileTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: unitArb, maxLength: 30 }),
  fc.json({ maxDepth: 3 }),
  fc.json({ maxDepth: 2 }).map((s) => s.slice(0, Math.max(0, s.length - 1))),
  fc.constantFrom('Bearer', 'Bearer ', 'Bearer  k-1', 'Basic k-1', 'bearer\tk-1', 'Bearer k\u00e9', ' c-1 ', 'c-1, c-2', '')
)

export const hostileArb: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 12, arbitrary: fc.nat({ max: BUILDERS.length - 1 }).map((builder): Hostile => ({ builder })) },
  {
    weight: 3,
    arbitrary: fc
      .anything({
        maxDepth: 2,
        withBigInt: true,
        withBoxedValues: true,
        withMap: true,
        withSet: true,
        withObjectString: true,
        withNullPrototype: true,
        withTypedArray: true,
        withSparseArray: true,
        withDate: true,
        stringUnit: unitArb
      })
      .map((value): Hostile => ({ value }))
  },
  { weight: 2, arbitrary: hostileTextArb.map((value): Hostile => ({ value })) }
)

// -------------------------------------------------------------------------------------
// transforms that keep the meaning (R-18, R-54) and hostile ones applied in place
// -------------------------------------------------------------------------------------

export const R18_TRANSFORMS = [
  'class instance',
  'ORM row with getters',
  'Object.create(row)',
  'own getters',
  'null prototype'
] as const
export type R18Transform = (typeof R18_TRANSFORMS)[number]

/** A row as an ORM or a data mapper returns it: a class instance holding the fields as its own. */
class StoredRow {
  constructor(fields: Readonly<Record<string, unknown>>) {
    Object.assign(this, fields)
  }
  isNew(): boolean {
    return false
  }
}

/** A stored budget or record in one of the forms R-18 says is read like the plain object. */
export const asR18 = (how: R18Transform, row: Readonly<Record<string, unknown>>, name: string): object => {
  const keys = Object.keys(row)
  switch (how) {
    case 'class instance':
      return new StoredRow(row)
    case 'ORM row with getters': {
      const data = new Map(Object.entries(row))
      class OrmRow {
        isNew(): boolean {
          return false
        }
      }
      for (const key of keys)
        Object.defineProperty(OrmRow.prototype, key, {
          get() {
            count(`${name}.${key}`)
            return data.get(key)
          }
        })
      return new OrmRow()
    }
    case 'Object.create(row)':
      return Object.create({ ...row }) as object
    case 'own getters': {
      const o = {}
      for (const key of keys)
        Object.defineProperty(o, key, {
          enumerable: true,
          get() {
            count(`${name}.${key}`)
            return row[key]
          }
        })
      return o
    }
    case 'null prototype':
      return Object.assign(Object.create(null) as object, row)
  }
}

export const HEADER_TRANSFORMS = ['Fetch Headers', 'lists of one value', 'repeated equal values'] as const
export type HeaderTransform = (typeof HEADER_TRANSFORMS)[number]

/** A valid header name and value: what `new Headers` takes without changing it. */
const cleanHeader = (name: string, value: unknown): boolean =>
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) &&
  typeof value === 'string' &&
  /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$|^$/.test(value)

/** The same headers in another form R-54 accepts, or `null` when they have no faithful one. */
export const asHeaders = (how: HeaderTransform, headers: unknown): unknown => {
  if (typeof headers !== 'object' || headers === null || Object.getPrototypeOf(headers) !== Object.prototype) return null
  const entries = Object.entries(headers as Record<string, unknown>)
  switch (how) {
    case 'Fetch Headers': {
      const names = entries.map(([k]) => k.toLowerCase())
      if (new Set(names).size !== names.length || !entries.every(([k, v]) => cleanHeader(k, v))) return null
      return new Headers(entries as Array<[string, string]>)
    }
    case 'lists of one value':
      return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === 'string' ? [v] : v]))
    case 'repeated equal values':
      return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === 'string' ? [v, v] : v]))
  }
}

/** The object with one key turned into an enumerable getter that throws. */
export const withThrowingGetter = (o: object, key: string): object => {
  const copy: object = Array.isArray(o) ? [...(o as ReadonlyArray<unknown>)] : { ...o }
  Object.defineProperty(copy, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      throw new HostileError(`getter ${key}`)
    }
  })
  opaque.add(copy)
  return labelled(copy, `the value with a getter for ${JSON.stringify(key)} that throws`)
}

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const

/** The object with a prototype key as an own key, as JSON.parse makes it. */
export const withOwnKey = (o: object, key: string): object => {
  const copy: object = Array.isArray(o) ? [...(o as ReadonlyArray<unknown>)] : { ...o }
  Object.defineProperty(copy, key, { value: { polluted: true }, enumerable: true, writable: true, configurable: true })
  return copy
}

export const deepFreeze = <T>(value: T, seen = new Set<unknown>()): T => {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    if (seen.has(value) || opaque.has(value)) return value
    seen.add(value)
    if (value instanceof Headers || value instanceof Map || value instanceof Set) return value
    // Large collections are shared between runs (values.ts): freezing one would freeze it for all.
    if (Array.isArray(value) && value.length > 1000) return value
    for (const key of Reflect.ownKeys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, key)
      if (d !== undefined && 'value' in d) deepFreeze(d.value, seen)
    }
    Object.freeze(value)
  }
  return value
}
