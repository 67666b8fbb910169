/**
 * What the `budget-rules` CLI must do, as a table run two ways: spawned as a user runs it
 * (test/cli/output.test.ts, test/cli/errors.test.ts) and in-process (test/cli/in-process.test.ts).
 * `at(name)` is how a case names a file of its workspace: relative when the CLI runs there,
 * absolute when it runs in-process; `dir` is the workspace itself.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { type Budget, type CalendarDate, respondTopUp, upcomingPeriods } from '../api'
import { periodsSvg } from '../../src/timeline/svg'
import type { Ran } from './run'

export interface Case {
  readonly name: string
  /** Files to write in the workspace first, by name. */
  readonly files?: Readonly<Record<string, string>>
  readonly env?: Readonly<Record<string, string>>
  readonly args: (at: (name: string) => string) => ReadonlyArray<string>
  readonly code: number
  readonly stdout?: (at: (name: string) => string) => string
  readonly stderr?: (at: (name: string) => string) => string
  readonly check?: (ran: Ran, dir: string) => void
}

const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'))
const TODAY = '2026-11-22' as CalendarDate

const MONTHLY_TIMELINE = [
  'Team lunch (b-31): funded, CLP, open, balance 20,000 cents',
  'renews every month from 2026-01-31',
  'today 2026-11-22',
  '',
  '> 2026-10-31 .. 2026-11-30  50,000 cents  in progress',
  '  2026-11-30 .. 2026-12-31  50,000 cents',
  '  2026-12-31 .. 2027-01-31  50,000 cents',
  '  2027-01-31 .. 2027-02-28  50,000 cents',
  '  2027-02-28 .. 2027-03-31  50,000 cents',
  '! 2027-03-15                              ends_on: the budget closes (status closing)',
  ''
].join('\n')

/** The budget of examples/case-top-up.json after the top-up on 2026-12-02: rolled to December, 50 more. */
const toppedUp = {
  ...(example('budget-monthly.json') as object),
  period_starts_on: '2026-11-30',
  period_ends_on: '2026-12-31',
  balance_cents: 25000
}

export const outputs: ReadonlyArray<Case> = [
  {
    name: 'periods prints the timeline of a budget',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--next', '4'],
    code: 0,
    stdout: () => MONTHLY_TIMELINE,
    stderr: () => ''
  },
  {
    name: 'periods shows a cadence change where it takes effect',
    args: (at) => ['periods', at('budget-cadence-change.json'), '--today', '2026-11-22', '--next', '3'],
    code: 0,
    stdout: () =>
      [
        'Field trips (b-42): tracking, CLP, open',
        'renews every 2 weeks from 2026-11-25',
        'today 2026-11-22',
        '',
        '> 2026-11-18 .. 2026-11-25  12,000 cents  in progress',
        '! 2026-11-25                              from here: renews every 2 weeks, 30,000 cents a period',
        '  2026-11-25 .. 2026-12-09  30,000 cents',
        '  2026-12-09 .. 2026-12-23  30,000 cents',
        '  2026-12-23 .. 2027-01-06  30,000 cents',
        ''
      ].join('\n'),
    stderr: () => ''
  },
  {
    name: 'periods --json prints upcomingPeriods, 12 unless told',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--json'],
    code: 0,
    stderr: () => '',
    check: ({ stdout }) => {
      const printed = JSON.parse(stdout) as unknown
      expect(printed).toEqual(upcomingPeriods(example('budget-monthly.json') as Budget, TODAY, 12))
      expect(printed).toHaveLength(12)
      expect((printed as Array<unknown>)[3]).toEqual({ starts_on: '2027-02-28', ends_on: '2027-03-31', amount_cents: 50000 })
    }
  },
  {
    name: 'periods --json --next 2 prints two periods, indented',
    args: (at) => ['periods', at('budget-monthly.json'), '--next', '2', '--today', '2026-11-22', '--json'],
    code: 0,
    stdout: () =>
      `${JSON.stringify(
        [
          { starts_on: '2026-11-30', ends_on: '2026-12-31', amount_cents: 50000 },
          { starts_on: '2026-12-31', ends_on: '2027-01-31', amount_cents: 50000 }
        ],
        null,
        2
      )}\n`,
    stderr: () => ''
  },
  {
    name: 'periods --svg writes the picture and prints the timeline',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--next', '4', '--svg', at('out.svg')],
    code: 0,
    stdout: () => MONTHLY_TIMELINE,
    stderr: () => '',
    check: (_, dir) => {
      const svg = readFileSync(join(dir, 'out.svg'), 'utf8')
      expect(svg).toBe(periodsSvg({ budget: example('budget-monthly.json') as Budget, today: TODAY, next: 4 }))
      expect(svg.match(/<rect class="period/g)).toHaveLength(5)
    }
  },
  {
    name: 'decide prints the reply and the reasons',
    args: (at) => ['decide', at('case-manager-changes-manager.json')],
    code: 0,
    stdout: () =>
      [
        'HTTP/1.1 403 Forbidden',
        'X-Request-Id: req-example-1',
        'Content-Type: application/json; charset=utf-8',
        '',
        '{',
        '  "error_code": "budgets/cannot_change_manager",',
        '  "message": "Only an admin or a user with budgets_manage can change the manager"',
        '}',
        '',
        'auth.bearer                key of user u-7',
        'auth.email_verified        email verified',
        'auth.company_header        company c-1',
        'auth.membership            role member',
        'budget.scope               budget b-31',
        'budget.stored              the stored budget is consistent',
        'budget.advance             nothing to roll forward',
        'budget.permission.update   user u-7 manages the group',
        'budget.body.type           a JSON object with a budget object',
        'budget.body.wrapper        budget holds 2 keys',
        'budget.permission.manager  Only an admin or a user with budgets_manage can change the manager',
        ''
      ].join('\n'),
    stderr: () => ''
  },
  {
    name: 'decide --json prints status, headers, body, reasons and the budget to persist',
    args: (at) => ['decide', '--json', at('case-top-up.json')],
    code: 0,
    stderr: () => '',
    check: ({ stdout }) => {
      const c = example('case-top-up.json') as Parameters<typeof respondTopUp>[0]
      expect(JSON.parse(stdout)).toEqual({
        status: 200,
        headers: { 'X-Request-Id': 'req-example-2', 'Content-Type': 'application/json; charset=utf-8' },
        body: toppedUp,
        reasons: respondTopUp(c).reasons,
        budget: toppedUp
      })
      expect(stdout.startsWith('{\n  "status": 200,\n  "headers": {\n')).toBe(true)
    }
  },
  {
    name: 'decide replies 500 to a case whose stored budget is malformed, saying why (the facade checks it)',
    files: {
      'malformed.json': JSON.stringify({ ...(example('case-top-up.json') as object), budget: { ...toppedUp, balance_cents: -5 } })
    },
    args: (at) => ['decide', at('malformed.json')],
    code: 0,
    stderr: () => '',
    check: ({ stdout }) => {
      expect(stdout.split('\n').slice(0, 3)).toEqual([
        'HTTP/1.1 500 Internal Server Error',
        'X-Request-Id: req-example-2',
        'Content-Type: application/json; charset=utf-8'
      ])
      expect(stdout).toContain('\nbudget.stored        malformed stored budget: balance_cents is -5, not (Cents | null)\n')
    }
  },
  {
    name: '--help prints the commands',
    args: () => ['--help'],
    code: 0,
    stderr: () => '',
    check: ({ stdout }) => {
      expect(stdout).toMatch(/^Usage: budget-rules \[options\] \[command\]\n/)
      for (const command of ['decide [options] <case.json>', 'periods [options] <budget.json>', 'serve'])
        expect(stdout).toContain(command)
    }
  }
]

const ENDPOINTS =
  'budget.get, budget.update, budget.top_up, budget.withdraw, budget.amount, index.budgets, index.bank_transactions, transaction.authorize, recipient.enroll, index.companies, role.assign, index.decisions'

export const errors: ReadonlyArray<Case> = [
  {
    name: 'a missing file',
    args: (at) => ['decide', at('missing.json')],
    code: 1,
    stderr: (at) => `error: cannot read ${at('missing.json')}: no such file or directory\n`
  },
  {
    name: 'a directory for a file',
    files: { 'folder/budget.json': '{}' },
    args: (at) => ['periods', at('folder'), '--today', '2026-11-22'],
    code: 1,
    stderr: (at) => `error: cannot read ${at('folder')}: it is a directory\n`
  },
  {
    name: 'a file that is not JSON, where it stops',
    files: { 'not-json.json': '{\n  "id": "b-1",\n  oops\n}\n' },
    args: (at) => ['periods', at('not-json.json'), '--today', '2026-11-22'],
    code: 1,
    stderr: (at) => `error: ${at('not-json.json')} is not JSON (line 3, column 3)\n`
  },
  {
    name: 'a file that ends too early',
    files: { 'cut.json': '{"endpoint": "budget.update",\n "request": {' },
    args: (at) => ['decide', at('cut.json')],
    code: 1,
    stderr: (at) => `error: ${at('cut.json')} is not JSON (line 2, column 14)\n`
  },
  {
    name: 'an empty file',
    files: { 'empty.json': '\n' },
    args: (at) => ['decide', at('empty.json')],
    code: 1,
    stderr: (at) => `error: ${at('empty.json')} is empty, not JSON\n`
  },
  {
    name: 'a budget that is not a valid stored budget',
    files: { 'funded.json': JSON.stringify({ ...(example('budget-monthly.json') as object), balance_cents: null }) },
    args: (at) => ['periods', at('funded.json'), '--today', '2026-11-22'],
    code: 1,
    stderr: (at) => `error: ${at('funded.json')} is not a valid stored budget: balance_cents is null on a funded budget\n`
  },
  {
    name: 'a file that is no budget at all',
    args: (at) => ['periods', at('case-top-up.json'), '--today', '2026-11-22'],
    code: 1,
    stderr: (at) =>
      `error: ${at('case-top-up.json')} is not a valid stored budget: id is undefined, not string; ` +
      'company_id is undefined, not string; name is undefined, not string (and 17 more)\n'
  },
  {
    name: 'a --today that is not a date',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-02-30'],
    code: 1,
    stderr: () => 'error: --today is "2026-02-30", not a date (YYYY-MM-DD)\n'
  },
  {
    name: 'a --next that is not a whole number',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--next', '-3'],
    code: 1,
    stderr: () => 'error: --next is "-3", not a whole number from 0 to 1000\n'
  },
  {
    name: 'a --next past the most periods shown',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--next', '5000'],
    code: 1,
    stderr: () => 'error: --next is "5000", not a whole number from 0 to 1000\n'
  },
  {
    name: 'an --svg file that cannot be written',
    args: (at) => ['periods', at('budget-monthly.json'), '--today', '2026-11-22', '--svg', at('no-dir/out.svg')],
    code: 1,
    stderr: (at) => `error: cannot write ${at('no-dir/out.svg')}: no such file or directory\n`,
    stdout: () => ''
  },
  {
    name: 'a case of an endpoint the CLI does not know',
    files: { 'close.json': JSON.stringify({ endpoint: 'budget.close' }) },
    args: (at) => ['decide', at('close.json')],
    code: 1,
    stderr: (at) => `error: ${at('close.json')}: endpoint is "budget.close", not one of ${ENDPOINTS}\n`
  },
  {
    name: 'a case that is not an object',
    files: { 'list.json': '[]' },
    args: (at) => ['decide', at('list.json')],
    code: 1,
    stderr: (at) => `error: ${at('list.json')}: a case is a JSON object, not an array\n`
  },
  {
    name: 'a PORT that is not a port',
    env: { PORT: 'http' },
    args: () => ['serve'],
    code: 1,
    stderr: () => 'error: PORT is "http", not a port number from 0 to 65535\n'
  },
  {
    name: 'usage: --today missing',
    args: (at) => ['periods', at('budget-monthly.json')],
    code: 2,
    stderr: () => "error: required option '--today <date>' not specified\n"
  },
  {
    name: 'usage: the file missing from the command line',
    args: () => ['decide'],
    code: 2,
    stderr: () => "error: missing required argument 'case.json'\n"
  },
  {
    name: 'usage: an unknown command',
    args: () => ['frobnicate'],
    code: 2,
    stderr: () => "error: unknown command 'frobnicate'\n"
  },
  {
    name: 'usage: an unknown option',
    args: (at) => ['decide', at('case-top-up.json'), '--yaml'],
    code: 2,
    stderr: () => "error: unknown option '--yaml'\n"
  }
]

/** Writes a case's files into the workspace. */
export const prepare = (c: Case, dir: string, mkdir: (path: string) => void): void => {
  for (const [name, text] of Object.entries(c.files ?? {})) {
    mkdir(join(dir, name, '..'))
    writeFileSync(join(dir, name), text)
  }
}

/** Checks what the CLI did against the case: exit code, exact output, no stack trace. */
export const verify = (c: Case, ran: Ran, dir: string, at: (name: string) => string): void => {
  expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: c.code, stderr: c.stderr?.(at) ?? ran.stderr })
  if (c.stdout !== undefined) expect(ran.stdout).toBe(c.stdout(at))
  expect(ran.stderr).not.toMatch(/^\s+at /m)
  if (c.code !== 0) expect(ran.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1)
  c.check?.(ran, dir)
}
