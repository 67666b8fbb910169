/**
 * The first half of every request a company's member makes: contract section 4, rows 1 to 4,
 * decided before the server reads or locks anything for it (R-112: no budget, transaction,
 * recipient or company row read for a caller who is not a member of the company named). A
 * refusal is the very reply the endpoint's facade gives to the same request and session, since
 * every facade decides these rows first.
 *
 * Law: for any request and session, when `planScope` replies, the facade of any endpoint that
 * takes company-id replies the same (status, headers, body, reasons), whatever the server looked
 * up.
 *
 * @example
 * planScope({ request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-2' } }, session, request_id: 'req-1' })._tag //=> 'Reply'
 * planScope({ request: { headers }, session, request_id: 'req-1' }) //=> { _tag: 'Member', company_id: 'c-1' }
 *
 * @since 0.4.0
 */
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, Session } from '../auth/session'
import { Request } from '../http/request'
import { problemReply, type ProblemReply } from '../reply/reply'
import { checkOnly, guarded } from './context'

const ScopeContext = /*#__PURE__*/ t.type({ request: Request, session: Session, request_id: t.string })

/**
 * What a server hands {@link planScope}: the request as received, the session of its key, the
 * request's id.
 *
 * @example
 * const context: ScopeContext = { request: { headers }, session, request_id: 'req-1' }
 * context.request_id //=> 'req-1'
 *
 * @category model
 * @since 0.4.0
 */
export interface ScopeContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly request_id: string
}

/**
 * What {@link planScope} decides: the reply already (401, 404, or a 500 for malformed input), or
 * the company the caller is a member of, whose rows the server may now read.
 *
 * @example
 * const plan: ScopePlan = { _tag: 'Member', company_id: 'c-1' }
 * plan._tag //=> 'Member'
 *
 * @category model
 * @since 0.4.0
 */
export type ScopePlan =
  { readonly _tag: 'Reply'; readonly reply: ProblemReply } | { readonly _tag: 'Member'; readonly company_id: string }

/**
 * Rows 1 to 4 of contract section 4 for a request: the reply of a caller who is not an
 * authenticated member of the company company-id names, or that company. Never throws.
 *
 * @example
 * const plan = planScope({ request: { headers: { 'company-id': 'c-1' } }, session, request_id: 'req-1' })
 * plan._tag === 'Reply' && [plan.reply.status, plan.reply.body] //=> [401, null]
 *
 * @category facades
 * @since 0.4.0
 */
export const planScope: (context: ScopeContext) => ScopePlan = /*#__PURE__*/ guarded(
  /*#__PURE__*/ checkOnly(ScopeContext),
  (c): ScopePlan => {
    const trail = authenticate(c.request, c.session)
    return E.isRight(trail.result)
      ? { _tag: 'Member', company_id: trail.result.right.company_id }
      : { _tag: 'Reply', reply: problemReply(c.request_id, trail.reasons)(trail.result.left) }
  },
  (reply): ScopePlan => ({ _tag: 'Reply', reply })
)
