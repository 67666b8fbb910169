/**
 * GET /v1/decisions: the company's decision records (R-121), an index endpoint of the library read
 * only with full rights, its page and count pushed down to SQL like the bank transactions'.
 *
 * @since 0.4.0
 */
import { endpoints } from '../../index'
import type { Handlers, RouteDeps } from './deps'
import { databasePage } from './page'

export const decisionHandlers = (deps: RouteDeps): Pick<Handlers, 'listDecisions'> => ({
  listDecisions: databasePage(deps, 'index.decisions', endpoints.decisions, { table: 'decisions' })
})
