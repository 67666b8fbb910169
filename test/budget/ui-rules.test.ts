import { describe, expect, it } from 'vitest'
import * as root from '../../src/index'
import * as ui from '../../src/ui-rules'

// src/ui-rules.ts is an entry of the ESM build only (tsup.config.ts, ADR 0131): it must hold the
// UI's rules, the very functions of the root, and nothing else.
describe('src/ui-rules.ts', () => {
  it("exports the root's permittedUpdateFields, lockedUpdateFields and upcomingPeriods, and nothing else", () => {
    expect(Object.keys(ui).sort()).toEqual(['lockedUpdateFields', 'permittedUpdateFields', 'upcomingPeriods'])
    expect(ui.permittedUpdateFields).toBe(root.permittedUpdateFields)
    expect(ui.lockedUpdateFields).toBe(root.lockedUpdateFields)
    expect(ui.upcomingPeriods).toBe(root.upcomingPeriods)
  })
})
