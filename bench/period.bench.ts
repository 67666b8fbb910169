/**
 * The period in progress of a daily schedule anchored 1 day ago and 100 years ago, found by
 * budget-rules (periodAt, advanceBudget) and by rrule's after(), side by side in one run.
 * Run: npm run bench
 */
import { either } from 'fp-ts'
import rrule from 'rrule'
import { Bench } from 'tinybench'
import { advanceBudget } from '../src/index'
import { Budget, CalendarDate, periodAt } from '../src/rules'
import { report } from './report'

const date = (s: string): CalendarDate => {
  const d = CalendarDate.decode(s)
  if (either.isLeft(d)) throw new Error(s)
  return d.right
}
const budgetOf = (anchor: string, periodEndsOn: string): Budget => {
  const b = Budget.decode({
    id: 'b',
    company_id: 'c',
    name: 'n',
    description: null,
    access: 'everyone',
    currency: 'CLP',
    mode: 'tracking',
    manager_id: null,
    co_manager_id: null,
    status: 'open',
    created_on: anchor,
    ends_on: null,
    recurrence_unit: 'day',
    recurrence_every: 1,
    base_amount_cents: 100,
    recurrence_starts_on: anchor,
    period_starts_on: anchor,
    period_ends_on: periodEndsOn,
    period_amount_cents: 100,
    balance_cents: null
  })
  if (either.isLeft(b)) throw new Error('budget')
  return b.right
}

const { RRule } = rrule
const today = date('2026-11-22')
const todayUtc = new Date(Date.UTC(2026, 10, 22))
const yesterday = { anchor: date('2026-11-21'), unit: 'day', every: 1 } as const
const century = { anchor: date('1926-11-22'), unit: 'day', every: 1 } as const
// noCache: rrule would otherwise answer repeated identical calls from its cache.
const rruleYesterday = new RRule({ freq: RRule.DAILY, interval: 1, dtstart: new Date(Date.UTC(2026, 10, 21)) }, true)
const rruleCentury = new RRule({ freq: RRule.DAILY, interval: 1, dtstart: new Date(Date.UTC(1926, 10, 22)) }, true)
const budgetYesterday = budgetOf('2026-11-21', '2026-11-22')
const budgetCentury = budgetOf('1926-11-22', '1926-11-23')

// The answers agree before anything is timed.
const expectEnd = (got: string | null | undefined, what: string) => {
  if (got !== '2026-11-23') throw new Error(`${what} gave ${String(got)}`)
}
expectEnd(periodAt(century, today)?.ends_on, 'periodAt')
expectEnd(advanceBudget(budgetCentury, today).period_ends_on, 'advanceBudget')
expectEnd(rruleCentury.after(todayUtc)?.toISOString().slice(0, 10), 'rrule')

const bench = new Bench({ time: 700, warmupTime: 200 })
bench
  .add('periodAt, anchored 1 day ago', () => periodAt(yesterday, today))
  .add('periodAt, anchored 100 years ago', () => periodAt(century, today))
  .add('advanceBudget, anchored 1 day ago', () => advanceBudget(budgetYesterday, today))
  .add('advanceBudget, anchored 100 years ago', () => advanceBudget(budgetCentury, today))
  .add('rrule after(), anchored 1 day ago', () => rruleYesterday.after(todayUtc))
  .add('rrule after(), anchored 100 years ago', () => rruleCentury.after(todayUtc))

await bench.run()
report('Period in progress of a daily schedule (one run)', bench, 'periodAt, anchored 1 day ago')
