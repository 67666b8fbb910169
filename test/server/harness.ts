/**
 * What the server tests share: the stores they run against (PGlite always; a PostgreSQL server
 * too when DATABASE_URL is set, each test file in a database of its own, dropped after), and a
 * small client over real HTTP.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../../src/store/database'
import { migrate } from '../../src/store/migrations'
import { seedWhenEmpty } from '../../src/store/seed'

/** Where a test's data lives, and how to drop it after. */
export interface Place {
  readonly options: { readonly dataDir?: string; readonly databaseUrl?: string }
  readonly drop: () => Promise<void>
}

/** A store to run the tests against: `place(dataDir)` gives a fresh, empty one. */
export interface Store {
  readonly name: string
  readonly place: (dataDir?: string) => Promise<Place>
}

const pglite: Store = {
  name: 'PGlite',
  place: (dataDir) => Promise.resolve({ options: dataDir === undefined ? {} : { dataDir }, drop: () => Promise.resolve() })
}

/** A fresh database on the PostgreSQL server of `url`, dropped (connections and all) by `drop`. */
export const postgres = (url: string): Store => ({
  name: 'PostgreSQL',
  place: async () => {
    const name = `budget_rules_test_${randomUUID().replaceAll('-', '')}`
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(sql)
      } finally {
        await client.end()
      }
    }
    await admin(`CREATE DATABASE ${name}`)
    const databaseUrl = new URL(url)
    databaseUrl.pathname = `/${name}`
    return { options: { databaseUrl: databaseUrl.toString() }, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
  }
})

const url = process.env.DATABASE_URL
/** PGlite, and PostgreSQL when DATABASE_URL names a server. */
export const stores: ReadonlyArray<Store> = url === undefined || url === '' ? [pglite] : [pglite, postgres(url)]

/** A database of the store, migrated and seeded with the demo data. */
export const seeded = async (store: Store): Promise<{ database: Database; drop: () => Promise<void> }> => {
  const place = await store.place()
  const database = await openDatabase(place.options)
  await migrate(database)
  await seedWhenEmpty(database)
  return {
    database,
    drop: async () => {
      await database.close()
      await place.drop()
    }
  }
}

/** A request to the server: a demo key, a company, a body, more headers. */
export interface Call {
  readonly method?: string
  readonly key?: string
  readonly company?: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

/** A reply read whole: status, headers, and the body parsed (null when empty). */
export interface Got {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly body: unknown
}

/** Sends one request over HTTP; a body that is not a string is sent as JSON. */
export const call = async (base: string, path: string, c: Call = {}): Promise<Got> => {
  const headers: Record<string, string> = { ...c.headers }
  if (c.key !== undefined) headers.Authorization = `Bearer ${c.key}`
  if (c.company !== undefined) headers['company-id'] = c.company
  const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body)
  const res = await fetch(`${base}${path}`, { method: c.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

/** A request id as the server makes them: a random UUID. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
