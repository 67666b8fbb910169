/**
 * What the reference server looks up and persists, as plain SQL over the {@link Database}: the
 * session of an API key, budgets (locked for a mutation), bank transactions, recipients,
 * companies, memberships, and the replies kept for an Idempotency-Key. Nothing here decides
 * anything the service's rules decide: the facades do.
 *
 * @since 0.2.0
 */
import { budgetFields, type BudgetJson } from '../budget/model'
import { holdsNul } from '../json/value'
import type { Session } from '../index'
import { instantColumnText } from '../sql/timestamp'
import type { Queryable, Row } from './database'

/** A budget row and its company's time zone (the zone of its `today`). */
export interface BudgetFound {
  readonly budget: BudgetJson
  readonly time_zone: string
}

/** A bank transaction row, JSON-ready. */
export interface TransactionRow {
  readonly id: string
  readonly company_id: string
  readonly amount: number
  readonly status: string
  readonly created_at: string
  readonly updated_at: string
}

/** A reply kept for an Idempotency-Key, and the request that claimed the key (null for a key claimed before it was kept). */
export interface KeptReply {
  readonly request_id: string | null
  readonly fingerprint: string
  readonly status: number | null
  readonly headers: Readonly<Record<string, string>> | null
  readonly body: string | null
}

/** An instant column as ISO-8601 text, spelled as the page queries spell it (microseconds, UTC). */
const iso = (column: string): string => instantColumnText(column)

/** A budget's columns in the model's order (the reply's), and its company's time zone. */
const budgetColumns = `SELECT ${budgetFields.map((f) => `b.${f}`).join(', ')}, c.time_zone`
const budgetFrom = ` FROM budgets b JOIN companies c ON c.id = b.company_id`
const budgetSelect = budgetColumns + budgetFrom

const budgetOf = (row: Row): BudgetFound => {
  const { time_zone, ...budget } = row
  return { budget: budget as unknown as BudgetJson, time_zone: time_zone as string }
}

/** PostgreSQL text holds no NUL: an id with one names no row (and would be refused as a parameter). */
const noRow = holdsNul

/** The user and memberships of the stored, unrevoked key whose SHA-256 is `$1`: one row, or none. */
const sessionSelect = `SELECT u.id, u.email_verified,
    coalesce(jsonb_object_agg(m.company_id, jsonb_build_object('role', m.role, 'permissions', to_jsonb(m.permissions)))
             FILTER (WHERE m.company_id IS NOT NULL), '{}') AS memberships
  FROM api_keys k JOIN users u ON u.id = k.user_id LEFT JOIN memberships m ON m.user_id = u.id
  WHERE k.key_sha256 = $1 AND k.revoked_at IS NULL
  GROUP BY u.id, u.email_verified`

type SessionRow = {
  readonly id: string | null
  readonly email_verified: boolean | null
  readonly memberships: Session['memberships'] | null
}

/** The session of a row of {@link sessionSelect}, or of none (a null id): no user. */
const sessionOf = (row: SessionRow): Session =>
  row.id === null
    ? { user: null, memberships: {} }
    : { user: { id: row.id, email_verified: row.email_verified === true }, memberships: row.memberships ?? {} }

/** The session an API key (its SHA-256) resolves to; `user: null` when unknown or revoked. */
export const findSession = async (db: Queryable, keySha256: string): Promise<Session> =>
  sessionOf((await db.query<SessionRow>(sessionSelect, [keySha256]))[0] ?? { id: null, email_verified: null, memberships: null })

/**
 * The budget with that id in the caller's company, or null: another company's budget is none, as
 * the facade's scope check would have it (the same 404), and is never read for a stranger to it.
 * Without a company (the conformance hook, which keeps the scenario's budget whatever it holds),
 * whatever its company.
 */
export const findBudget = async (db: Queryable, id: string, companyId?: string): Promise<BudgetFound | null> => {
  if (noRow(id)) return null
  const row = (
    await db.query(
      companyId === undefined ? `${budgetSelect} WHERE b.id = $1` : `${budgetSelect} WHERE b.id = $1 AND b.company_id = $2`,
      companyId === undefined ? [id] : [id, companyId]
    )
  )[0]
  return row === undefined ? null : budgetOf(row)
}

/**
 * As {@link findBudget} in a company, the row locked until the transaction ends (`SELECT ... FOR
 * UPDATE`): a member of one company never locks another's budget.
 */
export const lockBudget = async (tx: Queryable, id: string, companyId: string): Promise<BudgetFound | null> => {
  if (noRow(id) || holdsNul(companyId)) return null
  const row = (await tx.query(`${budgetSelect} WHERE b.id = $1 AND b.company_id = $2 FOR UPDATE OF b`, [id, companyId]))[0]
  return row === undefined ? null : budgetOf(row)
}

/** A company's budgets. */
export const companyBudgets = async (db: Queryable, companyId: string): Promise<ReadonlyArray<BudgetFound>> =>
  (await db.query(`${budgetSelect} WHERE b.company_id = $1 ORDER BY b.created_on, b.id`, [companyId])).map(budgetOf)

/** What a budget never changes (contract section 2): the rest of its fields is written back. */
const FIXED: ReadonlyArray<string> = ['id', 'company_id', 'currency', 'mode', 'created_on']
const changeableFields = /*#__PURE__*/ budgetFields.filter((f) => !FIXED.includes(f))

/** Inserts a budget, every field of contract section 2 (the demo seed; the conformance hook, whose budget the table itself checks). */
export const insertBudget = async (tx: Queryable, budget: Readonly<Record<string, unknown>>): Promise<void> => {
  await tx.query(
    `INSERT INTO budgets (${budgetFields.join(', ')}) VALUES (${budgetFields.map((_, i) => `$${i + 1}`).join(', ')})`,
    budgetFields.map((f) => budget[f])
  )
}

/** Writes back the budget a facade returned: every field that can change (not id, company, currency, mode). */
export const saveBudget = async (tx: Queryable, budget: BudgetJson): Promise<void> => {
  await tx.query(`UPDATE budgets SET ${changeableFields.map((f, i) => `${f} = $${i + 2}`).join(', ')} WHERE id = $1`, [
    budget.id,
    ...changeableFields.map((f) => budget[f])
  ])
}

/**
 * As {@link lockBudget}, with the ids of the company's members read in the same statement (in
 * the order {@link memberIds} gives them): an update's manager must be a member (contract
 * section 5).
 */
export const lockBudgetWithMembers = async (
  tx: Queryable,
  id: string,
  companyId: string
): Promise<{ readonly found: BudgetFound; readonly member_ids: ReadonlyArray<string> } | null> => {
  if (noRow(id) || holdsNul(companyId)) return null
  const row = (
    await tx.query(
      `${budgetColumns},
         (SELECT coalesce(json_agg(m.user_id ORDER BY m.user_id), '[]'::json) FROM memberships m WHERE m.company_id = b.company_id) AS member_ids
       ${budgetFrom} WHERE b.id = $1 AND b.company_id = $2 FOR UPDATE OF b`,
      [id, companyId]
    )
  )[0]
  if (row === undefined) return null
  const { member_ids, ...budgetRow } = row
  return { found: budgetOf(budgetRow), member_ids: member_ids as ReadonlyArray<string> }
}

/** The ids of a company's members. */
export const memberIds = async (db: Queryable, companyId: string): Promise<ReadonlyArray<string>> =>
  (
    await db.query<{ user_id: string }>('SELECT user_id FROM memberships WHERE company_id = $1 ORDER BY user_id', [companyId])
  ).map((r) => r.user_id)

const transactionSelect = `SELECT id, company_id, amount, status, ${iso('created_at')} AS created_at, ${iso('updated_at')} AS updated_at
  FROM bank_transactions`

/** The bank transaction with that id in the caller's company, locked until the transaction ends, or null. */
export const lockTransaction = async (tx: Queryable, id: string, companyId: string): Promise<TransactionRow | null> =>
  noRow(id) || holdsNul(companyId)
    ? null
    : ((
        await tx.query<TransactionRow & Row>(`${transactionSelect} WHERE id = $1 AND company_id = $2 FOR UPDATE`, [id, companyId])
      )[0] ?? null)

/** Writes back the status of a transaction a facade returned. */
export const saveTransactionStatus = async (tx: Queryable, id: string, status: string): Promise<void> => {
  await tx.query('UPDATE bank_transactions SET status = $2 WHERE id = $1', [id, status])
}

/** The companies a user is a member of, as GET /v1/companies lists them. */
export const userCompanies = async (db: Queryable, userId: string): Promise<ReadonlyArray<Row>> =>
  db.query(
    `SELECT c.id, c.name, ${iso('c.created_at')} AS created_at, ${iso('c.updated_at')} AS updated_at
       FROM companies c JOIN memberships m ON m.company_id = c.id WHERE m.user_id = $1`,
    [userId]
  )

/** Locks a company's row: what serialises the enrolment of its recipients. */
export const lockCompany = async (tx: Queryable, companyId: string): Promise<void> => {
  await tx.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId])
}

/** The ids of the banks the server knows. */
export const bankIds = async (db: Queryable): Promise<ReadonlyArray<string>> =>
  (await db.query<{ id: string }>('SELECT id FROM banks ORDER BY id')).map((r) => r.id)

/** The recipients a company has enrolled. */
export const enrolledRecipients = async (
  db: Queryable,
  companyId: string
): Promise<ReadonlyArray<{ rut: string; bank_id: string; account_number: string }>> =>
  db.query('SELECT rut, bank_id, account_number FROM bank_recipients WHERE company_id = $1', [companyId])

/** Keeps a recipient a facade returned, under a new id. */
export const insertRecipient = async (
  tx: Queryable,
  row: { id: string; company_id: string; rut: string; account_number: string; bank_id: string; name: string; created_at: string }
): Promise<void> => {
  await tx.query(
    `INSERT INTO bank_recipients (id, company_id, rut, account_number, bank_id, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.company_id, row.rut, row.account_number, row.bank_id, row.name, row.created_at]
  )
}

/** Writes the role a facade granted. */
export const saveRole = async (tx: Queryable, companyId: string, userId: string, role: string): Promise<void> => {
  await tx.query('UPDATE memberships SET role = $3 WHERE company_id = $1 AND user_id = $2', [companyId, userId, role])
}

/**
 * Claims an Idempotency-Key for an API key: null when this request is the first (the key is now
 * held until the transaction ends; a concurrent request with the same key waits on it), else what
 * was kept for it.
 */
export const claimIdempotencyKey = async (
  tx: Queryable,
  claim: {
    key_sha256: string
    idempotency_key: string
    fingerprint: string
    request_id: string
    now: string
    expired_before: string
  }
): Promise<KeptReply | null> => {
  // A key kept longer than its time to live is forgotten: its reuse is a new request.
  await tx.query('DELETE FROM idempotency_keys WHERE key_sha256 = $1 AND idempotency_key = $2 AND created_at < $3', [
    claim.key_sha256,
    claim.idempotency_key,
    claim.expired_before
  ])
  const inserted = await tx.query(
    `INSERT INTO idempotency_keys (key_sha256, idempotency_key, fingerprint, created_at, request_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [claim.key_sha256, claim.idempotency_key, claim.fingerprint, claim.now, claim.request_id]
  )
  if (inserted.length > 0) return null
  const kept = await tx.query<KeptReply & Row>(
    'SELECT request_id, fingerprint, status, headers, body FROM idempotency_keys WHERE key_sha256 = $1 AND idempotency_key = $2',
    [claim.key_sha256, claim.idempotency_key]
  )
  // The claim waited for the request holding the key: its row is committed, reply and all.
  return kept[0] as KeptReply
}

/** Keeps the reply given to the request that claimed an Idempotency-Key. */
export const keepReply = async (
  tx: Queryable,
  kept: {
    key_sha256: string
    idempotency_key: string
    status: number
    headers: Readonly<Record<string, string>>
    body: string | null
  }
): Promise<void> => {
  await tx.query(
    'UPDATE idempotency_keys SET status = $3, headers = $4, body = $5 WHERE key_sha256 = $1 AND idempotency_key = $2',
    [kept.key_sha256, kept.idempotency_key, kept.status, JSON.stringify(kept.headers), kept.body]
  )
}

/**
 * The session of a key (its SHA-256; none for a request without one) and one request counted
 * against the rate limit (R-112), in one statement: under `keyName` when the key names a stored,
 * unrevoked key, else under `addressName`, so that made-up keys write no row of their own. Each
 * name has a window of 60 seconds, counted by one atomic upsert that every instance on the
 * database shares; a window that does not hold `now` (it ended, or it starts more than a minute
 * after `now`: a clock far behind) starts again at `now`. Returns the session, the requests
 * counted in the window, this one included, and when the window started (ms since the epoch).
 */
export const admitRequest = async (
  db: Queryable,
  keySha256: string | undefined,
  names: { readonly keyName: string; readonly addressName: string },
  now: string
): Promise<{ session: Session; count: number; window_ms: number }> => {
  const rows = await db.query<SessionRow & { count: number; window_ms: number }>(
    `WITH found AS (${sessionSelect}),
     counted AS (
       INSERT INTO rate_limits AS r (key, window_start, count)
       SELECT CASE WHEN EXISTS (SELECT 1 FROM found) THEN $2 ELSE $3 END, $4::timestamptz, 1
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN abs(extract(epoch FROM $4::timestamptz - r.window_start)) >= 60 THEN $4::timestamptz ELSE r.window_start END,
         count = CASE WHEN abs(extract(epoch FROM $4::timestamptz - r.window_start)) >= 60 THEN 1 ELSE r.count + 1 END
       RETURNING count, (extract(epoch FROM window_start) * 1000)::float8 AS window_ms)
     SELECT found.id, found.email_verified, found.memberships, counted.count, counted.window_ms FROM counted LEFT JOIN found ON true`,
    [keySha256 ?? null, names.keyName, names.addressName, now]
  )
  const row = rows[0] as (typeof rows)[number]
  return { session: sessionOf(row), count: row.count, window_ms: row.window_ms }
}

/**
 * Forgets what has expired: idempotency keys created before `idempotencyBefore`, and rate-limit
 * windows that ended before `now`. Any instance may run it, any number of times.
 */
export const purgeExpired = async (db: Queryable, now: string, idempotencyBefore: string): Promise<number> => {
  const keys = await db.query('DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1', [idempotencyBefore])
  await db.query(`DELETE FROM rate_limits WHERE window_start <= $1::timestamptz - interval '60 seconds'`, [now])
  return keys.length
}
