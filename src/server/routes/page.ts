/**
 * An index endpoint answered by the database: the request planned by the library (auth, rights,
 * window, filters, sort; a refusal is a reply already), the page and its count read in one
 * snapshot with the query `budget-rules/sql` writes, and the reply made of the rows found, its
 * decision recorded.
 *
 * @since 0.4.0
 */
import type { Handler } from 'hono'
import type { DecisionEndpoint } from '../../decisions'
import { type Endpoint, headerOf, planIndex, respondIndexPage } from '../../index'
import { pageQuery } from '../../sql/page-query'
import { type Env, rawQuery } from '../reply'
import type { RouteDeps } from './deps'

/** Where the endpoint's records are: the table (scoped by `company_id`), and a cheaper count of an unfiltered page. */
export interface PageTable {
  readonly table: string
  /** A query of one row and one column, the company's count, with the company as `$1`; a count of the rows otherwise. */
  readonly unfilteredCount?: string
}

/** The handler of GET on `endpoint`, whose records are `table`'s rows of the caller's company. */
export const databasePage =
  ({ db, answer }: RouteDeps, name: DecisionEndpoint, endpoint: Endpoint, table: PageTable): Handler<Env> =>
  async (c) => {
    const headers = c.req.raw.headers
    const session = c.get('session')
    const context = { request: { headers, query: rawQuery(c.req.url) }, session, endpoint, request_id: c.get('requestId') }
    const plan = planIndex(context)
    if (plan._tag === 'Reply') return answer(c, name, context, plan.reply)
    // A Page plan means company-id named a company of the caller's.
    const companyId = headerOf(headers, 'company-id') as string
    const query = pageQuery(endpoint, plan.request, { table: table.table, scope: { company_id: companyId } })
    // One snapshot for the rows and their count, so they always agree.
    const { page, total } = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
      const rows = await tx.query(query.rows.text, query.rows.values)
      const count =
        plan.request.filters.length === 0 && table.unfilteredCount !== undefined
          ? await tx.query(table.unfilteredCount, [companyId])
          : await tx.query(query.count.text, query.count.values)
      // Either count query returns one row of one column.
      return { page: rows, total: Number(Object.values(count[0] as Record<string, unknown>)[0]) }
    })
    return answer(c, name, context, respondIndexPage({ ...context, page, total }))
  }
