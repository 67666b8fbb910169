/**
 * The vitest side of the fuzz: one test per entry point, each fuzzed FUZZ_RUNS times in the
 * worker of its file. A test fails with the list of distinct failures found (what happened, where,
 * how often, and the smallest input fast-check shrank it to), and the seed to replay them.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { type Entry, formatFailure, FuzzPool, RUNS, SEED, TEST_TIMEOUT_MS } from './pool'

/** Defines the tests of the entry points `pick` selects. */
export const fuzzEntryPoints = async (title: string, pick: (e: Entry) => boolean): Promise<void> => {
  const pool = await FuzzPool.start()
  const entries = (await pool.list()).filter(pick)
  afterAll(() => pool.close())

  describe(`${title} (FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED})`, () => {
    it('has entry points to fuzz', () => {
      expect(entries.length).toBeGreaterThan(0)
    })
    for (const entry of entries)
      it(
        `${entry.name}${entry.generic ? ' (no entry in targets.ts: generic arguments)' : ''}`,
        async () => {
          const result = await pool.run(entry.name)
          expect(result.failures.map(formatFailure), `seed ${SEED}`).toEqual([])
          expect(result.stats.runs).toBe(RUNS)
          if (entry.kind === 'facade' && !entry.generic)
            // Most runs must get past the check of the context into the rules, or the fuzz is shallow.
            expect(result.stats.deep / result.stats.runs).toBeGreaterThanOrEqual(0.5)
        },
        TEST_TIMEOUT_MS
      )
  })
}
