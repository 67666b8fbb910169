import { buildQuery, endpoints, nextWindow, parseErrorResponse, respondIndex, retryDecision } from 'budget-rules'

// A stand-in for the service, so that this runs anywhere: it answers GET /v1/banking/bank_transactions
// with the library's own facade, and hands back what a fetch would: status, headers, body text.
const records = Array.from({ length: 230 }, (_, i) => ({
  id: `tx-${String(i).padStart(3, '0')}`,
  amount: 1000 + i,
  status: i % 4 === 0 ? 'pending' : 'authorized',
  created_at: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T12:00:00Z`,
  updated_at: '2026-11-22T12:00:00Z'
}))
const service = (query) => {
  const reply = respondIndex({
    request: { headers: { Authorization: 'Bearer sk_test_demo', 'company-id': 'c-1' }, query },
    session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'member', permissions: [] } } },
    endpoint: endpoints.bankTransactions,
    records,
    request_id: 'req-demo'
  })
  return { status: reply.status, headers: reply.headers, body: reply.body === null ? '' : JSON.stringify(reply.body) }
}

// 1. Read every authorized transaction, newest first, 100 at a time.
let window = { start: 0, end: 100 }
let total = 0
while (window !== null) {
  const query = buildQuery(endpoints.bankTransactions, {
    window,
    order: 'desc',
    filters: [{ field: 'status', op: '$eq', value: 'authorized' }]
  })
  const reply = service(query)
  const page = JSON.parse(reply.body)
  total += page.length
  console.log(`GET ?${query} -> ${reply.status}, Content-Range ${reply.headers['Content-Range']}`)
  window = nextWindow(window, page.length)
}
console.log(`read ${total} authorized transactions`)

// 2. Read an error: a window over 2000 records.
const problem = parseErrorResponse(service('_start=0&_end=5000'))
console.log(`${problem.status} ${problem.kind}: ${problem.message} (request ${problem.request_id})`)

// 3. Decide retries: a GET on 503 backs off, a POST on 503 never retries, a 429 waits Retry-After.
for (const [method, status, headers] of [
  ['GET', 503, {}],
  ['POST', 503, {}],
  ['POST', 429, { 'Retry-After': '2' }]
]) {
  const decision = retryDecision({ method, status, headers, attempt: 1, random: 0.5 })
  console.log(`${method} ${status}: ${decision.retry ? `retry in ${decision.delay_ms} ms` : 'do not retry'}`)
}
