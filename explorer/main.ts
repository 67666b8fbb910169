/**
 * The decision explorer's page: the inputs of PATCH /v1/budgets/{id} (a caller, a budget, today,
 * a body) read from the form, handed to the library's own facade in the browser, and the reply,
 * its reasons with their decision records, the fields the caller may change and the budget's
 * periods drawn. Recomputed on every change; nothing here throws on bad input: the facade
 * answers it (a 500 for a malformed budget or today), and the parts that need a valid budget
 * say why they cannot be drawn. Opened with `#decision=<a decision record as JSON>` (the admin
 * console's link), it shows the record's reply and what the library here decides of its case,
 * and a budget update's case fills the form.
 */
import { DecisionRecord, replay } from '../src/decisions'
import { permittedUpdateFields, respondBudgetUpdate, type Session } from '../src/index'
import { Budget, type RuleId, rules, updateFields } from '../src/rules'
import { periodsSvg } from '../src/timeline/svg'

/** The decision records the rules cite, by file name: embedded by scripts/explorer.ts at build time. */
declare const DECISION_RECORDS: Readonly<Record<string, { readonly title: string; readonly text: string }>>

// -------------------------------------------------------------------------------------
// presets: consistent stored budgets to start from, and the spec's example bodies
// -------------------------------------------------------------------------------------

type Value = string | number | null

const monthly: Readonly<Record<string, Value>> = {
  name: 'Team lunch',
  description: 'Lunch on the last day of the month',
  access: 'everyone',
  currency: 'CLP',
  mode: 'funded',
  manager_id: 'u-7',
  co_manager_id: 'u-8',
  status: 'open',
  created_on: '2026-01-31',
  ends_on: '2027-03-15',
  recurrence_unit: 'month',
  recurrence_every: 1,
  base_amount_cents: 50000,
  recurrence_starts_on: '2026-01-31',
  period_starts_on: '2026-10-31',
  period_ends_on: '2026-11-30',
  period_amount_cents: 50000,
  balance_cents: 20000
}

const presets: Readonly<Record<string, Readonly<Record<string, Value>>>> = {
  monthly,
  fortnightly: {
    ...monthly,
    name: 'Field trips',
    description: null,
    access: 'members',
    mode: 'tracking',
    created_on: '2026-09-02',
    ends_on: null,
    recurrence_unit: 'week',
    recurrence_every: 2,
    base_amount_cents: 30000,
    recurrence_starts_on: '2026-09-02',
    period_starts_on: '2026-11-11',
    period_ends_on: '2026-11-25',
    period_amount_cents: 30000,
    balance_cents: null
  },
  'one-off': {
    ...monthly,
    name: 'Offsite',
    description: 'One budget for the whole offsite',
    created_on: '2026-03-10',
    ends_on: null,
    recurrence_unit: null,
    recurrence_every: null,
    base_amount_cents: null,
    recurrence_starts_on: null,
    period_starts_on: '2026-03-10',
    period_ends_on: null,
    period_amount_cents: 120000,
    balance_cents: 45000
  },
  closing: { ...monthly, status: 'closing', ends_on: '2026-11-15' },
  closed: { ...monthly, status: 'closed', ends_on: '2026-10-15', period_starts_on: '2026-09-30', period_ends_on: '2026-10-31' }
}

/** The spec's cases as bodies, each with the budget it is best seen on. */
const examples: ReadonlyArray<{ readonly label: string; readonly body: string; readonly preset?: string }> = [
  { label: 'rename', body: '{"budget":{"name":"Team lunches"}}' },
  { label: 'change the manager', body: '{"budget":{"manager_id":"u-9"}}' },
  { label: 'change the cadence', body: '{"budget":{"recurrence_unit":"week","recurrence_every":2}}' },
  { label: 'change the base amount', body: '{"budget":{"base_amount_cents":80000}}' },
  { label: 'stop recurrence', body: '{"budget":{"recurrence_unit":null}}' },
  {
    label: 'turn recurrence on (a budget that does not renew)',
    body: '{"budget":{"recurrence_unit":"month","base_amount_cents":40000}}',
    preset: 'one-off'
  },
  { label: 'reopen a closing budget', body: '{"budget":{"ends_on":"2027-06-30"}}', preset: 'closing' },
  { label: 'update a closed budget', body: '{"budget":{"name":"Team lunches"}}', preset: 'closed' },
  { label: 'set a closing date in the past', body: '{"budget":{"ends_on":"2026-01-01"}}' },
  { label: 'several invalid values', body: '{"budget":{"name":" ","recurrence_every":0,"colour":"red"}}' },
  { label: 'send back what was read (no change)', body: '{"budget":{"name":"Team lunch","currency":"CLP","mode":"funded"}}' },
  { label: 'no budget wrapper', body: '{"name":"Team lunches"}' },
  { label: 'not JSON', body: '{"budget":' },
  { label: 'no body', body: '' }
]

/** The budget's fields as the form shows them: how each is entered, and what empty means. */
type FieldInput =
  | { readonly kind: 'text' | 'date' | 'number'; readonly nullable: boolean }
  | { readonly kind: 'choice'; readonly choices: ReadonlyArray<string>; readonly nullable: boolean }

const budgetInputs: ReadonlyArray<readonly [string, FieldInput]> = [
  ['name', { kind: 'text', nullable: false }],
  ['description', { kind: 'text', nullable: true }],
  ['access', { kind: 'choice', choices: ['everyone', 'members'], nullable: false }],
  ['currency', { kind: 'text', nullable: false }],
  ['mode', { kind: 'choice', choices: ['funded', 'tracking'], nullable: false }],
  ['status', { kind: 'choice', choices: ['open', 'closing', 'closed'], nullable: false }],
  ['manager_id', { kind: 'text', nullable: true }],
  ['co_manager_id', { kind: 'text', nullable: true }],
  ['created_on', { kind: 'date', nullable: false }],
  ['ends_on', { kind: 'date', nullable: true }],
  ['recurrence_unit', { kind: 'choice', choices: ['day', 'week', 'month', 'year'], nullable: true }],
  ['recurrence_every', { kind: 'number', nullable: true }],
  ['base_amount_cents', { kind: 'number', nullable: true }],
  ['recurrence_starts_on', { kind: 'date', nullable: true }],
  ['period_starts_on', { kind: 'date', nullable: false }],
  ['period_ends_on', { kind: 'date', nullable: true }],
  ['period_amount_cents', { kind: 'number', nullable: true }],
  ['balance_cents', { kind: 'number', nullable: true }]
]

/** The user the caller is when they neither manage nor co-manage the budget. */
const OUTSIDER_ID = 'u-2'
const COMPANY_ID = 'c-1'
const BUDGET_ID = 'b-31'

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  422: 'Unprocessable Content',
  500: 'Internal Server Error'
}

// -------------------------------------------------------------------------------------
// the DOM
// -------------------------------------------------------------------------------------

const byId = (id: string): HTMLElement => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the page has no #${id}`)
  return found
}

const form = byId('inputs')

/** A control of the form by name. */
const control = (name: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement => {
  const found = form instanceof HTMLFormElement ? form.elements.namedItem(name) : null
  if (found instanceof HTMLInputElement || found instanceof HTMLSelectElement || found instanceof HTMLTextAreaElement)
    return found
  throw new Error(`the form has no control ${name}`)
}

/** Whether a checkbox of the form is ticked. */
const ticked = (name: string): boolean => {
  const box = control(name)
  return box instanceof HTMLInputElement && box.checked
}

/** An element with a class and text or children. */
const el = (tag: string, className: string, ...children: ReadonlyArray<Node | string>): HTMLElement => {
  const e = document.createElement(tag)
  if (className !== '') e.className = className
  e.append(...children)
  return e
}

const show = (e: HTMLElement, text: string | null): void => {
  e.hidden = text === null
  e.textContent = text
}

/** The budget inputs, one label per field, named after the field. */
const buildBudgetInputs = (): void => {
  const grid = byId('budget-fields')
  for (const [field, input] of budgetInputs) {
    const label = el('label', '', el('code', '', field))
    if (input.kind === 'choice') {
      const select = document.createElement('select')
      select.name = field
      for (const choice of [...(input.nullable ? [''] : []), ...input.choices])
        select.append(new Option(choice === '' ? 'null' : choice, choice))
      label.append(select)
    } else {
      const text = document.createElement('input')
      text.name = field
      text.spellcheck = false
      if (input.nullable) text.placeholder = 'null'
      if (input.kind === 'number') text.inputMode = 'numeric'
      label.append(text)
    }
    grid.append(label)
  }
}

const fillBudget = (preset: Readonly<Record<string, Value>>): void => {
  for (const [field] of budgetInputs) control(field).value = String(preset[field] ?? '')
}

/**
 * The budget as the form holds it: empty is null where the field may be null (and the empty
 * string where it may not, for the check to name); a number field holds a number when it reads
 * as one, else the text, so that the library says what is wrong with it.
 */
const readBudgetForm = (): Record<string, Value> => {
  const budget: Record<string, Value> = { id: BUDGET_ID, company_id: COMPANY_ID }
  for (const [field, input] of budgetInputs) {
    const raw = control(field).value
    const text = input.kind === 'number' || input.kind === 'date' ? raw.trim() : raw
    budget[field] =
      text === '' && input.nullable ? null : input.kind === 'number' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  }
  return budget
}

// -------------------------------------------------------------------------------------
// the decision
// -------------------------------------------------------------------------------------

interface Inputs {
  readonly session: Session
  readonly caller: { readonly user_id: string; readonly role: 'owner' | 'admin' | 'member'; readonly permissions: Array<string> }
  readonly callerNote: string | null
  readonly budget: Record<string, Value>
  readonly members: Array<string>
  readonly today: string
  readonly body: string
  readonly next: number
}

const readInputs = (): Inputs => {
  const budget = readBudgetForm()
  const role = control('role').value as Inputs['caller']['role']
  const permissions = ticked('budgets_manage') ? ['budgets_manage'] : []
  const relation = control('relation').value
  const named = relation === 'manager' ? budget.manager_id : relation === 'co_manager' ? budget.co_manager_id : OUTSIDER_ID
  // A budget without a manager (or co-manager) has no one to be: the caller manages nothing then.
  const user_id = typeof named === 'string' && named !== '' ? named : OUTSIDER_ID
  const callerNote =
    user_id === OUTSIDER_ID && relation !== 'none'
      ? `The budget has no ${relation === 'manager' ? 'manager' : 'co-manager'}: the caller is ${OUTSIDER_ID}, who manages nothing.`
      : `The caller is user ${user_id}.`
  const kind = control('session').value
  const membership = { role, permissions }
  const session: Session =
    kind === 'unknown'
      ? { user: null, memberships: {} }
      : {
          user: { id: user_id, email_verified: kind !== 'unverified' },
          memberships: kind === 'outsider' ? { 'c-2': membership } : { [COMPANY_ID]: membership }
        }
  const next = Number(control('next').value)
  return {
    session,
    caller: { user_id, role, permissions },
    callerNote,
    budget,
    members: control('members')
      .value.split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
    today: control('today').value.trim(),
    body: control('body').value,
    next: Number.isInteger(next) ? Math.min(24, Math.max(0, next)) : 4
  }
}

/** The record a rule cites, as a collapsible block under its reason. */
const recordOf = (rule: RuleId): HTMLElement => {
  const file = rules[rule].decision
  const record = DECISION_RECORDS[file]
  if (record === undefined) return el('p', 'note', `docs/decisions/${file} was not embedded`)
  const details = el('details', 'record', el('summary', 'record-title', record.title))
  details.append(el('p', 'record-file', `docs/decisions/${file}`), el('div', 'record-text', record.text))
  return details
}

const drawReply = (inputs: Inputs): void => {
  const reply = respondBudgetUpdate({
    request: { headers: { Authorization: 'Bearer explorer', 'company-id': COMPANY_ID }, body: inputs.body },
    session: inputs.session,
    // What the form holds, checked by the facade itself (a malformed budget is its 500).
    budget: inputs.budget as unknown as Parameters<typeof respondBudgetUpdate>[0]['budget'],
    today: inputs.today,
    request_id: 'explorer',
    company_member_ids: inputs.members
  })
  const status = byId('status')
  status.textContent = `${reply.status} ${STATUS_TEXT[reply.status] ?? ''}`.trim()
  status.dataset.status = String(reply.status)
  status.className = reply.status < 300 ? 'ok' : reply.status < 500 ? 'refused' : 'failed'
  const headers = Object.entries(reply.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
  byId('reply').textContent = `${headers}\n\n${reply.body === null ? '(empty body)' : JSON.stringify(reply.body, null, 2)}`

  const list = byId('reasons')
  list.replaceChildren(
    ...reply.reasons.map((reason, i) => {
      const decisive = reply.status !== 200 && i === reply.reasons.length - 1
      const item = el(
        'li',
        decisive ? 'reason decisive' : 'reason',
        el('code', 'rule', reason.rule),
        ' ',
        el('span', 'detail', reason.detail),
        el('p', 'summary', rules[reason.rule].summary),
        recordOf(reason.rule)
      )
      item.dataset.rule = reason.rule
      return item
    })
  )
  const after = byId('after')
  after.hidden = reply.status !== 200
  if (reply.status === 200) drawTimeline(byId('timeline-after'), reply.budget, inputs.today, inputs.next)
}

/** The periods of a budget as the library draws them, or why they cannot be drawn. */
const drawTimeline = (target: HTMLElement, budget: unknown, today: string, next: number): void => {
  const read = Budget.decode(budget)
  if (read._tag === 'Left') {
    target.replaceChildren(el('p', 'note', 'No periods: the budget is not valid.'))
    return
  }
  try {
    target.innerHTML = periodsSvg({ budget: read.right, today: today as Parameters<typeof periodsSvg>[0]['today'], next })
  } catch (e) {
    target.replaceChildren(el('p', 'error', e instanceof Error ? e.message : String(e)))
  }
}

const drawPermitted = (inputs: Inputs): void => {
  const list = byId('permitted')
  const note = byId('permitted-note')
  const read = Budget.decode(inputs.budget)
  if (read._tag === 'Left') {
    list.replaceChildren()
    show(note, 'The budget is not valid: see above.')
    return
  }
  const permitted: ReadonlyArray<string> = permittedUpdateFields(inputs.caller, read.right)
  list.replaceChildren(
    ...updateFields.map((field) => {
      const allowed = permitted.includes(field)
      const item = el('li', allowed ? 'allowed' : 'denied', el('code', '', field))
      item.dataset.field = field
      item.title = allowed ? 'this caller may change it' : 'this caller may not change it'
      return item
    })
  )
  show(
    note,
    inputs.session.user === null
      ? 'These are the caller’s rights once signed in; without a valid key every request is a 401.'
      : permitted.length === 0
        ? read.right.status === 'closed'
          ? 'None: a closed budget takes no update.'
          : 'None: the caller has no full budget rights and manages nothing here.'
        : null
  )
}

const recompute = (): void => {
  const inputs = readInputs()
  show(byId('caller-note'), inputs.callerNote)
  const read = Budget.decode(inputs.budget)
  show(
    byId('budget-error'),
    read._tag === 'Left' ? `Not a valid stored budget: ${read.left.map((e) => e.message ?? 'malformed').join('; ')}.` : null
  )
  drawReply(inputs)
  drawPermitted(inputs)
  drawTimeline(byId('timeline'), inputs.budget, inputs.today, inputs.next)
}

/** Any failure of the page itself is shown, never left to the console. */
const guarded = (): void => {
  try {
    recompute()
  } catch (e) {
    show(byId('budget-error'), `The explorer failed: ${e instanceof Error ? e.message : String(e)}`)
  }
}

// -------------------------------------------------------------------------------------
// a recorded decision
// -------------------------------------------------------------------------------------

const RECORDED = '#decision='

/** A record's case as the form's inputs: the caller as the session and the budget make them. */
const fillFromCase = (c: Readonly<Record<string, unknown>>): void => {
  const request = (c.request ?? {}) as { headers?: Readonly<Record<string, string>>; body?: string }
  const session = c.session as Session
  const budget = (c.budget ?? {}) as Readonly<Record<string, Value>>
  const membership = session.user === null ? undefined : session.memberships[request.headers?.['company-id'] ?? '']
  control('session').value =
    session.user === null
      ? 'unknown'
      : !session.user.email_verified
        ? 'unverified'
        : membership === undefined
          ? 'outsider'
          : 'member'
  const user = session.user?.id
  control('relation').value =
    user !== undefined && user === budget.manager_id
      ? 'manager'
      : user !== undefined && user === budget.co_manager_id
        ? 'co_manager'
        : 'none'
  // An outsider's role is the one it holds in its own company.
  const role = membership ?? Object.values(session.memberships)[0]
  control('role').value = role?.role ?? 'member'
  const manage = control('budgets_manage')
  if (manage instanceof HTMLInputElement) manage.checked = role?.permissions.includes('budgets_manage') === true
  control('members').value = ((c.company_member_ids ?? []) as ReadonlyArray<string>).join(', ')
  fillBudget(budget)
  control('today').value = typeof c.today === 'string' ? c.today : ''
  control('body').value = request.body ?? ''
}

/** The record of the page's link, shown with what the library here decides of it; a budget update's case fills the form. */
const openRecorded = (): void => {
  if (!window.location.hash.startsWith(RECORDED)) return
  byId('recorded').hidden = false
  let parsed: unknown
  try {
    parsed = JSON.parse(decodeURIComponent(window.location.hash.slice(RECORDED.length)))
  } catch {
    parsed = null
  }
  const decoded = DecisionRecord.decode(parsed)
  if (decoded._tag === 'Left') {
    show(byId('recorded-summary'), 'The link holds no decision record.')
    return
  }
  const r = decoded.right
  show(
    byId('recorded-summary'),
    `Request ${r.request_id} (${r.endpoint}, ${r.method} ${r.path}) at ${r.at}, by ${r.actor_id ?? 'no user'}: replied ${r.status}, decided by ${r.rules.at(-1) ?? 'no rule'} (budget-rules ${r.library_version}).`
  )
  const found = replay(r)
  const verdict = byId('recorded-replay')
  verdict.dataset.replay = !found.replayable ? 'not-replayable' : found.same ? 'same' : 'differs'
  show(
    verdict,
    !found.replayable
      ? `It cannot be decided again here: ${found.reason}.`
      : found.same
        ? 'Decided again here, its case gets the same reply.'
        : `Decided again here, its case gets another reply: ${found.actual.status}, decided by ${found.actual.rules.at(-1) ?? 'no rule'}.`
  )
  if (r.endpoint === 'budget.update' && r.case !== null) fillFromCase(r.case)
}

// -------------------------------------------------------------------------------------
// start
// -------------------------------------------------------------------------------------

buildBudgetInputs()
fillBudget(monthly)
const exampleSelect = control('example')
examples.forEach((example, i) => {
  exampleSelect.append(new Option(example.label, String(i)))
})
control('body').value = examples[0]?.body ?? ''

form.addEventListener('input', (event) => {
  const target = event.target
  if (target === exampleSelect) {
    const example = examples[Number(exampleSelect.value)]
    if (example !== undefined) {
      control('body').value = example.body
      if (example.preset !== undefined) {
        control('preset').value = example.preset
        fillBudget(presets[example.preset] ?? monthly)
      }
    }
  } else if (target === control('preset')) fillBudget(presets[control('preset').value] ?? monthly)
  guarded()
})
form.addEventListener('submit', (event) => {
  event.preventDefault()
})
openRecorded()
guarded()
document.body.dataset.ready = 'true'
