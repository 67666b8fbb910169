/**
 * Migrations as whole scripts, each with the checksum of its text (issue 28): on PGlite and, with
 * DATABASE_URL, PostgreSQL. A `;` in a string literal or a `$tag$` body is no end of a statement;
 * a migration edited after it ran stops the server with an error naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/store/database'
import { checksumOf, migrate, type Migration, MigrationEdited, migrations } from '../../src/store/migrations'
import { runCli } from '../cli/run'
import { stores } from './harness'

describe.each(stores)('migrations on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>

  beforeAll(async () => {
    const place = await store.place()
    db = await openDatabase(place.options)
    drop = async () => {
      await db.close()
      await place.drop()
    }
  }, 60_000)

  afterAll(async () => {
    await drop()
  })

  it('run once each, the SHA-256 of each text kept', async () => {
    expect(await migrate(db)).toEqual(migrations.map((m) => m.version))
    expect(await migrate(db)).toEqual([])
    expect(await db.query('SELECT version, checksum FROM schema_migrations ORDER BY version')).toEqual(
      migrations.map((m) => ({ version: m.version, checksum: checksumOf(m) }))
    )
  })

  it("run as whole scripts: a ';' in a literal, a quoted identifier or a $tag$ body ends nothing", async () => {
    const semicolons: Migration = {
      version: 901,
      name: 'semicolons where they end no statement',
      sql: `
        CREATE TABLE t901 ("a;b" text); -- a comment; with a semicolon
        INSERT INTO t901 VALUES ('x;y'), ($q$z;w$q$), (E'it''s;');
        CREATE FUNCTION f901() RETURNS text LANGUAGE plpgsql AS $body$ BEGIN RETURN 'p;q'; END $body$;`
    }
    expect(await migrate(db, [...migrations, semicolons])).toEqual([901])
    expect(await db.query('SELECT "a;b" AS v FROM t901 ORDER BY 1')).toEqual([{ v: "it's;" }, { v: 'x;y' }, { v: 'z;w' }])
    expect(await db.query('SELECT f901() AS v')).toEqual([{ v: 'p;q' }])
  })

  it('a migration edited after it ran is refused, naming it, and nothing runs after it', async () => {
    const edited = migrations.map((m) => (m.version === 3 ? { ...m, sql: `${m.sql}\n-- a comment added later` } : m))
    const later: Migration = { version: 902, name: 'never reached', sql: 'CREATE TABLE t902 (v text)' }
    const refused = migrate(db, [...edited, later])
    await expect(refused).rejects.toBeInstanceOf(MigrationEdited)
    await expect(refused).rejects.toThrow(
      `migration 3 (${migrations[2]?.name ?? ''}) was edited after it ran: its text's SHA-256 is ${checksumOf(edited[2] as Migration)}, the database ran ${checksumOf(migrations[2] as Migration)}; add a new migration instead`
    )
    expect(await db.query("SELECT to_regclass('t902') AS t")).toEqual([{ t: null }])
  })

  it('a database from before checksums takes the texts as they are', async () => {
    await db.query('UPDATE schema_migrations SET checksum = NULL')
    expect(await migrate(db)).toEqual([])
    expect(await db.query('SELECT count(*)::int AS n FROM schema_migrations WHERE checksum IS NULL AND version < 900')).toEqual([
      { n: 0 }
    ])
  })
})

describe('budget-rules serve on a database whose migration was edited', () => {
  it('stops at start with one line naming the migration, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'budget-rules-migrations-'))
    try {
      const db = await openDatabase({ dataDir: dir })
      await migrate(db)
      await db.query("UPDATE schema_migrations SET checksum = 'ran-another-text' WHERE version = 2")
      await db.close()
      const ran = await runCli(['serve'], { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' })
      expect([ran.code, ran.stdout]).toEqual([1, ''])
      expect(ran.stderr).toMatch(/^error: migration 2 \(a count of bank transactions per company\) was edited after it ran: /)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
