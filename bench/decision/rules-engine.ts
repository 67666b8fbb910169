/**
 * The update decision with its permission and status rules (contract section 5 rows 9-11: who
 * may change which field, the closed budget) as json-rules-engine rules over facts; everything
 * else (server input, rows 1-8, validation and the update) is the plain reading's code. The
 * engine is built once, as a server would at start-up; `engine.run(facts)` is asynchronous, so
 * the decision returns a Promise.
 */
import { Engine, type Event } from 'json-rules-engine'
import {
  admit,
  applyUpdate,
  internalError,
  messages,
  readUpdate,
  replyWith,
  requestIdOf,
  rightsOf,
  type UpdateContext,
  type UpdateReply
} from './plain'

const withoutFullRights = { fact: 'rights', operator: 'notEqual', value: 'full' }
const changes = (field: string) => ({ fact: 'changed', operator: 'contains', value: field })

/**
 * One rule per refusal; the priorities give the contract's order (row 9 before row 10 before
 * row 11), and the first event the engine reports decides.
 */
const engine = new Engine(
  [
    {
      name: 'budget.permission.manager',
      priority: 3,
      conditions: { all: [withoutFullRights, changes('manager_id')] },
      event: { type: 'refuse', params: { status: 403, error_code: 'budgets/cannot_change_manager', message: messages.manager } }
    },
    {
      name: 'budget.permission.recurrence',
      priority: 2,
      conditions: {
        all: [withoutFullRights, { any: [changes('recurrence_unit'), changes('recurrence_every'), changes('base_amount_cents')] }]
      },
      event: {
        type: 'refuse',
        params: { status: 403, error_code: 'budgets/cannot_change_recurrence', message: messages.recurrence }
      }
    },
    {
      name: 'budget.status.closed',
      priority: 1,
      conditions: { all: [{ fact: 'status', operator: 'equal', value: 'closed' }] },
      event: { type: 'refuse', params: { status: 409, error: 'conflict', message: messages.closed } }
    }
  ],
  { allowUndefinedFacts: false }
)

interface Refusal {
  readonly status: number
  readonly message: string
  readonly error_code?: string
  readonly error?: string
}

const refusalOf = (requestId: string, event: Event): UpdateReply => {
  const { status, message, error_code, error } = event.params as Refusal
  return replyWith(requestId, status, error_code === undefined ? { error, message } : { error_code, message })
}

/** PATCH /v1/budgets/{id}: the plain reading, with rows 9-11 decided by the engine. */
export const respondWithRulesEngine = async (c: UpdateContext): Promise<UpdateReply> => {
  try {
    const admitted = admit(c)
    if ('status' in admitted) return admitted
    const { caller, budget } = admitted
    const requestId = c.request_id
    const rights = rightsOf(caller, budget)
    if (rights === 'none') return replyWith(requestId, 401, { message: messages.unauthorized })
    const update = readUpdate(c, budget)
    if ('status' in update) return update
    const { events } = await engine.run({ rights, changed: update.changed, status: budget.status })
    const refused = events[0]
    return refused === undefined ? applyUpdate(c, budget, update) : refusalOf(requestId, refused)
  } catch {
    return internalError(requestIdOf(c))
  }
}
