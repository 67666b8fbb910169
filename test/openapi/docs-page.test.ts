/**
 * The API reference page at /docs as a person sees it: the reference server on a loopback
 * port, the page in Debian's headless Chromium (playwright-core). Swagger UI, served from its npm
 * package, renders every operation of /openapi.json; "Try it out" on the bank transactions, signed
 * in with a demo key, gets the server's real page. Writes reports/openapi-docs.png (the page as
 * loaded; docs/openapi-docs.png, shown in the README, is a copy of one) and
 * reports/openapi-docs-try.png (the reply) on each run.
 */
import { fileURLToPath } from 'node:url'
import { type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../chromium'
import { operations } from '../../src/openapi'
import { listen, type Served } from '../../src/server/main'
import { seeded, stores } from '../server/harness'

const SCREENSHOT = fileURLToPath(new URL('../../reports/openapi-docs.png', import.meta.url))
const TRIED = fileURLToPath(new URL('../../reports/openapi-docs-try.png', import.meta.url))

describe('the API reference page', { timeout: 30_000 }, () => {
  let drop: () => Promise<void>
  let server: Served
  let browser: Browser
  let page: Page
  const problems: Array<string> = []
  const requested: Array<string> = []

  beforeAll(async () => {
    const { database, drop: dropIt } = await seeded(stores[0] as (typeof stores)[number])
    drop = dropIt
    server = await listen(database, { clock: () => new Date('2026-11-23T15:00:00Z'), rateLimitPerMinute: 1_000_000 })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 1100 } })
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`))
    page.on('request', (request) => requested.push(request.url()))
    await page.goto(`${server.url}/docs`)
    await page.locator('.opblock').first().waitFor()
  }, 90_000)

  afterAll(async () => {
    await browser.close()
    await server.close()
    await drop()
  }, 30_000)

  it('renders every operation of the document, under its title', async () => {
    await page.screenshot({ path: SCREENSHOT, fullPage: false })
    expect(await page.locator('.info .title').first().textContent()).toContain(
      'Budgets, errors and pagination of the banking service'
    )
    const shown = await Promise.all((await page.locator('.opblock-summary-path').all()).map((e) => e.getAttribute('data-path')))
    expect(shown.sort()).toEqual(operations.map((o) => o.path).sort())
  })

  it('"Try it out" on the bank transactions, signed in with a demo key, shows the server’s page', async () => {
    const block = page.locator('#operations-banking-listBankTransactions')
    await block.locator('.opblock-summary').click()
    await block.locator('button.try-out__btn').click()
    await block.locator('tr[data-param-name="_end"] input').fill('2')
    await block.locator('tr[data-param-name="_order"] select').selectOption('desc')
    await block.locator('button.execute').click()
    const reply = block.locator('.live-responses-table tr.response').first()
    await reply.waitFor()
    await page.screenshot({ path: TRIED, fullPage: false })
    expect((await reply.locator('td.response-col_status').textContent())?.trim()).toBe('200')
    const body = await reply.locator('pre.microlight').first().textContent()
    expect((JSON.parse(body ?? '') as ReadonlyArray<{ id: string }>).length).toBe(2)
    expect(await reply.innerText()).toContain('content-range: 0-1/5000')
  })

  it('loaded Swagger UI from the server itself, and logged no console error, page error or failed request', () => {
    expect(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'))).toEqual([])
    expect(problems).toEqual([])
  })
})
