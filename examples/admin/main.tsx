/**
 * The admin console: react-admin 5 over the reference server through budget-rules/react-admin,
 * with the rules in the browser. The API key and company typed in on the login page are kept by
 * the authProvider (localStorage); transactions are listed, paged, sorted and filtered as the
 * service spells it; a budget is shown with its next periods drawn as the SVG timeline, and
 * edited with the inputs its caller may not change disabled, each saying the rule that locks it
 * (lockedUpdateFields, the rule's words from the catalogue), and a preview of the periods a
 * recurrence change gives (respondBudgetUpdate, then upcomingPeriods, run here, before anything
 * is sent). A budget shows its history (its decision records: when, who, status, fields changed,
 * rules) and the decisions page finds a request id typed in, each record with its rules in words
 * and a link that opens its case in the decision explorer. scripts/admin.ts bundles it into
 * dist/admin/; the server serves it at /admin/
 * (src/server/admin.ts).
 */
import { type ReactNode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { useWatch } from 'react-hook-form'
import {
  Admin,
  type AuthProvider,
  Button,
  Datagrid,
  type DataProvider,
  DateInput,
  Edit,
  EditButton,
  Form,
  HttpError,
  List,
  Login,
  NumberField,
  NumberInput,
  Resource,
  SaveButton,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  useLogin,
  useNotify,
  useGetManyReference,
  useRecordContext,
  useRefresh
} from 'react-admin'
import type { DecisionRecord } from '../../src/decisions'
import { type Budget, type LockRule, lockedUpdateFields, respondBudgetUpdate } from '../../src/index'
import { rules } from '../../src/rules'
import { type BudgetRulesDataProvider, reactAdminDataProvider } from '../../src/react-admin'
import { periodsSvg } from '../../src/timeline/svg'

// -------------------------------------------------------------------------------------
// signing in: the API key and the company, kept in localStorage
// -------------------------------------------------------------------------------------

const STORAGE_KEY = 'budget-rules.admin'

interface Credentials {
  readonly token: string
  readonly companyId: string
  readonly companyName: string
}

const signedIn = (): Credentials | null => {
  try {
    const c = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Credentials | null
    return c !== null && typeof c.token === 'string' && typeof c.companyId === 'string' ? c : null
  } catch {
    return null
  }
}

const providerFor = (token: string, companyId: string) =>
  reactAdminDataProvider({ url: window.location.origin, token, companyId })

const authProvider: AuthProvider = {
  // The key is good for the company when the company is among the key's own (GET /v1/companies).
  login: async ({ token, companyId }: { token?: string; companyId?: string }) => {
    if (token === undefined || token === '' || companyId === undefined || companyId === '')
      throw new Error('Type in an API key and a company id')
    const { data } = await providerFor(token, companyId).getList<{ id: string; name: string }>('companies', {
      pagination: { page: 1, perPage: 1 },
      filter: { id: companyId }
    })
    const company = data[0]
    if (company === undefined) throw new Error(`${companyId} is not a company of this API key`)
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ token, companyId, companyName: company.name }))
  },
  logout: () => {
    localStorage.removeItem(STORAGE_KEY)
    return Promise.resolve()
  },
  checkAuth: () => (signedIn() === null ? Promise.reject(new Error('Sign in')) : Promise.resolve()),
  // Only an empty 401 is a key the service no longer takes; a 401 with a body is an action the
  // caller may not take (`Unauthorized (401)`), shown as the service words it.
  checkError: (error: unknown) => {
    if (error instanceof HttpError && error.status === 401 && error.body === null) {
      localStorage.removeItem(STORAGE_KEY)
      return Promise.reject(error)
    }
    return Promise.resolve()
  },
  getIdentity: () => {
    const c = signedIn()
    return c === null ? Promise.reject(new Error('Sign in')) : Promise.resolve({ id: c.token, fullName: `${c.token} at ${c.companyName}` })
  }
}

const METHODS = ['getList', 'getOne', 'getMany', 'getManyReference', 'update', 'updateMany', 'create', 'delete', 'deleteMany'] as const

/** The provider of whoever is signed in, built for each call (signing in again changes it). */
const dataProvider = Object.fromEntries(
  METHODS.map((method) => [
    method,
    (resource: string, params: unknown) => {
      const c = signedIn()
      if (c === null) return Promise.reject(new HttpError('Sign in', 401, null))
      return (providerFor(c.token, c.companyId)[method] as (r: string, p: unknown) => Promise<unknown>)(resource, params)
    }
  ])
) as unknown as DataProvider

/** One of the service's actions, as whoever is signed in; the provider makes each call's Idempotency-Key, so each click has its own. */
const act = <T,>(action: (provider: BudgetRulesDataProvider) => Promise<T>): Promise<T> => {
  const c = signedIn()
  return c === null ? Promise.reject(new HttpError('Sign in', 401, null)) : action(providerFor(c.token, c.companyId))
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'The request failed')

const LoginPage = () => {
  const login = useLogin()
  const notify = useNotify()
  return (
    <Login>
      <Form
        onSubmit={(values: Record<string, unknown>) => {
          login(values).catch((error: unknown) => {
            notify(error instanceof Error ? error.message : 'Could not sign in', { type: 'error' })
          })
        }}
      >
        <div style={{ padding: '0 1em 1em', display: 'flex', flexDirection: 'column' }}>
          <TextInput source="token" label="API key" autoComplete="off" />
          <TextInput source="companyId" label="Company id" defaultValue="c-acme" />
          <SaveButton label="Sign in" icon={<span />} alwaysEnable />
        </div>
      </Form>
    </Login>
  )
}

// -------------------------------------------------------------------------------------
// transactions
// -------------------------------------------------------------------------------------

/** A calendar date typed in, as the instant of its midnight UTC (the service filters instants). */
const midnight = (date: unknown) => (typeof date === 'string' && date !== '' ? `${date}T00:00:00Z` : undefined)
const asDate = (instant: unknown) => (typeof instant === 'string' ? instant.slice(0, 10) : '')

const transactionFilters = [
  <SelectInput
    key="status"
    source="status"
    choices={[
      { id: 'pending', name: 'pending' },
      { id: 'authorized', name: 'authorized' }
    ]}
    alwaysOn
  />,
  <NumberInput key="amount-from" source="amount.$gte" label="Amount from" />,
  <NumberInput key="amount-to" source="amount.$lte" label="Amount up to" />,
  <DateInput key="created-from" source="created_at.$gte" label="Created from" parse={midnight} format={asDate} />,
  <DateInput key="created-before" source="created_at.$lt" label="Created before" parse={midnight} format={asDate} />
]

/** Authorizes the row's transaction; the service's 409 (already authorized) is a notification in its words. */
const AuthorizeButton = () => {
  const transaction = useRecordContext<{ id: string }>()
  const notify = useNotify()
  const refresh = useRefresh()
  if (transaction === undefined) return null
  return (
    <Button
      label="Authorize"
      onClick={() => {
        act((p) => p.authorize({ id: transaction.id })).then(
          () => {
            notify(`${transaction.id} authorized`, { type: 'success' })
            refresh()
          },
          (error: unknown) => {
            notify(messageOf(error), { type: 'error' })
          }
        )
      }}
    />
  )
}

const TransactionList = () => (
  <List filters={transactionFilters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25} exporter={false}>
    <Datagrid bulkActionButtons={false} rowClick={false}>
      <TextField source="id" sortable={false} />
      <NumberField source="amount" />
      <TextField source="status" sortable={false} />
      <TextField source="created_at" />
      <TextField source="updated_at" />
      <AuthorizeButton />
    </Datagrid>
  </List>
)

// -------------------------------------------------------------------------------------
// budgets
// -------------------------------------------------------------------------------------

const BudgetList = () => (
  <List sort={{ field: 'name', order: 'ASC' }} perPage={25} exporter={false}>
    <Datagrid bulkActionButtons={false} rowClick="show">
      <TextField source="id" sortable={false} />
      <TextField source="name" />
      <TextField source="access" sortable={false} />
      <TextField source="mode" sortable={false} />
      <TextField source="status" sortable={false} />
      <TextField source="created_on" />
    </Datagrid>
  </List>
)

/** Today in the browser, or the start of the budget's period when that is later (a budget never moves back). */
const todayFor = (budget: Budget): string => {
  const now = new Date()
  // The user's own calendar day, where the browser is: the one place local time is meant.
  // eslint-disable-next-line no-restricted-syntax
  const local = `${String(now.getFullYear()).padStart(4, '0')}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
  return local > budget.period_starts_on ? local : budget.period_starts_on
}

const Timeline = ({ budget, label }: { budget: Budget; label: string }) => {
  let svg: string
  try {
    svg = periodsSvg({ budget, today: todayFor(budget) as Parameters<typeof periodsSvg>[0]['today'], next: 6 })
  } catch {
    // A partial record (from the list) has no periods to draw.
    return null
  }
  return <div className="timeline" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />
}

const BudgetPeriods = () => {
  const budget = useRecordContext<Budget & { id: string }>()
  return budget === undefined ? null : <Timeline budget={budget} label="periods" />
}

/** Top-up and withdraw of a funded budget: one Idempotency-Key per click, the service's 422 as a notification. */
const MoneyButtons = () => {
  const budget = useRecordContext<Budget & { id: string }>()
  const [amount, setAmount] = useState('')
  const notify = useNotify()
  const refresh = useRefresh()
  if (budget?.mode !== 'funded') return null
  const move = (operation: 'topUp' | 'withdraw') => () => {
    act((p) => p[operation]({ id: budget.id, amount_cents: Number(amount) })).then(
      ({ data }) => {
        notify(`Balance ${String(data.balance_cents)} cents`, { type: 'success' })
        refresh()
      },
      (error: unknown) => {
        notify(messageOf(error), { type: 'error' })
      }
    )
  }
  return (
    <div className="money">
      <input
        name="amount_cents"
        type="number"
        aria-label="Amount in cents"
        value={amount}
        onChange={(e) => {
          setAmount(e.target.value)
        }}
      />
      <Button label="Top up" onClick={move('topUp')} />
      <Button label="Withdraw" onClick={move('withdraw')} />
    </div>
  )
}

// -------------------------------------------------------------------------------------
// decisions: a budget's history, and the records found by request id
// -------------------------------------------------------------------------------------

type Recorded = DecisionRecord & { readonly id: string }

/** A rule's words from the catalogue, or a note that this version has no such rule. */
const ruleWords = (rule: string): string =>
  Object.hasOwn(rules, rule) ? rules[rule as keyof typeof rules].summary : 'not a rule of this version'

const changesText = (record: Recorded): string =>
  record.changes.length === 0
    ? 'nothing'
    : record.changes.map((c) => `${c.field}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`).join('; ')

/** The decision explorer with this record's case filled in (explorer/main.ts reads the hash). */
const explorerLink = (record: Recorded): string => `/#decision=${encodeURIComponent(JSON.stringify(record))}`

/** A budget's history, read when asked for (one request, not one per view). */
const BudgetHistory = () => {
  const [open, setOpen] = useState(false)
  return open ? (
    <HistoryTable />
  ) : (
    <Button
      label="History"
      onClick={() => {
        setOpen(true)
      }}
    />
  )
}

/**
 * A budget's last decisions but its reads, newest first; to a caller without full rights, the
 * service's refusal in words (asked once: a refusal is no reason to ask again).
 */
const HistoryTable = () => {
  const budget = useRecordContext<Budget & { id: string }>()
  const { data, error, isPending } = useGetManyReference<Recorded>(
    'decisions',
    {
      target: 'resource_id',
      id: budget?.id ?? '',
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'at', order: 'DESC' },
      filter: { 'endpoint[$nin]': ['budget.get'] }
    },
    { enabled: budget !== undefined, retry: false }
  )
  if (budget === undefined || isPending) return null
  if (error !== null)
    return (
      <p className="history-note">
        {error instanceof HttpError && error.status === 401
          ? 'The history is shown to owners, admins and members with budgets_manage.'
          : messageOf(error)}
      </p>
    )
  return (
    <table className="history" aria-label="history">
      <thead>
        <tr>
          <th>when</th>
          <th>who</th>
          <th>request</th>
          <th>status</th>
          <th>changed</th>
          <th>decided by</th>
        </tr>
      </thead>
      <tbody>
        {data.map((r) => (
          <tr key={r.id} data-request-id={r.id}>
            <td>{r.at}</td>
            <td>{r.actor_id ?? 'no user'}</td>
            <td>
              {r.method} {r.path}
            </td>
            <td>{r.status}</td>
            <td>{changesText(r)}</td>
            <td title={ruleWords(r.rules.at(-1) ?? '')}>{r.rules.at(-1) ?? (r.replay_of === null ? '' : `replay of ${r.replay_of}`)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** One record in full: the request, the reply, each rule and what it means, the changes. */
const DecisionPanel = () => {
  const record = useRecordContext<Recorded>()
  if (record === undefined) return null
  const body = (record.case?.request as { body?: unknown } | undefined)?.body
  return (
    <div className="decision" data-request-id={record.id}>
      <p>
        <code>
          {record.method} {record.path}
        </code>{' '}
        by {record.actor_id ?? 'no user'}, key {record.key_id ?? 'none'}, at {record.at}
      </p>
      {typeof body === 'string' ? <pre className="decision-body">{body}</pre> : null}
      <p>
        replied {record.status}
        {record.replay_of === null ? '' : `, the reply to ${record.replay_of} again`}
      </p>
      <ol className="decision-rules">
        {record.rules.map((rule) => (
          <li key={rule} data-rule={rule}>
            <code>{rule}</code> {ruleWords(rule)}
          </li>
        ))}
      </ol>
      <p className="decision-changes">changed: {changesText(record)}</p>
      {record.case === null ? null : (
        <a className="explorer-link" href={explorerLink(record)} target="_blank" rel="noreferrer">
          Open its case in the decision explorer
        </a>
      )}
    </div>
  )
}

const decisionFilters = [
  <TextInput key="request_id" source="request_id" label="Request id" alwaysOn resettable />,
  <TextInput key="resource_id" source="resource_id" label="Resource" />,
  <TextInput key="actor_id" source="actor_id" label="User" />
]

const DecisionList = () => (
  <List filters={decisionFilters} sort={{ field: 'at', order: 'DESC' }} perPage={25} exporter={false}>
    <Datagrid bulkActionButtons={false} rowClick="expand" expand={<DecisionPanel />}>
      <TextField source="at" />
      <TextField source="id" label="request id" sortable={false} />
      <TextField source="endpoint" sortable={false} />
      <NumberField source="status" sortable={false} />
      <TextField source="actor_id" emptyText="no user" sortable={false} />
      <TextField source="resource_id" emptyText="" sortable={false} />
    </Datagrid>
  </List>
)

const ShowActions = () => (
  <TopToolbar>
    <EditButton />
  </TopToolbar>
)

const BudgetShow = () => (
  <Show actions={<ShowActions />}>
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="description" emptyText="none" />
      <TextField source="access" />
      <TextField source="mode" />
      <TextField source="status" />
      <TextField source="manager_id" emptyText="none" />
      <TextField source="recurrence_unit" emptyText="no renewal" />
      <NumberField source="recurrence_every" emptyText="" />
      <NumberField source="base_amount_cents" emptyText="" />
      <TextField source="period_starts_on" />
      <TextField source="period_ends_on" emptyText="open-ended" />
      <NumberField source="balance_cents" emptyText="tracking" />
      <BudgetPeriods />
      <MoneyButtons />
      <BudgetHistory />
    </SimpleShowLayout>
  </Show>
)

type Rights = 'full' | 'manager' | 'none'

/**
 * What the signed-in caller may do to `budget`, asked of the service itself, since the API names
 * no caller's role: a PATCH that changes the manager and blanks the name is refused whoever
 * sends it, and the refusal tells who they are (contract section 5): 401, no rights; 403
 * (rows 9-10 come before validation), a manager or co-manager; 422 or 409 (a closed budget),
 * full rights. It never changes anything.
 */
const askRights = async (budget: Budget): Promise<Rights> => {
  try {
    await dataProvider.update('budgets', {
      id: budget.id,
      data: { manager_id: `${budget.manager_id ?? ''}-not-a-member`, name: '' },
      previousData: {}
    })
  } catch (error) {
    if (error instanceof HttpError) return error.status === 403 ? 'manager' : error.status === 401 ? 'none' : 'full'
  }
  return 'none'
}

type Locks = Partial<Record<string, LockRule>>

/** Why each field this caller may not change is locked, by lockedUpdateFields over the rights the service showed. */
const useLocks = (budget: Budget | undefined): Locks | null => {
  const [locks, setLocks] = useState<Locks | null>(null)
  // A row of the list (GET /v1/budgets gives some fields only) stands in until the budget itself
  // arrives: nothing is asked of it.
  const whole = budget !== undefined && 'manager_id' in budget && 'co_manager_id' in budget
  // Asked once per budget, its managers and status (what the rights depend on), not again for
  // each new copy of the record a refetch gives.
  const key = whole ? `${budget.id} ${budget.manager_id ?? ''} ${budget.co_manager_id ?? ''} ${budget.status}` : null
  useEffect(() => {
    if (!whole) return
    let live = true
    void askRights(budget).then((rights) => {
      const caller =
        rights === 'full'
          ? { user_id: 'signed-in', role: 'admin' as const, permissions: [] }
          : { user_id: rights === 'manager' ? (budget.manager_id ?? budget.co_manager_id ?? '') : 'signed-in', role: 'member' as const, permissions: [] }
      if (live) setLocks(lockedUpdateFields(caller, budget))
    })
    return () => {
      live = false
    }
  }, [key])
  return locks
}

/** Beside a locked input: the rule that locks it, by its id and its words in the rules catalogue. */
const lockNote = (rule: LockRule | undefined) =>
  rule === undefined ? undefined : (
    <span className="locked" data-rule={rule}>
      Locked by {rule}: {rules[rule].summary}
    </span>
  )

const RECURRENCE = ['recurrence_unit', 'recurrence_every', 'base_amount_cents'] as const

/** The next periods as the recurrence typed in would make them: the update decided here, as the server will. */
const Preview = ({ budget }: { budget: Budget }) => {
  const values = useWatch({ name: [...RECURRENCE] }) as Array<unknown>
  const changes = Object.fromEntries(
    RECURRENCE.flatMap((field, i) => (values[i] === undefined || values[i] === budget[field] ? [] : [[field, values[i]]]))
  )
  if (Object.keys(changes).length === 0) return <Timeline budget={budget} label="preview" />
  const reply = respondBudgetUpdate({
    request: {
      headers: { Authorization: 'Bearer preview', 'company-id': budget.company_id },
      body: JSON.stringify({ budget: changes })
    },
    session: { user: { id: 'preview', email_verified: true }, memberships: { [budget.company_id]: { role: 'admin', permissions: [] } } },
    budget,
    today: todayFor(budget),
    request_id: 'preview'
  })
  if (reply.status === 200) return <Timeline budget={reply.budget} label="preview" />
  const errors = (reply.body as { errors?: Record<string, ReadonlyArray<string>> } | null)?.errors ?? {}
  return (
    <p className="preview-problem">
      {Object.entries(errors)
        .map(([field, texts]) => `${field} ${texts.join(', ')}`)
        .join('; ')}
    </p>
  )
}

const Labelled = ({ children }: { children: ReactNode }) => <div style={{ width: '100%' }}>{children}</div>

const BudgetForm = () => {
  const budget = useRecordContext<Budget & { id: string }>()
  const locks = useLocks(budget)
  if (budget === undefined || locks === null) return null
  // Disabled, and saying why, or neither.
  const lock = (field: string) => ({ disabled: locks[field] !== undefined, helperText: lockNote(locks[field]) })
  return (
    // Save only: the service deletes no budget.
    <SimpleForm
      toolbar={
        <Toolbar>
          <SaveButton />
        </Toolbar>
      }
    >
      <TextInput source="name" {...lock('name')} />
      <TextInput source="description" {...lock('description')} />
      <SelectInput
        source="access"
        choices={[
          { id: 'everyone', name: 'everyone' },
          { id: 'members', name: 'members' }
        ]}
        {...lock('access')}
      />
      <DateInput source="ends_on" {...lock('ends_on')} />
      <TextInput source="manager_id" {...lock('manager_id')} />
      <SelectInput
        source="recurrence_unit"
        choices={['day', 'week', 'month', 'year'].map((u) => ({ id: u, name: u }))}
        emptyText="no renewal"
        parse={(v: unknown) => (v === '' ? null : v)}
        {...lock('recurrence_unit')}
      />
      <NumberInput source="recurrence_every" {...lock('recurrence_every')} />
      <NumberInput source="base_amount_cents" {...lock('base_amount_cents')} />
      <Labelled>
        <Preview budget={budget} />
      </Labelled>
    </SimpleForm>
  )
}

const BudgetEdit = () => (
  // Pessimistic: the form waits for the service, so that a 422 lands beside its fields.
  <Edit mutationMode="pessimistic" redirect="show">
    <BudgetForm />
  </Edit>
)

// -------------------------------------------------------------------------------------
// the app
// -------------------------------------------------------------------------------------

const App = () => (
  <Admin dataProvider={dataProvider} authProvider={authProvider} loginPage={LoginPage} requireAuth disableTelemetry>
    <Resource name="bank_transactions" options={{ label: 'Transactions' }} list={TransactionList} />
    <Resource name="budgets" list={BudgetList} show={BudgetShow} edit={BudgetEdit} />
    <Resource name="decisions" list={DecisionList} />
  </Admin>
)

createRoot(document.getElementById('root') as HTMLElement).render(<App />)
document.body.dataset.ready = 'true'
