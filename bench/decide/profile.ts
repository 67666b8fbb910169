/**
 * A diagnostic beside `npm run bench:decide`: where the floor's and the decision service's
 * processes spend their CPU under the bench's load. Each runs as the bench runs it
 * (bench/decide/servers.ts): the floor's bundle, and `node dist/cli.js serve --decide` with its
 * log at `info` to /dev/null; both built as dist is (not minified), so that a CPU profile names
 * their functions and lines. Each is run under `node --cpu-prof` for 5 s of load: the floor, the
 * service one case a request with records and with `?record=false` (and the latter with its log
 * silent, for the log's cost by difference), the service in batches of
 * 100 with records and without. Prints the functions that take the most of each process's busy
 * time, inclusive and self (JSON.parse and JSON.stringify are native: their time is the self time
 * of the function that calls them); the profiles stay in bench/.cerbos/profile/ for Chrome's
 * DevTools.
 *
 * Run: `npx tsx bench/decide/profile.ts` (about a minute). Writes nothing the repository keeps.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { batchesOf, benchCases } from './cases'
import { load } from './load'
import { buildDist, buildFloor, removeFloor, type Running, startFloorProcess, startServiceProcess } from './servers'

const OUT = fileURLToPath(new URL('../.cerbos/profile/', import.meta.url))
const SECONDS = 5

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<Node>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The functions with the most of the busy time (all but idle), inclusive and self, as lines. */
const summary = (profile: Profile, top: number): string => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const name = (n: Node) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist|budget-rules-bench-decide)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    const dt = profile.timeDeltas[i] ?? 0
    if (node === undefined || node.callFrame.functionName === '(idle)') return
    busy += dt
    self.set(name(node), (self.get(name(node)) ?? 0) + dt)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at) as Node)
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + dt)
      seen.add(key)
    }
  })
  const lines = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => !k.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => `  ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`)
  return [`busy ${(busy / 1000).toFixed(0)} ms; inclusive:`, ...lines(inclusive), 'self:', ...lines(self)].join('\n')
}

rmSync(OUT, { recursive: true, force: true })
buildDist()
const floorBundle = await buildFloor()
const cases = benchCases()
const single = cases.map((c) => JSON.stringify(c.case))
const batches = batchesOf(cases, 100).map((b) => JSON.stringify({ cases: b.map((c) => c.case) }))
const runs = [
  { server: 'floor', path: '', bodies: single, per: 1 },
  { server: 'service', path: '/v1/decide', bodies: single, per: 1 },
  { server: 'service', path: '/v1/decide?record=false', bodies: single, per: 1 },
  // The log's cost, by difference: the same, with LOG_LEVEL=silent.
  { server: 'service, LOG_LEVEL=silent', path: '/v1/decide?record=false', bodies: single, per: 1 },
  { server: 'service', path: '/v1/decide/batch', bodies: batches, per: 100 },
  { server: 'service', path: '/v1/decide/batch?record=false', bodies: batches, per: 100 }
] as const
try {
  for (const [i, run] of runs.entries()) {
    const dir = `${OUT}${i}`
    const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`]
    const server: Running =
      run.server === 'floor'
        ? await startFloorProcess(floorBundle, args)
        : await startServiceProcess(args, run.server.endsWith('silent') ? 'silent' : 'info')
    const what = `${run.server} ${run.path || '/'}`
    const options = {
      connections: 10,
      casesPerRequest: run.per,
      log: (line: string) => {
        console.log(line)
      }
    }
    // A second of warm-up, as the bench's, in the profile too.
    await load(what, [server.url + run.path], run.bodies, { ...options, seconds: 1 })
    const f = await load(what, [server.url + run.path], run.bodies, { ...options, seconds: SECONDS })
    await server.stop()
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
    console.log(
      `\n${what}: ${f.requests_per_second} requests/s (${f.decisions_per_second} decisions/s), p50 ${f.latency_p50_ms} ms, p99 ${f.latency_p99_ms} ms, ${f.response_bytes} bytes a response`
    )
    console.log(summary(JSON.parse(readFileSync(`${dir}/${String(file)}`, 'utf8')) as Profile, 25))
    console.log()
  }
} finally {
  removeFloor()
}
