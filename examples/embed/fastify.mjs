// budget-rules in Fastify: each route hands a facade the request as received and what the store
// looked up, then sends the reply as it is. `node examples/embed/fastify.mjs` serves the demo data.
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { endpoints, respondAmount, respondBudgetUpdate, respondIndex, respondTopUp, respondWithdraw } from 'budget-rules'
import { createStore, demo, rawQuery } from './store.mjs'

const budgetRoutes = [
  ['PATCH', '/v1/budgets/:id', respondBudgetUpdate],
  ['POST', '/v1/budgets/:id/top_up', respondTopUp],
  ['POST', '/v1/budgets/:id/withdraw', respondWithdraw],
  ['PATCH', '/v1/budgets/:id/amount', respondAmount]
]

export function buildApp(store) {
  const app = Fastify()
  // The facades read the raw body text: no content type (nor its absence) is parsed here.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  const send = (res, reply) => res.code(reply.status).headers(reply.headers).send(reply.body === null ? undefined : JSON.stringify(reply.body))
  for (const [method, url, respond] of budgetRoutes)
    app.route({ method, url, handler: (req, res) => {
      const budget = store.budget(req.params.id)
      const reply = respond({ request: { headers: req.headers, body: req.body }, session: store.session(req.headers), budget,
        today: store.today(), request_id: randomUUID(), company_member_ids: store.members(budget) })
      if (reply.status === 200) store.save(reply.budget)
      send(res, reply)
    } })
  app.get('/v1/banking/bank_transactions', (req, res) => {
    send(res, respondIndex({ request: { headers: req.headers, query: rawQuery(req.url) }, session: store.session(req.headers),
      endpoint: endpoints.bankTransactions, records: store.transactions(req.headers), request_id: randomUUID() }))
  })
  return app
}

/** Listens on host:port (0: any free port); resolves to the server's URL and its `close`. */
export async function start(store, { port = 0, host = '127.0.0.1' } = {}) {
  const app = buildApp(store)
  const url = await app.listen({ port, host })
  return { url, close: () => app.close() }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`Fastify on ${(await start(createStore(demo), { port: 3000 })).url}`)
