// A server embedding budget-rules answers PATCH /v1/budgets/{id}: for each request below it hands
// the library the request as received, the session and budget it looked up, today's date and a
// request id, and prints the reply it would send.
import { respondBudgetUpdate } from 'budget-rules'

const today = '2026-11-22'

const travel = {
  id: 'b-travel',
  company_id: 'c-acme',
  name: 'Travel',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-marta',
  co_manager_id: null,
  status: 'open',
  created_on: '2025-10-18',
  ends_on: null,
  recurrence_unit: null,
  recurrence_every: null,
  base_amount_cents: null,
  recurrence_starts_on: null,
  period_starts_on: '2025-10-18',
  period_ends_on: null,
  period_amount_cents: 1500000,
  balance_cents: 420000
}

const offsite = { ...travel, id: 'b-offsite', name: 'Offsite 2026', status: 'closing', ends_on: '2026-11-15' }

const sessionOf = (userId, role, permissions = []) => ({
  user: { id: userId, email_verified: true },
  memberships: { 'c-acme': { role, permissions } }
})

const people = {
  'Ana (admin)': sessionOf('u-ana', 'admin'),
  'Marta (manager of the group)': sessionOf('u-marta', 'member'),
  'Tomás (member, no budget rights)': sessionOf('u-tomas', 'member')
}

const cases = [
  ['Ana (admin)', travel, { budget: { name: 'Travel & lodging', recurrence_unit: 'month', base_amount_cents: 2000000 } }],
  ['Marta (manager of the group)', travel, { budget: { description: 'Flights and hotels', access: 'members' } }],
  ['Marta (manager of the group)', travel, { budget: { base_amount_cents: 9900000 } }],
  ['Tomás (member, no budget rights)', travel, { budget: { name: 'Mine now' } }],
  ['Marta (manager of the group)', offsite, { budget: { ends_on: '2027-01-31' } }],
  ['Ana (admin)', travel, { name: 'forgot the wrapper' }],
  ['Ana (admin)', travel, { budget: { name: ' ', recurrence_every: 0, currency: 'USD', colour: 'red' } }]
]

let n = 0
for (const [who, budget, body] of cases) {
  n += 1
  const reply = respondBudgetUpdate({
    request: { headers: { Authorization: 'Bearer sk_live_demo', 'company-id': 'c-acme' }, body: JSON.stringify(body) },
    session: people[who],
    budget,
    today,
    request_id: `req-${n}`,
    company_member_ids: ['u-ana', 'u-marta', 'u-tomas']
  })
  console.log(`\n#${n} ${who} sends PATCH /v1/budgets/${budget.id} (status ${budget.status}, today ${today})`)
  console.log(`   body: ${JSON.stringify(body)}`)
  console.log(`   -> ${reply.status} ${JSON.stringify(reply.headers)}`)
  if (reply.status === 200) {
    const changed = Object.keys(reply.budget).filter((k) => reply.budget[k] !== budget[k])
    console.log(`   changed: ${changed.map((k) => `${k}: ${JSON.stringify(budget[k])} -> ${JSON.stringify(reply.budget[k])}`).join(', ')}`)
  } else {
    console.log(`   body: ${reply.body === null ? '(empty)' : JSON.stringify(reply.body)}`)
  }
  const last = reply.reasons.at(-1)
  console.log(`   why: ${reply.reasons.map((r) => r.rule).join(' > ')}`)
  console.log(`        ${last.rule}: ${last.detail}`)
}
