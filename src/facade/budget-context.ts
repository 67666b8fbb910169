/**
 * What the budget facades share: the context a server hands them, and the budget of the path
 * found in the caller's company and brought to `today` (contract section 4 rows 1-5, then the
 * roll of contract section 6).
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as t from 'io-ts'
import { authenticateInto, budgetInScope, type Scope, Session } from '../auth/session'
import { advance } from '../budget/advance'
import type { Budget, BudgetJson } from '../budget/model'
import { type BudgetRow, checkRow, readRow } from '../budget/stored'
import { CalendarDate } from '../calendar/codec'
import { isCalendarDate } from '../calendar/date'
import { fail, recordInto, type Trail } from '../decision/trail'
import type { Problem } from '../decision/problem'
import type { Reason } from '../decision/rules'
import { Request } from '../http/request'
import { isStrings, missing, withGuard } from '../json/guard'
import { isJsonObject } from '../json/value'
import * as problem from '../decision/problem'
import type { Reply, ReplyOf } from '../reply/reply'
import { checkOnly, respondWith, settle, StoredObject } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

const budgetContextCodec = /*#__PURE__*/ t.intersection(
  [
    t.type({
      request: Request,
      session: Session,
      budget: t.union([t.null, StoredObject]),
      today: CalendarDate,
      request_id: t.string
    }),
    t.partial({ company_member_ids: t.array(t.string) })
  ],
  'BudgetContext'
)

/**
 * The check of what a server hands a budget facade; the budget itself is only required to be
 * an object or null here, and is read and checked once it is known to be in scope.
 *
 * @example
 * BudgetContext.is({ request: { headers }, session, budget: null, today: '2026-11-22', request_id: 'req-1' }) //=> true
 * BudgetContext.is({ request: { headers }, session, budget: null, today: '2026-02-30', request_id: 'req-1' }) //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const BudgetContext = /*#__PURE__*/ withGuard(
  budgetContextCodec,
  // Written out for speed: the guard of `budgetContextCodec`, read for read (test/json/guards.test.ts).
  (u): u is t.TypeOf<typeof budgetContextCodec> => {
    if (!isJsonObject(u)) return false
    const { request } = u
    if (missing(u, 'request', request) || !Request.is(request)) return false
    const { session } = u
    if (missing(u, 'session', session) || !Session.is(session)) return false
    const { budget } = u
    if (missing(u, 'budget', budget) || !(budget === null || StoredObject.is(budget))) return false
    const { today } = u
    if (missing(u, 'today', today) || !isCalendarDate(today)) return false
    const { request_id } = u
    if (missing(u, 'request_id', request_id) || typeof request_id !== 'string') return false
    const { company_member_ids } = u
    return company_member_ids === undefined || isStrings(company_member_ids)
  }
)

/**
 * What the server hands a budget facade. `budget` may be a plain object, a class instance or
 * an ORM row: its fields are read by property access.
 *
 * @example
 * import { respondTopUp } from 'budget-rules'
 *
 * // what the server passes in is checked: a malformed `today` is a 500, never a throw
 * respondTopUp({ request: { headers, body: '{"amount_cents":5000}' }, session, budget, today: '22/11/2026', request_id: 'req-1' })
 * //=> { status: 500, headers: { 'X-Request-Id': 'req-1', 'Content-Type': 'application/json; charset=utf-8' },
 * //     body: { error: 'internal_error', message: 'Internal server error: today is "22/11/2026", not a date (YYYY-MM-DD)' },
 * //     reasons: [{ rule: 'server.input', detail: 'malformed server input at today' }] }
 *
 * @category model
 * @since 0.1.0
 */
export interface BudgetContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly budget: Readonly<BudgetJson> | null
  readonly today: string
  readonly request_id: string
  readonly company_member_ids?: ReadonlyArray<string>
}

/**
 * A reply that carries, on a 200, the budget to persist.
 *
 * @example
 * import { respondWithdraw } from 'budget-rules'
 *
 * respondWithdraw({ request: { headers, body: '{"amount_cents":500}' }, session, budget, today: '2026-11-22', request_id: 'req-1' }).budget
 * //=> { ...budget, balance_cents: 19500 }
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetReply = Reply<ReplyOf<200, Budget> & { readonly budget: Budget }>

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const describeAdvance = (before: Budget, after: Budget): string => {
  if (before === after) return 'nothing to roll forward'
  const parts: Array<string> = []
  if (after.period_starts_on !== before.period_starts_on)
    parts.push(`period in progress ${after.period_starts_on}..${after.period_ends_on ?? 'open-ended'}`)
  else if (after.period_ends_on !== before.period_ends_on) parts.push('renewals over: the period is open-ended')
  if (after.status !== before.status) parts.push(`status ${before.status} -> ${after.status}`)
  return parts.join('; ')
}

/**
 * The caller's scope and the budget of the path, in the caller's company, checked and brought
 * to `today` (rows 1-5, R-17, then the roll), its reasons appended to `reasons`. The budget's
 * fields are read once, before anything else, so that a getter is never run twice; a
 * `company_id` that cannot be read is a 500, as no scope can be decided. Nothing stored is
 * repaired: a malformed budget is a 500 too.
 */
const scopeInto = (
  c: t.TypeOf<typeof BudgetContext>,
  reasons: Array<Reason>
): E.Either<Problem, { readonly scope: Scope; readonly budget: Budget }> => {
  const row = c.budget === null ? null : readRow(c.budget)
  const scope = authenticateInto(reasons, c.request, c.session)
  if (E.isLeft(scope)) return scope
  if (row !== null && row.unreadable.includes('company_id'))
    return recordInto(
      reasons,
      fail(
        problem.serverMistake(
          'budget.stored',
          'malformed stored budget: company_id could not be read',
          'budget.company_id could not be read'
        )
      )
    )
  const inScope = recordInto(reasons, budgetInScope(scope.right, row === null ? null : row.values))
  if (E.isLeft(inScope)) return inScope
  const checked = checkRow(row as BudgetRow)
  if (E.isLeft(checked))
    return recordInto(
      reasons,
      fail(
        problem.serverMistake(
          'budget.stored',
          `malformed stored budget: ${checked.left.join('; ')}`,
          checked.left.map((found) => `budget.${found}`).join('; ')
        )
      )
    )
  reasons.push({ rule: 'budget.stored', detail: 'the stored budget is consistent' })
  const advanced = advance(checked.right, c.today)
  reasons.push({ rule: 'budget.advance', detail: describeAdvance(checked.right, advanced) })
  return E.right({ scope: scope.right, budget: advanced })
}

/**
 * The budget of the path, in the caller's company, checked and brought to `today` (rows 1-5,
 * R-17, then the roll). Its fields are read once, before anything else, so that a getter is
 * never run twice; a `company_id` that cannot be read is a 500, as no scope can be decided.
 *
 * @category rules
 * @since 0.1.0
 */
export const scopedBudget = (c: t.TypeOf<typeof BudgetContext>): Trail<{ readonly scope: Scope; readonly budget: Budget }> => {
  const reasons: Array<Reason> = []
  return { result: scopeInto(c, reasons), reasons }
}

/**
 * The reply of a budget decision: on a 200 the budget is the body and, as an object of its
 * own, the `budget` to persist.
 *
 * @category utils
 * @since 0.1.0
 */
export const settleBudget = (requestId: string, trail: Trail<Budget>): BudgetReply =>
  settle(requestId, trail, (budget) => ({ body: { ...budget }, extra: { budget } }))

const checkedContext = /*#__PURE__*/ checkOnly(BudgetContext)

/**
 * A budget facade: the context decoded (500 when malformed), the budget found in scope and
 * advanced, then `decide`'s steps, their reasons appended to the same list, settled into a
 * reply. Never throws.
 *
 * @category combinators
 * @since 0.1.0
 */
export const budgetFacade = (
  decide: (
    c: t.TypeOf<typeof BudgetContext>,
    scoped: { readonly scope: Scope; readonly budget: Budget },
    reasons: Array<Reason>
  ) => E.Either<Problem, Budget>
): ((context: BudgetContext) => BudgetReply) =>
  respondWith(checkedContext, (c): BudgetReply => {
    const reasons: Array<Reason> = []
    const scoped = scopeInto(c, reasons)
    const result = E.isLeft(scoped) ? scoped : decide(c, scoped.right, reasons)
    return settleBudget(c.request_id, { reasons, result })
  })
