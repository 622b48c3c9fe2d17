/** The proleptic Gregorian calendar, for any year (Howard Hinnant's days_from_civil and civil_from_days). */

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** Days from 1970-01-01 to the date. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** The weekday of a count of days since 1970-01-01, 0 = Sunday: 1970-01-01 was a Thursday (4). */
export const weekdayOf = (days: number) => ((days % 7) + 11) % 7

/** A date and a time of day, without a zone. */
export interface CalendarFields {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  millisecond: number
}

export interface WallTime extends CalendarFields {
  /** 0 = Sunday. */
  weekday: number
}

/** The calendar fields of a count of milliseconds since 1970-01-01T00:00 (of UTC, or of a wall clock). */
export function wallTime(ms: number): WallTime {
  const days = Math.floor(ms / DAY)
  let rest = ms - days * DAY
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const month = shiftedMonth + (shiftedMonth < 10 ? 3 : -9)
  const hour = Math.floor(rest / HOUR)
  rest -= hour * HOUR
  const minute = Math.floor(rest / MINUTE)
  rest -= minute * MINUTE
  const second = Math.floor(rest / SECOND)
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1,
    hour,
    minute,
    second,
    millisecond: rest - second * SECOND,
    weekday: weekdayOf(days),
  }
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
export const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31)
