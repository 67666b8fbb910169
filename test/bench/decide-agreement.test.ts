import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { benchCases, checkCases, libraryAllows } from '../../bench/decide/cases'
import { cedarAllows, cedarCall, CEDAR_POLICY, prepareCedar } from '../../bench/decide/cedar'
import { fieldPermissions, updateFields } from '../../src/rules'

// `npm run bench:decide` times Cedar and Cerbos only once each gives the library's
// answer on every case. Cedar runs in process and is checked here on every case, so that a
// change of the permission table that the policy does not follow fails `npm test`, not a
// benchmark run weeks later. Cerbos is a 96 MB binary the bench installs on first use: here
// only its policy's action lists are read against the table.

const cases = benchCases()
const managerFields = updateFields.filter((f) => fieldPermissions[f].needs === 'manager')

describe('bench:decide: the questions', () => {
  it('are each decided by the scope, the permission table or the closed state, never by validation', () => {
    expect(() => {
      checkCases(cases)
    }).not.toThrow()
  })

  it('ask about every field, alone, by every role, with and without budgets_manage, and are both allowed and denied', () => {
    const alone = new Set(
      cases
        .filter((c) => c.fields.length === 1)
        .map((c) => `${c.principal.role} ${c.principal.permissions.join()} ${c.fields.join()}`)
    )
    for (const role of ['owner', 'admin', 'member'])
      for (const permissions of ['', 'budgets_manage'])
        for (const field of updateFields) expect(alone).toContain(`${role} ${permissions} ${field}`)
    const answers = new Set(cases.map(libraryAllows))
    expect([...answers].sort()).toEqual([false, true])
  })
})

describe('bench:decide: the Cedar policy (bench/decide/budget.cedar)', () => {
  it('fits its schema, and gives the library allow or deny on every case of the bench', () => {
    prepareCedar()
    const disagree = cases.filter((c) => cedarAllows(cedarCall(c)) !== libraryAllows(c)).map((c) => c.title)
    expect(disagree).toEqual([])
  })

  it("names the fields a group's manager may change as the permission table does", () => {
    const listed = /\[([^\]]*)\]\.containsAll\(context\.fields\)/.exec(CEDAR_POLICY)?.[1]
    expect(listed?.split(',').map((s) => JSON.parse(s.trim()) as string)).toEqual(managerFields)
  })
})

describe('bench:decide: the Cerbos policy (bench/decide/cerbos/policies/budget.yaml)', () => {
  const policy = readFileSync(new URL('../../bench/decide/cerbos/policies/budget.yaml', import.meta.url), 'utf8')
  const actionsOf = (rule: string): ReadonlyArray<string> | undefined => {
    const listed = new RegExp(`- name: ${rule}\\n\\s+actions:\\s*\\[([^\\]]*)\\]`).exec(policy)?.[1]
    // The YAML's strings are quoted as prettier writes them, in single quotes.
    return listed?.split(',').map((s) => s.trim().replace(/^'(.*)'$/, '$1'))
  }

  it('has an action for every update field, every one allowed to full budget rights', () => {
    expect(actionsOf('full-rights')).toEqual(updateFields)
  })

  it("allows a group's manager the fields the permission table does", () => {
    expect(actionsOf('group-manager')).toEqual(managerFields)
  })
})
