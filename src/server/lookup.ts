/**
 * What a route looks up before it asks a facade: the session of the request's key, a company's
 * today, a company's members. Under the conformance hook (test mode), the scenario's instead.
 *
 * @since 0.3.0
 */
import type { Session } from '../index'
import type { Database, Queryable } from '../store/database'
import * as store from '../store/store'
import { isJsonObject } from '../json/value'
import { type ConformanceHook, HOOK_KEY_SHA256 } from './conformance'
import { calendarDateIn } from './today'

/** The look-ups of one app. */
export interface Lookup {
  /**
   * The session of the request's key (its SHA-256, as the `apiKey` middleware found it), and the
   * hash again when it names a stored key; under the conformance hook, the scenario's session and,
   * when it has a user and the request a bearer key, the hook's own key (every request is one
   * caller: its Idempotency-Keys are one set).
   */
  readonly sessionOf: (keySha256: string | undefined) => Promise<{ session: Session; keySha256: string | null }>
  /** A company's today; any valid date when there is no company to ask (the facade then refuses). */
  readonly todayIn: (timeZone: string | null) => string
  /** The ids of a company's members (the scenario's under the conformance hook, as given). */
  readonly membersOf: (tx: Queryable, companyId: string) => Promise<ReadonlyArray<string>>
  /** The scenario's members under the conformance hook, or null: the store's then. */
  readonly seededMembers: () => ReadonlyArray<string> | null
}

/** The look-ups over a database and a clock, and the conformance hook when it is on. */
export const lookup = (db: Database, clock: () => Date, hook: ConformanceHook | null): Lookup => {
  /** The scenario seeded last under the conformance hook, or null. */
  const scenario = () => hook?.state() ?? null
  return {
    sessionOf: async (keySha256) => {
      const seeded = scenario()
      if (seeded !== null) {
        const { session } = seeded
        const claims = keySha256 !== undefined && isJsonObject(session) && isJsonObject(session.user)
        return { session: session as Session, keySha256: claims ? HOOK_KEY_SHA256 : null }
      }
      if (keySha256 === undefined) return { session: { user: null, memberships: {} }, keySha256: null }
      const session = await store.findSession(db, keySha256)
      return { session, keySha256: session.user === null ? null : keySha256 }
    },
    todayIn: (timeZone) => {
      const seeded = scenario()
      return seeded !== null ? (seeded.today as string) : calendarDateIn(clock(), timeZone ?? 'UTC')
    },
    seededMembers: () => (scenario()?.company_member_ids as ReadonlyArray<string> | undefined) ?? null,
    membersOf: async (tx, companyId) => {
      const seeded = scenario()
      return seeded !== null ? (seeded.company_member_ids as ReadonlyArray<string>) : store.memberIds(tx, companyId)
    }
  }
}
