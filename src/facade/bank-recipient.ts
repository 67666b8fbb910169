/**
 * POST /v1/banking/bank_recipients (contract R-72) as one pure function. The server passes the
 * request as received, the session it resolved from the key, the ids of the banks it knows, the
 * recipients already enrolled in the company, and its request id; it gets back the exact reply,
 * and on a 201 the normalised recipient to persist.
 *
 * The body is `{"bank_recipient": {rut, account_number, bank_id, name}}`; validation is
 * `validateBankRecipient`'s (ADR 0052): a 422 naming every invalid field, then a 409 when the
 * recipient is already enrolled.
 *
 * Rules consulted, in order (contract section 4, then R-72; ADR 0072): `auth.bearer`,
 * `auth.email_verified`, `auth.company_header`, `auth.membership`, `recipient.permission` (401),
 * `recipient.body` (400), `recipient.validation` (422), `recipient.conflict` (409, or the 201).
 *
 * @example
 * import { respondBankRecipient } from 'budget-rules'
 *
 * const { reasons, ...reply } = respondBankRecipient({
 *   request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' },
 *     body: '{"bank_recipient":{"rut":"12.345.678-5","account_number":"0012-3456","bank_id":"bank-1","name":" Ana "}}' },
 *   session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
 *   bank_ids: ['bank-1'], enrolled: [], request_id: 'req-1'
 * })
 * reply
 * //=> { status: 201, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1', name: 'Ana' },
 * //     recipient: { rut: '12345678-5', account_number: '00123456', bank_id: 'bank-1', name: 'Ana' } }
 * reasons.map((r) => r.rule)
 * //=> ['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'recipient.permission',
 * //    'recipient.body', 'recipient.validation', 'recipient.conflict']
 *
 * @since 0.1.0
 */
import { either as E, function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, type Caller, Session } from '../auth/session'
import { type BankRecipient, type RecipientContext, validateBankRecipient } from '../banking/recipient'
import { chain, check, fail, pass, type Trail } from '../decision/trail'
import { jsonObjectBody } from '../http/body'
import { Request } from '../http/request'
import { hasOwn, isJsonObject } from '../json/value'
import * as problem from '../decision/problem'
import type { Reply, ReplyOf } from '../reply/reply'
import { respondWith, settle } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

type Enrolled = RecipientContext['enrolled'][number]

const enrolledFields = ['rut', 'bank_id', 'account_number'] as const

/**
 * A recipient already enrolled, read by property access (R-18: a class instance or an ORM row
 * reads like a plain object), each field once, into a fresh plain object; each field a string.
 */
const validateEnrolled = (u: unknown, c: t.Context): t.Validation<Enrolled> => {
  if ((typeof u !== 'object' && typeof u !== 'function') || u === null)
    return t.failure(u, c, 'an enrolled recipient must be an object')
  const read: Partial<Record<(typeof enrolledFields)[number], string>> = {}
  for (const field of enrolledFields) {
    let value: unknown
    try {
      value = (u as Readonly<Record<string, unknown>>)[field]
    } catch {
      return t.failure(u, t.appendContext(c, field, t.string, undefined), `${field} could not be read`)
    }
    if (typeof value !== 'string')
      return t.failure(value, t.appendContext(c, field, t.string, value), `${field} must be a string`)
    read[field] = value
  }
  return t.success(read as Enrolled)
}

const EnrolledRecipient = /*#__PURE__*/ new t.Type<Enrolled, Enrolled, unknown>(
  'EnrolledRecipient',
  (u): u is Enrolled => E.isRight(validateEnrolled(u, [])),
  validateEnrolled,
  t.identity
)

/**
 * The check of what a server hands `respondBankRecipient`.
 *
 * @example
 * // an enrolled recipient's fields are strings
 * BankRecipientContext.is({ request: { headers }, session, bank_ids: ['bank-1'],
 *   enrolled: [{ rut: '12345678-5', bank_id: 'bank-1', account_number: 7 }], request_id: 'req-1' })
 * //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const BankRecipientContext = /*#__PURE__*/ t.type(
  {
    request: Request,
    session: Session,
    bank_ids: t.array(t.string),
    enrolled: t.array(EnrolledRecipient),
    request_id: t.string
  },
  'BankRecipientContext'
)

/**
 * What the server hands `respondBankRecipient`: the banks it knows, and the recipients already
 * enrolled in the company (in any spelling; they are normalised before comparing).
 *
 * @example
 * respondBankRecipient({ request: { headers, body: '{"bank_recipient":{"rut":"12345678-5","account_number":"00123456","bank_id":"bank-1","name":"Ana"}}' },
 *   session, bank_ids: ['bank-1'], enrolled: [{ rut: '12.345.678-5', bank_id: 'bank-1', account_number: '0012-3456' }], request_id: 'req-1' }).body
 * //=> { error: 'conflict', message: 'The recipient is already enrolled' }
 *
 * @category model
 * @since 0.1.0
 */
export interface BankRecipientContext extends RecipientContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly request_id: string
}

/**
 * A reply that carries, on a 201, the normalised recipient to persist.
 *
 * @example
 * respondBankRecipient({ request: { headers, body: '{"rut":"12.345.678-5"}' }, session, bank_ids: ['bank-1'], enrolled: [], request_id: 'req-1' }).body
 * //=> { error: 'bad_request', message: 'bank_recipient is required' }
 *
 * @category model
 * @since 0.1.0
 */
export type BankRecipientReply = Reply<ReplyOf<201, BankRecipient> & { readonly recipient: BankRecipient }>

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Only an owner or admin enrolls a recipient; anyone else meets the action-level guard's 401. */
const mayEnroll = (caller: Caller): Trail<Caller> =>
  caller.role === 'owner' || caller.role === 'admin'
    ? pass('recipient.permission', `role ${caller.role}`, caller)
    : fail(
        problem.guardRejected(
          'recipient.permission',
          `user ${caller.user_id} (role ${caller.role}) may not enroll bank recipients`
        )
      )

/** The fields whose text the recipient's rules judge, naming them in a 422; a lone surrogate elsewhere is the body's 400. */
const RECIPIENT_FIELDS = ['rut', 'account_number', 'bank_id', 'name'].map((field) => `bank_recipient.${field}`)

/** The `bank_recipient` object of the body: 400 when the body is not a JSON object or it is missing or not an object. */
const sentRecipient = (body: string | undefined): Trail<Readonly<Record<string, unknown>>> => {
  const json = jsonObjectBody('recipient.body', body, RECIPIENT_FIELDS)
  if (E.isLeft(json)) return fail(json.left)
  if (!hasOwn(json.right, 'bank_recipient')) return fail(problem.badRequest('recipient.body', 'bank_recipient is required'))
  const recipient = json.right.bank_recipient
  return isJsonObject(recipient)
    ? pass('recipient.body', `bank_recipient holds ${Object.keys(recipient).length} keys`, recipient)
    : fail(problem.badRequest('recipient.body', 'bank_recipient must be an object'))
}

/** Every field valid (else the 422), then not enrolled yet (else the 409). */
const enroll = (sent: Readonly<Record<string, unknown>>, context: RecipientContext): Trail<BankRecipient> => {
  const validated = validateBankRecipient(sent, context)
  return fn.pipe(
    E.isLeft(validated) && validated.left._tag === 'Invalid'
      ? fail(validated.left)
      : pass('recipient.validation', 'rut, account_number, bank_id and name are valid', null),
    chain(() => check('recipient.conflict', (r) => `not enrolled yet at bank ${r.bank_id}`, validated))
  )
}

// -------------------------------------------------------------------------------------
// facade
// -------------------------------------------------------------------------------------

/**
 * The reply to POST /v1/banking/bank_recipients. Never throws.
 *
 * @example
 * respondBankRecipient({ request: { headers, body: '{"bank_recipient":{"rut":"12.345.678-4","account_number":"0012-3456","bank_id":"bank-2","name":"Ana"}}' },
 *   session, bank_ids: ['bank-1'], enrolled: [], request_id: 'req-1' }).body
 * //=> { errors: { rut: ['has a wrong check digit'], bank_id: ['is not a known bank'] } }
 *
 * @category facades
 * @since 0.1.0
 */
export const respondBankRecipient: (context: BankRecipientContext) => BankRecipientReply = /*#__PURE__*/ respondWith(
  BankRecipientContext,
  (c): BankRecipientReply => {
    const trail = fn.pipe(
      authenticate(c.request, c.session),
      chain((scope) => mayEnroll(scope.caller)),
      chain(() => sentRecipient(c.request.body)),
      chain((sent) => enroll(sent, { bank_ids: c.bank_ids, enrolled: c.enrolled }))
    )
    return settle(c.request_id, trail, (recipient) => ({ status: 201 as const, body: { ...recipient }, extra: { recipient } }))
  }
)
