/**
 * The plain handlers of bench/server.bench.ts, apart so that bench/server-parts.ts can watch
 * their statements too: a reading of the same endpoints without the library, as a user would
 * write it (Hono, the same database), and the floor, the same handlers also counting each
 * request against the rate limit and recording its decision, each its own statement, as the
 * contract asks of every request.
 *
 * - `GET /v1/banking/bank_transactions`: a page and its `count(*)`;
 * - `GET /kept/v1/banking/bank_transactions`: a page and the count the store keeps;
 * - `GET /floor/v1/banking/bank_transactions`: the same, counted and recorded;
 * - `PATCH /v1/budgets/:id`: the row locked, the name checked and written, the row returned;
 * - `PATCH /floor/v1/budgets/:id`: the same, counted and recorded.
 */
import { randomUUID } from 'node:crypto'
import { type Context, Hono } from 'hono'
import type { Database, Queryable } from '../src/store/driver'
import { keyHash } from '../src/store/keys'
import { findSession } from '../src/store/store'

/** The plain handlers on `db`. */
export const plainApp = (db: Database): Hono => {
  const bearer = (header: string | undefined): string | null => /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? null

  /** Counts a request against the key's row of the rate limit, as a user would write it (the floor's). */
  const countRequest = async (keySha256: string): Promise<void> => {
    await db.query(
      `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ('key:' || $1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET count = r.count + 1`,
      [keySha256]
    )
  }
  /** Records a decision with the columns R-120 asks for, as a user would write it (the floor's). */
  const recordDecision = async (
    on: Queryable,
    c: Context,
    actor: string,
    company: string,
    record: { endpoint: string; case: unknown; status: number; resource_id: string | null; reply: unknown; changes: unknown }
  ): Promise<void> => {
    await on.query(
      `INSERT INTO decisions (id, at, company_id, actor_id, key_id, endpoint, method, path, resource_id, status, rules, "case", reply, changes, masked, erased, library_version)
       VALUES ($1, now(), $2, $3, null, $4, $5, $6, $7, $8, '[]', $9::json, $10::json, $11::json, '[]', '[]', 'plain')`,
      [
        randomUUID(),
        company,
        actor,
        record.endpoint,
        c.req.method,
        c.req.path,
        record.resource_id,
        record.status,
        JSON.stringify(record.case),
        JSON.stringify(record.reply),
        JSON.stringify(record.changes)
      ]
    )
  }

  /** The caller's company and user id, or null when the key is no member's of company-id; on the floor, counted first. */
  const admitted = async (c: Context, floor: boolean): Promise<{ company: string; actor: string } | null> => {
    const key = bearer(c.req.header('authorization'))
    const company = c.req.header('company-id')
    const keySha256 = key === null ? null : keyHash(key)
    if (floor && keySha256 !== null) await countRequest(keySha256)
    const session = keySha256 === null ? null : await findSession(db, keySha256)
    return session?.user == null || company === undefined || session.memberships[company] === undefined
      ? null
      : { company, actor: session.user.id }
  }

  /** A page and its count, as a user would write it: `count(*)`, or the count the store keeps. */
  const pageHandler =
    (count: 'count(*)' | 'kept', floor = false) =>
    async (c: Context) => {
      const caller = await admitted(c, floor)
      if (caller === null) return c.body(null, 401)
      const { company, actor } = caller
      const start = Number(c.req.query('_start') ?? '0')
      const end = Number(c.req.query('_end') ?? '25')
      const order = c.req.query('_order') === 'desc' ? 'DESC' : 'ASC'
      const rows = await db.query(
        `SELECT id, amount::float8 AS amount, status,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
       FROM bank_transactions WHERE company_id = $1
       -- Qualified: bare, created_at would name the text column of the select list and sort by it.
       ORDER BY bank_transactions.created_at ${order}, bank_transactions.id ${order} LIMIT $2 OFFSET $3`,
        [company, end - start, start]
      )
      const [counted] = await db.query<{ total: number }>(
        count === 'kept'
          ? 'SELECT total::float8 AS total FROM bank_transaction_counts WHERE company_id = $1'
          : 'SELECT count(*)::float8 AS total FROM bank_transactions WHERE company_id = $1',
        [company]
      )
      const total = counted?.total ?? 0
      const range = rows.length === 0 ? `*/${total}` : `${start}-${start + rows.length - 1}/${total}`
      if (floor)
        await recordDecision(db, c, actor, company, {
          endpoint: 'index.bank_transactions',
          case: { query: c.req.query() },
          status: 200,
          resource_id: null,
          reply: {
            status: 200,
            headers: { 'Content-Range': range, 'X-Total-Count': String(total) },
            body: rows.map((r) => r.id)
          },
          changes: []
        })
      c.header('Content-Range', range)
      c.header('X-Total-Count', String(total))
      return c.json(rows)
    }
  const patchHandler = (floor: boolean) => async (c: Context) => {
    const caller = await admitted(c, floor)
    if (caller === null) return c.body(null, 401)
    const { company, actor } = caller
    const body = await c.req.json<{ budget?: { name?: unknown } }>()
    const name = body.budget?.name
    if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
      return c.json({ errors: { name: ['is invalid'] } }, 422)
    const row = await db.transaction(async (tx) => {
      const [locked] = await tx.query<{ id: string; name: string }>(
        'SELECT id, name FROM budgets WHERE id = $1 AND company_id = $2 FOR UPDATE',
        [c.req.param('id'), company]
      )
      if (locked === undefined) return null
      const [updated] = await tx.query('UPDATE budgets SET name = $1 WHERE id = $2 RETURNING id, name', [name, c.req.param('id')])
      if (floor)
        await recordDecision(tx, c, actor, company, {
          endpoint: 'budget.update',
          case: { body },
          status: 200,
          resource_id: locked.id,
          reply: { status: 200, headers: {}, body: updated },
          changes: locked.name === name ? [] : [{ field: 'name', before: locked.name, after: name }]
        })
      return updated ?? null
    })
    return row === null ? c.json({ error: 'not_found' }, 404) : c.json(row)
  }
  const plain = new Hono()
  plain.get('/v1/banking/bank_transactions', pageHandler('count(*)'))
  plain.get('/kept/v1/banking/bank_transactions', pageHandler('kept'))
  plain.get('/floor/v1/banking/bank_transactions', pageHandler('kept', true))
  plain.patch('/v1/budgets/:id', patchHandler(false))
  plain.patch('/floor/v1/budgets/:id', patchHandler(true))
  return plain
}
