/**
 * HTTP-dates (RFC 9110 section 5.6.7), as a Retry-After or Date header carries them, in all
 * three forms a recipient must accept: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850
 * `Sunday, 06-Nov-94 08:49:37 GMT`, and asctime `Sun Nov  6 08:49:37 1994`. Read into seconds
 * since the epoch without `Date`.
 *
 * @example
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT') //=> 784111777
 *
 * @since 0.1.0
 */
import { dayNumber, daysInMonth } from '../calendar/date'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)'
const MONTH = `(${MONTHS.join('|')})`
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})'
const IMF = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`)
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`)
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`)

const seconds = (year: number, month: string, day: number, h: number, m: number, s: number): number | null => {
  const mon = MONTHS.indexOf(month) + 1
  if (year < 1 || day < 1 || day > daysInMonth(year, mon) || h > 23 || m > 59 || s > 60) return null
  return dayNumber(year, mon, day) * 86400 + h * 3600 + m * 60 + Math.min(s, 59)
}

/**
 * Seconds since the epoch of an HTTP-date, or `null` when `text` is not one. A two-digit RFC 850
 * year is read as the nearest year not more than 50 years after `referenceYear` (RFC 9110).
 *
 * @example
 * parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT') //=> 784111777
 * parseHttpDate('Sun Nov  6 08:49:37 1994') //=> 784111777
 * parseHttpDate('yesterday') //=> null
 *
 * @category utils
 * @since 0.1.0
 */
export const parseHttpDate = (text: string, referenceYear = 2000): number | null => {
  const t = text.trim()
  const imf = IMF.exec(t)
  if (imf !== null) return seconds(Number(imf[3]), imf[2] ?? '', Number(imf[1]), Number(imf[4]), Number(imf[5]), Number(imf[6]))
  const rfc850 = RFC850.exec(t)
  if (rfc850 !== null) {
    const yy = Number(rfc850[3])
    const century = Math.floor(referenceYear / 100) * 100
    const year = century + yy > referenceYear + 50 ? century - 100 + yy : century + yy
    return seconds(year, rfc850[2] ?? '', Number(rfc850[1]), Number(rfc850[4]), Number(rfc850[5]), Number(rfc850[6]))
  }
  const asc = ASCTIME.exec(t)
  if (asc !== null)
    return seconds(Number(asc[6]), asc[1] ?? '', Number((asc[2] ?? '').trim()), Number(asc[3]), Number(asc[4]), Number(asc[5]))
  return null
}
