/**
 * The body of each kind of problem as JSON Schema: the same three shapes of spec section 7 that
 * `reply/reply.ts` writes (`{error, message}`, `{errors: {field: [...]}}`, `{message}`), or no
 * body at all. Keyed by kind, so a kind added to {@link Problem} does not compile until its body
 * is described here; test/openapi/replies.test.ts validates every body `statusAndBody` writes
 * against its kind's schema.
 *
 * @example
 * problemBodies.GuardRejected //=> { type: 'object', properties: { message: { const: 'Unauthorized (401)' } }, required: ['message'], additionalProperties: false }
 *
 * @since 0.3.0
 */
import type { Problem } from '../decision/problem'
import { messages } from '../reply/reply'
import type { JsonSchema } from './schema'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A closed object whose every property is required. */
const object = (properties: Readonly<Record<string, JsonSchema>>): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false
})

const text: JsonSchema = { type: 'string' }

/**
 * The transport-level shape, `{error: <code>, message}` (spec section 7), with its code fixed.
 *
 * @example
 * errorBody('conflict') //=> { type: 'object', properties: { error: { const: 'conflict' }, message: { type: 'string' } },
 * //                         required: ['error', 'message'], additionalProperties: false }
 *
 * @category utils
 * @since 0.3.0
 */
export const errorBody = (code: string): JsonSchema => object({ error: { const: code }, message: text })

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The body of each kind of problem; `null` where the reply has an empty body.
 *
 * @example
 * problemBodies.Unauthenticated //=> null
 * problemBodies.Invalid
 * //=> { type: 'object', properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
 * //     required: ['errors'], additionalProperties: false }
 *
 * @category constants
 * @since 0.3.0
 */
export const problemBodies: { readonly [K in Problem['_tag']]: JsonSchema | null } = {
  Unauthenticated: null,
  EmailNotVerified: errorBody('email_not_verified'),
  GuardRejected: object({ message: { const: messages.guardRejected } }),
  NotFound: errorBody('not_found'),
  BadRequest: errorBody('bad_request'),
  PreconditionFailed: object({ message: text }),
  Forbidden: object({ error_code: text, message: text }),
  Denied: null,
  Conflict: errorBody('conflict'),
  Invalid: object({ errors: { type: 'object', additionalProperties: { type: 'array', items: text } } }),
  RangeNotSatisfiable: object({ message: { type: 'string', pattern: '^Requested page size \\d+ exceeds maximum of \\d+$' } }),
  RateLimited: object({
    error: { const: 'rate_limit_exceeded' },
    message: text,
    retry_after: { type: 'integer', minimum: 0 }
  }),
  InternalError: errorBody('internal_error'),
  Upstream: errorBody('upstream_unavailable')
}
