/**
 * budget-rules/sql: an index request answered by a PostgreSQL database. `planIndex` (package
 * root) decides authentication and the query; `pageQuery` writes the page request as two
 * parameterized queries, the rows of the window and the count of every match; run them with any
 * driver (`pg`, PGlite) and hand the rows and the count to `respondIndexPage`. Pure: text and
 * parameters out, no driver in (ADR 0102).
 *
 * @example
 * import { endpoints, planIndex } from 'budget-rules'
 * import { pageQuery } from 'budget-rules/sql'
 *
 * const plan = planIndex({ request: { headers, query: '_start=0&_end=2&_field=amount&amount[$in]=[800,1200]' }, session,
 *   endpoint: endpoints.bankTransactions, request_id: 'req-1' })
 * const query = plan._tag === 'Page' ? pageQuery(endpoints.bankTransactions, plan.request, { table: 'bank_transactions', scope: { company_id: 'c-1' } }) : null
 * query?.count //=> { text: 'SELECT count(*)::float8 AS "total" FROM "bank_transactions" WHERE "company_id" = $1 AND "amount" = ANY($2::bigint[])',
 * //                   values: ['c-1', [800, 1200]] }
 * query?.rows.values //=> ['c-1', [800, 1200], 2, 0]
 *
 * @since 0.2.0
 */
export { pageQuery, type PageQuery, type SqlQuery, type TableSpec } from './sql/page-query'
