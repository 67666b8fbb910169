/**
 * JSON Schema (draft 2020-12, as OpenAPI 3.1 reads it) of the service's data, read off the same
 * io-ts codecs and endpoint descriptions the facades decide with: a field added to the model or
 * to an endpoint appears in the API's description with no second edit.
 *
 * @example
 * import * as t from 'io-ts'
 *
 * schemaOfCodec(t.type({ id: t.string, note: t.union([t.string, t.null]) }))
 * //=> { type: 'object', properties: { id: { type: 'string' }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
 * //     required: ['id', 'note'], additionalProperties: false }
 *
 * @since 0.3.0
 */
import type * as t from 'io-ts'
import type { Endpoint, FieldType } from '../paging/endpoint'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A JSON Schema: a JSON object whose keys are the vocabulary's.
 *
 * @example
 * const cents: JsonSchema = { type: 'integer', minimum: 0 }
 * orNull(cents) //=> { type: ['integer', 'null'], minimum: 0 }
 *
 * @category model
 * @since 0.3.0
 */
export type JsonSchema = { readonly [keyword: string]: unknown }

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The refined types of the model by codec name: a predicate is opaque, so what it admits is
 * written here in JSON Schema's words. test/openapi/schema.test.ts checks each against its
 * codec's `is` at the edges, so the two cannot drift apart.
 *
 * @example
 * refinedTypes.Every //=> { type: 'integer', minimum: 1, maximum: 366 }
 *
 * @category constants
 * @since 0.3.0
 */
export const refinedTypes: Readonly<Record<string, JsonSchema>> = {
  // RFC 3339's full-date has a year 0000; the service's calendar starts at 0001-01-01.
  CalendarDate: { type: 'string', format: 'date', pattern: '^(?!0000)' },
  Cents: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  Every: { type: 'integer', minimum: 1, maximum: 366 }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const primitives: Readonly<Record<string, JsonSchema>> = {
  StringType: { type: 'string' },
  NumberType: { type: 'number' },
  BooleanType: { type: 'boolean' },
  NullType: { type: 'null' }
}

/** An io-ts codec as the tagged union its built-in classes form (and the model's `NullableType`). */
type Tagged =
  | { readonly _tag: 'StringType' | 'NumberType' | 'BooleanType' | 'NullType' }
  | { readonly _tag: 'KeyofType'; readonly keys: Readonly<Record<string, unknown>> }
  | { readonly _tag: 'LiteralType'; readonly value: string | number | boolean }
  | { readonly _tag: 'UnionType'; readonly types: ReadonlyArray<t.Mixed> }
  | { readonly _tag: 'NullableType'; readonly type: t.Mixed }
  | { readonly _tag: 'RefinementType'; readonly name: string }
  | { readonly _tag: 'InterfaceType'; readonly props: Readonly<Record<string, t.Mixed>> }
  | { readonly _tag: 'ArrayType' | 'ReadonlyArrayType'; readonly type: t.Mixed }

/**
 * The JSON Schema of what `codec` encodes to: objects of `t.type` are closed (every key
 * required, no other), a union is `anyOf`, `C | null` is `C` whose type also admits null.
 * A codec it cannot read (a refinement not in {@link refinedTypes}, a custom `t.Type`) is a
 * `TypeError` naming it: the description must never guess.
 *
 * @example
 * import * as t from 'io-ts'
 *
 * schemaOfCodec(t.keyof({ day: null, week: null })) //=> { type: 'string', enum: ['day', 'week'] }
 * schemaOfCodec(t.unknown) //=> throws TypeError('schemaOfCodec: no JSON Schema for the codec unknown')
 *
 * @category utils
 * @since 0.3.0
 */
export const schemaOfCodec = (codec: t.Mixed): JsonSchema => {
  const c = codec as unknown as Tagged
  switch (c._tag) {
    case 'StringType':
    case 'NumberType':
    case 'BooleanType':
    case 'NullType':
      return primitives[c._tag] as JsonSchema
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(c.keys) }
    case 'LiteralType':
      return { const: c.value }
    case 'UnionType':
      return { anyOf: c.types.map(schemaOfCodec) }
    case 'NullableType':
      return orNull(schemaOfCodec(c.type))
    case 'InterfaceType': {
      const keys = Object.keys(c.props)
      return {
        type: 'object',
        properties: Object.fromEntries(keys.map((k) => [k, schemaOfCodec(c.props[k] as t.Mixed)])),
        required: keys,
        additionalProperties: false
      }
    }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: schemaOfCodec(c.type) }
    case 'RefinementType':
      if (Object.hasOwn(refinedTypes, c.name)) return refinedTypes[c.name] as JsonSchema
  }
  throw new TypeError(`schemaOfCodec: no JSON Schema for the codec ${codec.name}`)
}

/**
 * `schema` that also admits null: the type widened where it names one, `anyOf` otherwise.
 *
 * @example
 * orNull({ type: 'string', enum: ['day'] }) //=> { type: ['string', 'null'], enum: ['day', null] }
 * orNull({ anyOf: [{ type: 'string' }] }) //=> { anyOf: [{ anyOf: [{ type: 'string' }] }, { type: 'null' }] }
 *
 * @category utils
 * @since 0.3.0
 */
export const orNull = (schema: JsonSchema): JsonSchema =>
  typeof schema['type'] === 'string'
    ? {
        ...schema,
        type: [schema['type'], 'null'],
        ...(Array.isArray(schema['enum']) ? { enum: [...(schema['enum'] as ReadonlyArray<unknown>), null] } : {})
      }
    : { anyOf: [schema, { type: 'null' }] }

/**
 * The JSON Schema of a record's field of an index endpoint, as the records hold it.
 *
 * @example
 * schemaOfField({ type: 'instant' }) //=> { type: 'string', format: 'date-time' }
 * schemaOfField({ type: 'enum', values: ['authorized', 'pending'] }) //=> { type: 'string', enum: ['authorized', 'pending'] }
 * schemaOfField({ type: 'id', nullable: true }) //=> { type: ['string', 'null'] }
 * schemaOfField({ type: 'json' }) //=> {}
 *
 * @category utils
 * @since 0.3.0
 */
export const schemaOfField = (field: FieldType): JsonSchema =>
  field.nullable === true && field.type !== 'json' ? orNull(schemaOfValue(field)) : schemaOfValue(field)

const schemaOfValue = (field: FieldType): JsonSchema => {
  switch (field.type) {
    case 'integer':
      return { type: 'integer' }
    case 'instant':
      return { type: 'string', format: 'date-time' }
    case 'enum':
      return { type: 'string', enum: [...field.values] }
    case 'id':
    case 'string':
      return { type: 'string' }
    case 'json':
      return {}
  }
}

/**
 * The JSON Schema of a record of an index endpoint: every field of its description, no other.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * schemaOfRecord(endpoints.companies).required //=> ['id', 'name', 'created_at', 'updated_at']
 *
 * @category utils
 * @since 0.3.0
 */
export const schemaOfRecord = (endpoint: Endpoint): JsonSchema => {
  const fields = Object.keys(endpoint.fields)
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f, schemaOfField(endpoint.fields[f] as FieldType)])),
    required: fields,
    additionalProperties: false
  }
}
