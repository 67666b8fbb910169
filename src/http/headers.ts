/**
 * Reading headers the way HTTP does: names in any case; a plain object whose values are a string, a list of
 * strings (Node's `IncomingHttpHeaders`) or undefined, or a Fetch `Headers` object (anything
 * with `get`).
 *
 * @example
 * headerOf({ Authorization: 'Bearer k' }, 'authorization') //=> 'Bearer k'
 * headerOf({ 'company-id': 'c-1', 'Company-Id': 'c-2' }, 'company-id') //=> undefined
 * headerOf({ 'set-cookie': ['a=1', 'b=2'] }, 'Set-Cookie') //=> undefined
 * headerOf(new Headers({ 'Company-Id': 'c-1' }), 'company-id') //=> 'c-1'
 *
 * @since 0.1.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The value of one header in a plain object: a string, a list of strings (a header given more
 * than once, as Node gives `set-cookie` or `headersDistinct`), or nothing.
 *
 * @example
 * headerOf({ accept: ['application/json', 'application/json'] }, 'Accept') //=> 'application/json'
 *
 * @category model
 * @since 0.1.0
 */
export type HeaderValue = string | ReadonlyArray<string> | undefined

/**
 * A Fetch `Headers` object, or anything else that answers `get(name)` (a `Map` with lower-case
 * names): it is asked by `get` with the lower-case name, never enumerated.
 *
 * @example
 * headerOf(new Map([['company-id', 'c-1']]), 'Company-Id') //=> 'c-1'
 *
 * @category model
 * @since 0.1.0
 */
export interface HeadersLike {
  /** The value of the header named `name` (lower case), or null or undefined when it is absent. */
  readonly get: (name: string) => unknown
}

/**
 * Headers as they come in: Node's `IncomingHttpHeaders` and a Fetch `Headers` object are both
 * assignable to it.
 *
 * @example
 * headerOf(new Headers({ Authorization: 'Bearer k' }), 'authorization') //=> 'Bearer k'
 * headerOf({ authorization: 'Bearer k' }, 'Authorization') //=> 'Bearer k'
 *
 * @category model
 * @since 0.1.0
 */
export type Headers = Readonly<Record<string, HeaderValue>> | HeadersLike

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The `get` of a Headers-like object, or `undefined` (a getter that throws counts as none). */
export const getterOf = (headers: object): ((name: string) => unknown) | undefined => {
  try {
    const get: unknown = (headers as { readonly get?: unknown }).get
    return typeof get === 'function' ? (get as (name: string) => unknown) : undefined
  } catch {
    return undefined
  }
}

export const isHeaderValue = (v: unknown): v is HeaderValue =>
  v === undefined || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))

/**
 * What the values found so far agree on, once normalised: `undefined` while none is found, the
 * value, or `null` once two differ (for good).
 */
type Agreement = string | null | undefined

/** `found` once `value` (normalised) is found too: a clash stays one. */
const offer = (found: Agreement, value: string): Agreement => (found === undefined || found === value ? value : null)

/**
 * `found` once the strings of one header value (a string or a list; anything else holds none)
 * are found too. A list is read whole before any of it counts: one that throws part way holds none.
 */
const agreeing = (found: Agreement, v: unknown, normalise: (value: string) => string): Agreement => {
  if (typeof v === 'string') return offer(found, normalise(v))
  if (!Array.isArray(v)) return found
  let agreed: Agreement = found
  for (const x of (v as ReadonlyArray<unknown>).filter((y): y is string => typeof y === 'string'))
    agreed = offer(agreed, normalise(x))
  return agreed
}

/**
 * `key.toLowerCase() === wanted`, written out for speed: an ASCII key is compared letter by
 * letter, with no lower-case copy made for every header of every request; a key with any other
 * character is lowered as before (test/http/headers-spelling.test.ts pins the two together).
 */
const isSpelling = (key: string, wanted: string): boolean => {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c > 127) return key.toLowerCase() === wanted
    // Up to here the key is ASCII, lowered letter for letter: a difference here is final.
    if (i >= wanted.length || (c >= 65 && c <= 90 ? c + 32 : c) !== wanted.charCodeAt(i)) return false
  }
  return key.length === wanted.length
}

const asIs = (value: string): string => value

/**
 * The value of header `name`, whatever the case of its spelling; `undefined` when it is
 * absent, or when two spellings or repeated values disagree (a message cannot mean both).
 * A Headers-like object is asked by `get` (a Fetch `Headers` joins repeated values with `, `
 * itself); a `get` or a value getter that throws counts as absent. `normalise` is applied to each
 * value before they are compared (clients trim them). Never throws.
 *
 * @example
 * headerOf({ 'company-id': 'c-1', 'Company-Id': 'c-2' }, 'company-id') //=> undefined
 * headerOf({ 'x-request-id': ' r-1 ' }, 'X-Request-Id', (v) => v.trim()) //=> 'r-1'
 *
 * @category utils
 * @since 0.1.0
 */
export const headerOf = (headers: unknown, name: string, normalise: (value: string) => string = asIs): string | undefined => {
  const wanted = name.toLowerCase()
  // The values are agreed on as they are found, with no list of them: every request reads its
  // headers (test/http/headers-agreement.test.ts holds it to a reading that lists them first).
  let found: Agreement
  try {
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined
    const get = getterOf(headers)
    if (get !== undefined) found = agreeing(undefined, get.call(headers, wanted), normalise)
    else
      for (const key of Object.keys(headers)) {
        if (!isSpelling(key, wanted)) continue
        try {
          found = agreeing(found, (headers as Record<string, unknown>)[key], normalise)
        } catch {
          // A value getter that throws: this spelling is absent.
        }
      }
  } catch {
    // A `get` that throws, or a proxy that will not say what it is or list its keys: absent.
    return undefined
  }
  return found ?? undefined
}
