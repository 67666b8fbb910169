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
 * document each call; the same bytes for the same options.
 *
 * @example
 * const doc = openApiDocument()
 * doc.paths['/v1/banking/bank_transactions'].get.parameters.find((p) => p.name === '_order').schema.enum //=> ['asc', 'desc']
 *
 * @category constructors
 * @since 0.3.0
 */
export const openApiDocument = (options: DocumentOptions = {}): OpenApiDocument => buildDocument(operations, options)
