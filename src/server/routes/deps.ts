/**
 * What the routes' handlers are built from: the database, the clock, the look-ups, the unit of
 * work, the decision log, and the one way a read answers (its decision recorded, then sent); and
 * the handlers themselves, one per operation.
 *
 * @since 0.3.0
 */
import type { Context, Handler } from 'hono'
import type { OperationId } from '../../api/routes'
import type { DecisionContexts, DecisionEndpoint, FacadeReply } from '../../decisions'
import type { Database } from '../../store/database'
import type { DecisionLog } from '../decision-log'
import type { Lookup } from '../lookup'
import type { Env } from '../reply'
import type { Mutate } from '../unit-of-work'

export interface RouteDeps {
  readonly db: Database
  readonly clock: () => Date
  readonly lookup: Lookup
  readonly mutate: Mutate
  readonly log: DecisionLog
  /**
   * A read's reply: the facade's decision (`context` its input) recorded on its own, then sent.
   * `resource_id` is the resource the path names.
   */
  readonly answer: <E extends DecisionEndpoint>(
    c: Context<Env>,
    endpoint: E,
    context: DecisionContexts[E],
    reply: FacadeReply,
    resource_id?: string
  ) => Promise<Response>
}

/** A handler for every operation of the API (src/api/routes.ts), which app.ts mounts at its route. */
export type Handlers = { readonly [K in OperationId]: Handler<Env> }
