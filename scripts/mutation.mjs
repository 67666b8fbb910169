// `npm run mutation [-- <group>...]`: Stryker over each group of scripts/mutation-groups.mjs in
// turn (all of them unless named), each run saving its results in mutation/incremental.json
// as it ends, then mutation/report.md from them (scripts/mutation-report.mjs, which sets the exit
// code).
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

import { groups } from './mutation-groups.mjs'

const asked = process.argv.slice(2)
const unknown = asked.filter((group) => !Object.hasOwn(groups, group))
if (unknown.length > 0) {
  console.error(`no such group: ${unknown.join(', ')} (the groups: ${Object.keys(groups).join(', ')})`)
  process.exit(2)
}

const require = createRequire(import.meta.url)
const stryker = join(dirname(require.resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js')
const run = (args, env = {}) =>
  spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1

for (const group of asked.length > 0 ? asked : Object.keys(groups)) {
  console.log(`== mutation group ${group}: ${groups[group].join(' ')}`)
  const status = run([stryker, 'run'], { MUTATION_GROUP: group })
  if (status !== 0) process.exit(status)
}
process.exit(run(['scripts/mutation-report.mjs']))
