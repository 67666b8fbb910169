/**
 * The body of a budget update, decoded far enough to tell the four ways it can be wrong
 * (contract section 5): not JSON or of the wrong JSON types (400, `budget.body.type`), no
 * `budget` wrapper (412, `budget.body.wrapper`), and, later, invalid values and unknown keys
 * (422, `budget.validation`). Nothing here parses nested objects generically: the only keys
 * read are `budget` and the keys the client sent inside it, each as an own property.
 *
 * @example
 * decodeUpdateBody('{"budget":{"name":"Travel"}}')
 * //=> right([{ key: 'name', value: 'Travel' }])
 * decodeUpdateBody('{"name":"Travel"}')
 * //=> left({ _tag: 'PreconditionFailed', rule: 'budget.body.wrapper', detail: 'no "budget" key in the body' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'
import type { UpdateField } from './model'
import { jsonObjectBody } from '../http/body'
import { hasOwn, isJsonObject, ownValue } from '../json/value'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One key the client sent inside `budget`, with its JSON value.
 *
 * @example
 * decodeUpdateBody('{"budget":{"name":"Travel","ends_on":null}}') //=> right([{ key: 'name', value: 'Travel' }, { key: 'ends_on', value: null }])
 *
 * @category model
 * @since 0.1.0
 */
export interface Sent {
  readonly key: string
  readonly value: unknown
}

interface JsonType {
  readonly test: (u: unknown) => boolean
  readonly expected: string
}

const string: JsonType = { test: (u) => typeof u === 'string', expected: 'a string' }
const stringOrNull: JsonType = { test: (u) => u === null || typeof u === 'string', expected: 'a string or null' }
const numberOrNull: JsonType = { test: (u) => u === null || typeof u === 'number', expected: 'a number or null' }

/**
 * The JSON type of each update field, from the Budget shape. A value of the right type may
 * still be invalid (a number that is not an integer is a 422, not a 400).
 */
const jsonTypes: Readonly<Record<UpdateField, JsonType>> = {
  name: string,
  description: stringOrNull,
  access: string,
  ends_on: stringOrNull,
  manager_id: stringOrNull,
  recurrence_unit: stringOrNull,
  recurrence_every: numberOrNull,
  base_amount_cents: numberOrNull
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The keys sent, in the order sent, or what is wrong with their JSON types (one pass, no array per key). */
const sentKeys = (budget: Record<string, unknown>): E.Either<ReadonlyArray<string>, ReadonlyArray<Sent>> => {
  const sent: Array<Sent> = []
  const wrong: Array<string> = []
  for (const key of Object.keys(budget)) {
    const value = budget[key]
    const type = hasOwn(jsonTypes, key) ? jsonTypes[key as UpdateField] : undefined
    if (type !== undefined && !type.test(value)) wrong.push(`budget.${key} must be ${type.expected}`)
    sent.push({ key, value })
  }
  return wrong.length > 0 ? E.left(wrong) : E.right(sent)
}

/**
 * The keys sent inside `budget`, in the order sent, or the 400 or 412 problem of the body.
 *
 * @example
 * decodeUpdateBody('{"budget":{"name":"Travel"}}') //=> right([{ key: 'name', value: 'Travel' }])
 * decodeUpdateBody('{"budget":{"name":7}}') //=> left({ _tag: 'BadRequest', rule: 'budget.body.type', message: 'budget.name must be a string', detail: 'budget.name must be a string' })
 *
 * @category utils
 * @since 0.1.0
 */
export const decodeUpdateBody = (body: string | undefined): E.Either<Problem, ReadonlyArray<Sent>> => {
  if (body === undefined || body.trim() === '') return E.left(problem.preconditionFailed('budget.body.wrapper', 'no body'))
  const json = jsonObjectBody('budget.body.type', body, ['budget.*'])
  if (E.isLeft(json)) return json
  const budget = ownValue(json.right, 'budget')
  if (budget === null || budget === undefined)
    return E.left(problem.preconditionFailed('budget.body.wrapper', 'no "budget" key in the body'))
  if (!isJsonObject(budget)) return E.left(problem.badRequest('budget.body.type', 'budget must be a JSON object'))
  const sent = sentKeys(budget)
  return E.isLeft(sent) ? E.left(problem.badRequest('budget.body.type', sent.left.join('; '))) : sent
}
