/**
 * What the budget facades share: the context a server hands them, and the budget of the path
 * found in the caller's company and brought to `today` (contract section 4 rows 1-5, then the
 * roll of contract section 6).
 *
 * @since 0.1.0
 */
import { function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { authenticate, budgetInScope, Session } from '../auth/session'
import { advanceBudget } from '../budget/advance'
import { Budget } from '../budget/model'
import { CalendarDate } from '../calendar/date'
import { bind, chain, map, pass, type Trail } from '../decision/trail'
import { Request } from '../http/request'
import type { Reply } from '../reply/reply'
import { respondWith, settle } from './context'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * @category codecs
 * @since 0.1.0
 */
export const BudgetContext = /*#__PURE__*/ t.intersection(
  [
    t.type({
      request: Request,
      session: Session,
      budget: t.union([t.null, Budget]),
      today: CalendarDate,
      request_id: t.string
    }),
    t.partial({ company_member_ids: t.array(t.string) })
  ],
  'BudgetContext'
)

/**
 * What the server hands a budget facade, as plain JSON-shaped data.
 *
 * @category model
 * @since 0.1.0
 */
export type BudgetContext = t.OutputOf<typeof BudgetContext>

/**
 * A reply that carries, on a 200, the budget to persist.
 *
 * @category model
 * @since 0.1.0
 */
export interface BudgetReply extends Reply {
  readonly budget?: Budget
}

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
 * The budget of the path, in the caller's company, brought to `today` (rows 1-5 and the roll).
 *
 * @category rules
 * @since 0.1.0
 */
export const scopedBudget = (c: t.TypeOf<typeof BudgetContext>) =>
  fn.pipe(
    authenticate(c.request, c.session),
    map((scope) => ({ scope })),
    bind('budget', ({ scope }) =>
      chain((found: Budget): Trail<Budget> => {
        const advanced = advanceBudget(found, c.today)
        return pass('budget.advance', describeAdvance(found, advanced), advanced)
      })(budgetInScope(scope, c.budget))
    )
  )


/**
 * The reply of a budget decision: on a 200 the budget is both the body and the `budget` to
 * persist.
 *
 * @category utils
 * @since 0.1.0
 */
export const settleBudget = (requestId: string, trail: Trail<Budget>): BudgetReply =>
  settle(requestId, trail, (budget) => ({ body: budget, extra: { budget } }))

/**
 * A budget facade: the context decoded (500 when malformed), the budget found in scope and
 * advanced, then `decide`'s steps, settled into a reply. Never throws.
 *
 * @category combinators
 * @since 0.1.0
 */
export const budgetFacade =
  (
    decide: (
      c: t.TypeOf<typeof BudgetContext>,
      scoped: ReturnType<typeof scopedBudget>
    ) => Trail<Budget>
  ): ((context: BudgetContext) => BudgetReply) =>
    respondWith(BudgetContext, (c): BudgetReply => settleBudget(c.request_id, decide(c, scopedBudget(c))))
