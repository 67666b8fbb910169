/**
 * The page window of an index request, `[_start, _end)`, its order and sort field (contract
 * section 8, spec section 4): `_start` and `_end` base-10 integers with `0 <= _start <= _end`
 * (400 otherwise), at most 2000 records (416 past that, after every 400).
 *
 * @example
 * import { either } from 'fp-ts'
 *
 * checkWindowSize({ start: 0, end: 2000 }) //=> either.right({ start: 0, end: 2000 })
 *
 * @since 0.1.0
 */
import { either as E, function as fn } from 'fp-ts'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import { type Endpoint, spellOrder } from './endpoint'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Records `[start, end)` of the sorted collection.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * // _start=50 and no _end: 25 records
 * decodeWindow(endpoints.bankTransactions, new Map([['_start', '50']]))
 * //=> right({ window: { start: 50, end: 75 }, sort: { field: 'created_at', order: 'asc' } })
 *
 * @category model
 * @since 0.1.0
 */
export interface PageWindow {
  readonly start: number
  readonly end: number
}

/**
 * Oldest or smallest first (`asc`), or last (`desc`); an endpoint spells it in its own case.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeWindow(endpoints.bankTransactions, new Map([['_order', 'DESC']]))
 * //=> left({ _tag: 'BadRequest', rule: 'page.window', message: '_order must be asc or desc', detail: '_order must be asc or desc' })
 *
 * @category model
 * @since 0.1.0
 */
export type Order = 'asc' | 'desc'

/**
 * The field records are sorted by, and the order.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeWindow(endpoints.bankTransactions, new Map([['_field', 'status']]))
 * //=> left({ _tag: 'BadRequest', rule: 'page.window', message: '_field must be one of created_at, updated_at, amount', detail: '_field must be one of created_at, updated_at, amount' })
 *
 * @category model
 * @since 0.1.0
 */
export interface Sort {
  readonly field: string
  readonly order: Order
}

/**
 * The records a query without `_end` gets.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeWindow(endpoints.bankTransactions, new Map()) //=> right({ window: { start: 0, end: DEFAULT_WINDOW_SIZE }, sort: { field: 'created_at', order: 'asc' } })
 *
 * @category constants
 * @since 0.1.0
 */
export const DEFAULT_WINDOW_SIZE = 25

/**
 * The widest window a query may ask for; a wider one is a 416.
 *
 * @example
 * checkWindowSize({ start: 0, end: MAX_WINDOW_SIZE + 1 })
 * //=> left({ _tag: 'RangeNotSatisfiable', rule: 'page.size', detail: 'a window of 2001 records, over the maximum of 2000', size: 2001, maximum: 2000 })
 *
 * @category constants
 * @since 0.1.0
 */
export const MAX_WINDOW_SIZE = 2000

/**
 * The window size the spec recommends clients ask for.
 *
 * @example
 * import { nextWindow } from 'budget-rules'
 *
 * nextWindow({ start: 0, end: RECOMMENDED_WINDOW_SIZE }, RECOMMENDED_WINDOW_SIZE) //=> { start: 100, end: 200 }
 *
 * @category constants
 * @since 0.1.0
 */
export const RECOMMENDED_WINDOW_SIZE = 100

/**
 * The query parameters of the window and sort.
 *
 * @example
 * pageParameters //=> ['_start', '_end', '_order', '_field']
 *
 * @category constants
 * @since 0.1.0
 */
export const pageParameters = ['_start', '_end', '_order', '_field'] as const

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const INTEGER = /^\d+$/

const integerParameter = (name: string, text: string | undefined, fallback: number): E.Either<Problem, number> => {
  if (text === undefined) return E.right(fallback)
  const n = INTEGER.test(text) ? Number(text) : Number.NaN
  return Number.isSafeInteger(n)
    ? E.right(n)
    : E.left(problem.badRequest('page.window', `${name} must be a base-10 integer from 0 to ${Number.MAX_SAFE_INTEGER}`))
}

/**
 * The window and sort a query asks for, with the defaults `_start=0`, `_end=_start+25`,
 * ascending, the endpoint's default field; a 400 for anything malformed. The size limit (416)
 * is checked apart, after every 400.
 *
 * @example
 * import { endpoints } from 'budget-rules'
 *
 * decodeWindow(endpoints.bankTransactions, new Map([['_start', '10'], ['_end', '5']]))
 * //=> left({ _tag: 'BadRequest', rule: 'page.window', message: '_start must not be greater than _end', detail: '_start must not be greater than _end' })
 *
 * @category rules
 * @since 0.1.0
 */
export const decodeWindow = (
  endpoint: Endpoint,
  parameters: ReadonlyMap<string, string>
): E.Either<Problem, { readonly window: PageWindow; readonly sort: Sort }> =>
  fn.pipe(
    E.Do,
    E.bind('start', () => integerParameter('_start', parameters.get('_start'), 0)),
    E.bind('end', ({ start }) => integerParameter('_end', parameters.get('_end'), start + DEFAULT_WINDOW_SIZE)),
    E.filterOrElse(
      ({ start, end }: { readonly start: number; readonly end: number }) => start <= end,
      (): Problem => problem.badRequest('page.window', '_start must not be greater than _end')
    ),
    E.bind('order', () => {
      const text = parameters.get('_order')
      if (text === undefined) return E.right<Problem, Order>('asc')
      const order = (['asc', 'desc'] as const).find((o) => spellOrder(endpoint, o) === text)
      return order === undefined
        ? E.left(
            problem.badRequest('page.window', `_order must be ${spellOrder(endpoint, 'asc')} or ${spellOrder(endpoint, 'desc')}`)
          )
        : E.right(order)
    }),
    E.bind('field', () => {
      const field = parameters.get('_field') ?? endpoint.defaultField
      return endpoint.sortable.includes(field)
        ? E.right(field)
        : E.left(problem.badRequest('page.window', `_field must be one of ${endpoint.sortable.join(', ')}`))
    }),
    E.map(({ start, end, order, field }) => ({ window: { start, end }, sort: { field, order } }))
  )

/**
 * The 416 of a window wider than 2000 records (exactly 2000 is allowed).
 *
 * @example
 * checkWindowSize({ start: 0, end: 2000 }) //=> right({ start: 0, end: 2000 })
 *
 * @category rules
 * @since 0.1.0
 */
export const checkWindowSize = (window: PageWindow): E.Either<Problem, PageWindow> => {
  const size = window.end - window.start
  return size > MAX_WINDOW_SIZE ? E.left(problem.rangeNotSatisfiable('page.size', size, MAX_WINDOW_SIZE)) : E.right(window)
}
