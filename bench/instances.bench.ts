/**
 * The reference server as one and as three instances (`budget-rules serve` processes) on one
 * PostgreSQL server: requests per second and p99 latency of a page of 25 bank
 * transactions and of a budget's PATCH, autocannon over loopback for a fixed duration, the
 * connections spread evenly over the instances. Answers are checked first: every instance gives
 * the same page. The figures go to bench/instances-results.json and the table of
 * docs/performance.md, from this run only.
 *
 * Run: `DATABASE_URL=postgres://... npm run bench:instances` (a fresh database is made on that
 * server and dropped after; about a minute).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { postgres } from '../test/server/harness'

const SECONDS = Number(process.env.BENCH_SECONDS ?? '10')
const CONNECTIONS = 12
const HEADERS = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme', 'Content-Type': 'application/json' }
const PAGE = '/v1/banking/bank_transactions?_start=0&_end=25&_order=desc'

const server = process.env.DATABASE_URL
if (server === undefined || server === '') {
  console.error('bench:instances needs DATABASE_URL, a PostgreSQL server on which it may create and drop a database')
  process.exit(2)
}

// A database of its own on that server, made and dropped as the server tests make theirs.
const place = await postgres(server).place()
const databaseUrl = place.options.databaseUrl as string

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const started: Array<ChildProcess> = []

/** Starts `budget-rules serve` on a free port; resolves to its URL once it listens. */
const instance = (): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, 'src/cli/main.ts', 'serve'], {
      env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '100000000' },
      stdio: ['ignore', 'pipe', 'inherit']
    })
    started.push(child)
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /listening on (http:\/\/\S+)\n/.exec(out)
      if (m !== null) resolve(m[1] as string)
    })
    child.on('exit', (code) => {
      reject(new Error(`an instance exited with ${code}`))
    })
  })

interface Figure {
  readonly requests_per_second: number
  readonly latency_p99_ms: number
  readonly errors: number
}

/** autocannon against every instance at once, the connections spread evenly; requests summed, the worst p99. */
const load = async (urls: ReadonlyArray<string>, path: string, options: Partial<autocannon.Options>): Promise<Figure> => {
  const runs = await Promise.all(
    urls.map((u) =>
      autocannon({ url: `${u}${path}`, connections: CONNECTIONS / urls.length, duration: SECONDS, headers: HEADERS, ...options })
    )
  )
  const figure = {
    requests_per_second: Math.round(runs.reduce((sum, r) => sum + r.requests.average, 0)),
    latency_p99_ms: Math.max(...runs.map((r) => r.latency.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0)
  }
  console.log(
    `${urls.length} instance(s), ${options.method ?? 'GET'} ${path}: ${figure.requests_per_second} req/s, p99 ${figure.latency_p99_ms} ms`
  )
  return figure
}

const results: Record<string, unknown> = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}`,
  seconds: SECONDS,
  connections: CONNECTIONS
}
try {
  // The first instance migrates and seeds; the other two start on the seeded database.
  const first = await instance()
  const urls = [first, ...(await Promise.all([instance(), instance()]))]
  console.log(`three instances on ${new URL(databaseUrl).pathname.slice(1)}: ${urls.join(', ')}`)
  // Answers first: every instance gives the same page.
  const pages = await Promise.all(urls.map(async (u) => (await fetch(`${u}${PAGE}`, { headers: HEADERS })).text()))
  if (new Set(pages).size !== 1 || !pages[0]?.startsWith('[{')) throw new Error('the instances disagree on the page')
  const patch = { method: 'PATCH' as const, body: JSON.stringify({ budget: { name: 'Travel' } }) }
  for (const n of [1, 3]) {
    const some = urls.slice(0, n)
    results[`${n} instance${n === 1 ? '' : 's'}`] = {
      page: await load(some, PAGE, {}),
      patch: await load(some, '/v1/budgets/b-travel', patch)
    }
  }
} finally {
  for (const child of started) child.kill('SIGTERM')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await place.drop()
}

writeFileSync('bench/instances-results.json', `${JSON.stringify(results, null, 2)}\n`)
const row = (what: string, key: 'page' | 'patch') => {
  const one = (results['1 instance'] as Record<string, Figure>)[key] as Figure
  const three = (results['3 instances'] as Record<string, Figure>)[key] as Figure
  return `| ${what} | ${one.requests_per_second} | ${three.requests_per_second} | ${(three.requests_per_second / one.requests_per_second).toFixed(2)} | ${one.latency_p99_ms} / ${three.latency_p99_ms} | ${one.errors + three.errors} |`
}
const table = [
  '<!-- instances: written by bench/instances.bench.ts -->',
  `Requests per second over loopback (autocannon, ${CONNECTIONS} connections spread over the instances, ${SECONDS} s each), PostgreSQL server, the demo's 5,000 transactions; ${String(results['machine'])}, ${String(results['date'])}. Command: \`npm run bench:instances\`.`,
  '',
  '| request | 1 instance | 3 instances | 3 ÷ 1 | p99 ms (1 / 3) | errors |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  row('GET a page of 25, newest first', 'page'),
  row('PATCH a budget', 'patch'),
  '<!-- /instances -->'
].join('\n')
const doc = readFileSync('docs/performance.md', 'utf8')
writeFileSync(
  'docs/performance.md',
  /<!-- instances:[\s\S]*<!-- \/instances -->/.test(doc) ? doc.replace(/<!-- instances:[\s\S]*<!-- \/instances -->/, table) : doc
)
console.log(table)
