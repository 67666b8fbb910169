/**
 * Requests per second of the reference server (autocannon over loopback), beside a plain handler
 * on the same framework (Hono on @hono/node-server) and the same database (bench/plain-server.ts):
 * what a user would write without the library. Both resolve the API key to a session with the same query, so the
 * difference is what the library decides and the query it builds.
 *
 * - GET a page of 25 of 1,000,000 bank transactions (the demo's 5,000 plus 995,000), newest first:
 *   the plain handler reads `_start`/`_end`, runs one page query and one count (`count(*)`, as a
 *   user would first write it, or the per-company count the store keeps, as the server reads it),
 *   sets Content-Range and X-Total-Count; the server runs `planIndex`, `pageQuery`,
 *   `respondIndexPage`.
 * - PATCH a budget's name: the plain handler locks the row, checks the name (a string, 1..255
 *   characters), writes it and returns the row; the server locks, decides with
 *   `respondBudgetUpdate` (every rule of contract section 5) and writes the budget back.
 *
 * The floor: the plain handlers once more, each also doing the two writes the contract asks of
 * every request and the plain handlers skip, as a user would add them, each its own statement:
 * the request counted against the rate limit in the database (R-110, R-112: an upsert of the
 * key's row in `rate_limits`) and its decision recorded before the reply (R-121: an INSERT into
 * `decisions`, a mutation's in its transaction). What no server keeping those rules can skip.
 *
 * The reference server runs twice: as `budget-rules serve` runs it, each decision recorded in the
 * database and each request's JSON line logged (to /dev/null here: a file, as pino writes one),
 * and with neither (`DECISION_LOG=off`, `LOG_LEVEL=silent`): what recording and logging cost
 * (R-121, R-123; issue 27's goal: at most 15% of the throughput).
 *
 * Answers are checked equal before anything is timed. The figures go to bench/server-results.json
 * and the table of docs/performance.md, from this run only.
 *
 * Run: `npm run bench:server` (about two minutes: seeding takes most of it).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { serve as listenOn } from '@hono/node-server'
import autocannon from 'autocannon'
import { pino } from 'pino'
import { openDatabase } from '../src/store/database'
import { migrate } from '../src/store/migrations'
import { seedWhenEmpty } from '../src/store/seed'
import { listen } from '../src/server/main'
import { plainApp } from './plain-server'

const ROWS = Number(process.env.BENCH_ROWS ?? '1000000')
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10')
const CONNECTIONS = 10
const ADMIN = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' }

const db = await openDatabase({})
await migrate(db)
await seedWhenEmpty(db)
const started = performance.now()
// The demo's 5,000 transactions plus generated ones, a minute apart with every seventh a tie.
await db.query(
  `INSERT INTO bank_transactions (id, company_id, amount, status, created_at, updated_at)
   SELECT 'tx-g' || lpad(n::text, 7, '0'), 'c-acme', (n::bigint * 7919) % 1000000,
          CASE WHEN n % 3 = 0 THEN 'pending' ELSE 'authorized' END,
          timestamptz '2020-01-01 00:00:00+00' + ((n - n % 7) * interval '1 minute'),
          timestamptz '2020-01-01 00:00:00+00' + (n * interval '1 minute')
   FROM generate_series(1, $1::int) AS n`,
  [ROWS - 5000]
)
await db.query('ANALYZE')
console.log(`seeded ${ROWS} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s`)

const plain = plainApp(db)
const plainServer = await new Promise<{ url: string; close: () => void }>((resolve) => {
  const server = listenOn({ fetch: plain.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() })
  })
})
const reference = await listen(db, {
  rateLimitPerMinute: Number.MAX_SAFE_INTEGER,
  report: () => undefined,
  logLevel: 'info',
  logDestination: pino.destination({ dest: '/dev/null', sync: false })
})
const unrecorded = await listen(db, {
  rateLimitPerMinute: Number.MAX_SAFE_INTEGER,
  report: () => undefined,
  decisionLog: false,
  logLevel: 'silent'
})

// Equal answers first: the same page, the same headers, the same name written.
const PAGE = '/v1/banking/bank_transactions?_start=0&_end=25&_order=desc'
const pageOf = async (url: string) => {
  const r = await fetch(url + PAGE, { headers: ADMIN })
  return { status: r.status, range: r.headers.get('content-range'), total: r.headers.get('x-total-count'), body: await r.text() }
}
const ours = await pageOf(reference.url)
for (const theirs of [
  await pageOf(plainServer.url),
  await pageOf(`${plainServer.url}/kept`),
  await pageOf(`${plainServer.url}/floor`),
  await pageOf(unrecorded.url)
])
  if (JSON.stringify(ours) !== JSON.stringify(theirs) || ours.status !== 200 || ours.range !== `0-24/${ROWS}`)
    throw new Error(`the pages differ:\n${JSON.stringify(ours).slice(0, 400)}\n${JSON.stringify(theirs).slice(0, 400)}`)
const PATCH = {
  method: 'PATCH' as const,
  headers: { ...ADMIN, 'content-type': 'application/json' },
  body: '{"budget":{"name":"Travel 2027"}}'
}
for (const url of [reference.url, unrecorded.url, plainServer.url, `${plainServer.url}/floor`]) {
  const r = await fetch(`${url}/v1/budgets/b-travel`, PATCH)
  const name = ((await r.json()) as { name?: string }).name
  if (r.status !== 200 || name !== 'Travel 2027') throw new Error(`${url}: PATCH replied ${r.status} with name ${String(name)}`)
}

interface Figure {
  readonly requests_per_second: number
  readonly latency_p50_ms: number
  readonly latency_p99_ms: number
  readonly errors: number
  readonly non_2xx: number
}
const load = async (url: string, options: Partial<autocannon.Options>): Promise<Figure> => {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options })
  console.log(
    `${url}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, ${r.errors} errors (${r.timeouts} timeouts)`
  )
  return {
    requests_per_second: Math.round(r.requests.average),
    latency_p50_ms: r.latency.p50,
    latency_p99_ms: r.latency.p99,
    errors: r.errors,
    non_2xx: r.non2xx
  }
}

// The count(*) handler goes last: PGlite runs one statement at a time, and the counts still
// queued when its run ends would hold up whatever ran next.
const libraryPage = await load(reference.url + PAGE, { headers: ADMIN })
const unrecordedPage = await load(unrecorded.url + PAGE, { headers: ADMIN })
const plainKeptPage = await load(`${plainServer.url}/kept${PAGE}`, { headers: ADMIN })
const floorPage = await load(`${plainServer.url}/floor${PAGE}`, { headers: ADMIN })
// Each PATCH renames the budget anew, as a user renaming it would: every one changes the row.
let renamed = 0
const RENAMES: Partial<autocannon.Options> = {
  ...PATCH,
  requests: [
    {
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ budget: { name: `Travel ${++renamed}` } }) })
    }
  ]
}
const libraryPatch = await load(`${reference.url}/v1/budgets/b-travel`, RENAMES)
const unrecordedPatch = await load(`${unrecorded.url}/v1/budgets/b-travel`, RENAMES)
const plainPatch = await load(`${plainServer.url}/v1/budgets/b-travel`, RENAMES)
const floorPatch = await load(`${plainServer.url}/floor/v1/budgets/b-travel`, RENAMES)
const plainPage = await load(plainServer.url + PAGE, { headers: ADMIN })
const results = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  database: `PGlite (in memory), ${ROWS} bank transactions`,
  connections: CONNECTIONS,
  seconds: SECONDS,
  page: { plain: plainPage, plainKept: plainKeptPage, floor: floorPage, unrecorded: unrecordedPage, library: libraryPage },
  patch: { plain: plainPatch, floor: floorPatch, unrecorded: unrecordedPatch, library: libraryPatch }
}
for (const [name, figure] of Object.entries({ ...results.page, ...results.patch }))
  if (figure.errors > 0 || figure.non_2xx > 0)
    throw new Error(`${name}: ${figure.errors} errors, ${figure.non_2xx} replies not 2xx`)
plainServer.close()
await reference.close()
await unrecorded.close()
await db.close()

writeFileSync('bench/server-results.json', `${JSON.stringify(results, null, 2)}\n`)
const ratio = (a: Figure, b: Figure) => (a.requests_per_second / b.requests_per_second).toFixed(2)
const row = (what: string, plainFigure: Figure, floor: Figure, unrecordedFigure: Figure, library: Figure) =>
  `| ${what} | ${plainFigure.requests_per_second} | ${floor.requests_per_second} | ${unrecordedFigure.requests_per_second} | ${library.requests_per_second} | ${ratio(library, plainFigure)} | ${ratio(floor, plainFigure)} | ${ratio(library, floor)} | ${ratio(library, unrecordedFigure)} | ${plainFigure.latency_p50_ms} / ${library.latency_p50_ms} | ${plainFigure.latency_p99_ms} / ${library.latency_p99_ms} |`
const table = [
  '<!-- server: written by bench/server.bench.ts -->',
  `Requests per second over loopback (autocannon, ${CONNECTIONS} connections, ${SECONDS} s each), ${results.database}; ${results.machine}. Command: \`npm run bench:server\`. The reference server records every decision and logs a JSON line per request; "without records and log" is the same server with \`DECISION_LOG=off\` and \`LOG_LEVEL=silent\`. "Plain, counted and recorded (the floor)" is the plain handler also counting the request against the rate limit and recording its decision in the database, each its own statement, as the contract asks of every request (R-112, R-121).`,
  '',
  '| request | plain Hono handler | plain, counted and recorded (the floor) | server without records and log | reference server | server ÷ plain | floor ÷ plain | server ÷ floor | server ÷ without records and log | p50 ms (plain / server) | p99 ms (plain / server) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  row(
    'GET a page of 25, newest first (plain: `count(*)`)',
    results.page.plain,
    results.page.floor,
    results.page.unrecorded,
    results.page.library
  ),
  row(
    'GET a page of 25, newest first (plain: the kept count)',
    results.page.plainKept,
    results.page.floor,
    results.page.unrecorded,
    results.page.library
  ),
  row('PATCH a budget name', results.patch.plain, results.patch.floor, results.patch.unrecorded, results.patch.library),
  '<!-- /server -->'
].join('\n')
const doc = readFileSync('docs/performance.md', 'utf8')
writeFileSync('docs/performance.md', doc.replace(/<!-- server:[\s\S]*<!-- \/server -->/, table))
console.log(table)
