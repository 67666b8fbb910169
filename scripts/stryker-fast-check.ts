/**
 * fast-check as the suite sees it under Stryker (vitest.stryker.config.ts aliases `fast-check`
 * here): the same library, but a property asking for n runs gets a fifth of them
 * (STRYKER_FC_DIVISOR), never fewer than n or 200, whichever is less (STRYKER_FC_FLOOR), from the
 * seed STRYKER_FC_SEED (1 unless set) when it names none. Properties of thousands of runs would
 * otherwise make every mutant they cover take seconds; a mutant only their later runs would
 * tell apart is reported as surviving, not hidden. Properties that count their runs (a share
 * reaching the conclusion, every status seen) keep enough of them, and the fixed seed makes each
 * mutant's run see the dry run's values, so that no mutant is killed by chance.
 */
import * as real from '../node_modules/fast-check/lib/fast-check.js'

export * from '../node_modules/fast-check/lib/fast-check.js'

const positive = (name: string, fallback: number): number => {
  const raw = process.env[name]
  const n = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`)
  return n
}
const divisor = positive('STRYKER_FC_DIVISOR', 5)
const floor = positive('STRYKER_FC_FLOOR', 200)
const seed = positive('STRYKER_FC_SEED', 1)

const capped = <P extends { numRuns?: number; seed?: number }>(params: P | undefined): P => {
  const n = params?.numRuns ?? real.readConfigureGlobal().numRuns ?? 100
  return { seed, ...params, numRuns: Math.max(Math.min(n, floor), Math.ceil(n / divisor)) } as P
}

export const assert: typeof real.assert = ((property: never, params?: never) => real.assert(property, capped(params))) as never
export const check: typeof real.check = ((property: never, params?: never) => real.check(property, capped(params))) as never

export default { ...real.default, assert, check }
