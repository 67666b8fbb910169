/**
 * The status of a budget over its life (spec section 3, R-15): open until its closing date,
 * closing from that day (`advanceBudget` moves it), open again when an update gives a closing
 * budget a new `ends_on` (a later date, or null), closed when the service closes it (never the
 * library: see docs/lifecycle.md).
 *
 * @example
 * import { reopen } from 'budget-rules/rules'
 *
 * reopen({ ...budget, status: 'closing', ends_on: '2027-01-31' }, '2027-01-31').budget.status //=> 'open'
 *
 * @since 0.1.0
 */
import type { CalendarDate } from '../calendar/date'
import type { Reason } from '../decision/rules'
import type { Budget } from './model'

/**
 * The budget after an update set `ends_on`: a closing budget whose `ends_on` was sent
 * (`ends_on` is `undefined` when it was not) is open again, with the reason that says so.
 *
 * @example
 * import { reopen } from 'budget-rules/rules'
 *
 * reopen({ ...budget, status: 'closing' }, undefined).reason //=> null
 * reopen({ ...budget, status: 'closing' }, null).reason
 * //=> { rule: 'budget.reopen', detail: 'ends_on now null; the budget is open again' }
 *
 * @category rules
 * @since 0.1.0
 */
export const reopen = (
  b: Budget,
  ends_on: CalendarDate | null | undefined
): { readonly budget: Budget; readonly reason: Reason | null } =>
  ends_on !== undefined && b.status === 'closing'
    ? {
        budget: { ...b, status: 'open' },
        reason: { rule: 'budget.reopen', detail: `ends_on now ${ends_on ?? 'null'}; the budget is open again` }
      }
    : { budget: b, reason: null }
