/**
 * The decision service's own OpenAPI 3.1 document, served at `GET /openapi.json` and
 * written to docs/decide.openapi.json. The cases and answers are the library's: the endpoints
 * from `decisionEndpoints`, a record's fields checked against `DecisionRecord` by the compiler.
 *
 * @since 0.5.0
 */
import { decisionEndpoints } from '../../decision/endpoints'
import type { DecisionRecord } from '../../decisions/record'
import type { JsonSchema } from '../../openapi/schema'
import { MAX_BATCH_CASES } from './limits'

const text = { type: 'string' } as const
const textOrNull = { type: ['string', 'null'] } as const
const object = (properties: Readonly<Record<string, JsonSchema>>, required: ReadonlyArray<string>): JsonSchema => ({
  type: 'object',
  properties,
  required
})

/** A field of a record, each named once: the compiler holds the list to `DecisionRecord`'s. */
const recordFields: { readonly [K in keyof DecisionRecord]: JsonSchema } = {
  request_id: text,
  at: { type: 'string', format: 'date-time' },
  company_id: textOrNull,
  actor_id: textOrNull,
  key_id: textOrNull,
  endpoint: text,
  method: text,
  path: text,
  resource_id: textOrNull,
  idempotency_key: textOrNull,
  replay_of: textOrNull,
  status: { type: 'integer', minimum: 100, maximum: 599 },
  rules: { type: 'array', items: text },
  case: { type: ['object', 'null'] },
  reply: object({ status: { type: 'integer' }, headers: { type: 'object' }, body: {} }, ['status', 'headers', 'body']),
  changes: { type: 'array', items: object({ field: text, before: {}, after: {} }, ['field', 'before', 'after']) },
  masked: { type: 'array', items: text },
  erased: { type: 'array', items: text },
  library_version: text
}

const problem = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } }
})

/** `?record=false` leaves the records out of the answers. */
const recordParameter = {
  name: 'record',
  in: 'query',
  required: false,
  description:
    'Whether each answer carries its decision record (`true`, the default) or leaves it out (`false`: half the bytes, for a server that keeps no records or keeps its own). The records file (`--records`) keeps them either way.',
  schema: { type: 'string', enum: ['true', 'false'] }
}

const errors = {
  '400': problem(
    'Not a case: the message names the field at fault (`cases[3].endpoint is ...`), or the body is not JSON, or `record` is neither `true` nor `false`.'
  ),
  '401': {
    description: 'The service asks for its token (`DECIDE_TOKEN`) and the request did not give it.',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } }
  },
  '413': problem('The body is longer than the service reads.'),
  '500': problem('A fault of the service itself, reported; never the case.')
}

/** The document, the same bytes each time. */
export const decisionServiceDocument = {
  openapi: '3.1.0',
  info: {
    title: 'The budget rules as a decision service',
    version: '1',
    description:
      'The replies of the banking API, decided by the budget-rules library for a server in any language: send the case (the request, the session, what the server looked up), get the reply to send, the rules that decided it, the budget to persist and the decision record. No database, no state. Besides: `GET /healthz` answers `{"status":"ok"}`, and `GET /openapi.json` this document.',
    license: { name: 'MIT', identifier: 'MIT' }
  },
  // Where the document is served from: the service answers its paths at its own root.
  servers: [{ url: '/' }],
  security: [{}, { bearer: [] }],
  tags: [
    { name: 'decisions', description: 'Cases decided.' },
    { name: 'operations', description: "The service's metrics." }
  ],
  paths: {
    '/v1/decide': {
      post: {
        operationId: 'decide',
        tags: ['decisions'],
        summary: 'Decide one case',
        parameters: [recordParameter],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Case' } } } },
        responses: {
          '200': {
            description: "The facade's reply to the case, the budget to persist and the decision record.",
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Answer' } } }
          },
          ...errors
        }
      }
    },
    '/v1/decide/batch': {
      post: {
        operationId: 'decideBatch',
        tags: ['decisions'],
        parameters: [recordParameter],
        summary: `Decide up to ${MAX_BATCH_CASES} cases, answered in order`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: object(
                { cases: { type: 'array', maxItems: MAX_BATCH_CASES, items: { $ref: '#/components/schemas/Case' } } },
                ['cases']
              )
            }
          }
        },
        responses: {
          '200': {
            description: 'The answer to each case, in the order of the cases.',
            content: {
              'application/json': {
                schema: object({ answers: { type: 'array', items: { $ref: '#/components/schemas/Answer' } } }, ['answers'])
              }
            }
          },
          ...errors
        }
      }
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: "The service's metrics, in Prometheus's text format",
        security: [{}, { bearer: [] }],
        responses: {
          '200': { description: 'The metrics.', content: { 'text/plain': { schema: text } } },
          '401': { description: 'The metrics ask for their token (`METRICS_TOKEN`).' }
        }
      }
    }
  },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: "The service's token, when it has one: `Authorization: Bearer <DECIDE_TOKEN>`."
      }
    },
    schemas: {
      Case: {
        type: 'object',
        description:
          "A facade's input and its name, as `budget-rules decide` reads it and a decision record keeps it: the request (its headers, and its body or query), the session, and what the endpoint's facade takes besides (`budget` and `today`, `transaction`, `records`, ...). `method` and `path` are the record's request line.",
        properties: {
          endpoint: { type: 'string', enum: [...decisionEndpoints] },
          request: object({ headers: { type: 'object', additionalProperties: text }, body: text, query: text }, ['headers']),
          session: {},
          request_id: text,
          method: text,
          path: text
        },
        required: ['endpoint', 'request', 'session']
      },
      Answer: object(
        {
          status: { type: 'integer', minimum: 100, maximum: 599 },
          headers: { type: 'object', additionalProperties: text },
          body: {},
          reasons: { type: 'array', items: object({ rule: text, detail: text }, ['rule', 'detail']) },
          budget: { type: ['object', 'null'], description: "The budget to persist: a mutation's 200, else null." },
          record: {
            anyOf: [{ $ref: '#/components/schemas/DecisionRecord' }, { type: 'null' }],
            description:
              'The decision record, or null when the case cannot be kept whole and masked; left out with `?record=false`.'
          }
        },
        ['status', 'headers', 'body', 'reasons', 'budget']
      ),
      DecisionRecord: {
        ...object(recordFields, Object.keys(recordFields)),
        additionalProperties: false
      },
      Problem: { ...object({ error: text, message: text }, ['error', 'message']), additionalProperties: false }
    }
  }
} as const
