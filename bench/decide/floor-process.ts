/**
 * A floor of `npm run bench:decide` in a process of its own (the floor with its record when
 * given `--answer`), as the bench runs it: bundled
 * first (bench/decide/servers.ts's `buildFloor`, as dist/cli.js is bundled) and run on plain
 * `node`, so that it does not share an event loop with the load generator and runs code built
 * as the service's is. Prints `listening on URL` once it listens; stops on SIGTERM, exiting
 * normally so that a CPU profile asked with `--cpu-prof` is written.
 */
import { startFloor } from './floor'

const running = await startFloor(process.argv.includes('--answer') ? 'answer' : 'reply')
process.once('SIGTERM', () => {
  void running.close().finally(() => process.exit(0))
})
console.log(`listening on ${running.url}`)
