/**
 * The update decision with its permission part (contract section 5 row 6, who may update the
 * budget at all, and rows 9-10, who may change which field) as a CASL ability; everything else
 * (server input, rows 1-5 and 7-8, the closed budget, validation and the update) is the plain
 * reading's code.
 *
 * The ability is built per request, as CASL's guide does (`defineAbilityFor(user)` in a
 * middleware): the manager's rules hold the caller's user id in their conditions, and the role
 * and permissions come from the session resolved for this request, so a cache would have to be
 * per user and dropped whenever a role changes.
 */
import { AbilityBuilder, createMongoAbility, subject } from '@casl/ability'
import {
  admit,
  applyUpdate,
  type Caller,
  closedRefusal,
  internalError,
  messages,
  readUpdate,
  replyWith,
  requestIdOf,
  type UpdateContext,
  type UpdateReply
} from './plain'

/** What the group's manager and co-manager may change (spec section 5). */
const managerFields = ['name', 'description', 'access', 'ends_on']

/** The fields an update may change (spec section 4). */
const updateFields: ReadonlySet<string> = new Set([
  ...managerFields,
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
])

/** owner, admin or budgets_manage update every field; the manager and co-manager theirs. */
const abilityFor = (caller: Caller) => {
  const { can, build } = new AbilityBuilder(createMongoAbility)
  if (caller.role === 'owner' || caller.role === 'admin' || caller.permissions.includes('budgets_manage')) can('update', 'Budget')
  else {
    can('update', 'Budget', managerFields, { manager_id: caller.user_id })
    can('update', 'Budget', managerFields, { co_manager_id: caller.user_id })
  }
  return build()
}

/** PATCH /v1/budgets/{id}: the plain reading, with the permissions asked of a CASL ability. */
export const respondWithCasl = (c: UpdateContext): UpdateReply => {
  try {
    const admitted = admit(c)
    if ('status' in admitted) return admitted
    const requestId = c.request_id
    const ability = abilityFor(admitted.caller)
    const budget = subject('Budget', admitted.budget)
    if (!ability.can('update', budget)) return replyWith(requestId, 401, { message: messages.unauthorized })
    const update = readUpdate(c, admitted.budget)
    if ('status' in update) return update
    const denied = update.changed.filter((field) => updateFields.has(field) && !ability.can('update', budget, field))
    // Row 9 (manager_id) before row 10 (the recurrence fields), whatever the order sent.
    if (denied.includes('manager_id'))
      return replyWith(requestId, 403, { error_code: 'budgets/cannot_change_manager', message: messages.manager })
    if (denied.length > 0)
      return replyWith(requestId, 403, { error_code: 'budgets/cannot_change_recurrence', message: messages.recurrence })
    return closedRefusal(requestId, admitted.budget) ?? applyUpdate(c, admitted.budget, update)
  } catch {
    return internalError(requestIdOf(c))
  }
}
