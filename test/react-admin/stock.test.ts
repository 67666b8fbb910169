/**
 * react-admin's stock components, given no `sort`, work on every resource. The page of
 * test/react-admin/stock/ (a `<List>` on each resource with an index, a `<ReferenceManyField>`, a
 * `<ReferenceInput>`) is built in-process and driven in Debian's headless Chromium against the
 * reference server on a fresh PGlite with the demo data, across origins (the server's CORS).
 * react-admin asks for its default sort, by `id`; the provider asks for the endpoint's default
 * order. Expected rows are read from the database in the contract's default orders (section 8:
 * `created_at`, or `created_on` for budgets, ties by id), not from the app.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REACT_PAGE } from '../../scripts/admin'
import { buildPage } from '../../scripts/page'
import { pageFiles } from '../../src/server/built-page'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { launchChromium } from '../chromium'
import { seeded, stores } from '../server/harness'

const NOW = new Date('2026-11-23T15:00:00Z')

let dir: string
let api: Served
let db: Database
let drop: () => Promise<void>
let front: Server
let base: string
let browser: Browser
let page: Page
const problems: Array<string> = []
/** Every request the page sent to the API: its path and query, and the status of its reply. */
const sent: Array<{ path: string; status: number }> = []

const ids = async (sql: string) => (await db.query(sql)).map((r) => (r as { id: string }).id)
const shown = (where: string) => page.locator(`${where} td.column-id`).allTextContents()
const open = async (hash: string) => {
  await page.goto(`${base}/?api=${encodeURIComponent(api.url)}&token=demo-admin#${hash}`)
}

describe('react-admin’s stock components with no sort prop (R-103)', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stock-'))
    await buildPage({
      source: fileURLToPath(new URL('stock/', import.meta.url)),
      entry: 'app.tsx',
      copied: ['index.html'],
      outdir: dir,
      options: REACT_PAGE
    })
    const store = await seeded(stores[0] as (typeof stores)[number])
    db = store.database
    drop = store.drop
    api = await listen(db, { clock: () => NOW, rateLimitPerMinute: 1_000_000 })
    const files = pageFiles(dir, { 'index.html': 'text/html; charset=utf-8', 'main.js': 'text/javascript; charset=utf-8' })
    const app = new Hono()
    app.get('/', files('index.html'))
    app.get('/main.js', files('main.js'))
    ;({ front, base } = await new Promise<{ front: Server; base: string }>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        resolve({ front: s as Server, base: `http://127.0.0.1:${info.port}` })
      })
    }))
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' })
    page.setDefaultTimeout(10_000)
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`))
    page.on('response', (response) => {
      const url = new URL(response.url())
      if (url.origin === api.url && response.request().method() !== 'OPTIONS')
        sent.push({ path: `${url.pathname}${url.search}`, status: response.status() })
    })
  }, 90_000)

  afterAll(async () => {
    await (browser as Browser | undefined)?.close()
    await new Promise<void>((resolve) => {
      if ((front as Server | undefined) === undefined) resolve()
      else
        front.close(() => {
          resolve()
        })
    })
    await (api as Served | undefined)?.close()
    await (drop as (() => Promise<void>) | undefined)?.()
    if ((dir as string | undefined) !== undefined) rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it('<List> of bank_transactions: the first 10 of 5000, oldest first', async () => {
    await open('/bank_transactions')
    await page.locator('.MuiTablePagination-displayedRows', { hasText: /^1[–-]10 of 5000$/ }).waitFor()
    expect(await shown('.RaList-main')).toEqual(
      await ids("SELECT id FROM bank_transactions WHERE company_id = 'c-acme' ORDER BY created_at, id LIMIT 10")
    )
  })

  it('<List> of budgets: the company’s budgets, by created_on', async () => {
    await open('/budgets')
    await page.locator('.RaList-main td.column-name', { hasText: 'Travel' }).waitFor()
    expect(await shown('.RaList-main')).toEqual(
      await ids("SELECT id FROM budgets WHERE company_id = 'c-acme' ORDER BY created_on, id")
    )
  })

  it('<List> of companies: the caller’s own', async () => {
    await open('/companies')
    await page.locator('.RaList-main td.column-name', { hasText: 'Acme SpA' }).waitFor()
    expect(await shown('.RaList-main')).toEqual(
      await ids(
        "SELECT c.id FROM companies c JOIN memberships m ON m.company_id = c.id WHERE m.user_id = 'u-admin' ORDER BY c.created_at, c.id"
      )
    )
  })

  it('<ReferenceManyField> on a budget’s page: the budgets of its status, newest first (its default order is DESC)', async () => {
    await open('/budgets/b-travel/show')
    await page.locator('.RaShow-main td.column-id').first().waitFor()
    expect(await shown('.RaShow-main')).toEqual(
      await ids(
        "SELECT id FROM budgets WHERE company_id = 'c-acme' AND status = (SELECT status FROM budgets WHERE id = 'b-travel') ORDER BY created_on DESC, id DESC"
      )
    )
  })

  it('<ReferenceInput> in a budget’s form: the companies to choose from', async () => {
    await open('/budgets/b-travel')
    await page.locator('.ra-input-company_id [role=combobox]').click()
    await page.getByRole('option', { name: 'Acme SpA' }).waitFor()
    // The choices but the select's own empty one.
    expect(await page.locator('[role=option]:not([data-value=""])').allTextContents()).toEqual([
      ...(
        await db.query(
          "SELECT c.name FROM companies c JOIN memberships m ON m.company_id = c.id WHERE m.user_id = 'u-admin' ORDER BY c.created_at DESC, c.id DESC"
        )
      ).map((r) => (r as { name: string }).name)
    ])
    await page.keyboard.press('Escape')
  })

  it('sent every index request in the endpoint’s default order (no _field), each taken (200), and logged no error', () => {
    const lists = sent.filter(
      (s) => /^\/v1\/(banking\/bank_transactions|budgets|companies)\?/.test(s.path) && s.path.includes('_order=')
    )
    expect(new Set(lists.map((s) => s.path.split('?')[0]))).toEqual(
      new Set(['/v1/banking/bank_transactions', '/v1/budgets', '/v1/companies'])
    )
    expect(lists.filter((s) => s.path.includes('_field='))).toEqual([])
    expect(sent.filter((s) => s.status !== 200)).toEqual([])
    expect(problems).toEqual([])
  })
})
