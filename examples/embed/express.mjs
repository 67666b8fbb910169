// budget-rules in Express: each route hands a facade the request as received and what the store
// looked up, then sends the reply as it is. `node examples/embed/express.mjs` serves the demo data.
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { endpoints, respondAmount, respondBudgetUpdate, respondIndex, respondTopUp, respondWithdraw } from 'budget-rules'
import { createStore, demo, rawQuery } from './store.mjs'

const budgetRoutes = [
  ['PATCH', '/v1/budgets/:id', respondBudgetUpdate],
  ['POST', '/v1/budgets/:id/top_up', respondTopUp],
  ['POST', '/v1/budgets/:id/withdraw', respondWithdraw],
  ['PATCH', '/v1/budgets/:id/amount', respondAmount]
]

export function buildApp(store) {
  // The reply's headers are the library's: no X-Powered-By, no ETag (nor the 304 it would bring).
  const app = express().disable('x-powered-by').disable('etag')
  // The facades read the raw body text, whatever its content type.
  app.use(express.text({ type: () => true }))
  const send = (res, reply) => res.status(reply.status).set(reply.headers).send(reply.body === null ? undefined : JSON.stringify(reply.body))
  for (const [method, path, respond] of budgetRoutes)
    app[method.toLowerCase()](path, (req, res) => {
      const budget = store.budget(req.params.id)
      const reply = respond({ request: { headers: req.headers, body: req.body }, session: store.session(req.headers), budget,
        today: store.today(), request_id: randomUUID(), company_member_ids: store.members(budget) })
      if (reply.status === 200) store.save(reply.budget)
      send(res, reply)
    })
  app.get('/v1/banking/bank_transactions', (req, res) => {
    send(res, respondIndex({ request: { headers: req.headers, query: rawQuery(req.originalUrl) }, session: store.session(req.headers),
      endpoint: endpoints.bankTransactions, records: store.transactions(req.headers), request_id: randomUUID() }))
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
