/**
 * Where a request's time goes in the database: each statement the reference server runs for a
 * page of 25 and for a rename, beside those of the plain handler and of the floor
 * (bench/plain-server.ts), each captured from one request over loopback, then run alone on the
 * same database, one after the other. A statement the handler ran in a transaction runs alone in
 * one that is rolled back, the cost of an empty one taken off. A diagnostic, not part of
 * `npm run bench`: it explains the server's table of docs/performance.md, whose requests also
 * pay for HTTP, the framework and, on the server, the library.
 *
 * Run: `npx tsx bench/server-parts.ts` (PGlite in memory, the demo's data; about a minute).
 */
import { serve as listenOn } from '@hono/node-server'
import { listen } from '../src/server/main'
import { openDatabase } from '../src/store/database'
import type { Database, Queryable } from '../src/store/driver'
import { migrate } from '../src/store/migrations'
import { seedWhenEmpty } from '../src/store/seed'
import { plainApp } from './plain-server'

const CALLS = Number(process.env.BENCH_CALLS ?? '2000')
const ADMIN = { Authorization: 'Bearer demo-admin', 'company-id': 'c-acme' }
const PAGE = '/v1/banking/bank_transactions?_start=0&_end=25&_order=desc'

interface Statement {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
  readonly inTransaction: boolean
}

const db = await openDatabase({})
await migrate(db)
await seedWhenEmpty(db)

// The database as the handlers see it: each statement noted while `watching` holds a list.
let watching: Array<Statement> | null = null
const noting =
  (on: Queryable, inTransaction: boolean): Queryable['query'] =>
  (text, values) => {
    watching?.push({ text, values: values ?? [], inTransaction })
    return on.query(text, values)
  }
const watched: Database = {
  ...db,
  query: noting(db, false),
  transaction: (work) => db.transaction((tx) => work({ ...tx, query: noting(tx, true) }))
}

const plain = await new Promise<{ url: string; close: () => void }>((resolve) => {
  const server = listenOn({ fetch: plainApp(watched).fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() })
  })
})
const reference = await listen(watched, { rateLimitPerMinute: Number.MAX_SAFE_INTEGER, report: () => undefined })

/** The statements of one request, once its reply and any record kept after it are in. */
let renamed = 0
const statementsOf = async (url: string, method: 'GET' | 'PATCH'): Promise<ReadonlyArray<Statement>> => {
  const seen: Array<Statement> = []
  watching = seen
  const r = await fetch(
    url,
    method === 'GET'
      ? { headers: ADMIN }
      : {
          method,
          headers: { ...ADMIN, 'content-type': 'application/json' },
          body: JSON.stringify({ budget: { name: `Travel ${++renamed}` } })
        }
  )
  if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`)
  await r.text()
  // A read's record is written by a group commit in the same turn or the next (ADR 0122).
  await new Promise((resolve) => setTimeout(resolve, 50))
  watching = null
  return seen
}

/** Rolls back the transaction a statement was timed in. */
class RolledBack extends Error {}
const rolledBack = async (work: (tx: Queryable) => Promise<unknown>): Promise<void> => {
  try {
    await db.transaction(async (tx) => {
      await work(tx)
      throw new RolledBack()
    })
  } catch (e) {
    if (!(e instanceof RolledBack)) throw e
  }
}

/**
 * Ms per call of `run`: the least mean of 5 rounds of CALLS / 5 calls, after one round, so that a
 * round another process slowed down does not count.
 */
const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const round = async () => {
    const from = performance.now()
    for (let i = 0; i < CALLS / 5; i++) await run()
    return (performance.now() - from) / (CALLS / 5)
  }
  await round()
  const rounds: Array<number> = []
  for (let i = 0; i < 5; i++) rounds.push(await round())
  return Math.min(...rounds)
}

const emptyTransaction = await timed(() => rolledBack(() => Promise.resolve()))
/** A statement's own time: alone, or alone in a transaction less an empty one; writes are rolled back. */
const costOf = async (s: Statement): Promise<number> => {
  const writes = /^\s*(INSERT|UPDATE|DELETE|WITH)/i.test(s.text)
  // The record the request wrote goes, so that its INSERT (rolled back each time) finds no row of its id.
  if (s.text.startsWith('INSERT INTO decisions')) await db.query('DELETE FROM decisions WHERE id = $1', [s.values[0]])
  if (!s.inTransaction && !writes) return timed(() => db.query(s.text, s.values))
  return (await timed(() => rolledBack((tx) => tx.query(s.text, s.values)))) - emptyTransaction
}

const name = (s: Statement): string => s.text.replace(/\s+/g, ' ').trim().slice(0, 90)
const requests = [
  ['GET a page of 25', 'plain (the kept count)', `${plain.url}/kept${PAGE}`, 'GET'],
  ['GET a page of 25', 'floor', `${plain.url}/floor${PAGE}`, 'GET'],
  ['GET a page of 25', 'reference server', reference.url + PAGE, 'GET'],
  ['PATCH a budget name', 'plain', `${plain.url}/v1/budgets/b-travel`, 'PATCH'],
  ['PATCH a budget name', 'floor', `${plain.url}/floor/v1/budgets/b-travel`, 'PATCH'],
  ['PATCH a budget name', 'reference server', `${reference.url}/v1/budgets/b-travel`, 'PATCH']
] as const

console.log(
  `an empty transaction (BEGIN, ROLLBACK): ${emptyTransaction.toFixed(3)} ms; each figure the least mean of 5 rounds of ${CALLS / 5} calls`
)
for (const [request, handler, url, method] of requests) {
  const statements = await statementsOf(url, method)
  const costs: Array<number> = []
  for (const s of statements) costs.push(await costOf(s))
  const transactions = statements.some((s) => s.inTransaction) ? emptyTransaction : 0
  const total = costs.reduce((a, b) => a + b, 0) + transactions
  console.log(`\n${request}, ${handler}: ${statements.length} statements, ${total.toFixed(3)} ms in all`)
  statements.forEach((s, i) => {
    console.log(`  ${(costs[i] ?? 0).toFixed(3)} ms  ${s.inTransaction ? '(tx) ' : ''}${name(s)}`)
  })
  if (transactions > 0) console.log(`  ${transactions.toFixed(3)} ms  BEGIN and COMMIT`)
}

plain.close()
await reference.close()
await db.close()
