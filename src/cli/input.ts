/**
 * What the CLI reads from the user (files and option values), checked, with one-line errors that
 * name the problem: the CLI prints them without a stack trace and exits 1.
 *
 * @example
 * parseNext('3') //=> 3
 *
 * @since 0.1.0
 */
import { readFileSync } from 'node:fs'
import { type CalendarDate, isCalendarDate } from '../calendar/date'
import { MAX_UPCOMING_PERIODS } from '../budget/advance'
import { describeValue } from '../json/describe'

/**
 * A problem with what the user gave: its message is the whole line the CLI prints.
 *
 * @example
 * new CliError('no such file').message //=> 'no such file'
 *
 * @since 0.1.0
 */
export class CliError extends Error {
  override readonly name = 'CliError'
}

const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory'
}

/**
 * Why a file could not be read or written, in words, from the error Node's `fs` gave.
 *
 * @example
 * fileProblem(Object.assign(new Error('x'), { code: 'ENOENT' })) //=> 'no such file or directory'
 *
 * @since 0.1.0
 */
export const fileProblem = (err: unknown): string =>
  FILE_ERRORS[(err as NodeJS.ErrnoException).code ?? ''] ?? (err as Error).message

/** Line and column (1-based) of a character offset in `text`. */
const lineAndColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset).split('\n')
  return `line ${before.length}, column ${(before[before.length - 1]?.length ?? 0) + 1}`
}

/**
 * The JSON value a file holds, or a CliError: the file missing or unreadable, empty, or not
 * JSON (with the line and column where parsing stopped, when the parser says where).
 *
 * @example
 * (() => { try { return readJsonFile('no/such/file.json') } catch (e) { return String(e) } })()
 * //=> 'CliError: cannot read no/such/file.json: no such file or directory'
 *
 * @since 0.1.0
 */
export const readJsonFile = (file: string): unknown => {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${fileProblem(err)}`)
  }
  if (text.trim() === '') throw new CliError(`${file} is empty, not JSON`)
  try {
    return JSON.parse(text) as unknown
  } catch (err) {
    // JSON.parse throws a SyntaxError; V8 says where, except when the text ends too early.
    const message = (err as SyntaxError).message
    const at = /at position (\d+)/.exec(message)?.[1] ?? (/end of JSON input/.test(message) ? String(text.length) : undefined)
    throw new CliError(`${file} is not JSON${at === undefined ? '' : ` (${lineAndColumn(text, Number(at))})`}`)
  }
}

/**
 * The `--today` option: a real date written YYYY-MM-DD.
 *
 * @example
 * (() => { try { return parseToday('2026-02-30') } catch (e) { return String(e) } })()
 * //=> 'CliError: --today is "2026-02-30", not a date (YYYY-MM-DD)'
 *
 * @since 0.1.0
 */
export const parseToday = (value: string): CalendarDate => {
  if (!isCalendarDate(value)) throw new CliError(`--today is ${describeValue(value)}, not a date (YYYY-MM-DD)`)
  return value
}

/**
 * The `--next` option: how many periods after the one in progress, a whole number from 0 to
 * the most `upcomingPeriods` returns.
 *
 * @example
 * (() => { try { return parseNext('1001') } catch (e) { return String(e) } })()
 * //=> 'CliError: --next is "1001", not a whole number from 0 to 1000'
 *
 * @since 0.1.0
 */
export const parseNext = (value: string): number => {
  const n = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN
  if (!(n <= MAX_UPCOMING_PERIODS))
    throw new CliError(`--next is ${describeValue(value)}, not a whole number from 0 to ${MAX_UPCOMING_PERIODS}`)
  return n
}
