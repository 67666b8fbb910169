/**
 * GET /v1/budgets: the company's budgets as stored, each checked (R-17) and brought to `today`,
 * then paged, filtered and sorted as any index endpoint (`endpoints.budgets`, contract section
 * 8). A server hands over the rows it read, once `planIndex` has let the request through: a
 * stranger is refused before any budget is read (R-112), and a malformed budget is the server's
 * 500 naming it, decided here, not an exception of the server's.
 *
 * Rules consulted, in order: the authentication rules, `page.query`, `page.window`,
 * `page.filter`, `page.size`, `budget.stored`, `budget.advance`, `page.records`, `page.slice`,
 * `page.headers`.
 *
 * @example
 * const { reasons, ...reply } = respondBudgetIndex({ request: { headers, query: '_field=name' }, session, budgets: [budget], today: '2026-11-22', request_id: 'req-1' })
 * reply.status //=> 200
 * reply.headers['X-Total-Count'] //=> '1'
 * reasons.map((r) => r.rule).slice(-5) //=> ['budget.stored', 'budget.advance', 'page.records', 'page.slice', 'page.headers']
 *
 * @since 0.4.0
 */
import { either as E, function as fn } from 'fp-ts'
import * as t from 'io-ts'
import { Session } from '../auth/session'
import { advance } from '../budget/advance'
import type { Budget } from '../budget/model'
import { checkRow, readRow } from '../budget/stored'
import { CalendarDate } from '../calendar/codec'
import * as problem from '../decision/problem'
import { bind, check, map, pass, tap } from '../decision/trail'
import { Request } from '../http/request'
import { endpoints } from '../paging/endpoint'
import { selectPage } from '../paging/select'
import { checkOnly, respondWith, StoredObject } from './context'
import { decideRequest, type IndexReply, pageReply } from './index-endpoint'

const BudgetIndexContext = /*#__PURE__*/ t.type({
  request: Request,
  session: Session,
  budgets: /*#__PURE__*/ t.array(StoredObject),
  today: CalendarDate,
  request_id: t.string
})

/**
 * What a server hands {@link respondBudgetIndex}: the request as received, the session, the
 * company's budgets as stored (any objects, read field by field, R-18) and its `today`.
 *
 * @example
 * const context: BudgetIndexContext = { request: { headers }, session, budgets: [], today: '2026-11-22', request_id: 'req-1' }
 * context.budgets //=> []
 *
 * @category model
 * @since 0.4.0
 */
export interface BudgetIndexContext {
  readonly request: t.OutputOf<typeof Request>
  readonly session: t.OutputOf<typeof Session>
  readonly budgets: ReadonlyArray<object>
  readonly today: string
  readonly request_id: string
}

/** Each stored budget checked (R-17) and brought to today, or the 500 naming the first malformed one. */
const checkedBudgets = (
  budgets: ReadonlyArray<object>,
  today: CalendarDate
): E.Either<problem.Problem, ReadonlyArray<Budget>> => {
  const checked: Array<Budget> = []
  for (const [i, stored] of budgets.entries()) {
    const row = readRow(stored)
    const read = checkRow(row)
    if (E.isLeft(read)) {
      const id = row.values.id
      return E.left(
        problem.serverMistake(
          'budget.stored',
          `malformed stored budget ${typeof id === 'string' ? id : `at ${i}`}: ${read.left.join('; ')}`,
          read.left.map((found) => `budgets[${i}].${found}`).join('; ')
        )
      )
    }
    checked.push(advance(read.right, today))
  }
  return E.right(checked)
}

/**
 * The reply to GET /v1/budgets: the page of the company's budgets, each as of `today`. Never
 * throws.
 *
 * @example
 * respondBudgetIndex({ request: { headers, query: '' }, session, budgets: [{ ...budget, balance_cents: -1 }], today: '2026-11-22', request_id: 'req-1' }).status
 * //=> 500
 *
 * @category facades
 * @since 0.4.0
 */
export const respondBudgetIndex: (context: BudgetIndexContext) => IndexReply = /*#__PURE__*/ respondWith(
  /*#__PURE__*/ checkOnly(BudgetIndexContext),
  (c): IndexReply => {
    const endpoint = endpoints.budgets
    return pageReply(
      { ...c, endpoint },
      fn.pipe(
        decideRequest({ ...c, endpoint }),
        map((request) => ({ request })),
        bind('budgets', () =>
          check('budget.stored', (b) => `${b.length} stored budgets are consistent`, checkedBudgets(c.budgets, c.today))
        ),
        tap(() => pass('budget.advance', `each budget as of ${c.today}`, null)),
        bind('selected', ({ request, budgets }) =>
          check(
            'page.records',
            ({ total }) => `${budgets.length} budgets, ${total} match`,
            selectPage(endpoint, budgets, request.filters, request.sort, request.window)
          )
        )
      )
    )
  }
)
