/**
 * `budget-rules periods budget.json --today D --next N`: a stored budget's schedule from `today`,
 * as a readable timeline, as the JSON of `upcomingPeriods`, and as an SVG picture.
 *
 * @example
 * periodsJson(budget, '2026-11-22', 1)
 * //=> '[\n  {\n    "starts_on": "2026-12-18",\n    "ends_on": "2027-01-18",\n    "amount_cents": 50000\n  }\n]\n'
 *
 * @since 0.1.0
 */
import { writeFileSync } from 'node:fs'
import type { Command } from 'commander'
import { upcomingPeriods } from '../budget/advance'
import type { Budget } from '../budget/model'
import { readBudget } from '../budget/stored'
import type { CalendarDate } from '../calendar/date'
import { periodsSvg } from '../timeline/svg'
import { timelineText } from '../timeline/timeline'
import { CliError, fileProblem, parseNext, parseToday, readJsonFile } from './input'
import type { Io } from './io'

/** How many periods after the one in progress the command shows unless told. */
const DEFAULT_NEXT = '12'

/** How many of a budget's problems the error names; a file that is no budget at all has twenty. */
const PROBLEMS_SHOWN = 3

/**
 * The budget a file holds, checked as a stored budget (R-17), or a CliError naming its first
 * problems.
 *
 * @example
 * (() => { try { return storedBudget('budget.json', { ...budget, balance_cents: null }) } catch (e) { return String(e) } })()
 * //=> 'CliError: budget.json is not a valid stored budget: balance_cents is null on a funded budget'
 *
 * @since 0.1.0
 */
export const storedBudget = (file: string, json: unknown): Budget => {
  const read = readBudget(json)
  if (read._tag === 'Left') {
    const more = read.left.length - PROBLEMS_SHOWN
    const shown = read.left.slice(0, PROBLEMS_SHOWN).join('; ')
    throw new CliError(`${file} is not a valid stored budget: ${shown}${more > 0 ? ` (and ${more} more)` : ''}`)
  }
  return read.right
}

/**
 * The periods after the one in progress as `periods --json` prints them: exactly
 * `upcomingPeriods`' items, indented.
 *
 * @example
 * periodsJson({ ...budget, status: 'closed' }, '2026-11-22', 3) //=> '[]\n'
 *
 * @since 0.1.0
 */
export const periodsJson = (budget: Budget, today: CalendarDate, next: number): string =>
  `${JSON.stringify(upcomingPeriods(budget, today, next), null, 2)}\n`

/**
 * Adds `periods` to the program.
 *
 * @since 0.1.0
 */
export const periodsCommand = (program: Command, io: Io): Command =>
  program
    .command('periods')
    .description('print the schedule of a stored budget from a day: the period in progress, the next ones, pending changes')
    .argument('<budget.json>', 'a budget as stored (contract section 2)')
    .requiredOption('--today <date>', 'the day to look from, YYYY-MM-DD (in the company time zone)')
    .option('--next <n>', 'how many periods after the one in progress (0 to 1000)', DEFAULT_NEXT)
    .option('--json', 'print the periods after the one in progress as JSON: [{ starts_on, ends_on, amount_cents }]')
    .option('--svg <out.svg>', 'also write the timeline as an SVG picture to this file')
    .action((file: string, options: { today: string; next: string; json?: boolean; svg?: string }) => {
      const today = parseToday(options.today)
      const next = parseNext(options.next)
      const budget = storedBudget(file, readJsonFile(file))
      if (options.svg !== undefined) {
        const svg = periodsSvg({ budget, today, next })
        try {
          writeFileSync(options.svg, svg)
        } catch (err) {
          throw new CliError(`cannot write ${options.svg}: ${fileProblem(err)}`)
        }
      }
      io.out(options.json === true ? periodsJson(budget, today, next) : timelineText({ budget, today, next }))
    })
