/**
 * How many runs a fast-check property gets. `FC_NUM_RUNS` (a positive integer) raises every
 * property's runs: test/setup.ts makes it fast-check's global `numRuns`, and a property that
 * passes its own `numRuns` (which overrides the global one) passes `runs(n)` instead of `n`, so
 * that the environment raises it too (`FC_NUM_RUNS=10000 npx vitest run`).
 */

const parseRuns = (raw: string | undefined): number | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw)
  // A typo must not silently run the default number of runs.
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`FC_NUM_RUNS must be a positive integer, not ${JSON.stringify(raw)}`)
  return n
}

/** The number of runs the environment asks for, or undefined when FC_NUM_RUNS is not set. */
export const FC_NUM_RUNS: number | undefined = parseRuns(process.env.FC_NUM_RUNS)

/** The runs of a property that asks for `n`: `n`, or FC_NUM_RUNS when that is more. */
export const runs = (n: number): number => Math.max(n, FC_NUM_RUNS ?? 0)

/**
 * The time limit of a property that asks for `n` runs and is given `ms` for them: it grows in
 * proportion when it makes more runs (`actual`, by default `runs(n)`), so that FC_NUM_RUNS
 * never fails a property by time alone, and only a hang times out.
 */
export const timeoutFor = (n: number, ms: number, actual: number = runs(n)): number => Math.ceil(ms * Math.max(1, actual / n))
