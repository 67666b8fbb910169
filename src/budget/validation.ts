/**
 * Row 12 of the update (contract section 5, R-13, R-14): every changed value checked, every
 * invalid field named in one 422. A value the budget already holds is not a change and is not
 * validated again; the recurrence fields are judged together, by the unit the budget will have.
 *
 * @example
 * import { validateUpdate } from 'budget-rules/rules'
 *
 * validateUpdate({ rights: 'full', budget, sent: [], today: '2026-11-22' }, [{ key: 'access', value: 'all' }]).result
 * //=> left({ _tag: 'Invalid', rule: 'budget.validation', detail: 'access: is not included in the list',
 * //          errors: [{ field: 'access', messages: ['is not included in the list'] }] })
 *
 * @since 0.1.0
 */
import { type CalendarDate, isCalendarDate } from '../calendar/date'
import * as problem from '../decision/problem'
import type { FieldError } from '../decision/problem'
import { fail, pass, type Trail } from '../decision/trail'
import { type RecurrenceUnit, recurrenceUnits } from '../recurrence/schedule'
import { keptTextError, nameError, nameMessages } from '../validation/name'
import {
  type Access,
  type Cents,
  type Every,
  accessValues,
  Cents as CentsCodec,
  Every as EveryCodec,
  isBudgetField,
  recurrenceFields
} from './model'
import type { Sent } from './patch'
import type { RecurrenceSettings } from './recurrence-change'
import type { UpdateRequest } from './update'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The valid new values, each present only when it changes.
 *
 * @example
 * const c: Changes = { name: 'Travel', recurrence: { unit: null, every: null, base: null } }
 * c.name //=> 'Travel'
 *
 * @category model
 * @since 0.1.0
 */
export interface Changes {
  readonly name?: string
  readonly description?: string | null
  readonly access?: Access
  readonly ends_on?: CalendarDate | null
  readonly manager_id?: string | null
  readonly recurrence: RecurrenceSettings
}

/**
 * The texts of the 422 field errors.
 *
 * @example
 * fieldMessages.notAfter('2026-11-22') //=> 'must be after 2026-11-22'
 *
 * @category constants
 * @since 0.1.0
 */
export const fieldMessages = {
  blank: nameMessages.blank,
  tooLong: nameMessages.tooLong,
  /** `name`, `description`, `manager_id`: text holding U+0000, which no store keeps (ADR 0013). */
  nul: nameMessages.nul,
  /** `name`, `description`, `manager_id`: text holding a lone surrogate, which no store keeps as sent. */
  illFormed: nameMessages.illFormed,
  notInList: 'is not included in the list',
  notADate: 'is not a valid date (YYYY-MM-DD)',
  /** `ends_on`: a closing date that is not after today. */
  notAfter: (today: string) => `must be after ${today}`,
  notAMember: 'is not a member of the company',
  every: 'must be an integer from 1 to 366',
  cents: 'must be a whole number of cents, 0 or more',
  recurrenceOff: 'must be null while recurrence_unit is null',
  baseRequired: 'is required while recurrence is on',
  unknown: 'is not a field of a budget',
  readOnly: 'cannot be changed',
  noBoundary: 'cannot take effect: the period in progress lasts past 9999-12-31'
} as const

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const isIn =
  <A extends string>(values: ReadonlyArray<A>) =>
  (u: unknown): u is A =>
    (values as ReadonlyArray<unknown>).includes(u)

const isAccess = isIn(accessValues)
const isUnit = isIn(recurrenceUnits)

type Errors = Array<FieldError & { readonly messages: Array<string> }>

/** Adds `message` to the field's errors. A list, not a Map: a request changes a few fields. */
const rejectInto = (errors: Errors, field: string, message: string): void => {
  for (const e of errors)
    if (e.field === field) {
      e.messages.push(message)
      return
    }
  errors.push({ field, messages: [message] })
}

const sentOf = (changed: ReadonlyArray<Sent>, key: string): Sent | undefined => {
  for (const s of changed) if (s.key === key) return s
  return undefined
}

/**
 * Row 12: every changed value checked, every invalid field named. `changed` holds the keys sent
 * whose value differs from the budget's.
 *
 * @example
 * import { validateUpdate } from 'budget-rules/rules'
 *
 * validateUpdate({ rights: 'full', budget, sent: [], today: '2026-11-22' }, []).reasons
 * //=> [{ rule: 'budget.validation', detail: 'nothing changes' }]
 *
 * @category rules
 * @since 0.1.0
 */
export const validateUpdate = (r: UpdateRequest, changed: ReadonlyArray<Sent>): Trail<Changes> => {
  const errors: Errors = []
  const reject = (field: string, message: string): void => {
    rejectInto(errors, field, message)
  }
  const sent = (key: string): Sent | undefined => sentOf(changed, key)
  const b = r.budget

  // The recurrence unit the budget will have, when it can be known.
  const unitSent = sent('recurrence_unit') !== undefined
  const unitValue = sent('recurrence_unit')?.value
  const unit: RecurrenceUnit | null | undefined = !unitSent
    ? b.recurrence_unit
    : unitValue === null || isUnit(unitValue)
      ? unitValue
      : undefined

  for (const { key, value } of changed) {
    switch (key) {
      case 'name': {
        const error = nameError(value)
        if (error !== null) reject(key, error)
        break
      }
      case 'description': {
        const error = keptTextError(value)
        if (error !== null) reject(key, error)
        break
      }
      case 'access':
        if (!isAccess(value)) reject(key, fieldMessages.notInList)
        break
      case 'ends_on':
        if (value === null) break
        if (!isCalendarDate(value)) reject(key, fieldMessages.notADate)
        else if (value <= r.today) reject(key, fieldMessages.notAfter(r.today))
        break
      case 'manager_id': {
        // Checked even without a member list: the id is kept, and looked up by.
        const error = keptTextError(value)
        if (error !== null) reject(key, error)
        else if (typeof value === 'string' && r.company_member_ids !== undefined && !r.company_member_ids.includes(value))
          reject(key, fieldMessages.notAMember)
        break
      }
      case 'recurrence_unit':
        if (unit === undefined) reject(key, fieldMessages.notInList)
        break
      case 'recurrence_every':
        if (value === null) {
          if (unit !== null && unit !== undefined) reject(key, fieldMessages.every)
        } else if (!EveryCodec.is(value)) reject(key, fieldMessages.every)
        else if (unit === null) reject(key, fieldMessages.recurrenceOff)
        break
      case 'base_amount_cents':
        if (value === null) {
          if (unit !== null && unit !== undefined) reject(key, fieldMessages.baseRequired)
        } else if (!CentsCodec.is(value)) reject(key, fieldMessages.cents)
        else if (unit === null) reject(key, fieldMessages.recurrenceOff)
        break
      default:
        reject(key, isBudgetField(key) ? fieldMessages.readOnly : fieldMessages.unknown)
    }
  }
  // Turning recurrence on needs an amount per period, sent or already held.
  const baseSent = sent('base_amount_cents')
  const base = baseSent !== undefined ? baseSent.value : b.base_amount_cents
  if (unit !== null && unit !== undefined && b.recurrence_unit === null && baseSent === undefined && base === null)
    reject('base_amount_cents', fieldMessages.baseRequired)

  if (errors.length > 0) return fail(problem.invalid('budget.validation', errors))
  const everySent = sent('recurrence_every')
  const every = everySent !== undefined ? (everySent.value as Every | null) : b.recurrence_every
  const valid: Record<string, unknown> = {}
  for (const s of changed) if (!(recurrenceFields as ReadonlyArray<string>).includes(s.key)) valid[s.key] = s.value
  // Added, not spread into a new literal: a clone of this object's changing shape is slow.
  valid.recurrence = { unit: unit ?? null, every, base: base as Cents | null }
  return pass(
    'budget.validation',
    changed.length === 0 ? 'nothing changes' : 'every changed value is valid',
    valid as unknown as Changes
  )
}
