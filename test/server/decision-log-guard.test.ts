/**
 * The decision log as guarded as the money, through the reference server on a
 * database of its own: strangers cannot write into a company's log (their records name no
 * company and keep no body), a body over 16 KiB is kept as its length and digest, and each
 * reader of GET /v1/decisions gets only the records of what their rights cover.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DecisionRecord, replay } from '../../src/decisions'
import { listen, type Served } from '../../src/server/main'
import type { Database } from '../../src/store/database'
import { findDecision } from '../../src/store/decisions'
import { keyHash } from '../../src/store/keys'
import { call, type Call, type Got, seeded, stores } from './harness'

const NOW = new Date('2026-11-23T15:00:00Z')
const PWNED = '{"budget":{"name":"PWNED by anonymous"}}'
const initechOwner = { key: 'initech-owner', company: 'c-initech' }
const acmeAdmin = { key: 'demo-admin', company: 'c-acme' }
const budgetsManager = { key: 'acme-budgets', company: 'c-acme' }

const idOf = (got: Got): string => got.headers.get('x-request-id') ?? ''
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

describe.each(stores)('the decision log on $name', (store) => {
  let db: Database
  let drop: () => Promise<void>
  let server: Served
  const send = (path: string, c: Call) => call(server.url, path, c)
  const decisions = (query: string, who: Call) => send(`/v1/decisions?${query}`, who)

  beforeAll(async () => {
    ;({ database: db, drop } = await seeded(store))
    // Initech's owner gets a key; Acme gets a member with budgets_manage and nothing else.
    await db.query('INSERT INTO api_keys (key_sha256, user_id) VALUES ($1, $2)', [keyHash('initech-owner'), 'u-initech'])
    await db.query("INSERT INTO users (id, email, email_verified) VALUES ('u-budgets', 'bea@acme.example', true)")
    await db.query(
      "INSERT INTO memberships (company_id, user_id, role, permissions) VALUES ('c-acme', 'u-budgets', 'member', '{budgets_manage}')"
    )
    await db.query('INSERT INTO api_keys (key_sha256, user_id) VALUES ($1, $2)', [keyHash('acme-budgets'), 'u-budgets'])
    server = await listen(db, { clock: () => NOW, rateLimitPerMinute: 1_000_000 })
  }, 90_000)

  afterAll(async () => {
    await server.close()
    await drop()
  })

  describe("R-124: strangers cannot write into a company's log", () => {
    const strangers: ReadonlyArray<[string, Call, number]> = [
      ['no key', { company: 'c-initech' }, 401],
      ['a made-up key', { key: 'sk_made_up_0123456789', company: 'c-initech' }, 401],
      ['an unverified user', { key: 'demo-unverified', company: 'c-initech' }, 401],
      ['no company-id', { key: 'demo-admin' }, 401],
      ["another company's member", { key: 'demo-admin', company: 'c-initech' }, 404]
    ]
    const sent: Array<{ readonly who: string; readonly id: string }> = []

    beforeAll(async () => {
      for (const [who, c] of strangers)
        sent.push({ who, id: idOf(await send('/v1/budgets/b-initech-ops', { ...c, method: 'PATCH', body: PWNED })) })
    })

    it('each stranger gets the refusal of contract section 4', async () => {
      for (const [who, c, status] of strangers) {
        const got = await send('/v1/budgets/b-initech-ops', { ...c, method: 'PATCH', body: PWNED })
        expect(got.status, who).toBe(status)
      }
    })

    it("Initech's owner lists none of their records, and the table holds none of their bodies", async () => {
      const got = await decisions('_end=100', initechOwner)
      expect([got.status, got.body, got.headers.get('x-total-count'), got.headers.get('content-range')]).toEqual([
        200,
        [],
        '0',
        '*/0'
      ])
      const pwned = await db.query("SELECT id FROM decisions WHERE row_to_json(decisions)::text LIKE '%PWNED%'")
      expect(pwned).toEqual([])
      // The headers a facade does not read are erased as ever; the body, last, is erased too.
      const rows = await db.query<{ id: string; company_id: string | null; body: unknown; erased: unknown }>(
        `SELECT id, company_id, "case"->'request'->'body' AS body, erased->-1 AS erased FROM decisions
         WHERE id = ANY($1::text[]) ORDER BY id`,
        [sent.map((s) => s.id)]
      )
      const erased = { erased: 'body', bytes: Buffer.byteLength(PWNED), sha256: sha256(PWNED) }
      expect(rows).toEqual(
        [...sent]
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map(({ id }) => ({ id, company_id: null, body: erased, erased: 'case.request.body' }))
      )
    })

    it('each of their records replays to the same refusal, its body erased', async () => {
      for (const { who, id } of sent)
        expect(replay((await findDecision(db, id)) as DecisionRecord), who).toStrictEqual({ replayable: true, same: true })
    })
  })

  describe('R-124: a record keeps at most 16 KiB of body', () => {
    /** A rename to the name the budget has, padded with spaces (JSON whitespace) to `bytes` bytes. */
    const padded = (bytes: number): string => {
      const body = '{"budget":{"name":"Travel"}}'
      return body + ' '.repeat(bytes - body.length)
    }

    it('a body of 16,384 bytes is kept whole and replays; one byte more is its length and digest, not replayable', async () => {
      const fits = await send('/v1/budgets/b-travel', { ...acmeAdmin, method: 'PATCH', body: padded(16_384) })
      const over = await send('/v1/budgets/b-travel', { ...acmeAdmin, method: 'PATCH', body: padded(16_385) })
      expect([fits.status, over.status]).toEqual([200, 200])
      const kept = (await findDecision(db, idOf(fits))) as DecisionRecord
      const cut = (await findDecision(db, idOf(over))) as DecisionRecord
      expect([kept.company_id, (kept.case?.request as { body: unknown }).body, kept.erased.at(-1)]).toEqual([
        'c-acme',
        padded(16_384),
        'case.request.headers.user-agent'
      ])
      expect(replay(kept)).toStrictEqual({ replayable: true, same: true })
      expect([cut.company_id, (cut.case?.request as { body: unknown }).body, cut.erased.at(-1)]).toEqual([
        'c-acme',
        { erased: 'body', bytes: 16_385, sha256: sha256(padded(16_385)) },
        'case.request.body'
      ])
      expect(replay(cut)).toStrictEqual({
        replayable: false,
        reason: 'the body, 16385 bytes, is over the 16384 a record keeps'
      })
    })
  })

  describe('R-125: each reader lists the records of what their rights cover', () => {
    const budgetIds: Array<string> = []
    const otherIds: Array<string> = []

    beforeAll(async () => {
      // The company's records are exactly these from here on.
      await db.query("DELETE FROM decisions WHERE company_id = 'c-acme'")
      const budgets: ReadonlyArray<[string, Call]> = [
        ['/v1/budgets', acmeAdmin],
        ['/v1/budgets/b-travel', acmeAdmin],
        ['/v1/budgets/b-travel', { ...acmeAdmin, method: 'PATCH', body: { budget: { name: 'Travel' } } }],
        ['/v1/budgets/b-travel/top_up', { ...budgetsManager, method: 'POST', body: { amount_cents: 0 } }]
      ]
      const others: ReadonlyArray<[string, Call]> = [
        [
          '/v1/banking/bank_recipients',
          {
            ...acmeAdmin,
            method: 'POST',
            body: { bank_recipient: { rut: '12.345.678-5', account_number: '00-123-456', bank_id: 'bank-1', name: 'Ana' } }
          }
        ],
        ['/v1/banking/bank_transactions', acmeAdmin],
        ['/v1/banking/bank_transactions/tx-00001/authorize', { ...acmeAdmin, method: 'POST' }],
        ['/v1/companies/c-acme/memberships/u-member', { ...acmeAdmin, method: 'PATCH', body: { role: 'member' } }],
        ['/v1/decisions', acmeAdmin]
      ]
      for (const [path, c] of budgets) budgetIds.push(idOf(await send(path, c)))
      for (const [path, c] of others) otherIds.push(idOf(await send(path, c)))
    })

    const ids = (got: Got) => (got.body as ReadonlyArray<{ id: string }>).map((r) => r.id).sort()

    it('a member with budgets_manage lists only the budgets’ records, and counts only those', async () => {
      const got = await decisions('_end=100', budgetsManager)
      expect([got.status, ids(got), got.headers.get('x-total-count'), got.headers.get('content-range')]).toEqual([
        200,
        [...budgetIds].sort(),
        '4',
        '0-3/4'
      ])
      const page = await decisions('_end=2', budgetsManager)
      expect([page.headers.get('x-total-count'), page.headers.get('content-range')]).toEqual(['4', '0-1/4'])
      const recipients = await decisions('endpoint=recipient.enroll', budgetsManager)
      expect([recipients.status, recipients.body, recipients.headers.get('x-total-count')]).toEqual([200, [], '0'])
      for (const id of otherIds) expect((await decisions(`request_id=${id}`, budgetsManager)).body, id).toEqual([])
    })

    it("an admin lists every record of the company, the member's listings included", async () => {
      const listed = await decisions('_end=100', budgetsManager)
      const got = await decisions('_end=100', acmeAdmin)
      // The member's four listings above (the last one this test's) are index.decisions records.
      const memberListings = (
        await db.query<{ id: string }>(
          "SELECT id FROM decisions WHERE company_id = 'c-acme' AND actor_id = 'u-budgets' AND endpoint = 'index.decisions'"
        )
      ).map((r) => r.id)
      expect(memberListings).toContain(idOf(listed))
      const all = [...budgetIds, ...otherIds, ...memberListings].sort()
      expect([got.status, ids(got), got.headers.get('x-total-count')]).toEqual([200, all, String(all.length)])
    })
  })
})
