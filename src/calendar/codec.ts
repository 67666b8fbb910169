/**
 * The io-ts codec of a calendar date (`./date.ts`), for decoders at the boundary. Apart from the
 * arithmetic so that code which only computes with dates (the client's) loads no io-ts.
 *
 * @example
 * import { CalendarDate } from 'budget-rules/rules'
 * import { either } from 'fp-ts'
 *
 * either.isRight(CalendarDate.decode('2028-02-29')) //=> true
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { type CalendarDate as Date, isCalendarDate } from './date'

/**
 * A real calendar date from 0001-01-01 to 9999-12-31, written `YYYY-MM-DD`: what
 * {@link CalendarDate} decodes.
 *
 * @example
 * CalendarDate.is('2028-02-29') //=> true
 *
 * @category model
 * @since 0.1.0
 */
export type CalendarDate = Date

/**
 * The io-ts codec of {@link CalendarDate}.
 *
 * @example
 * CalendarDate.is('2026-02-30') //=> false
 *
 * @category codecs
 * @since 0.1.0
 */
export const CalendarDate = /*#__PURE__*/ t.brand(t.string, (s): s is Date => isCalendarDate(s), 'CalendarDate')
