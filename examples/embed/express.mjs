// budget-rules in Express: each route hands a facade the request as received and what the store
// looked up, then sends the reply as it is, and keeps the decision's record (budget-rules/decisions)
// as the reference server does. `node examples/embed/express.mjs` serves the demo data.
import { createHash, randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { endpoints, respondAmount, respondBudgetUpdate, respondIndex, respondTopUp, respondWithdraw } from 'budget-rules'
import { decisionRecord } from 'budget-rules/decisions'
import { bearerKey } from 'budget-rules/rules'
import { createStore, demo, rawQuery } from './store.mjs'

const budgetRoutes = [
  ['PATCH', '/v1/budgets/:id', respondBudgetUpdate],
  ['POST', '/v1/budgets/:id/top_up', respondTopUp],
  ['POST', '/v1/budgets/:id/withdraw', respondWithdraw],
  ['PATCH', '/v1/budgets/:id/amount', respondAmount]
]

/** The name each facade's decision goes by in its record. */
const decided = new Map([[respondBudgetUpdate, 'budget.update'], [respondTopUp, 'budget.top_up'], [respondWithdraw, 'budget.withdraw'],
  [respondAmount, 'budget.amount'], [respondIndex, 'index.bank_transactions']])

/** The id of the request's API key in a record: the first 16 hex digits of its SHA-256, never the key. */
const keyId = (headers) => { const key = bearerKey(headers); return key === undefined ? null : createHash('sha256').update(key).digest('hex').slice(0, 16) }

export function buildApp(store) {
  // The reply's headers are the library's: no X-Powered-By, no ETag (nor the 304 it would bring).
  const app = express().disable('x-powered-by').disable('etag')
  // The facades read the raw body text, whatever its content type.
  app.use(express.text({ type: () => true }))
  // The reply as it is; its decision's record (the key masked, the other headers left out) kept beside the data.
  const send = (req, res, respond, context) => {
    const reply = respond(context)
    if (reply.status === 200 && reply.budget !== undefined) store.save(reply.budget)
    const record = decisionRecord(decided.get(respond), context, reply, { at: new Date().toISOString(), key_id: keyId(req.headers), method: req.method, path: req.originalUrl })
    if (record._tag === 'Right') store.keep(record.right)
    res.status(reply.status).set(reply.headers).send(reply.body === null ? undefined : JSON.stringify(reply.body))
  }
  for (const [method, path, respond] of budgetRoutes)
    app[method.toLowerCase()](path, (req, res) => {
      const budget = store.budget(req.params.id)
      send(req, res, respond, { request: { headers: req.headers, body: req.body }, session: store.session(req.headers), budget,
        today: store.today(), request_id: randomUUID(), company_member_ids: store.members(budget) })
    })
  app.get('/v1/banking/bank_transactions', (req, res) => {
    send(req, res, respondIndex, { request: { headers: req.headers, query: rawQuery(req.originalUrl) }, session: store.session(req.headers),
      endpoint: endpoints.bankTransactions, records: store.transactions(req.headers), request_id: randomUUID() })
  })
  return app
}

/** Listens on host:port (0: any free port); resolves to the server's URL and its `close`. */
export async function start(store, { port = 0, host = '127.0.0.1' } = {}) {
  const server = buildApp(store).listen(port, host)
  await once(server, 'listening')
  const url = `http://${host}:${server.address().port}`
  return { url, close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`Express on ${(await start(createStore(demo), { port: 3000 })).url}`)
