// The files Stryker mutates (stryker.config.mjs), and the groups `npm run mutation` runs one at a
// time (scripts/mutation.mjs). Stryker writes its results when a run ends, and a run of one
// group keeps the results of the others: a full run stopped half-way keeps the groups it
// finished, and the next takes up where it stopped.

/**
 * The pure core only: src/server, src/store, src/cli and src/conformance are the I/O around it,
 * tested end to end over sockets and a real database, where a mutant would cost a server start
 * each; src/arbitraries are generators, whose mutants change a distribution that the reach
 * counters of their tests sample rather than decide. The entry points only re-export.
 */
export const core = [
  'src/**/*.ts',
  '!src/*.ts',
  '!src/server/**',
  '!src/store/**',
  '!src/cli/**',
  '!src/conformance/**',
  '!src/arbitraries/**'
]

// A surviving mutant runs every test that covers it. Most tests pass through these modules, and
// the paging and facade suites through the selection of a page (its ranking and scratch memory
// with it), so each of their survivors costs up to a minute; apart, they cannot hold back the
// results of the rest.
const shared = ['src/calendar/instant.ts', 'src/calendar/date.ts', 'src/decision/trail.ts', 'src/recurrence/schedule.ts']
const select = ['src/paging/select.ts', 'src/paging/ranking.ts', 'src/paging/scratch.ts']

/**
 * Each group's globs, in the order a full run takes them, the cheap first. Every file of the core
 * is in exactly one group: `rest` is the core less the others.
 * @type {Readonly<Record<string, ReadonlyArray<string>>>}
 */
export const groups = {
  rest: [...core, ...[...shared, ...select].map((file) => `!${file}`)],
  shared,
  select
}
