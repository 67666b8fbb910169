/**
 * A budget's periods (contract section 6): `upcomingPeriods(budget, today, 12)` and
 * `advanceBudget(budget, today)` for monthly and daily budgets anchored on 31 October, one day
 * and 100 years before today, as stored when they were created (the first period still on
 * record). Against a plain JavaScript reading a user would write (y/m/d integers, each boundary
 * computed from the anchor, month ends clamped) and rrule (noCache, mapped to the same answer).
 */
import { either } from 'fp-ts'
import rrule from 'rrule'
import type { Budget } from '../src/index'
import type { CalendarDate } from '../src/rules'
import { isStoredBudget } from './decision/plain'
import { root, rules } from './library'
import type { Case, Contender } from './case'

const { RRule } = rrule
const { advanceBudget, upcomingPeriods } = root
const { Budget: BudgetCodec, CalendarDate: DateCodec } = rules

type Unit = 'day' | 'month'

const date = (s: string): CalendarDate => {
  const d = DateCodec.decode(s)
  if (either.isLeft(d)) throw new Error(`not a date: ${s}`)
  return d.right
}

const TODAY = date('2026-11-01')

/** A budget as created on `anchor`: the first period on record, renewing every `unit`. */
const budgetOf = (anchor: string, firstEnd: string, unit: Unit): Budget => {
  const b = BudgetCodec.decode({
    id: 'b-1',
    company_id: 'c-1',
    name: 'Travel',
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'tracking',
    manager_id: null,
    co_manager_id: null,
    status: 'open',
    created_on: anchor,
    ends_on: null,
    recurrence_unit: unit,
    recurrence_every: 1,
    base_amount_cents: 50_000,
    recurrence_starts_on: anchor,
    period_starts_on: anchor,
    period_ends_on: firstEnd,
    period_amount_cents: 50_000,
    balance_cents: null
  })
  if (either.isLeft(b)) throw new Error(`not a budget: ${anchor}`)
  return b.right
}

// -------------------------------------------------------------------------------------
// plain JavaScript: what a user writes from the contract
// -------------------------------------------------------------------------------------

interface Ymd {
  readonly y: number
  readonly m: number
  readonly d: number
}

const parseYmd = (s: string): Ymd => ({ y: +s.slice(0, 4), m: +s.slice(5, 7), d: +s.slice(8, 10) })
const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`)
const formatYmd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()
const DAY = 86_400_000

/** Boundary `k` of the schedule from `anchor` (every 1 unit): months clamp to the month's end. */
const plainBoundary = (anchor: Ymd, unit: Unit, k: number): string => {
  if (unit === 'day') return new Date(Date.UTC(anchor.y, anchor.m - 1, anchor.d) + k * DAY).toISOString().slice(0, 10)
  const months = anchor.y * 12 + anchor.m - 1 + k
  const y = Math.floor(months / 12)
  const m = (months % 12) + 1
  return formatYmd(y, m, Math.min(anchor.d, lastDay(y, m)))
}

/** The index of the period in progress on `today`: its boundary is on or before today. */
const plainIndex = (anchor: Ymd, unit: Unit, today: string): number => {
  const t = parseYmd(today)
  const k =
    unit === 'day'
      ? Math.floor((Date.UTC(t.y, t.m - 1, t.d) - Date.UTC(anchor.y, anchor.m - 1, anchor.d)) / DAY)
      : t.y * 12 + t.m - (anchor.y * 12 + anchor.m)
  // A month index may land one period late (today before the anchor's day in its month).
  return plainBoundary(anchor, unit, k) > today ? k - 1 : k
}

const unitOf = (b: Budget): Unit => (b.recurrence_unit === 'day' ? 'day' : 'month')

const plainAdvance = (b: Budget, today: string): Budget => {
  if (b.period_ends_on === null || today < b.period_ends_on || b.recurrence_starts_on === null) return b
  const anchor = parseYmd(b.recurrence_starts_on)
  const unit = unitOf(b)
  const k = plainIndex(anchor, unit, today)
  return {
    ...b,
    period_starts_on: plainBoundary(anchor, unit, k),
    period_ends_on: plainBoundary(anchor, unit, k + 1),
    period_amount_cents: b.base_amount_cents
  } as Budget
}

/**
 * What the library does before it rolls: the budget copied and checked, each field
 * of its type and the whole consistent, as the plain reading of the update decision does.
 */
const checkedPlainAdvance = (b: Budget, today: string): Budget => {
  const read = { ...b }
  if (!isStoredBudget(read)) throw new TypeError('advance: the budget is malformed')
  return plainAdvance(read, today)
}

interface Period {
  readonly starts_on: string
  readonly ends_on: string | null
  readonly amount_cents: number | null
}

const plainUpcoming = (b: Budget, today: string, n: number): ReadonlyArray<Period> => {
  if (b.recurrence_starts_on === null) return []
  const anchor = parseYmd(b.recurrence_starts_on)
  const unit = unitOf(b)
  const k = plainIndex(anchor, unit, today)
  const periods: Array<Period> = []
  // Each period ends where the next starts: one boundary computed per period.
  let starts_on = plainBoundary(anchor, unit, k + 1)
  for (let i = 2; i <= n + 1; i++) {
    const ends_on = plainBoundary(anchor, unit, k + i)
    periods.push({ starts_on, ends_on, amount_cents: b.base_amount_cents })
    starts_on = ends_on
  }
  return periods
}

// -------------------------------------------------------------------------------------
// rrule
// -------------------------------------------------------------------------------------

const utc = (s: string) => new Date(`${s}T00:00:00Z`)
const day = (d: Date) => d.toISOString().slice(0, 10)

/**
 * The schedule in rrule: monthly on the anchor's day, or the month's last day before it (RFC
 * 5545 skips the months without a 31st; the last of days 28-31 present is the clamped day).
 * noCache: rrule would otherwise answer repeated identical calls from its cache.
 */
const ruleOf = (b: Budget) => {
  const dtstart = utc(b.recurrence_starts_on ?? '')
  return b.recurrence_unit === 'day'
    ? new RRule({ freq: RRule.DAILY, interval: 1, dtstart }, true)
    : new RRule({ freq: RRule.MONTHLY, interval: 1, dtstart, bymonthday: [28, 29, 30, 31], bysetpos: -1 }, true)
}

const rruleAdvance = (b: Budget, rule: InstanceType<typeof RRule>, today: Date, todayText: string): Budget => {
  if (b.period_ends_on === null || todayText < b.period_ends_on) return b
  const start = rule.before(today, true)
  const end = rule.after(today)
  if (start === null || end === null) throw new Error('rrule found no period')
  return {
    ...b,
    period_starts_on: day(start),
    period_ends_on: day(end),
    period_amount_cents: b.base_amount_cents
  } as Budget
}

const rruleUpcoming = (b: Budget, rule: InstanceType<typeof RRule>, today: Date, n: number): ReadonlyArray<Period> => {
  // The boundaries after today: the first ends the period in progress.
  const horizon = new Date(today.getTime() + 400 * DAY * (b.recurrence_unit === 'day' ? 1 : 31))
  const boundaries = rule.between(today, horizon, false, (_, i) => i < n + 1).map(day)
  return boundaries
    .slice(0, n)
    .map((starts_on, i) => ({ starts_on, ends_on: boundaries[i + 1] ?? null, amount_cents: b.base_amount_cents }))
}

// -------------------------------------------------------------------------------------
// cases
// -------------------------------------------------------------------------------------

interface Setting {
  readonly unit: Unit
  readonly age: string
  readonly budget: Budget
}

const settings: ReadonlyArray<Setting> = [
  { unit: 'month', age: '1 day ago', budget: budgetOf('2026-10-31', '2026-11-30', 'month') },
  { unit: 'month', age: '100 years ago', budget: budgetOf('1926-10-31', '1926-11-30', 'month') },
  { unit: 'day', age: '1 day ago', budget: budgetOf('2026-10-31', '2026-11-01', 'day') },
  { unit: 'day', age: '100 years ago', budget: budgetOf('1926-10-31', '1926-11-01', 'day') }
]

const titled = (s: Setting) => `${s.unit === 'day' ? 'daily' : 'monthly'}, anchored ${s.age}`

const upcomingCase = ({ budget, ...s }: Setting): Case => {
  const rule = ruleOf(budget)
  const today = utc(TODAY)
  return {
    suite: 'periods',
    title: `upcomingPeriods(12), ${titled({ budget, ...s })}`,
    contenders: [
      { name: 'budget-rules upcomingPeriods', kind: 'library', run: () => upcomingPeriods(budget, TODAY, 12) },
      { name: 'plain JavaScript', kind: 'baseline', run: () => plainUpcoming(budget, TODAY, 12) },
      { name: 'rrule between()', kind: 'peer', run: () => rruleUpcoming(budget, rule, today, 12) }
    ],
    goals: [{ against: 'plain JavaScript', atMost: 1.5 }]
  }
}

const advanceCase = ({ budget, ...s }: Setting): Case => {
  const rule = ruleOf(budget)
  const today = utc(TODAY)
  return {
    suite: 'periods',
    title: `advanceBudget, ${titled({ budget, ...s })}`,
    contenders: [
      { name: 'budget-rules advanceBudget', kind: 'library', run: () => advanceBudget(budget, TODAY) },
      { name: 'plain JavaScript, checking the budget', kind: 'baseline', run: () => checkedPlainAdvance(budget, TODAY) },
      { name: 'plain JavaScript', kind: 'baseline', run: () => plainAdvance(budget, TODAY) },
      { name: 'rrule before()/after()', kind: 'peer', run: () => rruleAdvance(budget, rule, today, TODAY) }
    ],
    // advanceBudget checks the budget it is given: the plain reading that does too.
    goals: [{ against: 'plain JavaScript, checking the budget', atMost: 1.5 }]
  }
}

/**
 * Both budgets anchored on 31 October have the same period in progress on today
 * (2026-10-31..2026-11-30, or 2026-11-01..2026-11-02 daily): the answers compared are the
 * advanced budgets without the two fields that tell their ages apart (created_on,
 * recurrence_starts_on). The one-day-old monthly budget is already current, as it would be.
 */
const ageCase = (unit: Unit): Case => {
  const [old, young] = (['100 years ago', '1 day ago'] as const).map(
    (age) => settings.find((s) => s.unit === unit && s.age === age) as Setting
  ) as [Setting, Setting]
  const contender = (s: Setting): Contender => ({
    name: `advanceBudget, anchored ${s.age}`,
    kind: 'library',
    run: () => advanceBudget(s.budget, TODAY),
    answer: () => ({ ...advanceBudget(s.budget, TODAY), created_on: 'left out', recurrence_starts_on: 'left out' })
  })
  return {
    suite: 'periods',
    title: `advanceBudget ${unit === 'day' ? 'daily' : 'monthly'}: 100 years old against 1 day old (same period, ages left out)`,
    contenders: [contender(old), contender(young)],
    goals: [{ against: 'advanceBudget, anchored 1 day ago', atMost: 1.5 }]
  }
}

/** Upcoming periods and the period in progress, four budgets each, then the age pairs. */
export const cases = (): Promise<ReadonlyArray<Case>> =>
  Promise.resolve([...settings.map(upcomingCase), ...settings.map(advanceCase), ageCase('month'), ageCase('day')])
