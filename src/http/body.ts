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
import { illFormedIn } from '../json/well-formed'
import * as problem from '../decision/problem'
import type { Problem } from '../decision/problem'

/**
 * The 400 text of a body holding text that is not well-formed Unicode outside the
 * fields a rule judges.
 *
 * @example
 * ILL_FORMED_BODY //=> 'The body holds text that is not well-formed Unicode (a lone surrogate)'
 *
 * @category constants
 * @since 0.4.0
 */
export const ILL_FORMED_BODY = 'The body holds text that is not well-formed Unicode (a lone surrogate)'

/**
 * The JSON object a body holds, or the 400 (under `rule`) of a body that is absent, not JSON,
 * not an object, or holding text that is not well-formed Unicode (a lone surrogate, R-128) in a
 * key or in a value but at the paths `judged` (dotted, `*` for any key): the fields whose own
 * rules judge their text and name them in a 422.
 *
 * @example
 * jsonObjectBody('money.body', '{"amount_cents":5000}') //=> right({ amount_cents: 5000 })
 * jsonObjectBody('money.body', '{') //=> left({ _tag: 'BadRequest', rule: 'money.body', message: 'The body is not valid JSON', detail: 'The body is not valid JSON' })
 * jsonObjectBody('money.body', '{"amount_cents":1,"note":"\\udbff"}')
 * //=> left({ _tag: 'BadRequest', rule: 'money.body', message: ILL_FORMED_BODY, detail: ILL_FORMED_BODY })
 * jsonObjectBody('role.body', '{"role":"\\udbff"}', ['role']) //=> right({ role: '\udbff' })
 *
 * @category utils
 * @since 0.1.0
 */
export const jsonObjectBody = (
  rule: RuleId,
  body: string | undefined,
  judged: ReadonlyArray<string> = []
): E.Either<Problem, Record<string, unknown>> => {
  let json: unknown
  try {
    json = JSON.parse(body ?? '')
  } catch {
    return E.left(problem.badRequest(rule, 'The body is not valid JSON'))
  }
  if (!isJsonObject(json)) return E.left(problem.badRequest(rule, 'The body must be a JSON object'))
  return illFormedIn(json, judged) ? E.left(problem.badRequest(rule, ILL_FORMED_BODY)) : E.right(json)
}
