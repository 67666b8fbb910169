/**
 * The admin console end to end, as a person uses it: the app built in-process (scripts/admin.ts)
 * to a temp folder and served by the console's routes (src/server/admin.ts) in front of the
 * reference server (a fresh PGlite with the demo data, on a loopback port, every API request
 * passed through), driven in Debian's headless Chromium with playwright-core. Expected values
 * come from the demo data and the contract (docs/server.md, sections 5 and 6), read back from
 * the database, not from the app. Writes reports/admin.png (docs/admin.png is a copy of one).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { type Browser, type ConsoleMessage, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../chromium'
import { buildAdmin } from '../../scripts/admin'
import { rules } from '../../src/decision/rules'
import { adminRoutes, defaultAdminDir } from '../../src/server/admin'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { seeded, stores } from '../server/harness'

const SCREENSHOT = fileURLToPath(new URL('../../reports/admin.png', import.meta.url))
const NOW = new Date('2026-11-23T15:00:00Z') // the server's today: 23 November 2026 in Santiago

let dir: string
let api: Served
let db: Database
let drop: () => Promise<void>
let front: Server
let base: string
let browser: Browser
let page: Page
const problems: Array<string> = []
/** Refusals the console provokes on purpose, which Chromium logs as errors: the rights probe's and the forced 422. */
const expectedRefusals: Array<string> = []

/** The console's routes, and every other request passed to the API server as it came. */
const frontOf = (apiUrl: string): Hono => {
  const app = new Hono()
  adminRoutes(app, dir)
  app.all('*', async (c) => {
    const url = new URL(c.req.url)
    const headers = new Headers(c.req.raw.headers)
    headers.delete('host')
    const method = c.req.method
    return fetch(`${apiUrl}${url.pathname}${url.search}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: await c.req.arrayBuffer() })
    })
  })
  return app
}

const listenOn = (app: Hono): Promise<{ server: Server; url: string }> =>
  new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({ server: s as Server, url: `http://127.0.0.1:${info.port}` })
    })
  })

const row = async (sql: string, values: ReadonlyArray<unknown> = []) =>
  (await db.query(sql, values))[0] as Record<string, unknown>

const signIn = async (key: string) => {
  await page.goto(`${base}/admin/#/login`)
  await page.locator('input[name=token]').fill(key)
  await page.locator('input[name=companyId]').fill('c-acme')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.locator('.RaDatagrid-table').waitFor()
}

const signOut = async () => {
  await page.getByRole('button', { name: 'Profile' }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await page.locator('input[name=token]').waitFor()
}

/** The amounts of the transactions on the page, as numbers. */
const amounts = async () =>
  (await page.locator('td.column-amount').allTextContents()).map((t) => Number(t.replace(/[^\d-]/g, '')))
const displayedRows = () => page.locator('.MuiTablePagination-displayedRows').textContent()
/** Waits until the pagination reads `text` ("26–50 of 5000"). */
const showing = (text: RegExp) => page.locator('.MuiTablePagination-displayedRows', { hasText: text }).waitFor()

const FIELDS = [
  'name',
  'description',
  'access',
  'ends_on',
  'manager_id',
  'recurrence_unit',
  'recurrence_every',
  'base_amount_cents'
] as const

/** What the edit page says beside each input: the words of the rule that locks it, or null. */
const lockNotes = async () =>
  Object.fromEntries(
    await Promise.all(
      FIELDS.map(async (f) => {
        const note = page.locator(`.ra-input-${f} .locked`)
        return [f, (await note.count()) === 0 ? null : await note.textContent()] as const
      })
    )
  )

/** The note of `rule` as the rules catalogue words it. */
const noteOf = (rule: keyof typeof rules) => `Locked by ${rule}: ${rules[rule].summary}`

/** Whether each input of the edit page is disabled. */
const disabledInputs = async () =>
  Object.fromEntries(
    await Promise.all(
      FIELDS.map(async (f): Promise<readonly [string, boolean]> => [
        f,
        f === 'access' || f === 'recurrence_unit'
          ? (await page.locator(`.ra-input-${f} [role=combobox]`).getAttribute('aria-disabled')) === 'true'
          : await page.locator(`input[name=${f}]`).isDisabled()
      ])
    )
  )

describe('admin console', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'admin-'))
    await buildAdmin(dir)
    const store = await seeded(stores[0] as (typeof stores)[number])
    db = store.database
    drop = store.drop
    // A clock a millisecond on at each reading: the records' instants follow the requests.
    let tick = 0
    api = await listen(db, { clock: () => new Date(NOW.getTime() + tick++), rateLimitPerMinute: 1_000_000 })
    ;({ server: front, url: base } = await listenOn(frontOf(api.url)))
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' })
    page.setDefaultTimeout(5_000)
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return
      const refused = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text())
      const where = `${refused?.[1] ?? ''} ${new URL(message.location().url).pathname}`
      const at = expectedRefusals.indexOf(where)
      if (at >= 0) expectedRefusals.splice(at, 1)
      else problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`))
  }, 90_000)

  afterAll(async () => {
    await (browser as Browser | undefined)?.close()
    await new Promise<void>((resolve) => {
      if ((front as Server | undefined) === undefined) resolve()
      else {
        front.close(() => {
          resolve()
        })
        front.closeAllConnections()
      }
    })
    await (api as Served | undefined)?.close()
    await (drop as (() => Promise<void>) | undefined)?.()
    if ((dir as string | undefined) !== undefined) rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it('serves the console at /admin/, its script beside it, /admin redirected', async () => {
    const index = await fetch(`${base}/admin/`)
    expect([index.status, index.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(await index.text()).toContain('<title>budget-rules: admin console</title>')
    const script = await fetch(`${base}/admin/main.js`)
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
    const bare = await fetch(`${base}/admin`, { redirect: 'manual' })
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/admin/'])
  })

  it('looks for the console in dist/admin/ by default, run from source', () => {
    expect(defaultAdminDir()).toBe(join(fileURLToPath(new URL('../../', import.meta.url)), 'dist', 'admin') + '/')
  })

  it('signs in as demo-manager and pages the 5,000 transactions, newest first', async () => {
    await signIn('demo-manager')
    expect(await displayedRows()).toMatch(/^1[–-]25 of 5000$/)
    const newest = await row(
      "SELECT id FROM bank_transactions WHERE company_id = 'c-acme' ORDER BY created_at DESC, id DESC LIMIT 1"
    )
    expect(await page.locator('td.column-id').first().textContent()).toBe(newest.id)
    await page.getByRole('button', { name: /next page/i }).click()
    await showing(/^26[–-]50 of 5000$/)
    expect(await page.locator('td.column-id').count()).toBe(25)
  })

  it('sorts the transactions by amount, smallest first, as the database orders them', async () => {
    await page.locator('th.column-amount .MuiTableSortLabel-root').click()
    const smallest = await db.query(
      "SELECT amount FROM bank_transactions WHERE company_id = 'c-acme' ORDER BY amount, id LIMIT 25"
    )
    const expected = smallest.map((r) => (r as { amount: number }).amount)
    await page
      .locator('td.column-amount')
      .first()
      .filter({ hasText: new RegExp(`^${new Intl.NumberFormat('en-US').format(expected[0] as number)}$`) })
      .waitFor()
    expect(await amounts()).toEqual(expected)
    expect(page.url()).toMatch(/sort=amount/)
  })

  it('filters the transactions by status, with the count the database holds', async () => {
    const pending = await row(
      "SELECT count(*)::int AS n FROM bank_transactions WHERE company_id = 'c-acme' AND status = 'pending'"
    )
    await page.getByRole('combobox', { name: 'Status' }).click()
    await page.getByRole('option', { name: 'pending' }).click()
    await showing(new RegExp(`^1[–-]25 of ${String(pending.n)}$`))
    expect(new Set(await page.locator('td.column-status').allTextContents())).toEqual(new Set(['pending']))
  })

  it('opens Travel: its periods drawn, and as its manager the manager and recurrence inputs disabled', async () => {
    // The rights probe (a PATCH every caller is refused) is a 403 for a manager.
    expectedRefusals.push('403 /v1/budgets/b-travel')
    await page.goto(`${base}/admin/#/budgets`)
    await page.getByRole('cell', { name: 'Travel', exact: true }).click()
    await page.locator('.timeline[aria-label=periods] svg').waitFor()
    await page.getByRole('link', { name: 'Edit' }).click()
    await page.locator('input[name=name]').waitFor()
    expect(await page.locator('input[name=name]').isDisabled()).toBe(false)
    expect(await page.locator('input[name=ends_on]').isDisabled()).toBe(false)
    expect(await page.locator('input[name=manager_id]').isDisabled()).toBe(true)
    expect(await page.locator('input[name=recurrence_every]').isDisabled()).toBe(true)
    expect(await page.locator('input[name=base_amount_cents]').isDisabled()).toBe(true)
    expect(await page.getByRole('combobox', { name: 'Recurrence unit' }).getAttribute('aria-disabled')).toBe('true')
    // Beside each locked input, the rule that locks it (contract section 5, rows 9 and 10), in the catalogue's words.
    expect(await lockNotes()).toEqual({
      name: null,
      description: null,
      access: null,
      ends_on: null,
      manager_id: noteOf('budget.permission.manager'),
      recurrence_unit: noteOf('budget.permission.recurrence'),
      recurrence_every: noteOf('budget.permission.recurrence'),
      base_amount_cents: noteOf('budget.permission.recurrence')
    })
  })

  it('renames Travel and sees it saved', async () => {
    await page.locator('input[name=name]').fill('Trips')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('.RaShow-main').getByText('Trips', { exact: true }).waitFor()
    expect((await row("SELECT name FROM budgets WHERE id = 'b-travel'")).name).toBe('Trips')
  })

  it('forces a 422 and sees the service’s message beside the field', async () => {
    expectedRefusals.push('403 /v1/budgets/b-travel', '422 /v1/budgets/b-travel')
    await page.getByRole('link', { name: 'Edit' }).click()
    await page.locator('input[name=ends_on]').fill('2020-01-01')
    await page.getByRole('button', { name: 'Save' }).click()
    const helper = page.locator('.ra-input-ends_on').getByText('must be after 2026-11-23')
    await helper.waitFor()
    expect((await row("SELECT ends_on FROM budgets WHERE id = 'b-travel'")).ends_on).toBeNull()
  })

  it('as demo-manager, opens Team lunch, which he does not manage: every input locked by row 6', async () => {
    // The probe is a 401 with a body for a caller without budget rights.
    expectedRefusals.push('401 /v1/budgets/b-team-lunch')
    await page.goto(`${base}/admin/#/budgets/b-team-lunch`)
    await page.locator('.ra-input-name .locked').waitFor()
    expect(await disabledInputs()).toEqual(Object.fromEntries(FIELDS.map((f) => [f, true])))
    expect(await lockNotes()).toEqual(Object.fromEntries(FIELDS.map((f) => [f, noteOf('budget.permission.update')])))
  })

  it('as demo-admin, turns on monthly renewal and sees the next periods in the preview', async () => {
    // The probe is a 422 for full rights.
    expectedRefusals.push('422 /v1/budgets/b-travel')
    await signOut()
    await signIn('demo-admin')
    await page.goto(`${base}/admin/#/budgets/b-travel`)
    await page.locator('input[name=recurrence_every]').waitFor()
    expect(await page.locator('input[name=manager_id]').isDisabled()).toBe(false)
    expect(await lockNotes()).toEqual(Object.fromEntries(FIELDS.map((f) => [f, null])))
    await page.getByRole('combobox', { name: 'Recurrence unit' }).click()
    await page.getByRole('option', { name: 'month' }).click()
    await page.locator('input[name=base_amount_cents]').fill('100000')
    // Contract section 6: turned on, periods count from created_on (2025-10-18); the period in
    // progress ends at the first boundary after today (late November 2026), then monthly.
    await page.locator('.timeline[aria-label=preview] rect[data-starts-on="2026-12-18"]').waitFor()
    const starts = await Promise.all(
      (await page.locator('.timeline[aria-label=preview] rect.period').all()).map((r) => r.getAttribute('data-starts-on'))
    )
    expect(starts).toEqual(expect.arrayContaining(['2026-12-18', '2027-01-18', '2027-02-18', '2027-03-18']))
    expect(await page.locator('.RaUserMenu-root, header').first().textContent()).toContain('demo-admin at Acme SpA')
    await page.getByRole('listbox').waitFor({ state: 'detached' })
    await page.screenshot({ path: SCREENSHOT, fullPage: true })
  })

  it('as demo-admin, opens the closed Events 2025: every input locked, each saying a closed budget takes no update', async () => {
    // The probe is a 409 for full rights on a closed budget (row 11).
    expectedRefusals.push('409 /v1/budgets/b-events-2025')
    await page.goto(`${base}/admin/#/budgets/b-events-2025`)
    await page.locator('.ra-input-name .locked').waitFor()
    expect((await row("SELECT status FROM budgets WHERE id = 'b-events-2025'")).status).toBe('closed')
    expect(await disabledInputs()).toEqual(Object.fromEntries(FIELDS.map((f) => [f, true])))
    expect(await lockNotes()).toEqual(Object.fromEntries(FIELDS.map((f) => [f, noteOf('budget.status.closed')])))
  })

  it('as demo-admin, authorizes a pending transaction; again, the 409 is a notification in the service’s words', async () => {
    const newest = await row(
      "SELECT id, status FROM bank_transactions WHERE company_id = 'c-acme' AND status = 'pending' ORDER BY created_at DESC, id DESC LIMIT 1"
    )
    const id = newest.id as string
    expectedRefusals.push(`409 /v1/banking/bank_transactions/${id}/authorize`)
    await page.goto(`${base}/admin/#/bank_transactions?filter=${encodeURIComponent('{"status":"pending"}')}`)
    const first = page.locator('.RaDatagrid-row').filter({ has: page.locator('td.column-id', { hasText: id }) })
    await first.getByRole('button', { name: 'Authorize' }).click()
    await page.getByText(`${id} authorized`).waitFor()
    expect((await row('SELECT status FROM bank_transactions WHERE id = $1', [id])).status).toBe('authorized')
    await page.goto(`${base}/admin/#/bank_transactions?filter=${encodeURIComponent(`{"id":"${id}"}`)}`)
    await page.locator('td.column-status', { hasText: 'authorized' }).waitFor()
    await page.getByRole('button', { name: 'Authorize' }).click()
    await page.getByText('The transaction is already authorized').waitFor()
  })

  it('as demo-admin, tops Travel up: the balance moves once per click', async () => {
    const before = (await row("SELECT balance_cents FROM budgets WHERE id = 'b-travel'")).balance_cents as number
    await page.goto(`${base}/admin/#/budgets/b-travel/show`)
    await page.locator('input[name=amount_cents]').fill('5000')
    await page.getByRole('button', { name: 'Top up' }).click()
    await page.getByText(`Balance ${String(before + 5000)} cents`).waitFor()
    await page.getByRole('button', { name: 'Top up' }).click()
    await page.getByText(`Balance ${String(before + 10000)} cents`).waitFor()
    expect((await row("SELECT balance_cents FROM budgets WHERE id = 'b-travel'")).balance_cents).toBe(before + 10000)
  })

  it("as demo-admin, Travel's history: its last decisions newest first, who, what changed, the deciding rule", async () => {
    await page.goto(`${base}/admin/#/budgets/b-travel/show`)
    await page.getByRole('button', { name: 'History' }).click()
    await page.locator('table[aria-label=history] tbody tr').first().waitFor()
    const shown = await Promise.all(
      (await page.locator('table[aria-label=history] tbody tr').all()).map(async (r) => [
        await r.getAttribute('data-request-id'),
        ...(await r.locator('td').allTextContents())
      ])
    )
    const kept = await db.query<{ id: string; actor_id: string | null; method: string; path: string; status: number }>(
      `SELECT id, actor_id, method, path, status FROM decisions
        WHERE company_id = 'c-acme' AND resource_id = 'b-travel' AND endpoint <> 'budget.get'
       ORDER BY at DESC, id DESC LIMIT 10`
    )
    expect(shown.map((r) => [r[0], r[2], r[3], r[4]])).toEqual(
      kept.map((k) => [k.id, k.actor_id, `${k.method} ${k.path}`, String(k.status)])
    )
    // The newest is the second top-up of the test before: its change and the rule that applied it.
    const before = (await row("SELECT balance_cents FROM budgets WHERE id = 'b-travel'")).balance_cents as number
    expect(shown[0]?.slice(2)).toEqual([
      'u-admin',
      'POST /v1/budgets/b-travel/top_up',
      '200',
      `balance_cents: ${before - 5000} → ${before}`,
      'money.apply'
    ])
  })

  it('finds a request id typed in: its rules in words, what changed, and its case one click from the explorer', async () => {
    const renamed = await row(
      `SELECT id FROM decisions WHERE resource_id = 'b-travel' AND endpoint = 'budget.update' AND status = 200
       AND changes::text LIKE '%"Trips"%'`
    )
    const id = renamed.id as string
    await page.goto(`${base}/admin/#/decisions`)
    await page.getByLabel('Request id').fill(id)
    const rows = page.locator('.RaDatagrid-row')
    await page.locator('.MuiTablePagination-displayedRows', { hasText: /^1-1 of 1$/ }).waitFor()
    expect(await rows.locator('td.column-id').allTextContents()).toEqual([id])
    await page.locator('td.column-id', { hasText: id }).click()
    const panel = page.locator(`.decision[data-request-id="${id}"]`)
    await panel.waitFor()
    expect(await panel.locator('.decision-changes').textContent()).toBe('changed: name: "Travel" → "Trips"')
    expect(await panel.locator('.decision-rules li[data-rule="budget.update"]').textContent()).toBe(
      'budget.update The fields sent with a new value change; nothing else does.'
    )
    const href = (await panel.locator('a.explorer-link').getAttribute('href')) ?? ''
    expect(href.startsWith('/#decision=')).toBe(true)
    expect((JSON.parse(decodeURIComponent(href.slice('/#decision='.length))) as { request_id: string }).request_id).toBe(id)
  })

  it("as demo-manager, Travel's history is the service's refusal, in words", async () => {
    // The rights probe's 403, and the history's 401.
    expectedRefusals.push('401 /v1/decisions')
    await signOut()
    await signIn('demo-manager')
    await page.goto(`${base}/admin/#/budgets/b-travel/show`)
    await page.getByRole('button', { name: 'History' }).click()
    await page.locator('.history-note').waitFor()
    expect(await page.locator('.history-note').textContent()).toBe(
      'The history is shown to owners, admins and members with budgets_manage.'
    )
  })

  it('logged no console error and no failed request but the refusals it provoked', () => {
    expect(problems).toEqual([])
    expect(expectedRefusals).toEqual([])
  })
})
