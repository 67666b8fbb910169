/**
 * The decision service (R-130) measured against the policy engines a user would pick instead
 * (R-132, issue 39), on the same questions: may this caller change these fields of this budget
 * (bench/decide/cases.ts: every combination the permission table tells apart).
 *
 * 1. Built code: dist/ built (`node scripts/build.mjs`, as `npm run build`), the floor
 *    bundled as dist/cli.js is (bench/decide/servers.ts). Every server under test runs in a
 *    process of its own on plain `node`: the floor's bundle, and the service as
 *    `node dist/cli.js serve --decide` runs by default, its log at `info` to /dev/null.
 * 2. Agreement: Cedar (`@cedar-policy/cedar-wasm`, bench/decide/budget.cedar) and Cerbos (the
 *    `cerbos` binary of `@cerbos/cerbos-linux-x64`, bench/decide/cerbos/) must each give the
 *    library's allow or deny on every case, and both floors and both instances of the service the
 *    library's very reply, with their records and without (`?record=false`); the first
 *    difference is printed and the run stops (exit 1) before any timing.
 * 3. A quiet machine: nothing is timed before the 1-minute load average is below 1.5
 *    (bench/decide/quiet.ts; after 15 minutes the run times anyway, and says so).
 * 4. In process: the built library's `respondBudgetUpdate` (dist/index.js, the update's whole
 *    reply) against Cedar's `statefulIsAuthorized` with its policy set parsed once
 *    (`preparsePolicySet`), in CPU time (bench/harness.ts's `timeCase`).
 * 5. Over HTTP, autocannon in this process with the same connections for every load: the floor;
 *    the floor with its record (`answerCase`'s whole answer, no log or metrics: the bound of any
 *    service that answers as R-130 asks); the service's `POST /v1/decide`, with records and with
 *    `?record=false`; Cerbos's `POST /api/check/resources` one question a request; then batches
 *    of 100: the service's `/v1/decide/batch` with records and without, on one instance and on
 *    two, the connections split evenly across them; the floor with its records, on two
 *    processes; Cerbos, whose API batches resources for one principal, so that each batch is one
 *    principal's cases, the same 100 for all.
 *
 * Prints each goal of R-132 as met or not with the row it judged, writes
 * bench/decide-results.json and the section of docs/performance.md between its markers. Run:
 * `npm run bench:decide` (about two and a half minutes, the build's half a minute included, once the machine is quiet; the first run
 * installs Cerbos into bench/.cerbos/). BENCH_SECONDS sets each load's time (10 s);
 * BENCH_QUIET_BELOW and BENCH_QUIET_MINUTES the wait (1.5, 15). Where the floor's and the
 * service's CPU goes: `npx tsx bench/decide/profile.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as Library from '../src/index'
import { respondBudgetUpdate } from '../src/index'
import { deepEqual, machine, timeCase } from './harness'
import { type BenchCase, batchesOf, benchCases, checkCases, contextOf, libraryAllows } from './decide/cases'
import { cedarAllows, cedarCall, prepareCedar } from './decide/cedar'
import { CERBOS_VERSION, cerbosAllows, cerbosRequest, installCerbos, startCerbos } from './decide/cerbos-pdp'
import { cpuOf } from './decide/cpu'
import { type Figure, load } from './decide/load'
import { type Quiet, waitForQuiet } from './decide/quiet'
import {
  buildFloor,
  buildDist,
  removeFloor,
  type Running,
  SERVICE_LOG_LEVEL,
  startFloorProcess,
  startServiceProcess
} from './decide/servers'

const SECONDS = Number(process.env.BENCH_SECONDS ?? '10')
const QUIET_BELOW = Number(process.env.BENCH_QUIET_BELOW ?? '1.5')
const QUIET_MINUTES = Number(process.env.BENCH_QUIET_MINUTES ?? '15')
const CONNECTIONS = 10
const BATCH = 100
const GOAL_BATCH = 100_000
const COMMAND = 'npm run bench:decide'
const ROOT = fileURLToPath(new URL('../', import.meta.url))

const log = (line: string) => {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

/** Every server the run starts, stopped however the run ends. */
const started: Array<Running> = []

/** Prints where an engine first disagrees with the library, and stops the run before any timing. */
const refuse = (who: string, c: BenchCase, expected: unknown, got: unknown): never => {
  console.error(`\n${who} disagrees with the library on "${c.title}" (${c.case.request_id}):`)
  console.error(`library: ${JSON.stringify(expected)}\n${who}: ${JSON.stringify(got)}`)
  console.error(`the case: ${JSON.stringify(c.case)}`)
  console.error('Nothing is timed until every engine agrees on every case.')
  // The servers started so far stop with the run: an exit skips the `finally` that stops them.
  for (const s of started) s.child.kill('SIGTERM')
  removeFloor()
  process.exit(1)
}

// -------------------------------------------------------------------------------------
// built code: dist/ current, the floor bundled
// -------------------------------------------------------------------------------------

log('dist/: node scripts/build.mjs (npm run build)')
buildDist()
const floorBundle = await buildFloor()
log(`the floor bundled into ${floorBundle}, as dist/cli.js is bundled`)
const built = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as typeof Library

// -------------------------------------------------------------------------------------
// the questions, and Cedar's answers
// -------------------------------------------------------------------------------------

const cases = benchCases()
checkCases(cases)
const allowed = cases.map(libraryAllows)
const allowedCount = allowed.filter(Boolean).length
log(`${cases.length} cases: the library allows ${allowedCount} and denies ${cases.length - allowedCount}`)

/** The library's reply as it crosses the wire: JSON, a refusal with no budget to persist. */
const wire = (c: BenchCase): unknown => JSON.parse(JSON.stringify(respondBudgetUpdate(contextOf(c.case)))) as unknown

// The library timed is the built one: it must be the sources' very reply.
for (const c of cases) {
  const got = JSON.parse(JSON.stringify(built.respondBudgetUpdate(contextOf(c.case)))) as unknown
  if (!deepEqual(wire(c), got)) refuse('dist/index.js', c, wire(c), got)
}

prepareCedar()
const cedarCalls = cases.map(cedarCall)
// The very calls that are timed below.
cedarCalls.forEach((call, i) => {
  const cedar = cedarAllows(call)
  if (cedar !== allowed[i]) refuse('Cedar', cases[i] as BenchCase, allowed[i], cedar)
})
log('Cedar agrees with the library on every case')

// -------------------------------------------------------------------------------------
// in process: the library's whole reply against Cedar's decision, pre-parsed
// -------------------------------------------------------------------------------------

const contexts = cases.map((c) => contextOf(c.case))
const LIBRARY = 'budget-rules respondBudgetUpdate (the whole reply; dist/index.js)'
const CEDAR = 'Cedar statefulIsAuthorized (policy set pre-parsed)'

/** Times the library and Cedar in this process, each call every case: the time of one decision of each. */
const timeInProcess = async () => {
  log(`timing in process: ${LIBRARY} against ${CEDAR}, every case a call`)
  const inProcess = await timeCase({
    suite: 'decide',
    title: `${cases.length} cases`,
    contenders: [
      {
        name: LIBRARY,
        kind: 'library',
        run: () => {
          let yes = 0
          for (const context of contexts) if (built.respondBudgetUpdate(context).status === 200) yes++
          return yes
        }
      },
      {
        name: CEDAR,
        kind: 'peer',
        run: () => {
          let yes = 0
          for (const call of cedarCalls) if (cedarAllows(call)) yes++
          return yes
        }
      }
    ],
    goals: [{ against: CEDAR, atMost: 1 / 20 }]
  })
  const perDecision = (name: string) => (inProcess.rows.find((r) => r.name === name)?.mean_us ?? Number.NaN) / cases.length
  const libraryUs = perDecision(LIBRARY)
  const cedarUs = perDecision(CEDAR)
  log(
    `in process: the library ${libraryUs.toFixed(2)} µs a decision, Cedar ${cedarUs.toFixed(2)} µs (${(cedarUs / libraryUs).toFixed(1)}×)`
  )
  return { rows: inProcess.rows, libraryUs, cedarUs }
}

// -------------------------------------------------------------------------------------
// the servers, each in a process of its own, and their answers checked
// -------------------------------------------------------------------------------------

const post = async (url: string, body: string): Promise<unknown> => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const text = await r.text()
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as unknown
}

/**
 * An answer of the service, less what the library's reply does not hold: its record (which it
 * must hold, or must not with `?record=false`), and a refusal's null budget.
 */
const asReply = (answer: unknown, recorded: boolean): unknown => {
  const reply = { ...(answer as Record<string, unknown>) }
  if (Object.hasOwn(reply, 'record') !== recorded) return { record: recorded ? 'missing' : 'present', answer }
  delete reply.record
  if (reply.budget === null) delete reply.budget
  return reply
}

/** The service's path, with its records (the default) or without. */
const path = (endpoint: '/v1/decide' | '/v1/decide/batch', recorded: boolean) => `${endpoint}${recorded ? '' : '?record=false'}`

const batches = batchesOf(cases, BATCH)
const binary = installCerbos(log)
log(
  `starting Cerbos ${CERBOS_VERSION}, the floors and two instances of the decision service (log ${SERVICE_LOG_LEVEL} to /dev/null)`
)
const cerbos = await startCerbos(binary)
let http: Record<
  string,
  Figure & {
    readonly name: string
    readonly what: string
    /** CPU time the server's processes used over the load's time: how many cores they kept busy. */
    readonly server_cores: number
    /** The same of this process, which runs autocannon. */
    readonly autocannon_cores: number
    readonly load_1min_before: number
  }
>
let timed: Awaited<ReturnType<typeof timeInProcess>>
let quiet: Quiet
let loadAtEnd: ReadonlyArray<number>
try {
  const floor = await startFloorProcess(floorBundle)
  started.push(floor)
  const floorAnswer = await startFloorProcess(floorBundle, [], 'answer')
  started.push(floorAnswer)
  const floorBatches = [await startFloorProcess(floorBundle, [], 'batch'), await startFloorProcess(floorBundle, [], 'batch')]
  started.push(...floorBatches)
  const service = await startServiceProcess()
  started.push(service)
  const second = await startServiceProcess()
  started.push(second)
  const check = `${cerbos.url}/api/check/resources`

  for (const [i, c] of cases.entries()) {
    if (i > 0 && i % 200 === 0) log(`  ${i} of ${cases.length} cases asked of Cerbos, the floor and the service`)
    const one = cerbosAllows(await post(check, cerbosRequest([c], c.case.request_id)), [c])[0]
    if (one !== libraryAllows(c)) refuse(`Cerbos ${CERBOS_VERSION}`, c, libraryAllows(c), one)
    const expected = wire(c)
    const fromFloor = await post(floor.url, JSON.stringify(c.case))
    if (!deepEqual(expected, fromFloor)) refuse('The floor', c, expected, fromFloor)
    const fromFloorAnswer = asReply(await post(floorAnswer.url, JSON.stringify(c.case)), true)
    if (!deepEqual(expected, fromFloorAnswer)) refuse('The floor with its record', c, expected, fromFloorAnswer)
    for (const recorded of [true, false]) {
      const fromService = asReply(await post(`${service.url}${path('/v1/decide', recorded)}`, JSON.stringify(c.case)), recorded)
      if (!deepEqual(expected, fromService)) refuse(`The decision service (record=${recorded})`, c, expected, fromService)
    }
  }
  for (const [b, batch] of batches.entries()) {
    const answers = cerbosAllows(await post(check, cerbosRequest(batch, `batch-${b}`)), batch)
    batch.forEach((c, i) => {
      if (answers[i] !== libraryAllows(c)) refuse(`Cerbos ${CERBOS_VERSION}, in a batch`, c, libraryAllows(c), answers[i])
    })
    for (const floorBatch of floorBatches) {
      const { answers: replies } = (await post(floorBatch.url, JSON.stringify({ cases: batch.map((c) => c.case) }))) as {
        answers: ReadonlyArray<unknown>
      }
      batch.forEach((c, i) => {
        const got = asReply(replies[i], true)
        if (!deepEqual(wire(c), got)) refuse('The floor with its records, in a batch', c, wire(c), got)
      })
    }
    for (const instance of [service, second])
      for (const recorded of [true, false]) {
        const { answers: replies } = (await post(
          `${instance.url}${path('/v1/decide/batch', recorded)}`,
          JSON.stringify({ cases: batch.map((c) => c.case) })
        )) as { answers: ReadonlyArray<unknown> }
        batch.forEach((c, i) => {
          const got = asReply(replies[i], recorded)
          if (!deepEqual(wire(c), got)) refuse(`The decision service, in a batch (record=${recorded})`, c, wire(c), got)
        })
      }
  }
  log(
    `Cerbos, the floor and the service agree with the library on every case, one a request and in ${batches.length} batches of ${BATCH}, with records and without`
  )

  // Every engine agrees: now, on a quiet machine, and only now, anything is timed.
  quiet = await waitForQuiet({ below: QUIET_BELOW, maxMinutes: QUIET_MINUTES, every: 5, log })
  timed = await timeInProcess()

  // -------------------------------------------------------------------------------------
  // the loads
  // -------------------------------------------------------------------------------------

  const single = cases.map((c) => JSON.stringify(c.case))
  const cerbosSingle = cases.map((c) => cerbosRequest([c], c.case.request_id))
  const serviceBatches = batches.map((batch) => JSON.stringify({ cases: batch.map((c) => c.case) }))
  const cerbosBatches = batches.map((batch, b) => cerbosRequest(batch, `batch-${b}`))
  const both = [service, second]
  const serviceBatch = (recorded: boolean, instances: ReadonlyArray<Running>) => ({
    key: `service_batch${recorded ? '' : '_no_record'}${instances.length === 1 ? '' : `_x${instances.length}`}`,
    name: `the decision service, batches of ${BATCH}${recorded ? '' : ', ?record=false'}, ${instances.length === 1 ? 'one instance' : `${instances.length} instances`}`,
    what: `\`POST ${path('/v1/decide/batch', recorded)}\`, ${BATCH} cases`,
    urls: instances.map((s) => `${s.url}${path('/v1/decide/batch', recorded)}`),
    pids: instances.map((s) => s.child.pid as number),
    bodies: serviceBatches,
    per: BATCH
  })
  const loads: ReadonlyArray<{
    key: string
    name: string
    what: string
    urls: ReadonlyArray<string>
    /** The server's processes, whose CPU time is counted. */
    pids: ReadonlyArray<number>
    bodies: ReadonlyArray<string>
    per: number
  }> = [
    {
      key: 'floor',
      name: 'the floor',
      what: '`node:http` + `respondBudgetUpdate`, one case',
      urls: [floor.url],
      pids: [floor.child.pid as number],
      bodies: single,
      per: 1
    },
    {
      key: 'floor_answer',
      name: 'the floor with its record',
      what: '`node:http` + `answerCase`, one case, the answer R-130 asks (reply, budget, record) with no log or metrics',
      urls: [floorAnswer.url],
      pids: [floorAnswer.child.pid as number],
      bodies: single,
      per: 1
    },
    {
      key: 'service',
      name: 'the decision service',
      what: '`POST /v1/decide`, one case, with its record (the default)',
      urls: [`${service.url}/v1/decide`],
      pids: [service.child.pid as number],
      bodies: single,
      per: 1
    },
    {
      key: 'service_no_record',
      name: 'the decision service, ?record=false',
      what: '`POST /v1/decide?record=false`, one case',
      urls: [`${service.url}${path('/v1/decide', false)}`],
      pids: [service.child.pid as number],
      bodies: single,
      per: 1
    },
    {
      key: 'cerbos',
      name: `Cerbos ${CERBOS_VERSION}`,
      what: '`POST /api/check/resources`, one question',
      urls: [check],
      pids: [cerbos.process.pid as number],
      bodies: cerbosSingle,
      per: 1
    },
    serviceBatch(true, [service]),
    serviceBatch(false, [service]),
    serviceBatch(true, both),
    serviceBatch(false, both),
    {
      key: 'floor_batch_x2',
      name: `the floor with its records, batches of ${BATCH}, 2 instances`,
      what: `\`node:http\` + \`answerCase\`, ${BATCH} cases, the answers R-130 asks with no log or metrics`,
      urls: floorBatches.map((f) => f.url),
      pids: floorBatches.map((f) => f.child.pid as number),
      bodies: serviceBatches,
      per: BATCH
    },
    {
      key: 'cerbos_batch',
      name: `Cerbos ${CERBOS_VERSION}, batches of ${BATCH}`,
      what: `\`POST /api/check/resources\`, ${BATCH} resources of one principal`,
      urls: [check],
      pids: [cerbos.process.pid as number],
      bodies: cerbosBatches,
      per: BATCH
    }
  ]
  http = {}
  for (const l of loads) {
    const before = Number((loadavg()[0] ?? Number.NaN).toFixed(2))
    // A second of warm-up first: the server's code compiled, its connections open.
    log(`${l.name}: a second of warm-up, then ${SECONDS} s (1-minute load average ${before})`)
    const options = { connections: CONNECTIONS, casesPerRequest: l.per, log }
    await load(l.name, l.urls, l.bodies, { ...options, seconds: 1 })
    // What each side used of the cores: the server's processes, and this one (autocannon).
    const [wall, server, generator] = [performance.now(), cpuOf(l.pids), process.cpuUsage()]
    const f = await load(l.name, l.urls, l.bodies, { ...options, seconds: SECONDS })
    const seconds = (performance.now() - wall) / 1000
    const used = process.cpuUsage(generator)
    const cores = {
      server_cores: Number(((cpuOf(l.pids) - server) / seconds).toFixed(2)),
      autocannon_cores: Number(((used.user + used.system) / 1e6 / seconds).toFixed(2))
    }
    if (f.errors > 0 || f.non_2xx > 0) throw new Error(`${l.name}: ${f.errors} errors, ${f.non_2xx} replies not 2xx`)
    log(
      `${l.name}: ${f.requests_per_second} requests/s (${f.decisions_per_second} decisions/s), p50 ${f.latency_p50_ms} ms, p99 ${f.latency_p99_ms} ms, ${f.response_bytes} bytes a response; cores: the server ${cores.server_cores}, autocannon ${cores.autocannon_cores}`
    )
    http[l.key] = { name: l.name, what: l.what, ...f, ...cores, load_1min_before: before }
  }
  loadAtEnd = loadavg().map((x) => Number(x.toFixed(2)))
} finally {
  for (const s of started) await s.stop()
  await cerbos.close()
  removeFloor()
}

// -------------------------------------------------------------------------------------
// the goals, the results, the docs
// -------------------------------------------------------------------------------------

const { libraryUs, cedarUs } = timed
const figure = (key: string) => {
  const f = http[key]
  if (f === undefined) throw new Error(`no figure ${key}`)
  return f
}
const floor = figure('floor')
const floorAnswer = figure('floor_answer')
const service = figure('service')
const serviceBare = figure('service_no_record')
const pdp = figure('cerbos')
const batchOne = figure('service_batch')
const batchOneBare = figure('service_batch_no_record')
const batchTwo = figure('service_batch_x2')
const batchTwoBare = figure('service_batch_no_record_x2')
const pdpBatch = figure('cerbos_batch')
const floorBatch = figure('floor_batch_x2')
const ratio = (a: number, b: number) => Number((a / b).toFixed(2))
const metText = (met: boolean) => (met ? 'met' : 'not met')
const nearFloor = (f: Figure) => ({
  throughput: ratio(f.requests_per_second, floor.requests_per_second),
  p99: ratio(f.latency_p99_ms, floor.latency_p99_ms),
  met: f.requests_per_second >= 0.8 * floor.requests_per_second && f.latency_p99_ms <= 1.25 * floor.latency_p99_ms
})
const withRecords = nearFloor(service)
const bound = nearFloor(floorAnswer)
const withoutRecords = nearFloor(serviceBare)
const goals = [
  {
    goal: "the service at least 0.8× the floor's throughput, with a p99 at most 1.25× the floor's",
    judged: `${service.name}: ${service.what}`,
    figures: `${withRecords.throughput}× the throughput (${service.requests_per_second} / ${floor.requests_per_second} requests/s); p99 ${withRecords.p99}× (${service.latency_p99_ms} / ${floor.latency_p99_ms} ms). With ?record=false: ${withoutRecords.throughput}× (${serviceBare.requests_per_second} requests/s), p99 ${withoutRecords.p99}× (${serviceBare.latency_p99_ms} ms), ${metText(withoutRecords.met)}. The floor with its record, the bound of any service answering as R-130 asks: ${bound.throughput}× (${floorAnswer.requests_per_second} requests/s), p99 ${bound.p99}×`,
    met: withRecords.met
  },
  {
    goal: "the service at least 5× Cerbos's throughput, with a p99 at most Cerbos's p50",
    judged: `${service.name}: ${service.what}`,
    figures: `${ratio(service.requests_per_second, pdp.requests_per_second)}× the throughput (${service.requests_per_second} / ${pdp.requests_per_second} requests/s); p99 ${service.latency_p99_ms} ms against Cerbos's p50 ${pdp.latency_p50_ms} ms. With ?record=false: ${ratio(serviceBare.requests_per_second, pdp.requests_per_second)}×, p99 ${serviceBare.latency_p99_ms} ms. The floor with its record: ${ratio(floorAnswer.requests_per_second, pdp.requests_per_second)}×, p99 ${floorAnswer.latency_p99_ms} ms`,
    met: service.requests_per_second >= 5 * pdp.requests_per_second && service.latency_p99_ms <= pdp.latency_p50_ms
  },
  {
    goal: `batches of ${BATCH}: at least 100,000 decisions a second on 2 cores`,
    judged: `${batchTwo.name} (with records, the default): two \`serve --decide\` processes, the ${CONNECTIONS} connections split evenly`,
    figures: `${batchTwo.decisions_per_second} decisions/s with records; ${batchTwoBare.decisions_per_second} with ?record=false (${metText(batchTwoBare.decisions_per_second >= GOAL_BATCH)}); one instance: ${batchOne.decisions_per_second} with records, ${batchOneBare.decisions_per_second} without. The floor with its records, two processes: ${floorBatch.decisions_per_second}`,
    met: batchTwo.decisions_per_second >= GOAL_BATCH
  },
  {
    goal: 'the library in process at least 20× faster than Cedar with its policy set pre-parsed',
    judged: `${LIBRARY} against ${CEDAR}`,
    figures: `${ratio(cedarUs, libraryUs)}× (${libraryUs.toFixed(2)} µs against ${cedarUs.toFixed(2)} µs a decision)`,
    met: cedarUs >= 20 * libraryUs
  }
]
const m = machine()
const date = new Date().toISOString()
writeFileSync(
  new URL('decide-results.json', import.meta.url),
  `${JSON.stringify(
    {
      command: COMMAND,
      date,
      machine: m,
      quiet: { ...quiet, load_at_end: loadAtEnd },
      built: {
        service: `node dist/cli.js serve --decide, LOG_LEVEL=${SERVICE_LOG_LEVEL}, standard output to /dev/null`,
        floor:
          'bench/decide/floor-process.ts bundled with tsup.config.ts cli options, node (with --answer: the floor with its record)',
        library: 'dist/index.js'
      },
      cerbos: CERBOS_VERSION,
      cases: {
        count: cases.length,
        allowed: allowedCount,
        denied: cases.length - allowedCount,
        batches: batches.length,
        batch: BATCH
      },
      connections: CONNECTIONS,
      seconds: SECONDS,
      http,
      in_process: { library_us: Number(libraryUs.toFixed(3)), cedar_us: Number(cedarUs.toFixed(3)), rows: timed.rows },
      goals
    },
    null,
    2
  )}\n`
)

const row = (f: (typeof http)[string]) =>
  `| ${f.name}: ${f.what} | ${f.instances} | ${f.requests_per_second} | ${f.decisions_per_second} | ${f.latency_p50_ms} | ${f.latency_p99_ms} | ${f.response_bytes} | ${f.server_cores} / ${f.autocannon_cores} |`
const waited = quiet.gave_up
  ? `**the machine was not quiet**: after waiting ${QUIET_MINUTES} minutes for the 1-minute load average to fall below ${QUIET_BELOW}, the run timed anyway`
  : quiet.waited_seconds > 0
    ? `reached after waiting ${quiet.waited_seconds} s for it to fall below ${QUIET_BELOW}`
    : `below ${QUIET_BELOW} from the first look`
const section = [
  '<!-- decide: written by bench/decide.bench.ts -->',
  `Machine: ${m.cores} × ${m.cpu}, Node ${m.node}, ${m.platform}. Date: ${date.slice(0, 16).replace('T', ' ')} UTC. Command: \`${COMMAND}\`; every figure in \`bench/decide-results.json\`. Load average when the timing started: ${quiet.load_at_start.join(', ')} (1, 5, 15 minutes), ${waited}; ${loadAtEnd.join(', ')} when it ended (the bench's own processes).`,
  '',
  `Over loopback, autocannon with ${CONNECTIONS} connections in all for ${SECONDS} s each (after a second of warm-up), in the bench's process; each server in a process of its own, from built code on plain \`node\`: the service as \`node dist/cli.js serve --decide\` runs by default (log level ${SERVICE_LOG_LEVEL}, a JSON line a request, its standard output to /dev/null), the floor bundled as dist/cli.js is. With two instances, two \`serve --decide\` processes on two ports, the connections split evenly, the requests summed and the worse instance's p50 and p99. Latencies are autocannon's time of each response; bytes are a response's, headers and body; cores are the CPU time the server's processes and the bench's (autocannon) used over the load's time, out of the machine's ${m.cores}. ${cases.length} questions (${allowedCount} allowed, ${cases.length - allowedCount} denied), on which Cedar, Cerbos, both floors and the service were first checked to agree with the library.`,
  '',
  '| server: what a request asks | instances | requests/s | decisions/s | p50 ms | p99 ms | bytes | cores: server / autocannon |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...Object.values(http).map(row),
  '',
  `In batches of ${BATCH} on one instance, the service decides ${ratio(batchOne.decisions_per_second, pdpBatch.decisions_per_second)}× as many a second as Cerbos (${ratio(batchOneBare.decisions_per_second, pdpBatch.decisions_per_second)}× with ?record=false); one a request, ${ratio(service.requests_per_second, pdp.requests_per_second)}× (${ratio(serviceBare.requests_per_second, pdp.requests_per_second)}×).`,
  '',
  `In process, per decision (CPU time, the ${cases.length} cases a call): ${LIBRARY} ${libraryUs.toFixed(2)} µs; ${CEDAR} ${cedarUs.toFixed(2)} µs.`,
  '',
  '| goal (R-132) | judged on | measured | met |',
  '| --- | --- | --- | --- |',
  ...goals.map((g) => `| ${g.goal} | ${g.judged} | ${g.figures} | ${metText(g.met)} |`),
  '<!-- /decide -->'
].join('\n')
const docs = new URL('../docs/performance.md', import.meta.url)
const doc = readFileSync(docs, 'utf8')
writeFileSync(
  docs,
  /<!-- decide:[\s\S]*<!-- \/decide -->/.test(doc)
    ? doc.replace(/<!-- decide:[\s\S]*<!-- \/decide -->/, section)
    : `${doc.trimEnd()}\n\n## The decision service against Cerbos and Cedar\n\n${section}\n`
)
console.log(`\n${section}\n`)
for (const g of goals) console.log(`${g.met ? 'met    ' : 'NOT met'}  ${g.goal} [judged on ${g.judged}]: ${g.figures}`)
if (quiet.gave_up)
  console.log(`\nThe machine was not quiet: the load average was ${quiet.load_at_start.join(', ')} when the timing started.`)
