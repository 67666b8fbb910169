/**
 * The budget update decision, contract section 5 rows 9 to 13, for a caller already
 * authenticated (rows 1-5), allowed to update (row 6) and whose body decoded (rows 7-8).
 *
 * Only the fields sent change, and a value the budget already holds (as advanced to `today`)
 * is not a change: it needs no permission and is not validated again, so a client may send back
 * the whole budget it read.
 *
 * Laws, for every budget `b`, caller and body whose decision is `right(b2)`:
 * - a key not sent keeps its value, but for what derive (period fields, status);
 * - `balance_cents`, `currency` and `mode` equal those of `b`;
 * - with rights other than `'full'`, `manager_id` and the recurrence fields equal those of `b`.
 *
 * @example
 * decideUpdate({ rights: 'manager', budget, sent: [{ key: 'name', value: 'Travel' }], today: '2026-11-22' }).result
 * //=> right({ ...budget, name: 'Travel' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import type { Caller } from '../auth/session'
import type { CalendarDate } from '../calendar/date'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import type { Reason } from '../decision/rules'
import { fail, pass, recordInto, type Trail } from '../decision/trail'
import { reopen } from './lifecycle'
import { type Budget, isBudgetField } from './model'
import type { Sent } from './patch'
import { type BudgetRights, budgetRights, fieldPermissions, type FieldPermission } from './permissions'
import { changeRecurrence } from './recurrence-change'
import { readBudget } from './stored'
import { type Changes, fieldMessages, validateUpdate } from './validation'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the update decision takes: the caller's rights, the budget as of `today`, and the keys
 * the client sent.
 *
 * @example
 * decideUpdate({ rights: 'manager', budget, sent: [{ key: 'recurrence_every', value: 2 }], today: '2026-11-22' }).result
 * //=> left({ _tag: 'Forbidden', rule: 'budget.permission.recurrence', error_code: 'budgets/cannot_change_recurrence',
 * //          message: 'Only an admin or a user with budgets_manage can change the recurrence',
 * //          detail: 'Only an admin or a user with budgets_manage can change the recurrence' })
 *
 * @category model
 * @since 0.1.0
 */
export interface UpdateRequest {
  /** Rights other than `'none'`: row 6 has let the caller through. */
  readonly rights: Exclude<BudgetRights, 'none'>
  /** The budget advanced to `today`. */
  readonly budget: Budget
  readonly sent: ReadonlyArray<Sent>
  readonly today: CalendarDate
  /** When given, a new manager_id must be one of these. */
  readonly company_member_ids?: ReadonlyArray<string> | undefined
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const changedKeys = (r: UpdateRequest): ReadonlyArray<Sent> =>
  r.sent.filter((s) => !isBudgetField(s.key) || s.value !== r.budget[s.key])

const changes = (changed: ReadonlyArray<Sent>, key: string): boolean => changed.some((s) => s.key === key)

type FullRightsOnly = Extract<FieldPermission, { readonly needs: 'full' }>

/**
 * Rows 9 and 10, as the permission table has them: for each rule that guards fields only full
 * budget rights may change, in the order its fields first appear, the fields it guards.
 */
const fullRightsChecks: ReadonlyArray<{ readonly permission: FullRightsOnly; readonly fields: ReadonlyArray<string> }> =
  /*#__PURE__*/ (() => {
    const byRule = new Map<string, { permission: FullRightsOnly; fields: Array<string> }>()
    for (const [field, permission] of Object.entries(fieldPermissions) as ReadonlyArray<[string, FieldPermission]>) {
      if (permission.needs !== 'full') continue
      const check = byRule.get(permission.rule) ?? { permission, fields: [] }
      check.fields.push(field)
      byRule.set(permission.rule, check)
    }
    return [...byRule.values()]
  })()

/** One of rows 9 and 10: a caller without full rights changes none of the fields it guards. */
const checkFullRightsOnly = (
  { permission, fields }: (typeof fullRightsChecks)[number],
  r: UpdateRequest,
  changed: ReadonlyArray<Sent>
): Trail<unknown> =>
  r.rights === 'full'
    ? pass(permission.rule, 'full budget rights', null)
    : !fields.some((f) => changes(changed, f))
      ? pass(permission.rule, `${fields.length === 1 ? (fields[0] as string) : permission.what} not changed`, null)
      : fail(
          problem.forbidden(
            permission.rule,
            permission.error_code,
            `Only an admin or a user with budgets_manage can change the ${permission.what}`
          )
        )

const checkNotClosed = (r: UpdateRequest): Trail<unknown> =>
  r.budget.status === 'closed'
    ? fail(problem.conflict('budget.status.closed', 'The budget is closed'))
    : pass('budget.status.closed', `status ${r.budget.status}`, null)

/** `changes name, ends_on`: joined by hand, where `map` then `join` builds an array on every update. */
const changesDetail = (changed: ReadonlyArray<Sent>): string => {
  if (changed.length === 0) return 'no field changes'
  let detail = 'changes '
  for (let i = 0; i < changed.length; i++) detail += (i === 0 ? '' : ', ') + (changed[i] as Sent).key
  return detail
}

/**
 * Row 13: the new budget, with what derive from the change.
 */
const apply = (r: UpdateRequest, changed: ReadonlyArray<Sent>, c: Changes): Trail<Budget> => {
  const edited: Budget = { ...r.budget }
  // Field by field onto a copy: the copy keeps the budget's shape, where spreading the changes
  // in after taking `recurrence` out with a rest pattern costs two slow object copies.
  // The changes are the fields sent, but for the recurrence, which `changeRecurrence` applies.
  for (const key of Object.keys(c)) if (key !== 'recurrence') (edited as Record<string, unknown>)[key] = c[key as keyof Changes]
  const reasons: Array<Reason> = [{ rule: 'budget.update', detail: changesDetail(changed) }]
  const reopened = reopen(edited, c.ends_on)
  if (reopened.reason !== null) reasons.push(reopened.reason)
  const renewed = changeRecurrence(reopened.budget, r.today, c.recurrence)
  if (renewed.reason === null) return { reasons, result: E.right(renewed.budget) }
  reasons.push(renewed.reason)
  // Near the end of the calendar a new cadence may have no boundary left for the period in
  // progress to end on: such a budget would not be consistent, so the change is refused.
  if (E.isLeft(readBudget(renewed.budget))) {
    const p = problem.invalid('budget.validation', [{ field: 'recurrence_unit', messages: [fieldMessages.noBoundary] }])
    return { reasons: [...reasons, { rule: p.rule, detail: p.detail }], result: E.left(p) }
  }
  return { reasons, result: E.right(renewed.budget) }
}

/**
 * Rows 9 to 13 in order: manager permission, recurrence permission (both from the permission
 * table), closed, validation, then the updated budget.
 *
 * @example
 * decideUpdate({ rights: 'full', budget, sent: [{ key: 'name', value: ' ' }, { key: 'ends_on', value: '2026-11-01' }], today: '2026-11-22' }).result
 * //=> left({ _tag: 'Invalid', rule: 'budget.validation', detail: "name: can't be blank; ends_on: must be after 2026-11-22",
 * //          errors: [{ field: 'name', messages: ["can't be blank"] }, { field: 'ends_on', messages: ['must be after 2026-11-22'] }] })
 *
 * @category rules
 * @since 0.1.0
 */
export const decideUpdate = (r: UpdateRequest): Trail<Budget> => {
  const reasons: Array<Reason> = []
  return { reasons, result: decideUpdateInto(reasons, r) }
}

/**
 * {@link decideUpdate}, its reasons appended to `reasons`: the facade keeps one list.
 *
 * @example
 * const reasons: Array<Reason> = []
 * decideUpdateInto(reasons, { rights: 'full', budget, sent: [{ key: 'name', value: 'Travel' }], today: '2026-11-22' })
 * //=> right({ ...budget, name: 'Travel' })
 * reasons.map((r) => r.rule)
 * //=> ['budget.permission.manager', 'budget.permission.recurrence', 'budget.status.closed', 'budget.validation', 'budget.update']
 *
 * @category rules
 * @since 0.3.0
 */
export const decideUpdateInto = (reasons: Array<Reason>, r: UpdateRequest): E.Either<Problem, Budget> => {
  const changed = changedKeys(r)
  for (const check of fullRightsChecks) {
    const allowed = recordInto(reasons, checkFullRightsOnly(check, r, changed))
    if (E.isLeft(allowed)) return allowed
  }
  const open = recordInto(reasons, checkNotClosed(r))
  if (E.isLeft(open)) return open
  const valid = recordInto(reasons, validateUpdate(r, changed))
  if (E.isLeft(valid)) return valid
  return recordInto(reasons, apply(r, changed, valid.right))
}

/**
 * Row 6: full budget rights, or the group's manager or co-manager; anyone else is refused by
 * the action guard (401 `Unauthorized (401)`), before the body is even read.
 *
 * @example
 * // u-7 manages the budget
 * authorizeUpdate({ user_id: 'u-7', role: 'member', permissions: [] }, budget).result //=> right('manager')
 * authorizeUpdate({ user_id: 'u-2', role: 'member', permissions: [] }, budget).result
 * //=> left({ _tag: 'GuardRejected', rule: 'budget.permission.update', detail: 'user u-2 has no budget rights and does not manage budget b-1' })
 *
 * @category rules
 * @since 0.1.0
 */
export const authorizeUpdate = (caller: Caller, budget: Budget): Trail<Exclude<BudgetRights, 'none'>> => {
  const rights = budgetRights(caller, budget)
  return rights === 'none'
    ? fail(
        problem.guardRejected(
          'budget.permission.update',
          `user ${caller.user_id} has no budget rights and does not manage budget ${budget.id}`
        )
      )
    : pass(
        'budget.permission.update',
        rights === 'full' ? `full budget rights (role ${caller.role})` : `user ${caller.user_id} manages the group`,
        rights
      )
}
