/**
 * /v1/decisions: the company's decision records (R-121), an index endpoint of the library read
 * only with full rights, its page and count pushed down to SQL like the bank transactions'.
 *
 * @since 0.4.0
 */
import { Hono } from 'hono'
import { endpoints } from '../../index'
import type { Env } from '../reply'
import type { RouteDeps } from './deps'
import { databasePage } from './page'

export const decisionRoutes = (deps: RouteDeps): Hono<Env> => {
  const decisions = new Hono<Env>()
  decisions.get('/', databasePage(deps, 'index.decisions', endpoints.decisions, { table: 'decisions' }))
  return decisions
}
