import { Temporal } from 'temporal-polyfill'
import { limitExceeded, validationError } from '../../core/errors.ts'
import { daysFromCivil, weekdayOf } from '../../lib/time/calendar.ts'
import { safely } from './range.ts'
import type { Value } from './read.ts'
import { type Fields, MAX_BUSINESS_SPAN } from './schema.ts'

/** Days since 1970-01-01 of an ISO date. */
const epochDay = (date: Temporal.PlainDate) => daysFromCivil(date.year, date.month, date.day)
/** 1 = Monday … 7 = Sunday. */
const isoWeekday = (day: number) => weekdayOf(day) || 7

/** businessDays: the working days from input to end, or the date `days` working days away. */
export function businessDays(start: Value, fields: Fields, read: (text: string, field: string) => Value) {
  const { end, days, weekend = [6, 7], holidays = [] } = fields
  if ((end === undefined) === (days === undefined))
    throw validationError(end === undefined ? 'end' : 'days', 'give one of end and days for businessDays, not both')
  if (weekend.length === 7) throw validationError('weekend', 'leaves no working day in the week')
  const dateOf = (value: Value) => (value.kind === 'date' ? value.date : value.zoned.toPlainDate())
  const first = epochDay(dateOf(start))
  const weekendDays = new Set(weekend)
  const holidayDays = new Set(holidays.map((text, index) => epochDay(dateOf(read(text, `holidays/${index}`)))))
  let weekendCount = 0
  let holidaysHit = 0
  /** Whether a day is a working day, counting the days skipped. */
  const working = (day: number) => {
    if (weekendDays.has(isoWeekday(day))) weekendCount++
    else if (holidayDays.has(day)) holidaysHit++
    else return true
    return false
  }
  if (end !== undefined) {
    const last = epochDay(dateOf(read(end, 'end')))
    const span = last - first
    if (Math.abs(span) > MAX_BUSINESS_SPAN)
      throw limitExceeded(`businessDays spans ${Math.abs(span)} days, over the limit of ${MAX_BUSINESS_SPAN.toLocaleString('en-US')}`, {
        field: 'end',
        limit: MAX_BUSINESS_SPAN,
      })
    let count = 0
    for (let day = Math.min(first, last); day < Math.max(first, last); day++) if (working(day)) count++
    return { result: span < 0 ? -count : count, action: 'businessDays' as const, calendarDays: span, weekendDays: weekendCount, holidaysHit }
  }
  const step = days! < 0 ? -1 : 1
  let day = first
  for (let remaining = Math.abs(days!); remaining > 0; ) {
    day += step
    if (working(day)) remaining--
  }
  const result = safely(() => Temporal.PlainDate.from('1970-01-01').add({ days: day }))
  return { result: result.toString(), action: 'businessDays' as const, calendarDays: day - first, weekendDays: weekendCount, holidaysHit }
}
