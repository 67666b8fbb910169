import { describe, expect, it } from 'vitest'
import { calendarDateIn } from '../../src/server/today'

// Facts of the zones, not computed: Santiago is UTC-3 in November (summer time) and UTC-4 in
// July; Samoa skipped 30 December 2011, going from UTC-10 to UTC+14 at its midnight.
describe('calendarDateIn: the date of an instant in a zone, whatever the process zone', () => {
  it.each([
    ['2026-11-30T02:59:59Z', 'America/Santiago', '2026-11-29'],
    ['2026-11-30T03:00:00Z', 'America/Santiago', '2026-11-30'],
    ['2026-07-01T03:59:59Z', 'America/Santiago', '2026-06-30'],
    ['2026-07-01T04:00:00Z', 'America/Santiago', '2026-07-01'],
    ['2011-12-30T09:59:59Z', 'Pacific/Apia', '2011-12-29'],
    ['2011-12-30T10:00:00Z', 'Pacific/Apia', '2011-12-31'],
    ['2026-11-23T10:00:00Z', 'Pacific/Kiritimati', '2026-11-24'],
    ['2026-11-23T23:59:59Z', 'UTC', '2026-11-23'],
    ['0800-06-01T12:00:00Z', 'UTC', '0800-06-01']
  ])('%s in %s is %s', (instant, zone, date) => {
    expect(calendarDateIn(new Date(instant), zone)).toBe(date)
  })

  it('an unknown zone is a RangeError', () => {
    expect(() => calendarDateIn(new Date('2026-11-23T12:00:00Z'), 'Mars/Olympus_Mons')).toThrow(RangeError)
  })
})
