// Prints the plain closing line CI reads, "N passed, N failed", from the JSON reports that
// scripts/unit.mjs wrote. A failing step that left no failed test (typecheck, lint, package
// check) counts as one failure, so a red run can never read as all passed.
import { existsSync, readdirSync, readFileSync } from 'node:fs'

const status = Number(process.argv[2] ?? '1')
let passed = 0
let failed = 0
const dir = 'reports'
for (const name of existsSync(dir) ? readdirSync(dir) : []) {
  if (!name.endsWith('.json')) continue
  try {
    const report = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'))
    passed += report.numPassedTests
    failed += report.numFailedTests + (report.success || report.numFailedTests > 0 ? 0 : 1)
  } catch {
    failed += 1
  }
}
if (status !== 0 && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed`)
