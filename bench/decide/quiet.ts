/**
 * Waiting for a quiet machine before `npm run bench:decide` times anything: its servers, its
 * load generator and anything else running share the same cores, so a figure taken while
 * another job runs (a mutation run, a build) measures that job as much as the servers.
 */
import { loadavg } from 'node:os'

/** How the wait went: what the run says of the machine it timed on. */
export interface Quiet {
  /** The 1-minute load average the run waits to fall below. */
  readonly below: number
  /** The 1-, 5- and 15-minute load averages when the timing started. */
  readonly load_at_start: readonly [number, number, number]
  readonly waited_seconds: number
  /** True when the wait gave up and the run timed anyway. */
  readonly gave_up: boolean
}

export interface QuietOptions {
  readonly below: number
  readonly maxMinutes: number
  /** Seconds between two looks (and two lines printed). */
  readonly every: number
  readonly log: (line: string) => void
  /** The 1-, 5- and 15-minute load averages; the system's by default. */
  readonly loads?: () => ReadonlyArray<number>
  readonly sleep?: (ms: number) => Promise<void>
}

const round = (x: number) => Number(x.toFixed(2))

/**
 * Waits until the 1-minute load average is below `below`, printing it every `every` seconds;
 * gives up after `maxMinutes` and returns all the same, saying so.
 */
export const waitForQuiet = async (options: QuietOptions): Promise<Quiet> => {
  const loads = options.loads ?? loadavg
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const now = () => [0, 1, 2].map((i) => round(loads()[i] ?? Number.NaN)) as unknown as readonly [number, number, number]
  let waited = 0
  while (now()[0] >= options.below) {
    if (waited >= options.maxMinutes * 60) {
      options.log(
        `the 1-minute load average is still ${now()[0]} after ${options.maxMinutes} minutes: timing anyway, on a busy machine`
      )
      return { below: options.below, load_at_start: now(), waited_seconds: waited, gave_up: true }
    }
    options.log(`waiting for a quiet machine: the 1-minute load average is ${now()[0]}, not yet below ${options.below}`)
    await sleep(options.every * 1000)
    waited += options.every
  }
  const start = now()
  options.log(`quiet: the load average is ${start.join(', ')} (1, 5, 15 minutes)${waited > 0 ? ` after ${waited} s` : ''}`)
  return { below: options.below, load_at_start: start, waited_seconds: waited, gave_up: false }
}
