import { defineConfig } from 'vitest/config'

// The build and the package, once per `npm test` (`npm run package:check`), after the build:
// what `npm start` rebuilds (test/build/) and the packed tarball installed into an empty project
// (test/package/). Neither depends on the time zone, so they stay out of the suite that
// scripts/unit.mjs runs under four of them (vitest.config.ts leaves them out).
export default defineConfig({
  test: {
    include: ['test/build/**/*.test.ts', 'test/package/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000
  }
})
