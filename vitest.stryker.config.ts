import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import base from './vitest.config'

/**
 * Test files quickest first (by their last duration, unknown ones as quick): Stryker stops at a
 * mutant's first failing test, so a mutant an example kills is never made to wait for the
 * property suites.
 */
class QuickestFirst extends BaseSequencer {
  override sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const duration = (spec: TestSpecification): number =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)?.duration ?? 0
    return Promise.resolve([...files].sort((a, b) => duration(a) - duration(b)))
  }
}

// The suite as Stryker runs it (stryker.config.mjs): the same tests and setup, less
// - test/examples.test.ts, test/embedding/ and test/consumer.test.ts, which run or type-check the
//   built dist/, and test/fuzz/, which fuzzes in worker
//   processes: Stryker cannot switch a mutant on in another process, so they could only cost;
// - test/facade/budget-update.properties.test.ts, whose properties assert absolute counts (each
//   kind of recurrence change seen more than 100 times) that need their full 2,000 runs;
// - the tests of what is around the core (test/server/, test/cli/, test/conformance/,
//   test/explorer/, test/admin/, react-admin's stock components in a browser) and the SQL
//   differential on PGlite (test/sql/pushdown.properties.test.ts):
//   they start servers, databases, processes or a browser, and reach most of the core, so each
//   mutant would pay for them; the core's own tests decide its mutants;
// and fast-check with a fifth of each large property's runs from a fixed seed
// (scripts/stryker-fast-check.ts), so that a mutant the property suites cover costs a fraction
// of what the whole properties would. The time limit is Stryker's (its timeoutMS over the dry
// run's times), not vitest's.
export default mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [{ find: /^fast-check$/, replacement: fileURLToPath(new URL('./scripts/stryker-fast-check.ts', import.meta.url)) }]
    },
    test: {
      exclude: [
        'test/examples.test.ts',
        'test/embedding/**',
        'test/consumer.test.ts',
        'test/fuzz/**',
        'test/facade/budget-update.properties.test.ts',
        'test/server/**',
        'test/cli/**',
        'test/conformance/**',
        'test/explorer/**',
        'test/admin/**',
        'test/react-admin/stock.test.ts',
        'test/react-admin/server.test.ts',
        'test/openapi/prism.test.ts',
        'test/openapi/client.test.ts',
        'test/openapi/docs-page.test.ts',
        'test/openapi/tools.test.ts',
        // Their reach checks (every status of every operation, a share of runs) need the full runs,
        // which Stryker's fifth does not give; test/openapi/document.test.ts and the provider's
        // recorded-fetch tests cover the same modules.
        'test/openapi/replies.test.ts',
        'test/react-admin/hostile.test.ts',
        'test/sql/pushdown.properties.test.ts',
        'test/sql/decisions-pushdown.properties.test.ts',
        // Copies src/ with a rule changed and records traffic through a server: a replay's end to end.
        'test/decisions/changed-rule.test.ts',
        'node_modules/**'
      ],
      testTimeout: 120_000,
      sequence: { sequencer: QuickestFirst }
    }
  })
)
