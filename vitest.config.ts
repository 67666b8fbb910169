import { defineConfig } from 'vitest/config'

// FC_NUM_RUNS raises every property's runs (test/setup.ts, test/runs.ts); the time a test may
// take grows with it (5 s per 100 runs, at most 10 minutes), so that only a hang times out.
const numRuns = Number(process.env.FC_NUM_RUNS ?? '')
const testTimeout = Number.isSafeInteger(numRuns) && numRuns > 100 ? Math.min(600_000, 50 * numRuns) : 5_000

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout,
    // Coverage of src/ (scripts/unit.mjs asks for it on the UTC run only, with --coverage):
    // every line, and all but a few branches, run by some test. The entry points only re-export.
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      exclude: ['src/index.ts', 'src/rules.ts', 'src/client.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: { lines: 100, branches: 98 }
    }
  }
})
