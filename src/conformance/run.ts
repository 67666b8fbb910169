/**
 * What the kit's property runs share around fast-check: a run's parameters, and a failed run
 * read back as its counterexample and the disagreement that failed it.
 *
 * @since 0.4.0
 */
import type fc from 'fast-check'

/** fast-check's parameters of a run: how many, and the seed and path of one to replay. */
export const runParameters = (numRuns: number, seed: number | undefined, path: string | undefined) => ({
  numRuns,
  ...(seed === undefined ? {} : { seed }),
  ...(path === undefined ? {} : { path })
})

/**
 * The counterexample of a failed run and the disagreement (an instance of `kind`) that failed
 * it, with the run's count, seed and path to replay; anything else that failed it, a defect of
 * the kit, is thrown again.
 */
export const disagreementOf = <Ts extends [unknown, ...Array<unknown>], D>(
  details: fc.RunDetails<Ts>,
  kind: abstract new (...args: never) => D
) => {
  const found: Ts[0] | undefined = details.counterexample?.[0]
  const error: unknown = details.errorInstance
  if (found === undefined || !(error instanceof kind)) throw error instanceof Error ? error : new Error(String(error))
  return { found, error, runs: details.numRuns, seed: details.seed, path: details.counterexamplePath ?? '' }
}
