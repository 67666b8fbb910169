/**
 * Generates docs/rules.md from the rules themselves: the rule catalogue, and decision tables
 * computed by running the library over its input space. `npm run docs` writes the file;
 * test/docs.test.ts fails when the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  endpoints,
  permittedUpdateFields,
  respondAmount,
  respondAuthorizeTransaction,
  respondBankRecipient,
  respondIndex,
  respondRoleAssignment,
  respondBudgetUpdate,
  respondTopUp,
  respondWithdraw
} from '../src/index'
import { type BudgetJson, type BudgetStatus, type Role, rules, statuses as statusesOfKind, updateFields } from '../src/rules'

export const RULES_DOC = fileURLToPath(new URL('../docs/rules.md', import.meta.url))

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(' | ')} |`
const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n')

const catalogue = () =>
  table(
    ['rule', 'what it decides', 'source', 'refuses with', 'decision'],
    Object.entries(rules).map(([id, r]) => [
      `\`${id}\``,
      r.summary,
      r.source,
      r.refuses.length === 0 ? '-' : r.refuses.flatMap((kind) => statusesOfKind[kind]).join(', '),
      `[${r.decision}](decisions/${r.decision})`
    ])
  )

type Relation = 'manager' | 'co-manager' | 'unrelated'
const callers: ReadonlyArray<{ label: string; role: Role; permissions: ReadonlyArray<string>; relation: Relation }> = [
  { label: 'owner', role: 'owner', permissions: [], relation: 'unrelated' },
  { label: 'admin', role: 'admin', permissions: [], relation: 'unrelated' },
  { label: 'member with budgets_manage', role: 'member', permissions: ['budgets_manage'], relation: 'unrelated' },
  { label: 'member, manager of the group', role: 'member', permissions: [], relation: 'manager' },
  { label: 'member, co-manager of the group', role: 'member', permissions: [], relation: 'co-manager' },
  { label: 'member, unrelated', role: 'member', permissions: [], relation: 'unrelated' }
]

const sample: BudgetJson = {
  id: 'b-1',
  company_id: 'c-1',
  name: 'Travel',
  description: null,
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-manager',
  co_manager_id: 'u-comanager',
  status: 'open',
  created_on: '2026-01-15',
  ends_on: null,
  recurrence_unit: 'month',
  recurrence_every: 1,
  base_amount_cents: 50000,
  recurrence_starts_on: '2026-01-15',
  period_starts_on: '2026-11-15',
  period_ends_on: '2026-12-15',
  period_amount_cents: 50000,
  balance_cents: 0
}

const userOf = (relation: Relation) =>
  relation === 'manager' ? 'u-manager' : relation === 'co-manager' ? 'u-comanager' : 'u-caller'

/** A valid new value for each update field, so that only permissions decide. */
const newValue: Record<(typeof updateFields)[number], unknown> = {
  name: 'Trips',
  description: 'Flights and hotels',
  access: 'members',
  ends_on: '2027-06-30',
  manager_id: 'u-caller',
  recurrence_unit: 'week',
  recurrence_every: 2,
  base_amount_cents: 1000
}

const permissionTable = () =>
  table(
    ['caller', ...updateFields.map((f) => `\`${f}\``)],
    callers.map((c) => {
      const allowed = permittedUpdateFields(
        { user_id: userOf(c.relation), role: c.role, permissions: c.permissions },
        { manager_id: sample.manager_id, co_manager_id: sample.co_manager_id, status: 'open' }
      )
      return [c.label, ...updateFields.map((f) => (allowed.includes(f) ? 'yes' : 'no'))]
    })
  )

const statuses: ReadonlyArray<BudgetStatus> = ['open', 'closing', 'closed']

const updateTable = () =>
  table(
    ['caller', 'budget status', ...updateFields.map((f) => `\`${f}\``), 'same value'],
    callers.flatMap((c) =>
      statuses.map((status) => {
        const budget = { ...sample, status, ends_on: status === 'open' ? null : '2026-11-01' }
        const reply = (fields: Record<string, unknown>) =>
          respondBudgetUpdate({
            request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: JSON.stringify({ budget: fields }) },
            session: {
              user: { id: userOf(c.relation), email_verified: true },
              memberships: { 'c-1': { role: c.role, permissions: [...c.permissions] } }
            },
            budget,
            today: '2026-11-22',
            request_id: 'docs',
            company_member_ids: ['u-caller', 'u-manager', 'u-comanager']
          })
        const cell = (fields: Record<string, unknown>) => {
          const r = reply(fields)
          const code = (r.body as { error_code?: string } | null)?.error_code
          return code === undefined ? String(r.status) : `${r.status} \`${code}\``
        }
        return [
          c.label,
          status,
          ...updateFields.map((f) => cell({ [f]: newValue[f] })),
          cell({ manager_id: budget.manager_id, recurrence_unit: budget.recurrence_unit })
        ]
      })
    )
  )

const moneyOperations = [
  ['POST top_up', respondTopUp],
  ['POST withdraw', respondWithdraw],
  ['PATCH amount', respondAmount]
] as const

const moneyTable = () =>
  table(
    ['caller', 'budget', ...moneyOperations.map(([name]) => name)],
    callers.flatMap((c) =>
      (['funded', 'tracking'] as const).flatMap((mode) =>
        (['open', 'closing'] as const).map((status) => [
          c.label,
          `${mode}, ${status}`,
          ...moneyOperations.map(([, respond]) =>
            String(
              respond({
                request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, body: '{"amount_cents":100}' },
                session: {
                  user: { id: userOf(c.relation), email_verified: true },
                  memberships: { 'c-1': { role: c.role, permissions: [...c.permissions] } }
                },
                budget: {
                  ...sample,
                  mode,
                  status,
                  ends_on: status === 'open' ? null : '2026-11-01',
                  balance_cents: mode === 'funded' ? 1000 : null
                },
                today: '2026-11-22',
                request_id: 'docs'
              }).status
            )
          )
        ])
      )
    )
  )

const transactions = Array.from({ length: 120 }, (_, i) => ({
  id: `tx-${String(i).padStart(3, '0')}`,
  amount: i * 10,
  status: i % 2 === 0 ? 'pending' : 'authorized',
  created_at: `2026-11-22T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
  updated_at: '2026-11-22T12:00:00Z'
}))

const indexQueries = [
  '',
  '_start=100',
  '_start=20&_end=40&_order=desc',
  '_start=0&_end=2000',
  '_start=0&_end=2001',
  '_start=200&_end=210',
  'status=pending&_end=10',
  'amount[$gte]=500&amount[$lt]=600',
  '_order=DESC',
  '_field=status',
  '_start=5&_end=2',
  '_limit=10',
  '_start=1&_start=2',
  'status[$gt]=pending',
  '_start=0&_end=5000&colour=red'
]

const indexTable = () =>
  table(
    ['query', 'status', 'X-Total-Count', 'Content-Range', 'body'],
    indexQueries.map((query) => {
      const r = respondIndex({
        request: { headers: { Authorization: 'Bearer k', 'company-id': 'c-1' }, query },
        session: { user: { id: 'u', email_verified: true }, memberships: { 'c-1': { role: 'member', permissions: [] } } },
        endpoint: endpoints.bankTransactions,
        records: transactions,
        request_id: 'docs'
      })
      const body = Array.isArray(r.body) ? `${r.body.length} records` : `\`${JSON.stringify(r.body).replace(/\|/g, '\\|')}\``
      return [
        query === '' ? '(none)' : `\`${query}\``,
        String(r.status),
        r.headers['X-Total-Count'] ?? '-',
        r.headers['Content-Range'] ?? '-',
        body
      ]
    })
  )

const roleCallers: ReadonlyArray<Role> = ['owner', 'admin', 'member']

const companyHeaders = { Authorization: 'Bearer k', 'company-id': 'c-1' }

const sessionOf = (role: Role, permissions: ReadonlyArray<string> = []) => ({
  user: { id: 'u-caller', email_verified: true },
  memberships: { 'c-1': { role, permissions: [...permissions] } }
})

/** A cell: the status, and the error code or error of its body when there is one. */
const statusCell = (r: { readonly status: number; readonly body: unknown }) => {
  const body = r.body as { error_code?: unknown; error?: unknown } | null
  const code = body?.error_code ?? body?.error
  return typeof code === 'string' ? `${r.status} \`${code}\`` : String(r.status)
}

const roleBodies: ReadonlyArray<readonly [string, string]> = [
  ['`{"role":"owner"}`', '{"role":"owner"}'],
  ['`{"role":"admin"}`', '{"role":"admin"}'],
  ['`{"role":"member"}`', '{"role":"member"}'],
  ['`{"role":"Owner"}`', '{"role":"Owner"}'],
  ['`{}`', '{}'],
  ['`["admin"]`', '["admin"]']
]

const roleTable = () =>
  table(
    ['caller', ...roleBodies.map(([label]) => label), 'a user not in `company_member_ids`'],
    roleCallers.map((role) => [
      role,
      ...roleBodies.map(([, body]) =>
        statusCell(
          respondRoleAssignment({
            request: { headers: companyHeaders, body },
            session: sessionOf(role),
            user_id: 'u-2',
            request_id: 'docs'
          })
        )
      ),
      statusCell(
        respondRoleAssignment({
          request: { headers: companyHeaders, body: '{"role":"member"}' },
          session: sessionOf(role),
          user_id: 'u-2',
          request_id: 'docs',
          company_member_ids: ['u-caller']
        })
      )
    ])
  )

const transactionCases: ReadonlyArray<
  readonly [string, { readonly id: string; readonly company_id: string; readonly status: string } | null]
> = [
  ['pending', { id: 'tx-1', company_id: 'c-1', status: 'pending' }],
  ['authorized', { id: 'tx-1', company_id: 'c-1', status: 'authorized' }],
  ['declined (malformed)', { id: 'tx-1', company_id: 'c-1', status: 'declined' }],
  ['none (null)', null],
  ["another company's, pending", { id: 'tx-1', company_id: 'c-2', status: 'pending' }],
  ["another company's, declined", { id: 'tx-1', company_id: 'c-2', status: 'declined' }]
]

const transactionCallers: ReadonlyArray<readonly [string, Role, ReadonlyArray<string>]> = [
  ['owner', 'owner', []],
  ['admin', 'admin', []],
  ['member with budgets_manage', 'member', ['budgets_manage']],
  ['member', 'member', []]
]

const transactionTable = () =>
  table(
    ['caller', ...transactionCases.map(([label]) => label)],
    transactionCallers.map(([label, role, permissions]) => [
      label,
      ...transactionCases.map(([, transaction]) =>
        statusCell(
          respondAuthorizeTransaction({
            request: { headers: companyHeaders },
            session: sessionOf(role, permissions),
            transaction,
            request_id: 'docs'
          })
        )
      )
    ])
  )

const validRecipient = { rut: '12.345.678-5', account_number: '0012-3456', bank_id: 'bank-1', name: 'Ana Pérez' }

const recipientBodies: ReadonlyArray<readonly [string, string | undefined]> = [
  ['a new, valid recipient', JSON.stringify({ bank_recipient: validRecipient })],
  [
    'one already enrolled',
    JSON.stringify({ bank_recipient: { ...validRecipient, rut: '11.111.111-1', account_number: '000123456' } })
  ],
  ['a wrong check digit', JSON.stringify({ bank_recipient: { ...validRecipient, rut: '12.345.678-4' } })],
  ['an unknown bank', JSON.stringify({ bank_recipient: { ...validRecipient, bank_id: 'bank-9' } })],
  ['no `bank_recipient`', JSON.stringify(validRecipient)],
  ['no body', undefined]
]

const recipientTable = () =>
  table(
    ['caller', ...recipientBodies.map(([label]) => label)],
    roleCallers.map((role) => [
      role,
      ...recipientBodies.map(([, body]) =>
        statusCell(
          respondBankRecipient({
            request: body === undefined ? { headers: companyHeaders } : { headers: companyHeaders, body },
            session: sessionOf(role),
            bank_ids: ['bank-1', 'bank-2'],
            enrolled: [{ rut: '11111111-1', bank_id: 'bank-1', account_number: '000-123-456' }],
            request_id: 'docs'
          })
        )
      )
    ])
  )

export const renderRulesDoc = (): string =>
  [
    '# Rules',
    '',
    '<!-- Generated by `npm run docs` from src/; test/docs.test.ts fails when this file is stale. Do not edit. -->',
    '',
    'Every rule the facades apply, by the id that replies name in `reasons` (R-30).',
    '',
    catalogue(),
    '',
    '## Who may change which field (`permittedUpdateFields`)',
    '',
    'Computed over every kind of caller, on an open budget.',
    '',
    permissionTable(),
    '',
    '## What PATCH /v1/budgets/{id} replies (`respondBudgetUpdate`)',
    '',
    'Computed by sending each update field alone with a valid new value, for every kind of caller and',
    'budget status, on 2026-11-22 (a closing or closed budget has ends_on 2026-11-01). The last column',
    'sends `manager_id` and `recurrence_unit` with the values the budget already holds.',
    '',
    updateTable(),
    '',
    '## What the money operations reply (`respondTopUp`, `respondWithdraw`, `respondAmount`)',
    '',
    'Computed with `{"amount_cents": 100}` on a balance of 1000 cents (funded) for every kind of caller,',
    'mode and status.',
    '',
    moneyTable(),
    '',
    '## What an index endpoint replies (`respondIndex`)',
    '',
    'Computed on GET /v1/banking/bank_transactions over 120 transactions (amounts 0, 10, ..., half of them',
    'pending).',
    '',
    indexTable(),
    '',
    '## What a role assignment replies (`respondRoleAssignment`)',
    '',
    'Computed for every caller role assigning a role to user u-2 with each body; the last column sends',
    '`{"role":"member"}` for a user the `company_member_ids` given do not hold.',
    '',
    roleTable(),
    '',
    '## What authorizing a transaction replies (`respondAuthorizeTransaction`)',
    '',
    'Computed for every kind of caller and each transaction the server looked up (c-1 is the',
    'company-id header).',
    '',
    transactionTable(),
    '',
    '## What enrolling a bank recipient replies (`respondBankRecipient`)',
    '',
    'Computed for every caller role with banks bank-1 and bank-2, and RUT 11.111.111-1 already enrolled',
    'at bank-1 with account 000-123-456.',
    '',
    recipientTable(),
    ''
  ].join('\n')

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const next = renderRulesDoc()
  const stale = (() => {
    try {
      return readFileSync(RULES_DOC, 'utf8') !== next
    } catch {
      return true
    }
  })()
  if (stale) writeFileSync(RULES_DOC, next)
  console.log(stale ? `wrote ${RULES_DOC}` : `${RULES_DOC} is up to date`)
}
