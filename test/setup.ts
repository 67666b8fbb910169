/**
 * Vitest setup (vitest.config.ts `setupFiles`), run before each test file: FC_NUM_RUNS becomes
 * fast-check's global `numRuns`, so every property without its own `numRuns` runs that many
 * times. Properties with their own pass `runs(n)` from ./runs.
 */
import fc from 'fast-check'
import { FC_NUM_RUNS } from './runs'

if (FC_NUM_RUNS !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: FC_NUM_RUNS })
