// Mutation testing of src/ (`npm run mutation`, scripts/mutation.mjs): Stryker 9.6 with the
// vitest runner, which runs only the tests that cover each mutant (perTest). Incremental: the
// results of the last run live in mutation/incremental.json (committed, outside reports/,
// which .ci/run deletes), so a rerun only tests the mutants whose code or tests changed.
// MUTATION_GROUP names one group of files (scripts/mutation-groups.mjs) to mutate, the others'
// results kept as they are; unset, every file of the core. scripts/mutation-report.mjs turns the
// results into mutation/report.md and enforces the scores (95% overall, 85% per file).
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { core, groups } from './scripts/mutation-groups.mjs'

const group = process.env.MUTATION_GROUP
if (group !== undefined && !Object.hasOwn(groups, group))
  throw new Error(`MUTATION_GROUP must name a group (${Object.keys(groups).join(', ')}), not ${JSON.stringify(group)}`)

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  mutate: [...(group === undefined ? core : groups[group])],
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code: a table, a regex, a message) is switched on when the
  // module loads, so every test must run for it: a minute each. scripts/mutation-report.mjs
  // counts and lists them apart from the score.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'mutation/incremental.json',
  concurrency: 2,
  reporters: ['progress', 'clear-text'],
  clearTextReporter: { reportMutants: false, reportTests: false },
  thresholds: { high: 95, low: 85, break: null },
  // The sandboxes live outside the project, where `eslint .`, git and the vitest globs never see
  // them, even while a run is under way.
  tempDirName: join(tmpdir(), 'budget-rules-stryker'),
  cleanTempDir: true
}
