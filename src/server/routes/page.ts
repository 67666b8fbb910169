/**
 * An index endpoint answered by the database: the request planned by the library (auth, rights,
 * window, filters, sort; a refusal is a reply already), the page and its count read in one
 * statement with the query `budget-rules/sql` writes, and the reply made of the rows found, its
 * decision recorded.
 *
 * @since 0.4.0
 */
import type { Handler } from 'hono'
import type { DecisionEndpoint } from '../../decisions'
import { type Endpoint, headerOf, planIndex, respondIndexPage } from '../../index'
import { pageQuery } from '../../sql/page-query'
import type { Row } from '../../store/database'
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
    const count =
      plan.request.filters.length === 0 && table.unfilteredCount !== undefined ? table.unfilteredCount : query.count.text
    // One statement, so one snapshot: the rows and their count always agree, with no transaction
    // to open, set and commit (ADR 0122). The rows come as one JSON array aggregated from the page
    // query's sorted rows, which an aggregate over a sorted subquery, with nothing joined, takes in
    // that order; the count's values are the first of the rows' (pageQuery), so one list serves both.
    const [found] = await db.query<{ total: number; page: ReadonlyArray<Row> }>(
      `SELECT (${count}) AS total, coalesce((SELECT json_agg(p) FROM (${query.rows.text}) AS p), '[]'::json) AS page`,
      query.rows.values
    )
    const { total, page } = found as { total: number; page: ReadonlyArray<Row> }
    return answer(c, name, context, respondIndexPage({ ...context, page, total }))
  }
