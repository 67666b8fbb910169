/**
 * The schema, as numbered migrations run in order on start: each runs once, as the whole script
 * it is (the driver's own multi-statement call: a `;` in a string or a `$tag$` body is no end of
 * a statement), in its own transaction with its row in `schema_migrations` and the SHA-256 of its
 * text, so a server stopped halfway leaves the schema at a whole migration. A new change is a new
 * entry at the end; an applied one is never edited: one whose text no longer has the checksum
 * recorded stops the server, naming it.
 *
 * @since 0.2.0
 */
import { createHash } from 'node:crypto'
import type { Database } from './database'

/** One step of the schema. */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/** Every migration, in order. */
export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: 'companies, users, keys, budgets, bank transactions and recipients',
    sql: `
      CREATE TABLE companies (
        id text PRIMARY KEY,
        name text NOT NULL,
        time_zone text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE users (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        email_verified boolean NOT NULL
      );
      CREATE TABLE api_keys (
        key_sha256 text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id),
        revoked_at timestamptz
      );
      CREATE TABLE memberships (
        company_id text NOT NULL REFERENCES companies (id),
        user_id text NOT NULL REFERENCES users (id),
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        permissions text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (company_id, user_id)
      );
      CREATE INDEX memberships_user ON memberships (user_id);
      CREATE TABLE budgets (
        id text PRIMARY KEY,
        company_id text NOT NULL REFERENCES companies (id),
        name text NOT NULL,
        description text,
        access text NOT NULL,
        currency text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('funded', 'tracking')),
        manager_id text,
        co_manager_id text,
        status text NOT NULL CHECK (status IN ('open', 'closing', 'closed')),
        created_on date NOT NULL,
        ends_on date,
        recurrence_unit text,
        recurrence_every integer,
        base_amount_cents bigint,
        recurrence_starts_on date,
        period_starts_on date NOT NULL,
        period_ends_on date,
        period_amount_cents bigint,
        -- The rule is the library's; the database refuses a negative balance all the same.
        balance_cents bigint CHECK (balance_cents >= 0)
      );
      CREATE INDEX budgets_company ON budgets (company_id, created_on, id);
      CREATE TABLE bank_transactions (
        -- Ids in code-point order, as budget-rules/sql sorts them (ADR 0102), so that the
        -- indexes below serve ORDER BY field, id COLLATE "C" without a sort of the ties.
        id text COLLATE "C" PRIMARY KEY,
        company_id text NOT NULL REFERENCES companies (id),
        amount bigint NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      -- One per sortable field: a page is an index scan from the window's start.
      CREATE INDEX bank_transactions_created_at ON bank_transactions (company_id, created_at, id);
      CREATE INDEX bank_transactions_updated_at ON bank_transactions (company_id, updated_at, id);
      CREATE INDEX bank_transactions_amount ON bank_transactions (company_id, amount, id);
      CREATE TABLE banks (
        id text PRIMARY KEY,
        name text NOT NULL
      );
      CREATE TABLE bank_recipients (
        id text PRIMARY KEY,
        company_id text NOT NULL REFERENCES companies (id),
        rut text NOT NULL,
        account_number text NOT NULL,
        bank_id text NOT NULL REFERENCES banks (id),
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (company_id, rut, bank_id, account_number)
      );
      -- A reply kept for an Idempotency-Key: status null while its first request runs.
      CREATE TABLE idempotency_keys (
        key_sha256 text NOT NULL REFERENCES api_keys (key_sha256),
        idempotency_key text NOT NULL,
        fingerprint text NOT NULL,
        status integer,
        headers jsonb,
        body text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (key_sha256, idempotency_key)
      );
      INSERT INTO banks (id, name) VALUES
        ('bank-chile', 'Banco de Chile'), ('bank-estado', 'BancoEstado'), ('bank-santander', 'Banco Santander'),
        ('bank-bci', 'Banco BCI'), ('bank-itau', 'Banco Itaú'), ('bank-scotiabank', 'Scotiabank');
    `
  },
  {
    version: 2,
    name: 'a count of bank transactions per company',
    sql: `
      -- The X-Total-Count of an unfiltered page without counting a million rows on every request:
      -- a count per company, kept by the database itself on every insert and delete (ADR 0101).
      CREATE TABLE bank_transaction_counts (
        company_id text PRIMARY KEY REFERENCES companies (id),
        total bigint NOT NULL CHECK (total >= 0)
      );
      INSERT INTO bank_transaction_counts (company_id, total)
        SELECT company_id, count(*) FROM bank_transactions GROUP BY company_id;
      CREATE FUNCTION count_bank_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO bank_transaction_counts (company_id, total)
            SELECT company_id, count(*) FROM new_rows GROUP BY company_id
            ON CONFLICT (company_id) DO UPDATE SET total = bank_transaction_counts.total + EXCLUDED.total;
        ELSE
          UPDATE bank_transaction_counts AS c SET total = c.total - gone.n
            FROM (SELECT company_id, count(*) AS n FROM old_rows GROUP BY company_id) AS gone
            WHERE c.company_id = gone.company_id;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER bank_transactions_counted_insert AFTER INSERT ON bank_transactions
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_bank_transactions();
      CREATE TRIGGER bank_transactions_counted_delete AFTER DELETE ON bank_transactions
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_bank_transactions();
    `
  },
  {
    version: 3,
    name: 'rate limits shared by every instance, idempotency keys purged by age',
    sql: `
      -- One row per API key (or client address): the start of its window of 60 seconds and the
      -- requests counted in it, taken by one atomic upsert per request, whichever instance answers.
      CREATE TABLE rate_limits (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        count integer NOT NULL CHECK (count > 0)
      );
      CREATE INDEX rate_limits_window_start ON rate_limits (window_start);
      -- Keys older than IDEMPOTENCY_TTL_HOURS are purged by age.
      CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
    `
  },
  {
    version: 4,
    name: 'decision records',
    sql: `
      -- One row per request a facade decided (R-121), its fields those of a decision record
      -- (R-120): id is the request id (GET /v1/decisions pages by at, then id), the masked case,
      -- the reply and the changes as json (not jsonb, which holds no NUL nor a lone surrogate,
      -- both of which a request body may). A mutation's row commits in the mutation's transaction.
      CREATE TABLE decisions (
        id text COLLATE "C" PRIMARY KEY,
        request_id text COLLATE "C" GENERATED ALWAYS AS (id) STORED,
        at timestamptz NOT NULL,
        company_id text,
        actor_id text,
        key_id text,
        endpoint text NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        resource_id text,
        idempotency_key text,
        replay_of text,
        status integer NOT NULL,
        rules json NOT NULL,
        "case" json,
        reply json NOT NULL,
        changes json NOT NULL,
        masked json NOT NULL,
        erased json NOT NULL,
        library_version text NOT NULL
      );
      -- A company's records in time order (the index's sort), and a resource's history.
      CREATE INDEX decisions_company_at ON decisions (company_id, at, id);
      CREATE INDEX decisions_company_resource ON decisions (company_id, resource_id, at, id);
      CREATE INDEX decisions_request_id ON decisions (request_id);
      -- Records older than DECISION_LOG_DAYS are purged by age.
      CREATE INDEX decisions_at ON decisions (at);
      -- The request that claimed an Idempotency-Key: what the record of a replayed reply names.
      ALTER TABLE idempotency_keys ADD COLUMN request_id text;
    `
  }
]

/** The SHA-256 of a migration's text: what `schema_migrations` keeps to tell an edited migration. */
export const checksumOf = (m: Migration): string => createHash('sha256').update(m.sql).digest('hex')

/** A migration that ran with another text than it has now: the schema is not what the code says. */
export class MigrationEdited extends Error {
  override readonly name = 'MigrationEdited'
}

/** Transaction-scoped: two servers starting on one PostgreSQL take turns. */
const LOCK = 'SELECT pg_advisory_xact_lock(20261123)'

/** A migration may wait its turn and run long: a minute for the lock, ten for its statements (R-111 bounds requests, not this). */
const PATIENT = "SET LOCAL lock_timeout = '60s'; SET LOCAL statement_timeout = '600s'"

/**
 * Brings the schema up to the last of `list` (the migrations above by default); returns the
 * versions it applied. Under a transaction-scoped advisory lock, so two servers starting on one
 * PostgreSQL apply each once. A migration already applied whose checksum differs from its text's
 * is a {@link MigrationEdited}, naming it; one applied before checksums were kept takes its
 * text's checksum.
 */
export const migrate = async (db: Database, list: ReadonlyArray<Migration> = migrations): Promise<ReadonlyArray<number>> => {
  // Under the lock too: two servers creating the table at once would collide in the catalogue.
  await db.transaction(async (tx) => {
    await tx.exec(`${PATIENT}; ${LOCK}`)
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
      ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`)
  })
  const applied: Array<number> = []
  for (const m of list) {
    const checksum = checksumOf(m)
    const ran = await db.transaction(async (tx) => {
      await tx.exec(`${PATIENT}; ${LOCK}`)
      const done = await tx.query<{ checksum: string | null }>('SELECT checksum FROM schema_migrations WHERE version = $1', [
        m.version
      ])
      const kept = done[0]
      if (kept !== undefined) {
        if (kept.checksum === null)
          await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE version = $1', [m.version, checksum])
        else if (kept.checksum !== checksum)
          throw new MigrationEdited(
            `migration ${m.version} (${m.name}) was edited after it ran: its text's SHA-256 is ${checksum}, the database ran ${kept.checksum}; add a new migration instead`
          )
        return false
      }
      await tx.exec(m.sql)
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [m.version, m.name, checksum])
      return true
    })
    if (ran) applied.push(m.version)
  }
  return applied
}
