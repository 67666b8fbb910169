/**
 * The demo data a new database starts with (docs/server.md lists it): the company Acme with four
 * users and their bearer keys, budgets of each mode and state, 5,000 bank transactions; and a
 * second company, Initech, none of whose data a demo key may see (to try the 404s of scope).
 *
 * Everything is fixed or drawn from a fixed-seed generator, so every database seeded holds the
 * same rows, and the replies the docs print are the replies a user gets.
 *
 * @since 0.2.0
 */
import type { BudgetJson as Budget } from '../budget/model'
import type { Database, Queryable } from './database'
import { keyHash } from './keys'
import { insertBudget } from './store'

/** The demo company's id, and the other company's. */
export const ACME = 'c-acme'
export const INITECH = 'c-initech'

/** The demo bearer keys and the users they belong to. */
export const demoKeys = {
  'demo-admin': 'u-admin',
  'demo-manager': 'u-manager',
  'demo-member': 'u-member',
  'demo-unverified': 'u-unverified'
} as const

const users = [
  { id: 'u-admin', email: 'ana@acme.example', verified: true, company: ACME, role: 'admin' },
  { id: 'u-manager', email: 'marta@acme.example', verified: true, company: ACME, role: 'member' },
  { id: 'u-member', email: 'mateo@acme.example', verified: true, company: ACME, role: 'member' },
  { id: 'u-unverified', email: 'ursula@acme.example', verified: false, company: ACME, role: 'member' },
  { id: 'u-initech', email: 'bill@initech.example', verified: true, company: INITECH, role: 'owner' }
] as const

const none = { recurrence_unit: null, recurrence_every: null, base_amount_cents: null, recurrence_starts_on: null } as const

/** The demo budgets, each consistent as stored. */
export const demoBudgets: ReadonlyArray<Budget> = [
  // funded, with a balance; managed by demo-manager
  {
    id: 'b-travel',
    company_id: ACME,
    name: 'Travel',
    description: 'Flights and hotels',
    access: 'everyone',
    currency: 'CLP',
    mode: 'funded',
    manager_id: 'u-manager',
    co_manager_id: null,
    status: 'open',
    created_on: '2025-10-18',
    ends_on: null,
    ...none,
    period_starts_on: '2025-10-18',
    period_ends_on: null,
    period_amount_cents: 1_500_000,
    balance_cents: 420_000
  },
  // tracking, renewing monthly from the 31st: 31 Jan, 28 Feb, 31 Mar, 30 Apr, ...
  {
    id: 'b-marketing',
    company_id: ACME,
    name: 'Marketing',
    description: null,
    access: 'members',
    currency: 'CLP',
    mode: 'tracking',
    manager_id: null,
    co_manager_id: 'u-manager',
    status: 'open',
    created_on: '2025-01-31',
    ends_on: null,
    recurrence_unit: 'month',
    recurrence_every: 1,
    base_amount_cents: 2_000_000,
    recurrence_starts_on: '2025-01-31',
    period_starts_on: '2025-01-31',
    period_ends_on: '2025-02-28',
    period_amount_cents: 2_000_000,
    balance_cents: null
  },
  // funded, renewing weekly from a Monday
  {
    id: 'b-team-lunch',
    company_id: ACME,
    name: 'Team lunch',
    description: 'Fridays',
    access: 'everyone',
    currency: 'CLP',
    mode: 'funded',
    manager_id: 'u-admin',
    co_manager_id: null,
    status: 'open',
    created_on: '2026-01-05',
    ends_on: null,
    recurrence_unit: 'week',
    recurrence_every: 1,
    base_amount_cents: 30_000,
    recurrence_starts_on: '2026-01-05',
    period_starts_on: '2026-01-05',
    period_ends_on: '2026-01-12',
    period_amount_cents: 30_000,
    balance_cents: 90_000
  },
  // closing: its ends_on has come
  {
    id: 'b-offsite',
    company_id: ACME,
    name: 'Offsite 2026',
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'funded',
    manager_id: 'u-manager',
    co_manager_id: null,
    status: 'closing',
    created_on: '2026-03-01',
    ends_on: '2026-11-01',
    ...none,
    period_starts_on: '2026-03-01',
    period_ends_on: null,
    period_amount_cents: 500_000,
    balance_cents: 100_000
  },
  // closed
  {
    id: 'b-events-2025',
    company_id: ACME,
    name: 'Events 2025',
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'tracking',
    manager_id: null,
    co_manager_id: null,
    status: 'closed',
    created_on: '2025-01-01',
    ends_on: '2025-12-31',
    ...none,
    period_starts_on: '2025-01-01',
    period_ends_on: null,
    period_amount_cents: 800_000,
    balance_cents: null
  },
  // another company's
  {
    id: 'b-initech-ops',
    company_id: INITECH,
    name: 'Operations',
    description: null,
    access: 'everyone',
    currency: 'NZD',
    mode: 'funded',
    manager_id: null,
    co_manager_id: null,
    status: 'open',
    created_on: '2026-02-01',
    ends_on: null,
    ...none,
    period_starts_on: '2026-02-01',
    period_ends_on: null,
    period_amount_cents: 100_000,
    balance_cents: 50_000
  }
]

/** How many bank transactions Acme has. */
export const DEMO_TRANSACTIONS = 5000

/** mulberry32: a small fixed-seed generator, so every seeded database holds the same rows. */
const generator = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A bank transaction row as seeded. */
interface SeedTransaction {
  readonly id: string
  readonly company_id: string
  readonly amount: number
  readonly status: 'authorized' | 'pending'
  readonly created_at: string
  readonly updated_at: string
}

const FROM = Date.UTC(2026, 4, 1) // 2026-05-01
const TO = Date.UTC(2026, 10, 21) // 2026-11-21
const MINUTE = 60_000

/**
 * Acme's 5,000 transactions: created at whole minutes between May and November 2026, one in
 * twenty at the very instant of the one before (ties of created_at), amounts from a short list
 * now and then (ties of amount), and updated up to three days after creation.
 */
export const demoTransactions = (): ReadonlyArray<SeedTransaction> => {
  const random = generator(20261123)
  const rows: Array<SeedTransaction> = []
  let previous = FROM
  for (let i = 1; i <= DEMO_TRANSACTIONS; i++) {
    const created = i > 1 && random() < 0.05 ? previous : FROM + Math.floor((random() * (TO - FROM)) / MINUTE) * MINUTE
    previous = created
    const tie = random() < 0.1 ? Math.floor(random() * 3) : -1
    const amount = tie === 0 ? 1000 : tie === 1 ? 5000 : tie === 2 ? 25000 : 100 + Math.floor(random() * 999_900)
    const updated = created + Math.floor(random() * 3 * 24 * 60) * MINUTE
    rows.push({
      id: `tx-${String(i).padStart(5, '0')}`,
      company_id: ACME,
      amount,
      status: random() < 0.7 ? 'authorized' : 'pending',
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updated).toISOString()
    })
  }
  for (let i = 1; i <= 3; i++)
    rows.push({
      id: `tx-initech-${i}`,
      company_id: INITECH,
      amount: 1000 * i,
      status: 'pending',
      created_at: `2026-10-0${i}T12:00:00.000Z`,
      updated_at: `2026-10-0${i}T12:00:00.000Z`
    })
  return rows
}

const insertDemo = async (tx: Queryable): Promise<void> => {
  const created = '2025-01-01T12:00:00Z'
  await tx.query(
    `INSERT INTO companies (id, name, time_zone, created_at, updated_at) VALUES
       ($1, 'Acme SpA', 'America/Santiago', $3, $3), ($2, 'Initech Ltda', 'Pacific/Auckland', $3, $3)`,
    [ACME, INITECH, created]
  )
  for (const u of users) {
    await tx.query('INSERT INTO users (id, email, email_verified) VALUES ($1, $2, $3)', [u.id, u.email, u.verified])
    await tx.query('INSERT INTO memberships (company_id, user_id, role) VALUES ($1, $2, $3)', [u.company, u.id, u.role])
  }
  for (const [key, user] of Object.entries(demoKeys))
    await tx.query('INSERT INTO api_keys (key_sha256, user_id) VALUES ($1, $2)', [keyHash(key), user])
  for (const b of demoBudgets) await insertBudget(tx, b)
  // One statement for all the transactions: arrays in, rows out.
  const rows = demoTransactions()
  await tx.query(
    `INSERT INTO bank_transactions (id, company_id, amount, status, created_at, updated_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::timestamptz[])`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.company_id),
      rows.map((r) => r.amount),
      rows.map((r) => r.status),
      rows.map((r) => r.created_at),
      rows.map((r) => r.updated_at)
    ]
  )
}

/**
 * Seeds the demo data when the database holds no company; true when it did. The planner's
 * statistics are gathered at once, so that the first page asked for is an index scan already
 * (PGlite runs no autovacuum).
 */
export const seedWhenEmpty = async (db: Database): Promise<boolean> => {
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(20261124)')
    const found = await tx.query('SELECT 1 FROM companies LIMIT 1')
    if (found.length > 0) return false
    await insertDemo(tx)
    return true
  })
  if (seeded) await db.query('ANALYZE')
  return seeded
}
