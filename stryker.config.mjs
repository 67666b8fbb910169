// Mutation testing of src/ (`npm run mutation`): Stryker 9.6 with the vitest runner, which runs
// only the tests that cover each mutant (perTest). Incremental: the results of the last run live
// in docs/mutation-incremental.json (committed, outside reports/, which .ci/run deletes), so a
// rerun only tests the mutants whose code or tests changed. scripts/mutation-report.mjs turns
// the JSON report into docs/mutation.md and enforces the scores (90% overall, 80% per file).
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  // The pure core only: src/server, src/store, src/cli and src/conformance are the I/O around it,
  // tested end to end over sockets and a real database, where a mutant would cost a server start
  // each; src/arbitraries are generators, whose mutants change a distribution that the reach
  // counters of their tests sample rather than decide. The entry points only re-export.
  mutate: [
    'src/**/*.ts',
    '!src/*.ts',
    '!src/server/**',
    '!src/store/**',
    '!src/cli/**',
    '!src/conformance/**',
    '!src/arbitraries/**'
  ],
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code: a table, a regex, a message) is switched on when the
  // module loads, so every test must run for it: a minute each. scripts/mutation-report.mjs
  // counts and lists them apart from the score.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'docs/mutation-incremental.json',
  concurrency: 2,
  reporters: ['json', 'progress', 'clear-text'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { reportMutants: false, reportTests: false },
  thresholds: { high: 90, low: 80, break: null },
  // The sandboxes live outside the project, where `eslint .`, git and the vitest globs never see
  // them, even while a run is under way.
  tempDirName: join(tmpdir(), 'budget-rules-stryker'),
  cleanTempDir: true
}
