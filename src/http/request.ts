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
 * absent, or when two spellings disagree (a request cannot mean both).
 *
 * @category utils
 * @since 0.1.0
 */
export const headerOf = (headers: Headers, name: string): string | undefined => {
  const wanted = name.toLowerCase()
  let found: string | undefined
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue
    const value = headers[key]
    if (value === undefined) continue
    if (found !== undefined && found !== value) return undefined
    found = value
  }
  return found
}
