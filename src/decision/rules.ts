/**
 * Every rule the facades apply, by id (contract section 10, R-30). A reply's `reasons` name
 * these ids in the order the rules were consulted; `docs/decisions/` explains each one and
 * `docs/rules.md` is generated from this table.
 *
 * @since 0.1.0
 */
import type { Problem } from './problem'

/**
 * What a rule checks, where the contract settles it, the kinds of problem it refuses with (their
 * statuses are written once, in `reply/reply.ts`), and the decision record that explains it.
 *
 * @example
 * rules['money.status'].refuses //=> ['Conflict']
 *
 * @category model
 * @since 0.1.0
 */
export interface RuleDescription {
  /** What the rule checks or does, in one sentence. */
  readonly summary: string
  /** The contract row or settled point it implements. */
  readonly source: string
  /** The kinds of problem a request failing this rule gets; empty when the rule never refuses. */
  readonly refuses: ReadonlyArray<Problem['_tag']>
  /** The decision record in `docs/decisions/` that explains it. */
  readonly decision: string
}

/**
 * The catalogue of rule ids.
 *
 * @example
 * rules['auth.bearer']
 * //=> { summary: 'Authorization is `Bearer <key>` (scheme in any case, non-empty key) and the key resolved to a user.',
 * //     source: 'contract 4 row 1', refuses: ['Unauthenticated'], decision: '0004-authentication-order.md' }
 *
 * @category model
 * @since 0.1.0
 */
export const rules = {
  'server.input': {
    summary: 'What the server passes in (request, session, budget, today, request_id) has the documented shape.',
    source: 'contract preamble',
    refuses: ['InternalError'],
    decision: '0003-server-input.md'
  },
  'server.unexpected': {
    summary: 'Anything a facade did not foresee (an object whose getter throws, ...) is a 500, never an exception.',
    source: 'contract preamble',
    refuses: ['InternalError'],
    decision: '0003-server-input.md'
  },
  'auth.bearer': {
    summary: 'Authorization is `Bearer <key>` (scheme in any case, non-empty key) and the key resolved to a user.',
    source: 'contract 4 row 1',
    refuses: ['Unauthenticated'],
    decision: '0004-authentication-order.md'
  },
  'auth.email_verified': {
    summary: "The key's user has verified their email.",
    source: 'contract 4 row 2',
    refuses: ['EmailNotVerified'],
    decision: '0004-authentication-order.md'
  },
  'auth.company_header': {
    summary: 'The company-id header is present and not empty where the endpoint requires it.',
    source: 'contract 4 row 3',
    refuses: ['Unauthenticated'],
    decision: '0004-authentication-order.md'
  },
  'auth.membership': {
    summary: 'The user is a member of the company that company-id names.',
    source: 'contract 4 row 4',
    refuses: ['NotFound'],
    decision: '0004-authentication-order.md'
  },
  'budget.scope': {
    summary:
      "The budget exists and belongs to the company-id header's company; otherwise the reply is the same as for a foreign company.",
    source: 'contract 4 row 5',
    refuses: ['NotFound'],
    decision: '0004-authentication-order.md'
  },
  'budget.stored': {
    summary: 'The stored budget is consistent (modes and balance, recurrence fields, period dates); nothing is repaired.',
    source: 'contract 11, R-17',
    refuses: ['InternalError'],
    decision: '0017-stored-budget.md'
  },
  'budget.advance': {
    summary: 'The budget is brought to `today` (period roll-overs, open to closing) before anything is compared.',
    source: 'contract 5, 6',
    refuses: [],
    decision: '0010-periods.md'
  },
  'budget.permission.update': {
    summary: "The caller has full budget rights, or is the group's manager or co-manager.",
    source: 'contract 5 row 6, R-21',
    refuses: ['GuardRejected'],
    decision: '0005-budget-rights.md'
  },
  'budget.body.type': {
    summary:
      'The body is a JSON object, `budget` is an object, and each update field has its JSON type; no key, and no value outside `budget`, is text that is not well-formed Unicode.',
    source: 'contract 5 row 7, R-128',
    refuses: ['BadRequest'],
    decision: '0006-update-body.md'
  },
  'budget.body.wrapper': {
    summary: 'The body holds the `budget` wrapper key with a non-null value.',
    source: 'contract 5 row 8',
    refuses: ['PreconditionFailed'],
    decision: '0006-update-body.md'
  },
  'budget.permission.manager': {
    summary: 'Only full budget rights may change manager_id.',
    source: 'contract 5 row 9',
    refuses: ['Forbidden'],
    decision: '0005-budget-rights.md'
  },
  'budget.permission.recurrence': {
    summary: 'Only full budget rights may change recurrence_unit, recurrence_every or base_amount_cents.',
    source: 'contract 5 row 10',
    refuses: ['Forbidden'],
    decision: '0005-budget-rights.md'
  },
  'budget.status.closed': {
    summary: 'A closed budget takes no update.',
    source: 'contract 5 row 11',
    refuses: ['Conflict'],
    decision: '0007-update-validation.md'
  },
  'budget.validation': {
    summary:
      'Every changed value is valid; unknown keys and changed read-only fields are rejected; all invalid fields are named at once.',
    source: 'contract 5 row 12, R-13, R-14',
    refuses: ['Invalid'],
    decision: '0007-update-validation.md'
  },
  'budget.update': {
    summary: 'The fields sent with a new value change; nothing else does.',
    source: 'contract 5 row 13',
    refuses: [],
    decision: '0006-update-body.md'
  },
  'budget.reopen': {
    summary: 'A closing budget whose ends_on changes becomes open.',
    source: 'R-15',
    refuses: [],
    decision: '0008-reopen.md'
  },
  'recurrence.turn_on': {
    summary: 'Turning recurrence on counts periods from created_on, or resumes from the period end of stopped renewals.',
    source: 'contract 6, R-12',
    refuses: [],
    decision: '0012-recurrence-changes.md'
  },
  'recurrence.change': {
    summary: 'A new unit or every applies from the end of the period in progress.',
    source: 'contract 6, R-12',
    refuses: [],
    decision: '0012-recurrence-changes.md'
  },
  'recurrence.base': {
    summary: 'A new base_amount_cents applies to periods that start after today.',
    source: 'contract 6, R-11',
    refuses: [],
    decision: '0012-recurrence-changes.md'
  },
  'recurrence.stop': {
    summary: 'recurrence_unit null stops renewals; the period in progress keeps its end and amount.',
    source: 'contract 6, R-12',
    refuses: [],
    decision: '0012-recurrence-changes.md'
  },
  'money.permission': {
    summary: 'Only full budget rights may top up, withdraw or set the planned amount.',
    source: 'contract 7, R-16',
    refuses: ['GuardRejected'],
    decision: '0016-money-operations.md'
  },
  'money.body': {
    summary: 'The body is a JSON object whose amount_cents is a number, holding no text that is not well-formed Unicode.',
    source: 'contract 7, R-16, R-128',
    refuses: ['BadRequest'],
    decision: '0016-money-operations.md'
  },
  'money.status': {
    summary: 'Money moves only on an open budget.',
    source: 'contract 7, R-16',
    refuses: ['Conflict'],
    decision: '0016-money-operations.md'
  },
  'money.validation': {
    summary:
      'The mode fits the operation and the amount is a valid number of cents; the balance stays within 0..MAX_SAFE_INTEGER.',
    source: 'contract 7, R-16',
    refuses: ['Invalid'],
    decision: '0016-money-operations.md'
  },
  'money.apply': {
    summary: 'The balance (top_up, withdraw) or the planned amount of the period in progress (amount) changes, and nothing else.',
    source: 'contract 7, R-16',
    refuses: [],
    decision: '0016-money-operations.md'
  },
  'page.permission': {
    summary:
      'An endpoint read only with full rights (GET /v1/decisions) is read by an owner, an admin or a budgets_manage caller.',
    source: 'R-121',
    refuses: ['GuardRejected'],
    decision: '0119-decision-records.md'
  },
  'page.query': {
    summary:
      'The query string decodes as a form: at most 100 parameters, valid % escapes, no key twice, no unknown `_` parameter.',
    source: 'contract 8, R-40',
    refuses: ['BadRequest'],
    decision: '0040-index-endpoints.md'
  },
  'page.window': {
    summary:
      "`_start`, `_end`, `_order` and `_field` are well formed: base-10 integers with 0 <= _start <= _end, the order in the endpoint's case, a sortable field.",
    source: 'contract 8, R-41',
    refuses: ['BadRequest'],
    decision: '0040-index-endpoints.md'
  },
  'page.filter': {
    summary: "Each filter names a field of the endpoint, a known operator it takes, and values of the field's type.",
    source: 'contract 8, R-42',
    refuses: ['BadRequest'],
    decision: '0041-filters.md'
  },
  'page.size': {
    summary: 'The window holds at most 2000 records; the server never truncates silently.',
    source: 'contract 8, R-43; spec 8',
    refuses: ['RangeNotSatisfiable'],
    decision: '0040-index-endpoints.md'
  },
  'page.records': {
    summary: "The server's records have the endpoint's field types where the query reads them.",
    source: 'contract preamble',
    refuses: ['InternalError'],
    decision: '0040-index-endpoints.md'
  },
  'page.slice': {
    summary: 'Filters first, then a stable sort by the field and then id in the same direction, then the window.',
    source: 'contract 8, R-44',
    refuses: [],
    decision: '0040-index-endpoints.md'
  },
  'page.headers': {
    summary:
      'X-Total-Count, Content-Range without a unit (`*/<total>` when empty) and Access-Control-Expose-Headers; a page longer than its window is an error.',
    source: 'contract 8, R-45; spec 4',
    refuses: ['InternalError'],
    decision: '0040-index-endpoints.md'
  },
  'service.rate_limit': {
    summary: 'Too many requests: 429 with Retry-After and `retry_after`.',
    source: 'spec 7, contract 9, R-50',
    refuses: ['RateLimited'],
    decision: '0050-error-replies.md'
  },
  'service.upstream': {
    summary: 'A banking partner or card issuer failed: 502, 503 or 504, to retry with backoff.',
    source: 'spec 7, R-50',
    refuses: ['Upstream'],
    decision: '0050-error-replies.md'
  },
  'service.guard': {
    summary: 'An action-level guard denied without a body (card creation gated by issuer state, a key without the scope).',
    source: 'spec 7, R-50',
    refuses: ['Denied'],
    decision: '0050-error-replies.md'
  },
  'recipient.validation': {
    summary: 'A bank recipient has a RUT with its check digit, an account number of 5 to 20 digits, a known bank and a name.',
    source: 'spec 4 (POST /v1/banking/bank_recipients)',
    refuses: ['Invalid'],
    decision: '0052-bank-recipients.md'
  },
  'recipient.conflict': {
    summary: 'A recipient with the same RUT, bank and account number is already enrolled.',
    source: 'spec 7 (409)',
    refuses: ['Conflict'],
    decision: '0052-bank-recipients.md'
  },
  'role.owner': {
    summary: 'Only an owner may assign the owner role.',
    source: 'spec 5, 7',
    refuses: ['Forbidden'],
    decision: '0053-owner-role-and-authorize.md'
  },
  'transaction.authorize': {
    summary: 'A pending transaction becomes authorized; an authorized one cannot be authorized again.',
    source: 'spec 7 (409)',
    refuses: ['Conflict'],
    decision: '0053-owner-role-and-authorize.md'
  },
  'role.member': {
    summary:
      "The user whose role is assigned is a member of the caller's company (checked when the server passes the members); otherwise the reply is the same as for a foreign company.",
    source: 'contract 4 row 5, R-70',
    refuses: ['NotFound'],
    decision: '0070-role-assignment.md'
  },
  'role.permission': {
    summary: 'Only an owner or admin may assign roles.',
    source: 'R-70; spec 7 (action-level guard)',
    refuses: ['GuardRejected'],
    decision: '0070-role-assignment.md'
  },
  'role.body': {
    summary:
      'The body of a role assignment is a JSON object; no key, and no value but the role, is text that is not well-formed Unicode.',
    source: 'R-70, R-128',
    refuses: ['BadRequest'],
    decision: '0070-role-assignment.md'
  },
  'role.validation': {
    summary: '`role` is exactly `owner`, `admin` or `member` (no other case, no spaces).',
    source: 'R-70',
    refuses: ['Invalid'],
    decision: '0070-role-assignment.md'
  },
  'transaction.scope': {
    summary:
      "The transaction exists and belongs to the company-id header's company; otherwise the reply is the same as for a foreign company.",
    source: 'contract 4 row 5, R-71',
    refuses: ['NotFound'],
    decision: '0071-authorize-transaction.md'
  },
  'transaction.stored': {
    summary:
      'The stored transaction has a string id, a status pending or authorized, and the types of contract section 8 for amount and instants; nothing is repaired.',
    source: 'contract preamble, R-18, R-71',
    refuses: ['InternalError'],
    decision: '0071-authorize-transaction.md'
  },
  'transaction.permission': {
    summary: 'Only an owner or admin may authorize a transaction.',
    source: 'R-71; spec 7 (action-level guard)',
    refuses: ['GuardRejected'],
    decision: '0071-authorize-transaction.md'
  },
  'recipient.permission': {
    summary: 'Only an owner or admin may enroll a bank recipient.',
    source: 'R-72; spec 7 (action-level guard on bank recipients)',
    refuses: ['GuardRejected'],
    decision: '0072-bank-recipient-facade.md'
  },
  'recipient.body': {
    summary:
      'The body is a JSON object holding a `bank_recipient` object; no key, and no value but its four fields, is text that is not well-formed Unicode.',
    source: 'R-72, R-128',
    refuses: ['BadRequest'],
    decision: '0072-bank-recipient-facade.md'
  }
} as const satisfies Record<string, RuleDescription>

/**
 * The id of a rule: a key of {@link rules}.
 *
 * @example
 * Object.hasOwn(rules, 'budget.scope') //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type RuleId = keyof typeof rules

/**
 * One line of a reply's `reasons`: a rule consulted, and what it found.
 *
 * @example
 * import { authenticate } from 'budget-rules/rules'
 *
 * authenticate({ headers: { Authorization: 'Bearer k' } }, { user: null, memberships: {} }).reasons
 * //=> [{ rule: 'auth.bearer', detail: 'the key resolved to no user' }]
 *
 * @category model
 * @since 0.1.0
 */
export interface Reason {
  readonly rule: RuleId
  readonly detail: string
}
