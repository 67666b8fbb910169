/**
 * budget-rules/openapi: the OpenAPI 3.1 document of the API, generated from the rules
 * that decide its replies, for the ecosystem's tools: typed clients, API clients, mocks,
 * validating proxies, linters.
 *
 * @example
 * import { openApiDocument } from 'budget-rules/openapi'
 *
 * openApiDocument({ serverUrl: 'http://127.0.0.1:3000' }).servers //=> [{ url: 'http://127.0.0.1:3000' }]
 *
 * @since 0.3.0
 */
import { describeValue } from './json/describe'
import { buildDocument, type DocumentOptions, type OpenApiDocument } from './openapi/document'
import { operations } from './openapi/operations'

export { buildDocument, type DocumentOptions, type OpenApiDocument } from './openapi/document'
export { operations, type Operation, type OperationBody } from './openapi/operations'
export type { JsonSchema } from './openapi/schema'

/**
 * The OpenAPI 3.1 document of every operation the reference server serves: parameters (the
 * window, `_order` in the endpoint's case, `_field`, every filter with the operators its type
 * takes), the `company-id` and `Idempotency-Key` headers, bearer security, request bodies with
 * their wrappers, and every status each operation can return with its body and headers. A new
 * document each call; the same bytes for the same options. Options that are not an object, or a
 * `serverUrl` that is not a string, are a `TypeError` naming the value.
 *
 * @example
 * openApiDocument({ serverUrl: 3000 }) //=> throws TypeError('openApiDocument: serverUrl must be a string, not 3000')
 * const doc = openApiDocument()
 * doc.paths['/v1/banking/bank_transactions'].get.parameters.find((p) => p.name === '_order').schema.enum //=> ['asc', 'desc']
 *
 * @category constructors
 * @since 0.3.0
 */
export const openApiDocument = (options: DocumentOptions = {}): OpenApiDocument => {
  const given: unknown = options
  if (given === null || typeof given !== 'object')
    throw new TypeError(`openApiDocument: options must be an object, not ${describeValue(given)}`)
  // Read once: a getter answers one value.
  const serverUrl: unknown = (given as { readonly serverUrl?: unknown }).serverUrl
  if (serverUrl !== undefined && typeof serverUrl !== 'string')
    throw new TypeError(`openApiDocument: serverUrl must be a string, not ${describeValue(serverUrl)}`)
  return buildDocument(operations, serverUrl === undefined ? {} : { serverUrl })
}
