/**
 * What the routes are built from: the database, the clock, the look-ups and the unit of work.
 *
 * @since 0.3.0
 */
import type { Database } from '../../store/database'
import type { Lookup } from '../lookup'
import type { Mutate } from '../unit-of-work'

export interface RouteDeps {
  readonly db: Database
  readonly clock: () => Date
  readonly lookup: Lookup
  readonly mutate: Mutate
}
