import { type Value, zonedValue } from './read.ts'
import { isDst, tzdata, written } from './write.ts'

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

/** info: calendar facts, and for zoned values the zone's. */
export function info(value: Value, timezone: string) {
  const date = value.kind === 'date' ? value.date : value.zoned.toPlainDate()
  const facts = {
    date: date.toString(),
    weekday: date.dayOfWeek,
    weekdayName: WEEKDAY_NAMES[date.dayOfWeek - 1],
    isoWeek: { yearOfWeek: date.yearOfWeek!, week: date.weekOfYear! },
    dayOfYear: date.dayOfYear,
    daysInMonth: date.daysInMonth,
    daysInYear: date.daysInYear,
    inLeapYear: date.inLeapYear,
    quarter: Math.ceil(date.month / 3),
  }
  if (value.kind === 'date') return { result: date.toString(), action: 'info' as const, ...facts, time: null }
  const { zoned, form } = zonedValue(value, timezone)
  const transition = (direction: 'previous' | 'next') => {
    const at = zoned.getTimeZoneTransition(direction)
    return at === null ? null : written(at, form)
  }
  return {
    result: written(zoned, form),
    action: 'info' as const,
    ...facts,
    time: zoned.toPlainTime().toString(),
    timezone: zoned.timeZoneId,
    offset: zoned.offset,
    isDst: isDst(zoned),
    startOfDay: written(zoned.startOfDay(), form),
    hoursInDay: zoned.hoursInDay,
    previousTransition: transition('previous'),
    nextTransition: transition('next'),
    ...tzdata(zoned.timeZoneId),
  }
}
