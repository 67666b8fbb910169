import { configDefaults, defineConfig } from 'vitest/config'

// FC_NUM_RUNS raises every property's runs (test/setup.ts, test/runs.ts); the time a test may
// take grows with it (5 s per 100 runs, at most 10 minutes), so that only a hang times out. The
// floor is 20 s: a property of 100 runs took over 5 s on 2 busy cores under coverage.
const numRuns = Number(process.env.FC_NUM_RUNS ?? '')
const testTimeout = Math.max(20_000, Number.isSafeInteger(numRuns) && numRuns > 100 ? Math.min(600_000, 50 * numRuns) : 0)

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Once per `npm test`, after the build, by vitest.package.config.ts (`npm run package:check`).
    exclude: [...configDefaults.exclude, 'test/build/**', 'test/package/**'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout,
    // Coverage of src/ (scripts/unit.mjs asks for it on the UTC run only, with --coverage): in
    // the pure core every line, and all but a few branches, run by some test. Around the core
    // (the reference server, its store, the CLI), tested end to end over real sockets and
    // processes, some failure paths (a database that drops its connection, a signal) are not
    // reached; the arbitraries are generators, whose rarer branches a run reaches by chance. The entry points only re-export; src/cli/main.ts only hands the process to `run`
    // (test/cli spawns it; the same cases run in-process through `run`).
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      exclude: [
        'src/index.ts',
        'src/arbitraries.ts',
        'src/conformance.ts',
        'src/rules.ts',
        'src/client.ts',
        'src/sql.ts',
        'src/react-admin.ts',
        'src/cli/main.ts',
        // The PostgreSQL driver runs only when a server is given (DATABASE_URL, as .ci/run sets).
        ...(process.env.DATABASE_URL === undefined ? ['src/store/postgres.ts'] : [])
      ],
      reporter: ['text-summary', 'json-summary'],
      // A failing test must not hide how much the others covered.
      reportOnFailure: true,
      reportsDirectory: 'coverage',
      thresholds: {
        // The standing floors; the last run: core lines 100%, branches 99.4%; around, 99.4% and 92.3%.
        'src/!(server|store|cli|conformance|arbitraries|react-admin)/**': { lines: 100, branches: 99 },
        // The react-admin provider sends through a fetch: timeouts and aborts race it.
        'src/{server,store,cli,conformance,arbitraries,react-admin}/**': { lines: 95, branches: 85 }
      }
    }
  }
})
