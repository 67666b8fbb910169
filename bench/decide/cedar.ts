/**
 * Cedar (`@cedar-policy/cedar-wasm`, its Node.js build) asked the bench's questions in process:
 * the policy of bench/decide/budget.cedar, checked against budget.cedarschema once, then parsed
 * once (`preparsePolicySet`) and asked with `statefulIsAuthorized`, as a user who cares for speed
 * would call it.
 */
import { readFileSync } from 'node:fs'
import {
  type EntityJson,
  preparsePolicySet,
  statefulIsAuthorized,
  type StatefulAuthorizationCall,
  validate
} from '@cedar-policy/cedar-wasm/nodejs'
import type { BenchCase } from './cases'

/** The id the policy set is parsed under, in the Wasm module's own store. */
const POLICY_SET = 'budget-rules-bench'

const text = (name: string): string => readFileSync(new URL(name, import.meta.url), 'utf8')

/** The policy, as bench/decide/budget.cedar has it. */
export const CEDAR_POLICY = text('./budget.cedar')

/**
 * Checks the policy against its schema (a typo in an attribute would otherwise only deny) and
 * parses it once. Throws with Cedar's messages when either fails.
 */
export const prepareCedar = (): void => {
  const checked = validate({ schema: text('./budget.cedarschema'), policies: { staticPolicies: CEDAR_POLICY } })
  if (checked.type === 'failure') throw new Error(`Cedar: ${checked.errors.map((e) => e.message).join('; ')}`)
  if (checked.validationErrors.length > 0)
    throw new Error(
      `Cedar: the policy does not fit its schema: ${checked.validationErrors.map((e) => e.error.message).join('; ')}`
    )
  const parsed = preparsePolicySet(POLICY_SET, { staticPolicies: CEDAR_POLICY })
  if (parsed.type === 'failure') throw new Error(`Cedar: ${parsed.errors.map((e) => e.message).join('; ')}`)
}

const user = (id: string) => ({ __entity: { type: 'User', id } })

/**
 * The case as Cedar's request: the caller and the budget as entities, the fields the PATCH
 * changes in the context. Built once per case, before any timing: what Cedar is timed on is
 * its own decision, as the library is timed on its reply to a case already in memory.
 */
export const cedarCall = (c: BenchCase): StatefulAuthorizationCall => {
  const { principal: p, resource: r } = c
  const principal: EntityJson = {
    uid: { type: 'User', id: p.id },
    attrs: { role: p.role, permissions: [...p.permissions], company_id: p.company_id },
    parents: []
  }
  const resource: EntityJson = {
    uid: { type: 'Budget', id: r.id },
    attrs: {
      company_id: r.company_id,
      status: r.status,
      ...(r.manager_id === null ? {} : { manager: user(r.manager_id) }),
      ...(r.co_manager_id === null ? {} : { co_manager: user(r.co_manager_id) })
    },
    parents: []
  }
  return {
    principal: principal.uid,
    action: { type: 'Action', id: 'update' },
    resource: resource.uid,
    context: { fields: [...c.fields] },
    preparsedPolicySetId: POLICY_SET,
    entities: [principal, resource]
  }
}

/** Cedar's answer to a prepared call: allow or deny; an error of evaluation throws. */
export const cedarAllows = (call: StatefulAuthorizationCall): boolean => {
  const answer = statefulIsAuthorized(call)
  if (answer.type === 'failure') throw new Error(`Cedar: ${answer.errors.map((e) => e.message).join('; ')}`)
  if (answer.response.diagnostics.errors.length > 0)
    throw new Error(`Cedar: ${answer.response.diagnostics.errors.map((e) => e.error.message).join('; ')}`)
  return answer.response.decision === 'allow'
}
