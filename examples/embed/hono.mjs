// budget-rules in Hono (on Node through @hono/node-server): each route hands a facade the request
// as received (a Fetch Request: its Headers go in as they are) and what the store looked up, then
// sends the reply as it is. `node examples/embed/hono.mjs` serves the demo data.
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { endpoints, respondAmount, respondBudgetUpdate, respondIndex, respondTopUp, respondWithdraw } from 'budget-rules'
import { createStore, demo, rawQuery } from './store.mjs'

const budgetRoutes = [
  ['PATCH', '/v1/budgets/:id', respondBudgetUpdate],
  ['POST', '/v1/budgets/:id/top_up', respondTopUp],
  ['POST', '/v1/budgets/:id/withdraw', respondWithdraw],
  ['PATCH', '/v1/budgets/:id/amount', respondAmount]
]

export function buildApp(store) {
  const app = new Hono()
  const send = (c, reply) => c.body(reply.body === null ? null : JSON.stringify(reply.body), reply.status, reply.headers)
  for (const [method, path, respond] of budgetRoutes)
    app.on(method, path, async (c) => {
      const headers = c.req.raw.headers
      const budget = store.budget(c.req.param('id'))
      const reply = respond({ request: { headers, body: await c.req.text() }, session: store.session(headers), budget,
        today: store.today(), request_id: randomUUID(), company_member_ids: store.members(budget) })
      if (reply.status === 200) store.save(reply.budget)
      return send(c, reply)
    })
  app.get('/v1/banking/bank_transactions', (c) => {
    const headers = c.req.raw.headers
    return send(c, respondIndex({ request: { headers, query: rawQuery(c.req.url) }, session: store.session(headers),
      endpoint: endpoints.bankTransactions, records: store.transactions(headers), request_id: randomUUID() }))
  })
  return app
}

/** Listens on host:port (0: any free port); resolves to the server's URL and its `close`. */
export function start(store, { port = 0, host = '127.0.0.1' } = {}) {
  return new Promise((resolve) => {
    const server = serve({ fetch: buildApp(store).fetch, port, hostname: host }, (info) =>
      resolve({ url: `http://${host}:${info.port}`, close: () => new Promise((done, fail) => server.close((e) => (e ? fail(e) : done()))) }))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`Hono on ${(await start(createStore(demo), { port: 3000 })).url}`)
