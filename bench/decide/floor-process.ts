/**
 * A floor of `npm run bench:decide` in a process of its own, answering with the kind its first
 * argument names (`reply`, the default; `answer`; `batch`: bench/decide/floor.ts), as the bench
 * runs it: bundled first (bench/decide/servers.ts's `buildFloor`, as dist/cli.js is bundled) and
 * run on plain `node`, so that it does not share an event loop with the load generator and runs
 * code built as the service's is. Prints `listening on URL` once it listens; stops on SIGTERM, exiting
 * normally so that a CPU profile asked with `--cpu-prof` is written.
 */
import { type FloorKind, startFloor } from './floor'

const kinds: ReadonlyArray<FloorKind> = ['reply', 'answer', 'batch']
const kind = kinds.find((k) => k === process.argv[2]) ?? 'reply'
const running = await startFloor(kind)
process.once('SIGTERM', () => {
  void running.close().finally(() => process.exit(0))
})
console.log(`listening on ${running.url}`)
