/**
 * A request as the server received it (contract section 2), and reading its headers the way
 * HTTP does: names in any case.
 *
 * @example
 * headerOf({ Authorization: 'Bearer k' }, 'authorization') //=> 'Bearer k'
 * headerOf({ 'company-id': 'c-1', 'Company-Id': 'c-2' }, 'company-id') //=> undefined
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { isJsonObject } from '../json/value'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * @category codecs
 * @since 0.1.0
 */
export const Request = /*#__PURE__*/ t.intersection(
  [
    t.type({ headers: t.record(t.string, t.union([t.string, t.undefined])) }),
    t.partial({ query: t.string, body: t.string })
  ],
  'Request'
)

/**
 * @category model
 * @since 0.1.0
 */
export type Request = t.TypeOf<typeof Request>

/**
 * @category model
 * @since 0.1.0
 */
export type Headers = Request['headers']

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The value of header `name`, whatever the case of its spelling; `undefined` when it is
 * absent, or when two spellings or repeated values disagree (a message cannot mean both).
 * Values may be strings or lists of strings (repeated headers); anything else is passed over.
 * `normalise` is applied to each value before they are compared (clients trim them).
 *
 * @category utils
 * @since 0.1.0
 */
export const headerOf = (headers: unknown, name: string, normalise: (value: string) => string = (v) => v): string | undefined => {
  if (!isJsonObject(headers)) return undefined
  const wanted = name.toLowerCase()
  let found: string | undefined
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue
    const raw = headers[key]
    for (const v of Array.isArray(raw) ? (raw as ReadonlyArray<unknown>) : [raw]) {
      if (typeof v !== 'string') continue
      const value = normalise(v)
      if (found !== undefined && found !== value) return undefined
      found = value
    }
  }
  return found
}
