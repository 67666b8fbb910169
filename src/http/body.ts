/**
 * A request body that must be a JSON object: the 400 of text that is not JSON, or of JSON that
 * is not an object, with the message every endpoint uses for it.
 *
 * @example
 * jsonObjectBody('money.body', '[1]') //=> left({ _tag: 'BadRequest', rule: 'money.body', message: 'The body must be a JSON object', detail: 'The body must be a JSON object' })
 *
 * @since 0.1.0
 */
import { either as E } from 'fp-ts'
import type { RuleId } from '../decision/rules'
import { isJsonObject } from '../json/value'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'

/**
 * The JSON object a body holds, or the 400 (under `rule`) of a body that is absent, not JSON,
 * or not an object.
 *
 * @example
 * jsonObjectBody('money.body', '{"amount_cents":5000}') //=> right({ amount_cents: 5000 })
 * jsonObjectBody('money.body', '{') //=> left({ _tag: 'BadRequest', rule: 'money.body', message: 'The body is not valid JSON', detail: 'The body is not valid JSON' })
 *
 * @category utils
 * @since 0.1.0
 */
export const jsonObjectBody = (rule: RuleId, body: string | undefined): E.Either<Problem, Record<string, unknown>> => {
  let json: unknown
  try {
    json = JSON.parse(body ?? '')
  } catch {
    return E.left(problem.badRequest(rule, 'The body is not valid JSON'))
  }
  return isJsonObject(json) ? E.right(json) : E.left(problem.badRequest(rule, 'The body must be a JSON object'))
}
