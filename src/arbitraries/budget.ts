/**
 * Stored budgets (contract section 2) as fast-check arbitraries: every consistent state a
 * server may hold, with the `today` it is looked at on.
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import type { Budget } from '../budget/stored'
import {
  addDays,
  type CalendarDate,
  dayNumber,
  daysInMonth,
  fromDayNumber,
  fromPartsClamped,
  toDayNumber
} from '../calendar/date'
import { period, type RecurrenceUnit, recurrenceUnits } from '../recurrence/schedule'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * How a budget renews: by its schedule (`renewing`), stopped during the period in progress
 * (`stopped`: the period still has an end), stopped and past that end (`lapsed`: the period is
 * open-ended), or never turned on (`none`).
 *
 * @example
 * import { budget } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(budget({ renewals: ['lapsed'] }), { numRuns: 20, seed: 1 }).every((b) => b.recurrence_unit === null && b.period_ends_on === null)
 * //=> true
 *
 * @category model
 * @since 0.2.0
 */
export type Renewal = 'renewing' | 'stopped' | 'lapsed' | 'none'

/**
 * What {@link budget} may be narrowed to: each list is drawn from evenly (repeat an entry to
 * weigh it).
 *
 * @example
 * import { budget } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 *
 * sample(budget({ modes: ['tracking'], statuses: ['closed'] }), { numRuns: 20, seed: 1 }).every((b) => b.balance_cents === null && b.status === 'closed')
 * //=> true
 *
 * @category model
 * @since 0.2.0
 */
export interface BudgetOptions {
  readonly modes?: ReadonlyArray<'funded' | 'tracking'>
  readonly statuses?: ReadonlyArray<'open' | 'closing' | 'closed'>
  readonly renewals?: ReadonlyArray<Renewal>
  /** The budget's `company_id`: `c-1` unless given. */
  readonly company_id?: string
}

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

const day = (n: number): CalendarDate => fromDayNumber(n) as CalendarDate
const plus = (d: CalendarDate, n: number): CalendarDate => addDays(d, n) as CalendarDate

const FROM = dayNumber(1990, 1, 1)
const TO = dayNumber(2060, 12, 31)

/** A date of 1990..2060, where the service's budgets live. */
const nearDate = fc.integer({ min: FROM, max: TO }).map(day)

/** The last day of a month (31st, 30th, 28 or 29 February): where month arithmetic clamps. */
const monthEnd = fc
  .record({ year: fc.integer({ min: 1990, max: 2060 }), month: fc.integer({ min: 1, max: 12 }) })
  .map(({ year, month }) => fromPartsClamped(year, month, daysInMonth(year, month)) as CalendarDate)

/** 29 February of a leap year of 1992..2060. */
const leapDay = fc.integer({ min: 498, max: 515 }).map((q) => fromPartsClamped(4 * q, 2, 29) as CalendarDate)

/** An anchor for a schedule: any day, a month end or 29 February, in about even shares. */
const anchorDate = fc.oneof({ withCrossShrink: true }, nearDate, monthEnd, leapDay)

/** Days of age: a few, a few years, or a century. */
const age = fc.oneof(
  { withCrossShrink: true },
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 3000 }),
  fc.integer({ min: 36525, max: 40000 })
)

/** Cents of money: small, any safe amount (shrinks towards 0). */
export const cents: fc.Arbitrary<number> = fc.oneof(
  { withCrossShrink: true },
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.maxSafeNat()
)

/** Mostly short cadences, sometimes up to the longest (366). */
const every = fc.oneof({ withCrossShrink: true }, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 366 }))

const unit: fc.Arbitrary<RecurrenceUnit> = fc.constantFrom(...recurrenceUnits)

/** The users budgets name as manager and co-manager, and the company's members. */
export const users = ['u-manager', 'u-comanager', 'u-member', 'u-admin', 'u-other'] as const

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/** A budget as stored on `lastLook` (its last advance), and a `today` on or after it. */
export interface BudgetState {
  readonly budget: Budget
  readonly today: CalendarDate
}

/** {@link budget} with the `today` it is looked at on: the last advance, or days to a century later. */
export const budgetState = ({
  modes = ['funded', 'tracking'],
  statuses = ['open', 'closing', 'closed'],
  renewals = ['renewing', 'stopped', 'lapsed', 'none'],
  company_id = 'c-1'
}: BudgetOptions = {}): fc.Arbitrary<BudgetState> =>
  fc
    .record({
      mode: fc.constantFrom(...modes),
      balance: cents,
      status: fc.constantFrom(...statuses),
      renewal: fc.constantFrom(...renewals),
      anchor: anchorDate,
      createdBefore: fc.oneof({ withCrossShrink: true }, fc.constant(0), fc.integer({ min: 1, max: 1000 })),
      age,
      unit,
      every,
      base: cents,
      amount: fc.option(cents, { nil: null }),
      endsSet: fc.boolean(),
      endsIn: fc.integer({ min: 1, max: 800 }),
      endedAgo: fc.integer({ min: 0, max: 100 }),
      toToday: fc.oneof({ withCrossShrink: true }, fc.constant(0), age),
      manager: fc.option(fc.constantFrom(...users), { nil: null }),
      coManager: fc.option(fc.constantFrom(...users), { nil: null }),
      name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
      description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      access: fc.constantFrom('everyone' as const, 'members' as const)
    })
    .map((r): BudgetState => {
      const created_on = plus(r.anchor, -r.createdBefore)
      const lastLook = plus(r.anchor, r.age)
      // The period of the schedule in progress on lastLook: a stopped budget keeps its end.
      const current = period({ anchor: r.anchor, unit: r.unit, every: r.every }, lastLook) as {
        starts_on: CalendarDate
        ends_on: CalendarDate
      }
      const renewing = r.renewal === 'renewing'
      // A closing budget's end has come by lastLook (not before it was created); an open one's
      // is still ahead; a closed one's is anywhere up to lastLook, or there is none.
      const ends_on =
        r.status === 'closing'
          ? plus(lastLook, -Math.min(r.endedAgo, toDayNumber(lastLook) - toDayNumber(created_on)))
          : !r.endsSet
            ? null
            : r.status === 'open'
              ? plus(lastLook, r.endsIn)
              : plus(lastLook, -r.endedAgo)
      const budget: Budget = {
        id: 'b-1',
        company_id,
        name: r.name,
        description: r.description,
        access: r.access,
        currency: 'CLP',
        mode: r.mode,
        manager_id: r.manager,
        co_manager_id: r.coManager,
        status: r.status,
        created_on,
        ends_on,
        recurrence_unit: renewing ? r.unit : null,
        recurrence_every: renewing ? r.every : null,
        base_amount_cents: renewing ? r.base : null,
        recurrence_starts_on: renewing ? r.anchor : null,
        period_starts_on: r.renewal === 'none' ? created_on : current.starts_on,
        period_ends_on: renewing || r.renewal === 'stopped' ? current.ends_on : null,
        period_amount_cents: r.amount,
        balance_cents: r.mode === 'funded' ? r.balance : null
      } as Budget
      return { budget, today: plus(lastLook, r.toToday) }
    })

/**
 * Every valid stored budget (contract section 2), consistent as R-17 requires: both modes,
 * every status, renewing, stopped, lapsed or never renewing, schedules anchored on month ends
 * and 29 February in about two runs of three, and any age from a few days to over a century.
 * Its id is `b-1`, its company `c-1` (see {@link BudgetOptions}); managers and co-managers are
 * drawn from `u-manager`, `u-comanager`, `u-member`, `u-admin`, `u-other` or null.
 *
 * Built from `fc.record`, so a failing budget shrinks field by field: a property that fails on
 * `balance_cents > 1000` shrinks to a funded budget with a balance of 1001.
 *
 * @example
 * import { budget } from 'budget-rules/arbitraries'
 * import { sample } from 'fast-check'
 * import { advanceBudget } from 'budget-rules'
 *
 * const budgets = sample(budget(), { numRuns: 50, seed: 1 })
 * budgets.every((b) => (b.mode === 'funded') === (b.balance_cents !== null))
 * //=> true
 * // consistent: advancing never throws
 * budgets.every((b) => advanceBudget(b, '9999-01-01').id === 'b-1')
 * //=> true
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const budget = (options: BudgetOptions = {}): fc.Arbitrary<Budget> => budgetState(options).map((s) => s.budget)
