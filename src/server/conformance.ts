/**
 * The conformance hook: a test mode of the reference server in which the conformance kit
 * (`budget-rules/conformance`) sets, before each scenario, what the server holds and who is
 * asking. `PUT /__conformance/state` with `{ state, company_id }` replaces, in one transaction,
 * the budgets, bank transactions and kept Idempotency-Key replies with the scenario's budget and
 * records (the records as bank transactions of `company_id`, the request's company-id), and the
 * other companies of `state.others` (R-94: each `{ company_id, budget, records }`, its budget and
 * its records as its bank transactions; optional, so a kit of before R-94 still seeds), and
 * remembers the scenario's session, `today` and company member ids, which every request then
 * gets instead of its key's session, the company's date and the stored members.
 *
 * For sequences of requests, `PUT /__conformance/state` with `{ today }` alone lets days
 * pass: the data and the session stay, today moves. Idempotency-Keys are claimed as for any
 * stored API key, all of them by one owner (every request is the scenario's one caller), so that
 * a retry replays its first reply.
 *
 * Never on in production: whoever can reach the server could be anyone. `serve({ conformance:
 * true })` (`budget-rules serve --conformance`) turns it on; without it the route is a 404.
 *
 * @since 0.3.0
 */
import { budgetFields } from '../budget/model'
import { parseInstant } from '../calendar/instant'
import { describeValue } from '../json/describe'
import { holdsNul, isJsonObject } from '../json/value'
import { isWellFormedText } from '../json/well-formed'
import { endpoints } from '../paging/endpoint'
import { isParsedInstant, isWholeMicrosecond, timestamptzText } from '../sql/timestamp'
import type { Database, Queryable } from '../store/database'
import { findBudget, insertBudget } from '../store/store'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What every request gets while the hook is on, as the scenario gave it (the facades check it,
 * as the library does when it decides the scenario).
 */
export interface ConformanceState {
  readonly today: unknown
  readonly session: unknown
  readonly company_member_ids: unknown
}

/**
 * How a seeding ended: 204, or the 400/422 of a body the server cannot hold, or the 409 of a
 * day passing before any state, and why.
 */
export type Seeding =
  { readonly status: 204 } | { readonly status: 400 | 409 | 422; readonly error: string; readonly message: string }

/** The hook of one server: the state seeded last, and the seeding itself. */
export interface ConformanceHook {
  /** The state of the last seeding; null before the first (requests are then answered as usual). */
  readonly state: () => ConformanceState | null
  /** Seeds from the body of a `PUT /__conformance/state`. */
  readonly seed: (body: string) => Promise<Seeding>
}

/** The path of the seeding route. */
export const CONFORMANCE_PATH = '/__conformance/state'

/**
 * The API key that owns the Idempotency-Keys claimed under the hook: its `key_sha256`, which no
 * key's SHA-256 (64 hex digits) can equal, and its row is revoked, so that no bearer key ever
 * resolves to it.
 */
export const HOOK_KEY_SHA256 = 'conformance'

/** The largest seeding body read: a scenario's records may outgrow the API's own 64 KiB. */
export const SEED_LIMIT_BYTES = 16 * 1024 * 1024

/** A record's fields, as the columns of `bank_transactions` keep them. */
const recordFields = Object.keys(endpoints.bankTransactions.fields)

/** A body the server cannot hold: the transaction is rolled back, the 422 says why. */
class Unfit extends Error {}

const unprocessable = (message: string): Seeding => ({ status: 422, error: 'unprocessable_state', message })

/** PostgreSQL text holds neither U+0000 nor a lone surrogate (which UTF-8 cannot write). */
const isText = (u: unknown): u is string => typeof u === 'string' && !holdsNul(u) && isWellFormedText(u)

// -------------------------------------------------------------------------------------
// records
// -------------------------------------------------------------------------------------

/** A record as a row's values: id, amount, status, created_at, updated_at (UTC microsecond text). */
type RecordRow = readonly [string, number, string, string, string]

/** A timestamptz's text for an instant of any offset the library reads (PostgreSQL's stop at ±15:59). */
const instantText = (where: string, u: unknown): string => {
  const instant = typeof u === 'string' ? parseInstant(u) : null
  if (instant === null || !isParsedInstant(instant)) throw new Unfit(`${where} is ${describeValue(u)}, not an instant`)
  if (!isWholeMicrosecond(instant))
    throw new Unfit(`${where} is ${describeValue(u)}: a timestamptz keeps whole microseconds, not nanoseconds`)
  return timestamptzText(instant)
}

/**
 * The rows of the records at `at` (`state.records`, `state.others[0].records`), or the first
 * reason they do not fit `bank_transactions`; `ids` holds the ids seen so far, of every company
 * (the table's key is the id alone).
 */
const recordRows = (records: unknown, at: string, ids: Set<string>): ReadonlyArray<RecordRow> => {
  if (!Array.isArray(records)) throw new Unfit(`${at} is ${describeValue(records)}, not an array`)
  return records.map((record: unknown, i): RecordRow => {
    const where = `${at}[${i}]`
    if (!isJsonObject(record)) throw new Unfit(`${where} is ${describeValue(record)}, not an object`)
    const keys = Object.keys(record)
    const other = keys.find((k) => !recordFields.includes(k)) ?? recordFields.find((f) => !keys.includes(f))
    if (other !== undefined)
      throw new Unfit(`${where} has fields ${keys.join(', ')}: the table keeps exactly ${recordFields.join(', ')}`)
    const { id, amount, status, created_at, updated_at } = record
    if (!isText(id)) throw new Unfit(`${where}.id is ${describeValue(id)}, not text PostgreSQL holds`)
    if (ids.has(id)) throw new Unfit(`${where}.id is ${describeValue(id)}, the id of an earlier record`)
    ids.add(id)
    if (!Number.isSafeInteger(amount)) throw new Unfit(`${where}.amount is ${describeValue(amount)}, not a safe integer`)
    if (!isText(status)) throw new Unfit(`${where}.status is ${describeValue(status)}, not text PostgreSQL holds`)
    return [
      id,
      amount as number,
      status,
      instantText(`${where}.created_at`, created_at),
      instantText(`${where}.updated_at`, updated_at)
    ]
  })
}

// -------------------------------------------------------------------------------------
// seeding
// -------------------------------------------------------------------------------------

/** A company row for an id the scenario names, so that its budget and transactions may refer to it. */
const ensureCompany = async (tx: Queryable, id: string): Promise<void> => {
  await tx.query(
    `INSERT INTO companies (id, name, time_zone, created_at, updated_at) VALUES ($1, $1, 'UTC', now(), now())
     ON CONFLICT (id) DO NOTHING`,
    [id]
  )
}

/**
 * Inserts the budget as given, then reads it back: a value PostgreSQL refused, or kept in
 * another form (a number in a text column, a date written otherwise), is a reason to refuse.
 */
const seedBudget = async (tx: Queryable, budget: Readonly<Record<string, unknown>>, at: string): Promise<void> => {
  const keys = Object.keys(budget)
  if (keys.length !== budgetFields.length || !budgetFields.every((f) => keys.includes(f)))
    throw new Unfit(`${at} has fields ${keys.join(', ')}: the table keeps exactly ${budgetFields.join(', ')}`)
  if (!isText(budget.id) || !isText(budget.company_id))
    throw new Unfit(`${at}.id and company_id are ${describeValue(budget.id)} and ${describeValue(budget.company_id)}, not text`)
  await ensureCompany(tx, budget.company_id)
  try {
    await insertBudget(tx, budget)
  } catch (e) {
    throw new Unfit(`${at} does not fit the budgets table: ${e instanceof Error ? e.message : String(e)}`)
  }
  const kept = (await findBudget(tx, budget.id))?.budget as Readonly<Record<string, unknown>> | undefined
  const changed = budgetFields.find((f) => kept === undefined || !Object.is(kept[f], budget[f]))
  if (changed !== undefined)
    throw new Unfit(
      `${at}.${changed} is ${describeValue(budget[changed])}, which the budgets table keeps as ${describeValue(kept?.[changed])}`
    )
}

/** Another company of the state (R-94): its id, its budget (an object or null) and its records' rows. */
interface Other {
  readonly companyId: string
  readonly budget: Readonly<Record<string, unknown>> | null
  readonly rows: ReadonlyArray<RecordRow>
}

/**
 * The other companies of `state.others` (none when absent: a kit of before R-94), or the first
 * reason they do not fit: each `{ company_id, budget, records }`, its company not the request's
 * nor an earlier one's, its budget null or of its company.
 */
const othersOf = (others: unknown, companyId: string, ids: Set<string>): ReadonlyArray<Other> => {
  if (others === undefined) return []
  if (!Array.isArray(others)) throw new Unfit(`state.others is ${describeValue(others)}, not an array`)
  const companies = new Set([companyId])
  return others.map((other: unknown, i): Other => {
    const at = `state.others[${i}]`
    if (!isJsonObject(other)) throw new Unfit(`${at} is ${describeValue(other)}, not an object`)
    const { company_id, budget, records } = other
    if (!isText(company_id) || company_id === '' || companies.has(company_id))
      throw new Unfit(`${at}.company_id is ${describeValue(company_id)}, not a company of its own`)
    companies.add(company_id)
    if (!(budget === null || isJsonObject(budget)))
      throw new Unfit(`${at}.budget is ${describeValue(budget)}, not an object or null`)
    if (budget !== null && budget.company_id !== company_id)
      throw new Unfit(`${at}.budget.company_id is ${describeValue(budget.company_id)}, not ${describeValue(company_id)}`)
    return { companyId: company_id, budget, rows: recordRows(records, `${at}.records`, ids) }
  })
}

/** Inserts the records as bank transactions of `companyId`, in one statement. */
const insertRecords = async (tx: Queryable, companyId: string, rows: ReadonlyArray<RecordRow>): Promise<void> => {
  if (rows.length === 0) return
  await tx.query(
    `INSERT INTO bank_transactions (id, company_id, amount, status, created_at, updated_at)
     SELECT r.id, $1, r.amount, r.status, r.created_at, r.updated_at
       FROM unnest($2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::timestamptz[])
         AS r (id, amount, status, created_at, updated_at)`,
    [companyId, ...[0, 1, 2, 3, 4].map((k) => rows.map((row) => row[k]))]
  )
}

/** The user and the revoked API key row the Idempotency-Keys claimed under the hook belong to. */
const ensureKeyOwner = async (tx: Queryable): Promise<void> => {
  await tx.query(
    `INSERT INTO users (id, email, email_verified) VALUES ($1, 'conformance@conformance.invalid', true) ON CONFLICT DO NOTHING`,
    [HOOK_KEY_SHA256]
  )
  await tx.query(`INSERT INTO api_keys (key_sha256, user_id, revoked_at) VALUES ($1, $1, now()) ON CONFLICT DO NOTHING`, [
    HOOK_KEY_SHA256
  ])
}

/** A body that only moves today: `{ today }`, nothing else. */
const isDayPassing = (json: unknown): json is { readonly today: unknown } =>
  isJsonObject(json) && Object.keys(json).length === 1 && Object.hasOwn(json, 'today')

/**
 * The hook over `db`. A seeding deletes the budgets, bank transactions and kept replies
 * (migrations, companies, users and keys stay), then inserts the scenario's. A day passing
 * (`{ today }`) changes today only.
 */
export const conformanceHook = (db: Database): ConformanceHook => {
  let current: ConformanceState | null = null
  return {
    state: () => current,
    seed: async (body) => {
      let json: unknown
      try {
        json = JSON.parse(body) as unknown
      } catch {
        return { status: 400, error: 'bad_request', message: 'The body is not JSON' }
      }
      if (isDayPassing(json)) {
        if (current === null)
          return { status: 409, error: 'no_state', message: 'Days pass over a state: seed one first with { state, company_id }' }
        current = { ...current, today: json.today }
        return { status: 204 }
      }
      if (!isJsonObject(json) || !isJsonObject(json.state) || !(json.company_id === null || typeof json.company_id === 'string'))
        return {
          status: 400,
          error: 'bad_request',
          message:
            'The body is { state: { today, session, budget, company_member_ids, records, others? }, company_id: string | null }, or { today }'
        }
      const { state } = json
      // The server reads company-id with HTTP's optional whitespace around it dropped.
      const companyId = json.company_id === null ? '' : json.company_id.replace(/^[ \t]+|[ \t]+$/g, '')
      try {
        const ids = new Set<string>()
        const rows = companyId === '' ? [] : recordRows(state.records, 'state.records', ids)
        if (companyId !== '' && !isText(companyId))
          throw new Unfit(`company_id is ${describeValue(companyId)}, not text PostgreSQL holds`)
        const others = othersOf(state.others, companyId, ids)
        await db.transaction(async (tx) => {
          await tx.query('DELETE FROM idempotency_keys')
          await tx.query('DELETE FROM budgets')
          await tx.query('DELETE FROM bank_transactions')
          await ensureKeyOwner(tx)
          if (isJsonObject(state.budget)) await seedBudget(tx, state.budget, 'state.budget')
          if (companyId !== '') {
            await ensureCompany(tx, companyId)
            await insertRecords(tx, companyId, rows)
          }
          for (const [i, other] of others.entries()) {
            await ensureCompany(tx, other.companyId)
            if (other.budget !== null) await seedBudget(tx, other.budget, `state.others[${i}].budget`)
            await insertRecords(tx, other.companyId, other.rows)
          }
        })
      } catch (e) {
        if (e instanceof Unfit) return unprocessable(e.message)
        throw e
      }
      current = { today: state.today, session: state.session, company_member_ids: state.company_member_ids }
      return { status: 204 }
    }
  }
}
