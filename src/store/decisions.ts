/**
 * The decision records the reference server keeps (R-121), as plain SQL over the
 * {@link Queryable}: one row per record, its columns the record's fields (the request id as
 * `id`), the JSON parts as `json`. Written in the transaction of the change they record; read
 * back by request id, by the CLI's filters, or a page at a time (GET /v1/decisions, through
 * `budget-rules/sql`).
 *
 * @since 0.4.0
 */
import { DecisionRecord } from '../decisions/record'
import { instantColumnText } from '../sql/timestamp'
import type { Queryable, Row } from './database'

/** The record's fields, in the codec's order: each a column of `decisions` (`case` quoted). */
const fields = /*#__PURE__*/ Object.keys(DecisionRecord.props) as ReadonlyArray<keyof DecisionRecord>

/** The fields kept as `json`. */
const JSON_FIELDS: ReadonlySet<string> = new Set(['rules', 'case', 'reply', 'changes', 'masked', 'erased'])

const column = (field: string): string => (field === 'case' ? '"case"' : field)

/** The columns written: `id` (the request id) and every field but `request_id`, which the table derives from it. */
const written = fields.filter((f) => f !== 'request_id')

/** The placeholders of the `row`th record of an INSERT (from 0). */
const rowValues = (row: number): string => {
  const first = row * (written.length + 1)
  return `($${first + 1}, ${written.map((f, i) => `$${first + i + 2}${JSON_FIELDS.has(f) ? '::json' : ''}`).join(', ')})`
}

const INSERT = `INSERT INTO decisions (id, ${written.map(column).join(', ')}) VALUES `

/** The INSERT of `n` records, each text written once (a request's record would write it again). */
const inserts: Array<string> = []
const insertOf = (n: number): string => (inserts[n] ??= INSERT + Array.from({ length: n }, (_, row) => rowValues(row)).join(', '))

/**
 * The columns of a record as read back: `at` as ISO-8601 text in UTC with microseconds (how
 * the records are written, see {@link recordInstant}), the others as they are.
 */
export const DECISION_COLUMNS: string = fields
  .map((f) => (f === 'at' ? `${instantColumnText('at')} AS at` : f === 'case' ? '"case"' : f))
  .join(', ')

/**
 * An instant as the table gives it back: UTC, six decimals. The server writes `at` so, so that a
 * record reads back exactly as it was built.
 */
export const recordInstant = (instant: Date): string => instant.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')

/**
 * A text column's value: PostgreSQL text holds no NUL, which only a path's id can bring (one no
 * row has): it is kept as U+FFFD. The JSON columns keep it, escaped.
 */
const text = (value: unknown): unknown => (typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value)

/** The most records one statement writes: 100 rows of 19 values, far from PostgreSQL's 65,535 parameters. */
export const MAX_RECORDS_A_STATEMENT = 100

/** Keeps records, in one statement (at most {@link MAX_RECORDS_A_STATEMENT}). */
export const insertDecisions = async (q: Queryable, records: ReadonlyArray<DecisionRecord>): Promise<void> => {
  if (records.length === 0) return
  await q.query(
    insertOf(records.length),
    records.flatMap((record) => [
      text(record.request_id),
      ...written.map((f) => (JSON_FIELDS.has(f) ? JSON.stringify(record[f]) : text(record[f])))
    ])
  )
}

/** Keeps a record. */
export const insertDecision = (q: Queryable, record: DecisionRecord): Promise<void> => insertDecisions(q, [record])

/** A row of `decisions` as a record: its fields, in the codec's order. */
export const recordOf = (row: Row): DecisionRecord =>
  Object.fromEntries(fields.map((f) => [f, row[f]])) as unknown as DecisionRecord

/** The record of a request, or null. */
export const findDecision = async (q: Queryable, requestId: string): Promise<DecisionRecord | null> => {
  if (requestId.includes('\u0000')) return null
  const row = (await q.query(`SELECT ${DECISION_COLUMNS} FROM decisions WHERE id = $1`, [requestId]))[0]
  return row === undefined ? null : recordOf(row)
}

/** What `budget-rules decisions list`, `export` and `replay` select; every filter optional. */
export interface DecisionFilter {
  readonly resource?: string
  readonly actor?: string
  readonly status?: number
  readonly endpoint?: string
  /** Records at or after this instant (ISO-8601). */
  readonly since?: string
  /** The last record of the previous batch: the next ones come after it, in (at, id) order. */
  readonly after?: { readonly at: string; readonly id: string }
  readonly limit?: number
}

/** The records a filter selects, oldest first (by `at`, then request id). */
export const listDecisions = async (q: Queryable, filter: DecisionFilter): Promise<ReadonlyArray<DecisionRecord>> => {
  const values: Array<unknown> = []
  const where: Array<string> = []
  const holds = (condition: (p: string) => string, value: unknown) => {
    values.push(value)
    where.push(condition(`$${values.length}`))
  }
  if (filter.resource !== undefined) holds((p) => `resource_id = ${p}`, filter.resource)
  if (filter.actor !== undefined) holds((p) => `actor_id = ${p}`, filter.actor)
  if (filter.status !== undefined) holds((p) => `status = ${p}`, filter.status)
  if (filter.endpoint !== undefined) holds((p) => `endpoint = ${p}`, filter.endpoint)
  if (filter.since !== undefined) holds((p) => `at >= ${p}::timestamptz`, filter.since)
  if (filter.after !== undefined) {
    values.push(filter.after.at, filter.after.id)
    where.push(`(at, id) > ($${values.length - 1}::timestamptz, $${values.length})`)
  }
  values.push(filter.limit ?? null)
  const rows = await q.query(
    `SELECT ${DECISION_COLUMNS} FROM decisions${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}
     ORDER BY decisions.at, decisions.id LIMIT $${values.length}`,
    values
  )
  return rows.map(recordOf)
}

/** Forgets the records older than `before` (DECISION_LOG_DAYS); returns how many. */
export const purgeDecisions = async (q: Queryable, before: string): Promise<number> =>
  (await q.query('DELETE FROM decisions WHERE at < $1 RETURNING 1', [before])).length
