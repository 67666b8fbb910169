/**
 * The OpenAPI 3.1 document of the API (contract section 14, R-100), built from what decides
 * the replies: the operations (./operations.ts), the endpoint descriptions (window, `_order` in
 * the endpoint's case, `_field`, each filter with the operators its type takes), the model's
 * codecs, the rules catalogue (each rule's kinds of problem) and `reply/reply.ts` (each kind's
 * status). A field, an operator, a rule or a status added there appears here with no second
 * edit. Keys are sorted where their order is free, so the document is the same bytes each time.
 *
 * @example
 * import { operations } from 'budget-rules/openapi'
 *
 * const doc = buildDocument(operations, {})
 * doc.openapi //=> '3.1.0'
 * Object.keys(doc.paths['/v1/budgets/{id}/top_up'].post.responses)
 * //=> ['200', '400', '401', '404', '409', '413', '422', '429', '500', '503']
 *
 * @since 0.3.0
 */
import type { Problem } from '../decision/problem'
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../http/idempotency-key'
import { type RuleId, rules } from '../decision/rules'
import { type Endpoint, spellOrder } from '../paging/endpoint'
import { MAX_LIST_VALUES, type Operator, operatorsOf } from '../paging/filter'
import { DEFAULT_WINDOW_SIZE, MAX_WINDOW_SIZE } from '../paging/window'
import { statuses } from '../reply/reply'
import type { Operation } from './operations'
import { errorBody, problemBodies } from './replies'
import { type JsonSchema, schemaOfField } from './schema'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where the document says the API is served.
 *
 * @example
 * const options: DocumentOptions = { serverUrl: 'http://127.0.0.1:3000' }
 * buildDocument([], options).servers //=> [{ url: 'http://127.0.0.1:3000' }]
 *
 * @category model
 * @since 0.3.0
 */
export interface DocumentOptions {
  /** The server's base URL; the document names none when it is not given. */
  readonly serverUrl?: string
}

/**
 * An OpenAPI 3.1 document, as JSON.
 *
 * @example
 * const doc: OpenApiDocument = buildDocument([], {})
 * doc.paths //=> {}
 *
 * @category model
 * @since 0.3.0
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0'
  readonly info: JsonSchema
  readonly paths: { readonly [path: string]: { readonly [method: string]: JsonSchema & { readonly responses: JsonSchema } } }
  readonly components: JsonSchema
  readonly [keyword: string]: unknown
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

const JSON_MEDIA = 'application/json'

/** Headers the server sets, by name, as `components.headers` describes them. */
const headers: Readonly<Record<string, JsonSchema>> = {
  'X-Request-Id': {
    description: 'The id of this request; clients log it with every reply that is not a success.',
    required: true,
    schema: { type: 'string' }
  },
  'X-Total-Count': {
    description: 'How many records match the query, across every page.',
    required: true,
    schema: { type: 'integer', minimum: 0 }
  },
  'Content-Range': {
    description:
      'The records of the page and the total, without a unit: `<from>-<to_inclusive>/<total>`, or `*/<total>` when the page is empty.',
    required: true,
    schema: { type: 'string', pattern: '^(\\d+-\\d+|\\*)/\\d+$' }
  },
  'Access-Control-Expose-Headers': {
    description: 'Lets browser clients read the page headers.',
    required: true,
    schema: { type: 'string' }
  },
  'Retry-After': {
    description: 'Whole seconds to wait before trying again.',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' }
  },
  'Idempotent-Replayed': {
    description:
      'Present, `true`, on the reply kept for an Idempotency-Key already used with this same request: nothing was done again.',
    schema: { type: 'string', const: 'true' }
  }
}

const ref = (kind: string, name: string): JsonSchema => ({ $ref: `#/components/${kind}/${name}` })

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** `value` with the keys of every object sorted, recursively; arrays keep their order. */
const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  const o = value as Readonly<Record<string, unknown>>
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sorted(o[k])])
  )
}

/** The query parameters of an index endpoint: the window, the sort, and each filter with each operator its field takes. */
const indexParameters = (endpoint: Endpoint): ReadonlyArray<JsonSchema> => {
  const window = [
    {
      name: '_start',
      in: 'query',
      description: 'Zero-based offset of the first record.',
      schema: { type: 'integer', minimum: 0, default: 0 }
    },
    {
      name: '_end',
      in: 'query',
      description: `Exclusive end of the window, \`_start + ${DEFAULT_WINDOW_SIZE}\` when absent; \`_end - _start\` at most ${MAX_WINDOW_SIZE} (a wider window is a 416).`,
      schema: { type: 'integer', minimum: 0 }
    },
    {
      name: '_order',
      in: 'query',
      description: 'Sort direction; newest first must be asked for.',
      schema: {
        type: 'string',
        enum: [spellOrder(endpoint, 'asc'), spellOrder(endpoint, 'desc')],
        default: spellOrder(endpoint, 'asc')
      }
    },
    {
      name: '_field',
      in: 'query',
      description: 'Sort field; ties are broken by `id` in the same direction.',
      schema: { type: 'string', enum: [...endpoint.sortable], default: endpoint.defaultField }
    }
  ]
  const filters = Object.keys(endpoint.fields).flatMap((field) => {
    const type = endpoint.fields[field] as Endpoint['fields'][string]
    const value = schemaOfField(type)
    return operatorsOf(type).map((op: Operator) =>
      op === '$in' || op === '$nin'
        ? {
            name: `${field}[${op}]`,
            in: 'query',
            description: `Records whose ${field} is ${op === '$in' ? '' : 'not '}one of a JSON array of at most ${MAX_LIST_VALUES} values.`,
            schema: { type: 'string', pattern: '^\\[.*\\]$' }
          }
        : {
            name: op === '$eq' ? field : `${field}[${op}]`,
            in: 'query',
            description: `Records whose ${field} ${comparisons[op]} the value.`,
            schema: value
          }
    )
  })
  return [...window, ...filters]
}

const comparisons: Readonly<Record<Exclude<Operator, '$in' | '$nin'>, string>> = {
  $eq: 'equals',
  $ne: 'differs from',
  $gt: 'is greater than',
  $gte: 'is at least',
  $lt: 'is less than',
  $lte: 'is at most'
}

/** A body's shape in a line, as the spec writes it: `{error: "not_found", message}`. */
const shapeOf = (schema: JsonSchema): string => {
  // Every body of `problemBodies` is an object with properties.
  const properties = schema['properties'] as Readonly<Record<string, JsonSchema>>
  const keys = Object.keys(properties).map((k) =>
    (properties[k] as JsonSchema)['const'] === undefined ? k : `${k}: ${JSON.stringify((properties[k] as JsonSchema)['const'])}`
  )
  return `\`{${keys.join(', ')}}\``
}

/** The kinds of problem an operation's replies can be, with the rules that give each, in the catalogue's order. */
const refusals = (operation: Operation): ReadonlyArray<{ readonly kind: Problem['_tag']; readonly rule: RuleId | null }> => {
  const consulted: ReadonlyArray<RuleId> = [...operation.rules, 'service.rate_limit']
  const byRules = (Object.keys(rules) as ReadonlyArray<RuleId>)
    .filter((id) => consulted.includes(id))
    .flatMap((rule) => rules[rule].refuses.map((kind) => ({ kind, rule })))
  // What the server itself adds around the facade: an Idempotency-Key is checked (400) and
  // refused when reused with another request (422).
  const idempotency = operation.idempotent
    ? ([
        { kind: 'BadRequest', rule: null },
        { kind: 'Invalid', rule: null }
      ] as const)
    : []
  return [...byRules, ...idempotency]
}

/** The responses of an operation, by status. */
const responses = (operation: Operation): Record<string, JsonSchema> => {
  const byStatus = new Map<number, Array<{ readonly kind: Problem['_tag']; readonly rule: RuleId | null }>>()
  for (const r of refusals(operation))
    for (const status of statuses[r.kind]) byStatus.set(status, [...(byStatus.get(status) ?? []), r])
  const common = (status: number) => ({
    'X-Request-Id': ref('headers', 'X-Request-Id'),
    ...(status === 429 || status === 503 ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
    ...(operation.idempotent ? { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') } : {})
  })
  const out: Record<string, JsonSchema> = {}
  for (const [status, refused] of byStatus) {
    const kinds = [...new Set(refused.map((r) => r.kind))]
    const described = kinds.filter((kind) => problemBodies[kind] !== null)
    // OpenAPI cannot say "this JSON body, or none": where a rule of the status gives an empty
    // body, no content is declared, and the description names each rule's body (ADR 0112).
    out[String(status)] = {
      description: kinds
        .map((kind) => {
          const by = refused
            .filter((r) => r.kind === kind)
            .map((r) => (r.rule === null ? 'the Idempotency-Key check' : `\`${r.rule}\``))
          const body = problemBodies[kind]
          return `${[...new Set(by)].join(', ')}: ${body === null ? 'an empty body' : shapeOf(body)}`
        })
        .join('; '),
      headers: common(status),
      ...(described.length === 0 || described.length < kinds.length
        ? {}
        : {
            content: {
              [JSON_MEDIA]: {
                schema:
                  described.length === 1
                    ? ref('schemas', described[0] as string)
                    : { anyOf: described.map((k) => ref('schemas', k)) }
              }
            }
          })
    }
  }
  if (operation.body !== null)
    out['413'] = {
      description: 'The request body is larger than the server reads.',
      headers: common(413),
      content: { [JSON_MEDIA]: { schema: ref('schemas', 'PayloadTooLarge') } }
    }
  // Any operation, when the server's database is away (R-110), beside what the rules give at 503.
  const unavailable = ref('schemas', 'ServiceUnavailable')
  const upstream = out['503'] as { description: string; content?: Record<string, { schema: JsonSchema }> } | undefined
  const also = upstream?.content?.[JSON_MEDIA]?.schema
  out['503'] = {
    description: `${upstream === undefined ? '' : `${upstream.description}; `}the database unavailable: \`{error: "service_unavailable", message}\`, retry after Retry-After seconds`,
    headers: common(503),
    ...(upstream !== undefined && also === undefined
      ? {}
      : { content: { [JSON_MEDIA]: { schema: also === undefined ? unavailable : { anyOf: [also, unavailable] } } } })
  }
  const success = operation.success
  const item = ref('schemas', success.name)
  const index = operation.index
  out[String(success.status)] = {
    description: success.description,
    headers: {
      ...common(success.status),
      ...(index === null
        ? {}
        : {
            'X-Total-Count': ref('headers', 'X-Total-Count'),
            'Content-Range': ref('headers', 'Content-Range'),
            'Access-Control-Expose-Headers': ref('headers', 'Access-Control-Expose-Headers')
          })
    },
    content: {
      [JSON_MEDIA]: {
        schema:
          index === null
            ? item
            : index.envelope === 'bare'
              ? { type: 'array', items: item, maxItems: MAX_WINDOW_SIZE }
              : {
                  type: 'object',
                  properties: {
                    data: { type: 'array', items: item, maxItems: MAX_WINDOW_SIZE },
                    cursors: {
                      type: 'object',
                      description: 'The query strings of the previous and next windows, or null at either end.',
                      properties: { previous: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } },
                      required: ['previous', 'next'],
                      additionalProperties: false
                    }
                  },
                  required: ['data', 'cursors'],
                  additionalProperties: false
                }
      }
    }
  }
  return out
}

/** One operation as OpenAPI describes it. */
const operationObject = (operation: Operation): JsonSchema & { readonly responses: JsonSchema } => {
  const pathParameters = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' }
  }))
  const parameters = [
    ...pathParameters,
    ...(operation.company ? [ref('parameters', 'company-id')] : []),
    ...(operation.idempotent ? [ref('parameters', 'Idempotency-Key')] : []),
    ...(operation.index === null ? [] : indexParameters(operation.index))
  ]
  const body = operation.body
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `Rules consulted: ${operation.rules.map((r) => `\`${r}\``).join(', ')} (docs/rules.md).`,
    tags: [operation.tag],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === null
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              [JSON_MEDIA]: {
                schema:
                  body.wrapper === null
                    ? body.schema
                    : { type: 'object', properties: { [body.wrapper]: body.schema }, required: [body.wrapper] }
              }
            }
          }
        }),
    responses: responses(operation)
  }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The document of `operations`; {@link openApiDocument} is this over every operation the
 * reference server serves.
 *
 * @example
 * import { defineEndpoint } from 'budget-rules'
 * import { operations } from 'budget-rules/openapi'
 *
 * // a field added to an endpoint is a filter parameter with the operators its type takes
 * const endpoint = defineEndpoint({ path: '/v1/payables', fields: { id: { type: 'id' }, created_at: { type: 'instant' }, due: { type: 'instant' } }, sortable: ['created_at'] })
 * const doc = buildDocument([{ ...operations[5], path: '/v1/payables', index: endpoint }], {})
 * doc.paths['/v1/payables'].get.parameters.flatMap((p) => (String(p.name).startsWith('due') ? [p.name] : []))
 * //=> ['due', 'due[$ne]', 'due[$gt]', 'due[$gte]', 'due[$lt]', 'due[$lte]', 'due[$in]', 'due[$nin]']
 *
 * @category constructors
 * @since 0.3.0
 */
export const buildDocument = (operations: ReadonlyArray<Operation>, options: DocumentOptions): OpenApiDocument => {
  const paths: Record<string, Record<string, JsonSchema & { readonly responses: JsonSchema }>> = {}
  for (const operation of operations)
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) }
  // The bodies of the kinds the responses refer to: a status whose rules may give no body names none.
  const referred = JSON.stringify(paths)
  const problems = Object.fromEntries(
    (Object.keys(problemBodies) as ReadonlyArray<Problem['_tag']>).flatMap((kind) => {
      const body = problemBodies[kind]
      return body === null || !referred.includes(`"#/components/schemas/${kind}"`) ? [] : [[kind, body]]
    })
  )
  const schemas = {
    ...problems,
    ...(referred.includes('"#/components/schemas/PayloadTooLarge"') ? { PayloadTooLarge: errorBody('payload_too_large') } : {}),
    ...(referred.includes('"#/components/schemas/ServiceUnavailable"')
      ? { ServiceUnavailable: errorBody('service_unavailable') }
      : {}),
    ...Object.fromEntries(operations.map((o) => [o.success.name, o.success.schema]))
  }
  return sorted({
    openapi: '3.1.0',
    info: {
      title: 'Budgets, errors and pagination of the banking service',
      version: '1',
      description:
        'Every reply names the rules that decided it (`reasons` in the library, docs/rules.md for their ids). Generated by budget-rules from the rules themselves.',
      license: { name: 'MIT', identifier: 'MIT' }
    },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    security: [{ bearer: [] }],
    tags: [
      { name: 'budgets', description: 'Budgets (balance groups): updates, money, periods.' },
      { name: 'banking', description: 'Bank transactions and bank recipients.' },
      { name: 'companies', description: "The caller's companies and their members' roles." },
      { name: 'decisions', description: 'What was decided: a record of every request a rule decided, for its company.' }
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <API_KEY>`.' }
      },
      parameters: {
        'company-id': {
          name: 'company-id',
          in: 'header',
          required: true,
          description: 'The company in whose scope the request runs; missing, the reply is a 401 with an empty body.',
          schema: { type: 'string', minLength: 1 }
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key with the same request replays the first reply, with another request is a 422.',
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH }
        }
      },
      headers,
      schemas
    }
  }) as OpenApiDocument
}
