/**
 * The OpenAPI document as data: the statuses of each operation against a table written
 * from the contract (sections 4, 5, 7, 8, 9, 12), its parameters and headers, determinism, and
 * that an endpoint field, an operator or a rule added to what decides the replies shows up with
 * no second edit. The JSON Schemas are checked with Ajv, a validator written elsewhere.
 */
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { BudgetFields, Cents, Every } from '../../src/budget/model'
import { CalendarDate } from '../../src/calendar/codec'
import { defineEndpoint, endpoints } from '../../src/paging/endpoint'
import { buildDocument, type Operation, openApiDocument, operations } from '../../src/openapi'
import { orNull, refinedTypes, schemaOfCodec, schemaOfField } from '../../src/openapi/schema'
import { runs } from '../runs'

const doc = openApiDocument()
const operationOf = (method: string, path: string) => {
  const o = doc.paths[path]?.[method]
  if (o === undefined) throw new Error(`no ${method} ${path}`)
  return o as Record<string, unknown> & { responses: Record<string, Record<string, unknown>> }
}
const parameterNames = (o: Record<string, unknown>) =>
  (o['parameters'] as ReadonlyArray<Record<string, unknown>>).map((p) => p['name'] ?? p['$ref'])

/**
 * The statuses of each operation, from the contract: section 4 (401, 404) on all; the rows of
 * section 5 for the update; section 7 for money; section 8 for an index (400, 416); section 12
 * for roles, authorizations and recipients; the server's own 413 (a body), 429 (every route)
 * and 500, its 503 when the database is away; an Idempotency-Key's 400 and 422.
 */
const expectedStatuses: Readonly<Record<string, ReadonlyArray<string>>> = {
  'patch /v1/budgets/{id}': ['200', '400', '401', '403', '404', '409', '412', '413', '422', '429', '500', '503'],
  'post /v1/budgets/{id}/top_up': ['200', '400', '401', '404', '409', '413', '422', '429', '500', '503'],
  'post /v1/budgets/{id}/withdraw': ['200', '400', '401', '404', '409', '413', '422', '429', '500', '503'],
  'patch /v1/budgets/{id}/amount': ['200', '400', '401', '404', '409', '413', '422', '429', '500', '503'],
  'get /v1/budgets/{id}': ['200', '401', '404', '429', '500', '503'],
  'get /v1/budgets': ['200', '400', '401', '404', '416', '429', '500', '503'],
  'get /v1/banking/bank_transactions': ['200', '400', '401', '404', '416', '429', '500', '503'],
  'post /v1/banking/bank_transactions/{id}/authorize': ['200', '400', '401', '404', '409', '422', '429', '500', '503'],
  'post /v1/banking/bank_recipients': ['201', '400', '401', '404', '409', '413', '422', '429', '500', '503'],
  'get /v1/companies': ['200', '400', '401', '404', '416', '429', '500', '503'],
  'patch /v1/companies/{id}/memberships/{user_id}': ['200', '400', '401', '403', '404', '413', '422', '429', '500', '503'],
  'get /v1/decisions': ['200', '400', '401', '404', '416', '429', '500', '503']
}

describe('openApiDocument', () => {
  it('is an OpenAPI 3.1 document of every operation, with the statuses the contract gives each', () => {
    expect(doc.openapi).toBe('3.1.0')
    const listed = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, o]) => [`${method} ${path}`, Object.keys(o.responses)] as const)
    )
    expect(Object.fromEntries(listed)).toEqual(expectedStatuses)
  })

  it('given options outside its type, throws a TypeError naming the value at once (R-19)', () => {
    let refused = 0
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ serverUrl: fc.anything() })), (options) => {
        let got: unknown
        try {
          got = openApiDocument(options as Parameters<typeof openApiDocument>[0])
        } catch (e) {
          refused++
          expect(e).toBeInstanceOf(TypeError)
          expect((e as TypeError).message).toMatch(
            /^openApiDocument: (options must be an object|serverUrl must be a string), not /
          )
          return
        }
        // undefined takes the default, no options
        const url = options === undefined ? undefined : (options as { serverUrl?: unknown }).serverUrl
        expect((got as Record<string, unknown>)['servers']).toEqual(url === undefined ? undefined : [{ url }])
      }),
      { numRuns: runs(300) }
    )
    expect(refused).toBeGreaterThan(runs(300) / 4)
    expect(() => openApiDocument(null as unknown as object)).toThrow(
      new TypeError('openApiDocument: options must be an object, not null')
    )
  })

  it('names the server only when given one', () => {
    expect(doc['servers']).toBeUndefined()
    expect(openApiDocument({ serverUrl: 'http://127.0.0.1:3000' })['servers']).toEqual([{ url: 'http://127.0.0.1:3000' }])
  })

  it('is the same bytes each time, its keys sorted wherever their order is free', () => {
    const text = JSON.stringify(openApiDocument())
    expect(JSON.stringify(openApiDocument())).toBe(text)
    const unsorted: Array<string> = []
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value))
        value.forEach((v, i) => {
          walk(v, `${at}/${i}`)
        })
      else if (value !== null && typeof value === 'object') {
        const keys = Object.keys(value)
        if (keys.join('\n') !== [...keys].sort().join('\n')) unsorted.push(at)
        for (const k of keys) walk((value as Record<string, unknown>)[k], `${at}/${k}`)
      }
    }
    walk(JSON.parse(text), '#')
    expect(unsorted).toEqual([])
  })

  it('gives every reply an X-Request-Id, an index success its page headers, a 429 its Retry-After, a replayable operation Idempotent-Replayed', () => {
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, o] of Object.entries(methods))
        for (const [status, response] of Object.entries(o.responses as Record<string, { headers: Record<string, unknown> }>)) {
          const names = Object.keys(response.headers)
          const index =
            o['operationId'] === 'listBudgets' ||
            o['operationId'] === 'listBankTransactions' ||
            o['operationId'] === 'listCompanies' ||
            o['operationId'] === 'listDecisions'
          const idempotent = [
            'topUpBudget',
            'withdrawFromBudget',
            'setBudgetAmount',
            'authorizeBankTransaction',
            'createBankRecipient'
          ].includes(o['operationId'] as string)
          const expected = [
            'X-Request-Id',
            ...(status === '429' || status === '503' ? ['Retry-After'] : []),
            ...(idempotent ? ['Idempotent-Replayed'] : []),
            ...(index && status === '200' ? ['Access-Control-Expose-Headers', 'Content-Range', 'X-Total-Count'] : [])
          ].sort()
          expect(names, `${method} ${path} ${status}`).toEqual(expected)
        }
  })

  it('describes the window, the sort in the endpoint’s case, and each filter with the operators its type takes', () => {
    const list = operationOf('get', '/v1/banking/bank_transactions')
    expect(parameterNames(list)).toEqual([
      '#/components/parameters/company-id',
      '_start',
      '_end',
      '_order',
      '_field',
      'id',
      'id[$ne]',
      'id[$in]',
      'id[$nin]',
      'amount',
      'amount[$ne]',
      'amount[$gt]',
      'amount[$gte]',
      'amount[$lt]',
      'amount[$lte]',
      'amount[$in]',
      'amount[$nin]',
      'status',
      'status[$ne]',
      'status[$in]',
      'status[$nin]',
      ...['created_at', 'updated_at'].flatMap((f) => [
        f,
        ...['$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'].map((op) => `${f}[${op}]`)
      ])
    ])
    const parameter = (name: string) =>
      (list['parameters'] as ReadonlyArray<Record<string, unknown>>).find((p) => p['name'] === name)?.['schema']
    expect(parameter('_order')).toEqual({ type: 'string', enum: ['asc', 'desc'], default: 'asc' })
    expect(parameter('_field')).toEqual({ type: 'string', enum: ['created_at', 'updated_at', 'amount'], default: 'created_at' })
    expect(parameter('status')).toEqual({ type: 'string', enum: ['authorized', 'pending'] })
    expect(parameter('created_at[$gt]')).toEqual({ type: 'string', format: 'date-time' })
    expect(parameter('amount[$gte]')).toEqual({ type: 'integer' })
    // GET /v1/companies lists the caller's own companies: no company-id
    expect(parameterNames(operationOf('get', '/v1/companies'))).not.toContain('#/components/parameters/company-id')
  })

  it('shows a field, an operator case or a rule added to what decides the replies, with no second edit', () => {
    const listBudgets = operations.find((o) => o.operationId === 'listBudgets') as Operation
    const payables = defineEndpoint({
      path: '/v1/payables',
      fields: { id: { type: 'id' }, created_at: { type: 'instant' }, kind: { type: 'enum', values: ['bill', 'refund'] } },
      sortable: ['created_at', 'kind'],
      orderCase: 'upper'
    })
    const added: Operation = {
      ...listBudgets,
      operationId: 'listPayables',
      path: payables.path,
      index: payables,
      // a rule the facade now consults: a guard that denies without a body, and the upstream's
      rules: [...listBudgets.rules, 'service.guard', 'service.upstream']
    }
    const got = buildDocument([added], {}).paths['/v1/payables']?.['get'] as Record<string, unknown> & {
      responses: Record<string, Record<string, unknown>>
    }
    expect(parameterNames(got).filter((n) => typeof n === 'string' && n.startsWith('kind'))).toEqual([
      'kind',
      'kind[$ne]',
      'kind[$in]',
      'kind[$nin]'
    ])
    const order = (got['parameters'] as ReadonlyArray<Record<string, unknown>>).find((p) => p['name'] === '_order')
    expect(order?.['schema']).toEqual({ type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' })
    expect(Object.keys(got.responses)).toEqual(['200', '400', '401', '403', '404', '416', '429', '500', '502', '503', '504'])
    expect(got.responses['403']).toEqual({
      description: '`service.guard`: an empty body',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } }
    })
    expect(got.responses['503']).toEqual({
      description:
        '`service.upstream`: `{error: "upstream_unavailable", message}`; the database unavailable: `{error: "service_unavailable", message}`, retry after Retry-After seconds',
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        'Retry-After': { $ref: '#/components/headers/Retry-After' }
      },
      content: {
        'application/json': {
          schema: { anyOf: [{ $ref: '#/components/schemas/Upstream' }, { $ref: '#/components/schemas/ServiceUnavailable' }] }
        }
      }
    })
  })

  it('declares every body of a status where its rules give several, and none gives an empty one', () => {
    const getBudget = operations.find((o) => o.operationId === 'getBudget') as Operation
    // A facade that checks a verified email and a guard, but no bearer key (so no empty 401).
    const got = buildDocument([{ ...getBudget, rules: ['auth.email_verified', 'money.permission'] }], {}).paths[
      '/v1/budgets/{id}'
    ]?.['get'] as { responses: Record<string, Record<string, unknown>> }
    expect(got.responses['401']).toEqual({
      description:
        '`auth.email_verified`: `{error: "email_not_verified", message}`; `money.permission`: `{message: "Unauthorized (401)"}`',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
      content: {
        'application/json': {
          schema: { anyOf: [{ $ref: '#/components/schemas/EmailNotVerified' }, { $ref: '#/components/schemas/GuardRejected' }] }
        }
      }
    })
  })

  it('lists no parameters for an operation that takes none', () => {
    const companies = operations.find((o) => o.operationId === 'listCompanies') as Operation
    const got = buildDocument([{ ...companies, path: '/v1/ping', index: null }], {}).paths['/v1/ping']?.['get']
    expect(got).not.toHaveProperty('parameters')
    expect(got).not.toHaveProperty('requestBody')
  })

  it('holds the 413 body only when an operation takes a request body, and the 503 body always', () => {
    const schemasOf = (operationId: string) =>
      Object.keys(
        buildDocument([operations.find((o) => o.operationId === operationId) as Operation], {}).components['schemas'] as object
      )
    expect(schemasOf('listBudgets')).not.toContain('PayloadTooLarge')
    expect(schemasOf('listBudgets')).toContain('ServiceUnavailable')
    expect(schemasOf('updateBudget')).toEqual(expect.arrayContaining(['PayloadTooLarge', 'ServiceUnavailable']))
  })

  it('declares no body where a rule of the status gives none, and names each rule’s body instead', () => {
    const update = operationOf('patch', '/v1/budgets/{id}')
    expect(update.responses['401']).toEqual({
      description:
        '`auth.bearer`, `auth.company_header`: an empty body; `auth.email_verified`: `{error: "email_not_verified", message}`; `budget.permission.update`: `{message: "Unauthorized (401)"}`',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } }
    })
    expect(update.responses['404']?.['content']).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/NotFound' } }
    })
    expect(update.responses['412']?.['content']).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/PreconditionFailed' } }
    })
  })

  it('takes request bodies under the wrapper the service requires', () => {
    const body = (o: Record<string, unknown>) =>
      (o['requestBody'] as { content: Record<string, { schema: Record<string, unknown> }> }).content['application/json']?.schema
    expect(body(operationOf('patch', '/v1/budgets/{id}'))).toMatchObject({ required: ['budget'] })
    expect(body(operationOf('post', '/v1/banking/bank_recipients'))).toMatchObject({ required: ['bank_recipient'] })
    expect(body(operationOf('post', '/v1/budgets/{id}/top_up'))).toEqual({
      type: 'object',
      properties: { amount_cents: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
      required: ['amount_cents']
    })
    expect(body(operationOf('patch', '/v1/budgets/{id}/amount'))).toMatchObject({
      properties: { amount_cents: { minimum: 0 } }
    })
    expect(operationOf('get', '/v1/budgets/{id}')['requestBody']).toBeUndefined()
  })

  it('is valid to Ajv as JSON Schema 2020-12 wherever it holds a schema', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    const schemas = (doc.components as { schemas: Record<string, object> }).schemas
    for (const [name, schema] of Object.entries(schemas)) expect(ajv.validateSchema(schema), name).toBe(true)
  })
})

describe('schemaOfCodec', () => {
  it('reads the budget of the model: every field required, no other', () => {
    const budget = schemaOfCodec(BudgetFields)
    expect(budget['required']).toEqual(Object.keys(BudgetFields.props))
    expect(budget['additionalProperties']).toBe(false)
    expect((budget['properties'] as Record<string, unknown>)['recurrence_unit']).toEqual({
      type: ['string', 'null'],
      enum: ['day', 'week', 'month', 'year', null]
    })
    expect((budget['properties'] as Record<string, unknown>)['balance_cents']).toEqual({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER
    })
  })

  it('reads an io-ts type as a closed object whose every key is required', () => {
    expect(schemaOfCodec(t.type({ a: t.string, b: t.union([t.number, t.null]) }))).toStrictEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
      required: ['a', 'b'],
      additionalProperties: false
    })
  })

  it('reads io-ts literals, arrays and unions', () => {
    expect(schemaOfCodec(t.literal('x'))).toEqual({ const: 'x' })
    expect(schemaOfCodec(t.array(t.number))).toEqual({ type: 'array', items: { type: 'number' } })
    expect(schemaOfCodec(t.readonlyArray(t.boolean))).toEqual({ type: 'array', items: { type: 'boolean' } })
    expect(schemaOfCodec(t.union([t.string, t.null]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] })
  })

  it('throws a TypeError naming a codec it cannot read, rather than guess', () => {
    expect(() => schemaOfCodec(t.unknown)).toThrow(new TypeError('schemaOfCodec: no JSON Schema for the codec unknown'))
    const Even = t.brand(t.number, (n): n is t.Branded<number, { readonly Even: unique symbol }> => n % 2 === 0, 'Even')
    expect(() => schemaOfCodec(Even)).toThrow(new TypeError('schemaOfCodec: no JSON Schema for the codec Even'))
  })

  it('orNull widens a type, or wraps what names none', () => {
    expect(orNull({ type: 'string' })).toEqual({ type: ['string', 'null'] })
    expect(orNull({ $ref: '#/x' })).toEqual({ anyOf: [{ $ref: '#/x' }, { type: 'null' }] })
  })
})

describe('schemaOfField', () => {
  it('is the empty schema, any JSON value, for a json field, nullable or not (null is one already)', () => {
    expect(schemaOfField({ type: 'json' })).toStrictEqual({})
    expect(schemaOfField({ type: 'json', nullable: true })).toStrictEqual({})
  })

  it('widens the type of any other nullable field with null', () => {
    expect(schemaOfField({ type: 'string', nullable: true })).toStrictEqual({ type: ['string', 'null'] })
    expect(schemaOfField({ type: 'integer', nullable: false })).toStrictEqual({ type: 'integer' })
  })
})

describe('refinedTypes', () => {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  const agree = (codec: t.Mixed, schema: object, values: ReadonlyArray<unknown>) => {
    const validate = ajv.compile(schema)
    for (const v of values) expect(validate(v), `${codec.name} of ${JSON.stringify(v)}`).toBe(codec.is(v))
  }

  it('admit what the codecs admit, at the edges', () => {
    const max = Number.MAX_SAFE_INTEGER
    agree(Cents, refinedTypes['Cents'] as object, [0, 1, -1, 0.5, max, max + 1, 2 ** 60, '1', null])
    agree(Every, refinedTypes['Every'] as object, [0, 1, 366, 367, 1.5, -1, '2'])
    agree(CalendarDate, refinedTypes['CalendarDate'] as object, [
      '2026-11-22',
      '2024-02-29',
      '2026-02-29',
      '2026-04-31',
      '2026-13-01',
      '0000-01-01',
      '0001-01-01',
      '9999-12-31',
      '2026-1-01',
      '2026-11-22T00:00:00Z',
      ''
    ])
  })

  it('admit what the codecs admit, over any integer and any date-shaped text', () => {
    const cents = ajv.compile(refinedTypes['Cents'] as object)
    const every = ajv.compile(refinedTypes['Every'] as object)
    const date = ajv.compile(refinedTypes['CalendarDate'] as object)
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -5, max: 400 }), fc.maxSafeInteger(), fc.double()), (n) => {
        expect(cents(n)).toBe(Cents.is(n))
        expect(every(n)).toBe(Every.is(n))
      }),
      { numRuns: runs(500) }
    )
    // Months and days around their ranges, so that most texts are real dates and the rest miss by one.
    const padded = (n: number, width: number) => String(n).padStart(width, '0')
    let real = 0
    let made = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${padded(y, 4)}-${padded(m, 2)}-${padded(d, 2)}`
          made++
          if (CalendarDate.is(text)) real++
          expect(date(text), text).toBe(CalendarDate.is(text))
        }
      ),
      { numRuns: runs(2000) }
    )
    // Counted, not assumed: under Stryker a property makes a fifth of its runs.
    expect(made).toBeGreaterThanOrEqual(400)
    expect(real).toBeGreaterThan(made / 2)
  })
})

describe('the index endpoints', () => {
  it('list records with exactly the fields of their description', () => {
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas
    expect(schemas['BankTransaction']?.['required']).toEqual(Object.keys(endpoints.bankTransactions.fields))
    expect(schemas['BudgetSummary']?.['required']).toEqual(Object.keys(endpoints.budgets.fields))
    expect(schemas['Company']?.['required']).toEqual(Object.keys(endpoints.companies.fields))
  })
})
