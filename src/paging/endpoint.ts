/**
 * What an index endpoint is: the fields of its records and their types (what filters accept),
 * the fields it sorts by, the case of its `_order`, whether it needs company-id, and the shape
 * of its body. Describing an endpoint is all a server does to get paging, filters, sorting and
 * headers that follow the service's conventions.
 *
 * @example
 * const payables = defineEndpoint({
 *   path: '/v1/payables',
 *   fields: { id: { type: 'id' }, amount: { type: 'integer' }, created_at: { type: 'instant' }, updated_at: { type: 'instant' } },
 *   sortable: ['created_at', 'updated_at', 'amount']
 * })
 * payables.defaultField //=> 'created_at'
 *
 * @since 0.1.0
 */
import { decisionEndpoints } from '../decision/endpoints'
import { hasOwn } from '../json/value'
import type { Order } from './window'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The type of a record's field, which decides the filter values and operators it takes:
 * `integer` and `instant` take every operator; `enum`, `id` and `string` only equality and
 * membership; `json` (any JSON value, carried to the body as it is) none. A `nullable` field
 * may also hold null, which no filter value equals (`$ne` and `$nin` hold of it, the others do
 * not, as in SQL with `IS DISTINCT FROM`); a nullable or `json` field is not sortable.
 *
 * @example
 * fieldOf(endpoints.bankTransactions, 'status') //=> { type: 'enum', values: ['authorized', 'pending'] }
 * fieldOf(endpoints.decisions, 'resource_id') //=> { type: 'id', nullable: true }
 *
 * @category model
 * @since 0.1.0
 */
export type FieldType = (
  | { readonly type: 'integer' }
  | { readonly type: 'instant' }
  | { readonly type: 'id' }
  | { readonly type: 'string' }
  | { readonly type: 'enum'; readonly values: ReadonlyArray<string> }
  | { readonly type: 'json' }
) & { readonly nullable?: boolean }

/**
 * Who may read an endpoint's records: any member of the company; only a caller with full rights
 * (owner, admin, or the `budgets_manage` permission); or, for decision records, a caller with
 * full rights, who reads only the records whose `endpoint` field names a decision whose data
 * they may read (`by_decision_endpoint`, GET /v1/decisions: ).
 *
 * @example
 * endpoints.decisions.readableBy //=> 'by_decision_endpoint'
 *
 * @category model
 * @since 0.4.0
 */
export type Readers = 'members' | 'full_rights' | 'by_decision_endpoint'

/**
 * How an endpoint spells `_order`: `asc`/`desc` or `ASC`/`DESC`.
 *
 * @example
 * spellOrder({ orderCase: 'lower' }, 'desc') //=> 'desc'
 *
 * @category model
 * @since 0.1.0
 */
export type OrderCase = 'lower' | 'upper'

/**
 * The body of an index reply: the bare array, or GET /v1/companies' `{data, cursors}`.
 *
 * @example
 * endpoints.companies.envelope //=> 'data-cursors'
 *
 * @category model
 * @since 0.1.0
 */
export type Envelope = 'bare' | 'data-cursors'

/**
 * An index endpoint as the library sees it: its path, its records' fields and types, the fields
 * it sorts by and the default one, the case of its `_order`, its body, and whether it needs
 * company-id.
 *
 * @example
 * endpoints.bankTransactions.sortable //=> ['created_at', 'updated_at', 'amount']
 *
 * @category model
 * @since 0.1.0
 */
export interface Endpoint {
  readonly path: string
  /** Every field of a record; `id` is required, and `created_at` when it is the default sort. */
  readonly fields: Readonly<Record<string, FieldType>>
  readonly sortable: ReadonlyArray<string>
  readonly defaultField: string
  readonly orderCase: OrderCase
  readonly envelope: Envelope
  /** False only for endpoints that list the caller's own companies. */
  readonly requiresCompany: boolean
  /** Who may read the records; `members` unless the endpoint says otherwise. */
  readonly readableBy?: Readers
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An endpoint with the service's defaults: sort by `created_at`, lowercase order, a bare array,
 * company-id required.
 *
 * @example
 * defineEndpoint({ path: '/v1/payables', fields: { id: { type: 'id' }, created_at: { type: 'instant' } }, sortable: ['created_at'], orderCase: 'upper' })
 * //=> { path: '/v1/payables', fields: { id: { type: 'id' }, created_at: { type: 'instant' } }, sortable: ['created_at'],
 * //     defaultField: 'created_at', orderCase: 'upper', envelope: 'bare', requiresCompany: true }
 *
 * @category constructors
 * @since 0.1.0
 */
export const defineEndpoint = (
  e: Pick<Endpoint, 'path' | 'fields' | 'sortable'> & Partial<Omit<Endpoint, 'path' | 'fields' | 'sortable'>>
): Endpoint => ({
  defaultField: 'created_at',
  orderCase: 'lower',
  envelope: 'bare',
  requiresCompany: true,
  ...e
})

/**
 * The endpoints the spec names.
 *
 * @example
 * endpoints.bankTransactions.path //=> '/v1/banking/bank_transactions'
 * endpoints.companies.requiresCompany //=> false
 *
 * @category constants
 * @since 0.1.0
 */
export const endpoints = {
  /** GET /v1/banking/bank_transactions (contract section 8). */
  bankTransactions: /*#__PURE__*/ defineEndpoint({
    path: '/v1/banking/bank_transactions',
    fields: {
      id: { type: 'id' },
      amount: { type: 'integer' },
      status: { type: 'enum', values: ['authorized', 'pending'] },
      created_at: { type: 'instant' },
      updated_at: { type: 'instant' }
    },
    sortable: ['created_at', 'updated_at', 'amount']
  }),
  /** GET /v1/budgets: a company's budgets, each as of today; filters on the fields that are never null. */
  budgets: /*#__PURE__*/ defineEndpoint({
    path: '/v1/budgets',
    fields: {
      id: { type: 'id' },
      name: { type: 'string' },
      access: { type: 'enum', values: ['everyone', 'members'] },
      currency: { type: 'string' },
      mode: { type: 'enum', values: ['funded', 'tracking'] },
      status: { type: 'enum', values: ['open', 'closing', 'closed'] },
      created_on: { type: 'string' },
      period_starts_on: { type: 'string' }
    },
    sortable: ['created_on', 'name'],
    defaultField: 'created_on'
  }),
  /** GET /v1/companies: the caller's own companies, no company-id, `{data, cursors}` body (ADR 0042). */
  companies: /*#__PURE__*/ defineEndpoint({
    path: '/v1/companies',
    fields: {
      id: { type: 'id' },
      name: { type: 'string' },
      created_at: { type: 'instant' },
      updated_at: { type: 'instant' }
    },
    sortable: ['created_at', 'updated_at', 'name'],
    envelope: 'data-cursors',
    requiresCompany: false
  }),
  /**
   * GET /v1/decisions: the company's decision records, newest first by `at`
   * when asked with `_order=desc`; read only with full rights, each caller the records of the
   * decisions whose data they may read. `id` is the request id.
   */
  decisions: /*#__PURE__*/ defineEndpoint({
    path: '/v1/decisions',
    fields: {
      id: { type: 'id' },
      request_id: { type: 'id' },
      at: { type: 'instant' },
      company_id: { type: 'id', nullable: true },
      actor_id: { type: 'id', nullable: true },
      key_id: { type: 'id', nullable: true },
      endpoint: { type: 'enum', values: decisionEndpoints },
      method: { type: 'string' },
      path: { type: 'string' },
      resource_id: { type: 'id', nullable: true },
      idempotency_key: { type: 'string', nullable: true },
      replay_of: { type: 'id', nullable: true },
      status: { type: 'integer' },
      rules: { type: 'json' },
      case: { type: 'json' },
      reply: { type: 'json' },
      changes: { type: 'json' },
      masked: { type: 'json' },
      erased: { type: 'json' },
      library_version: { type: 'string' }
    },
    sortable: ['at'],
    defaultField: 'at',
    readableBy: 'by_decision_endpoint'
  })
} as const

/**
 * Whether `field` is a field of the endpoint's records (own keys only: `__proto__` is not).
 *
 * @example
 * fieldOf(endpoints.bankTransactions, 'amount') //=> { type: 'integer' }
 * fieldOf(endpoints.bankTransactions, '__proto__') //=> undefined
 *
 * @category refinements
 * @since 0.1.0
 */
export const fieldOf = (endpoint: Endpoint, field: string): FieldType | undefined =>
  hasOwn(endpoint.fields, field) ? endpoint.fields[field] : undefined

/**
 * The spelling of `asc` and `desc` this endpoint takes.
 *
 * @example
 * spellOrder({ orderCase: 'upper' }, 'desc') //=> 'DESC'
 *
 * @category utils
 * @since 0.1.0
 */
export const spellOrder = (endpoint: Pick<Endpoint, 'orderCase'>, order: Order): string =>
  endpoint.orderCase === 'upper' ? order.toUpperCase() : order
