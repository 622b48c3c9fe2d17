import { Temporal } from 'temporal-polyfill'
import { invalidInput } from '../../core/errors.ts'
import { safely, temporalRangeError } from './range.ts'
import { type ReadOptions, type Reason, type Value, wallTimeAdjustment, zonedValue } from './read.ts'
import { tzdata, written } from './write.ts'

/**
 * add and subtract: years, months, weeks and days move the wall clock, then hours and smaller units
 * move the instant.
 */
export function add(start: Value, given: Temporal.Duration, action: 'add' | 'subtract', overflow: 'constrain' | 'reject', options: ReadOptions) {
  const duration = action === 'subtract' ? given.negated() : given
  const calendarPart = { years: duration.years, months: duration.months, weeks: duration.weeks, days: duration.days }
  const timePart = Temporal.Duration.from({
    hours: duration.hours,
    minutes: duration.minutes,
    seconds: duration.seconds,
    milliseconds: duration.milliseconds,
    microseconds: duration.microseconds,
    nanoseconds: duration.nanoseconds,
  })
  /** Adds the calendar part, noting when a day had to be constrained to its month. */
  const addCalendar = <T extends Temporal.PlainDate | Temporal.PlainDateTime>(value: T): { sum: T; constrained: boolean } => {
    try {
      return { sum: value.add(calendarPart, { overflow: 'reject' }) as T, constrained: false }
    } catch (error) {
      if (!temporalRangeError(error)) throw error
      const sum = value.add(calendarPart, { overflow: 'constrain' }) as T
      if (overflow === 'reject')
        throw invalidInput(
          `${value.toString()} + ${given.toString()} lands on a day the month does not have, and overflow is reject; use overflow constrain for the month's last day`,
          {
            field: 'overflow',
          },
        )
      return { sum, constrained: true }
    }
  }
  if (start.kind === 'date' && timePart.blank) {
    const { sum, constrained } = safely(() => addCalendar(start.date))
    return { result: sum.toString(), action, instant: null, offset: null, timezone: null, adjusted: constrained ? { reason: 'constrained' as const } : null }
  }
  const zonedStart = zonedValue(start, options.timezone)
  let zoned = zonedStart.zoned
  let adjusted: Reason | null = zonedStart.adjusted
  if (!Temporal.Duration.from(calendarPart).blank) {
    const { sum: wall, constrained } = safely(() => addCalendar(zoned.toPlainDateTime()))
    if (constrained) adjusted ??= 'constrained'
    const wallAdjustment = wallTimeAdjustment(wall, zoned.timeZoneId)
    if (wallAdjustment !== null && options.disambiguation === 'reject')
      throw invalidInput(
        `the result's wall time ${wall.toString()} is ${wallAdjustment === 'gap' ? 'skipped' : 'repeated'} by a daylight-saving change in ${zoned.timeZoneId}, and disambiguation is reject; use compatible, earlier or later`,
        { field: 'disambiguation' },
      )
    adjusted ??= wallAdjustment
    zoned = wall.toZonedDateTime(zoned.timeZoneId, { disambiguation: options.disambiguation })
  }
  zoned = zoned.add(timePart)
  return {
    result: written(zoned, zonedStart.form),
    action,
    instant: zoned.toInstant().toString(),
    offset: zoned.offset,
    timezone: zoned.timeZoneId,
    adjusted: adjusted === null ? null : { reason: adjusted },
    ...tzdata(zoned.timeZoneId),
  }
}
