/**
 * budget-rules/react-admin (R-101): a react-admin data provider over the service, built on the
 * client entry (`buildQuery`, `parseErrorResponse`, the endpoint descriptions). Paging, sorting
 * and filtering as the service spells them, PATCH bodies under their wrapper with only the
 * fields changed, and refusals as ra-core's `HttpError` with the service's message (a 422's
 * field messages where a form shows them). ra-core is an optional peer dependency; react-admin
 * itself is not imported.
 *
 * @example
 * import { reactAdminDataProvider } from 'budget-rules/react-admin'
 *
 * const dataProvider = reactAdminDataProvider({ url: 'http://127.0.0.1:3000', token: 'demo-manager', companyId: 'c-acme' })
 * // <Admin dataProvider={dataProvider}> ... </Admin>
 * typeof dataProvider.getManyReference //=> 'function'
 *
 * @since 0.3.0
 */
export {
  reactAdminDataProvider,
  type ReactAdminOptions,
  type BudgetRulesDataProvider,
  type ActionParams,
  type FetchLike,
  type FetchReply
} from './react-admin/provider'
