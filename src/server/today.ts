/**
 * A company's `today`: the calendar date at an instant in the company's time zone, so that its
 * periods roll over at its own midnight, whatever zone the server process runs in.
 *
 * @since 0.2.0
 */

const formats = new Map<string, Intl.DateTimeFormat>()

const formatIn = (timeZone: string): Intl.DateTimeFormat => {
  let format = formats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit'
    })
    formats.set(timeZone, format)
  }
  return format
}

/**
 * The `YYYY-MM-DD` date of `instant` in the IANA zone `timeZone` (a RangeError for an unknown zone).
 *
 * @example
 * calendarDateIn(new Date('2026-12-01T02:30:00Z'), 'America/Santiago') //=> '2026-11-30'
 */
export const calendarDateIn = (instant: Date, timeZone: string): string => {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value])
  )
  return `${String(parts.year).padStart(4, '0')}-${String(parts.month)}-${String(parts.day)}`
}
