import { validationError } from '../../core/errors.ts'
import { defineOperation } from '../../core/operation.ts'
import { add } from './add.ts'
import { businessDays } from './business-days.ts'
import { convert } from './convert.ts'
import { difference } from './difference.ts'
import { readDuration } from './duration.ts'
import { info } from './info.ts'
import { outOfRange, temporalRangeError } from './range.ts'
import { now, type ReadOptions, readValue, zoneOf } from './read.ts'
import { INPUT, inSchemaOrder, OUTPUT } from './schema.ts'

export const datetime = defineOperation({
  name: 'datetime',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Date arithmetic, differences, time zone conversion, calendar facts and business days (Temporal, RFC 9557)',
  title: 'Date and time calculator',
  aliases: [
    'date',
    'time',
    'calendar',
    'date calculator',
    'date math',
    'add months',
    'date difference',
    'days between dates',
    'add days',
    'date add',
    'time zone converter',
    'timezone conversion',
    'time zones',
    'dst',
    'daylight saving',
    'week number',
    'iso week',
    'day of year',
    'business days',
    'working days',
    'duration',
    'temporal',
    'rfc 9557',
    'iso 8601',
  ],
  description:
    'Calendar and wall-clock arithmetic with the TC39 Temporal API (ISO 8601 calendar only). `input` is RFC 9557 / ISO 8601 text: a date (2024-03-10), a date-time (2024-03-10T02:30, with T or a space), with an offset (…-05:00, Z) or a time zone (…[America/New_York]), plus annotations (a critical unknown one `[!key=value]`, or a calendar other than `[u-ca=iso8601]`, is refused). A date-time without zone or offset is a wall time in `timezone`. ' +
    '`add`/`subtract` apply a `duration` (ISO 8601 such as P1Y2M3DT4H5M6.789S or -P1D, or words such as 1h 30m or 2 days 3 hours, where m is minutes and mo months): years, months, weeks and days move the wall clock (so P1D across a daylight-saving change keeps the time of day while PT24H adds exactly 24 hours), then hours and smaller units move the instant. A month that lacks the day (2024-01-31 + P1M) is constrained to its last day, or refused with `overflow` reject; `adjusted` says when the day was constrained or the wall time fell in a gap or overlap. A plain date stays a date unless the duration has hours or smaller units, in which case it is read as its start in `timezone`. ' +
    '`difference` gives the duration from `input` to `end`, with `largestUnit` (auto: years, or hours between two values with offsets only), `smallestUnit` (auto: days between dates, milliseconds otherwise) and `roundingMode`, the same in words (`human`, a magnitude; `sign` gives the direction) and `totals` computed exactly from nanoseconds (days count calendar days from `input`, so one across a change to daylight-saving time has 23 hours). ' +
    "`convert` shows the same instant in `toTimezone` or each of `toTimezones`, with offset, abbreviation and whether daylight-saving time is in effect (an offset above the smaller of January's and July's). " +
    '`info` gives calendar facts: weekday, ISO week, day of year, quarter, month and year lengths, and for zoned values the offset, start of day (not always 00:00), hours in the day and the neighbouring zone transitions. ' +
    '`businessDays` counts working days from `input` to `end` (exclusive; negative when `end` comes first) or adds `days` working days, skipping `weekend` (ISO weekdays) and `holidays`. ' +
    "`input` omitted means now, for `info` and `convert`. Errors: a Unix timestamp (use timestamp first), unreadable text, a gap or overlap under disambiguation reject, an offset that disagrees with the zone under offset reject, a day beyond the month under overflow reject, or a result beyond Temporal's range (years -271821 to 275760) are 422 INVALID_INPUT; an unknown `timezone` or `toTimezone` is 400; a businessDays span over 1,000,000 days is 422 LIMIT_EXCEEDED. " +
    "Answers that depend on a zone's rules give `tzdataVersion`, the host's tz database version, since the rules change with it (`unknown` in the web app, whose browser does not say).",
  allowGet: true,
  input: INPUT,
  output: OUTPUT,
  actions: {
    add: { fields: ['input', 'timezone', 'disambiguation', 'offset', 'duration', 'overflow'], requires: ['duration'] },
    subtract: { fields: ['input', 'timezone', 'disambiguation', 'offset', 'duration', 'overflow'], requires: ['duration'] },
    difference: { fields: ['input', 'timezone', 'disambiguation', 'offset', 'end', 'largestUnit', 'smallestUnit', 'roundingMode'], requires: ['end'] },
    convert: { fields: ['input', 'timezone', 'disambiguation', 'offset', 'toTimezone', 'toTimezones'], requires: [['toTimezone', 'toTimezones']] },
    info: { fields: ['input', 'timezone', 'disambiguation', 'offset'] },
    businessDays: { fields: ['input', 'timezone', 'disambiguation', 'offset', 'end', 'days', 'weekend', 'holidays'], requires: [['end', 'days']] },
  },
  examples: [
    {
      summary: 'Add a month: January 31 is constrained to the end of February',
      input: { input: '2024-01-31', action: 'add', duration: 'P1M' },
      output: { result: '2024-02-29', action: 'add', instant: null, offset: null, timezone: null, adjusted: { reason: 'constrained' } },
    },
    {
      summary: 'The difference between two dates, in months',
      input: { input: '2000-12-01', action: 'difference', end: '2001-06-01', largestUnit: 'months' },
      output: {
        result: 'P6M',
        action: 'difference',
        human: '6 months',
        sign: 1,
        totals: { days: 182, hours: 4368, minutes: 262080, seconds: 15724800, milliseconds: 15724800000 },
      },
    },
    {
      summary: 'Calendar facts: 2021-01-03 is in week 53 of 2020',
      input: { input: '2021-01-03' },
      output: {
        result: '2021-01-03',
        action: 'info',
        date: '2021-01-03',
        time: null,
        weekday: 7,
        weekdayName: 'Sunday',
        isoWeek: { yearOfWeek: 2020, week: 53 },
        dayOfYear: 3,
        daysInMonth: 31,
        daysInYear: 365,
        inLeapYear: false,
        quarter: 1,
      },
    },
    {
      summary: 'Working days in December 2024, with two holidays',
      input: { input: '2024-12-01', action: 'businessDays', end: '2025-01-01', holidays: ['2024-12-25', '2024-12-26'] },
      output: { result: 20, action: 'businessDays', calendarDays: 31, weekendDays: 9, holidaysHit: 2 },
    },
  ],
  run(fields) {
    const { action } = fields
    const timezone = zoneOf(fields.timezone, 'timezone')
    const options: ReadOptions = { timezone, disambiguation: fields.disambiguation, offset: fields.offset }
    const misplaced = (field: keyof typeof fields, actions: string) => {
      if (fields[field] !== undefined) throw validationError(field, `is only used by ${actions}`)
    }
    if (action !== 'add' && action !== 'subtract') misplaced('duration', 'add and subtract')
    if (action !== 'difference' && action !== 'businessDays') misplaced('end', 'difference and businessDays')
    if (action !== 'convert') {
      misplaced('toTimezone', 'convert')
      misplaced('toTimezones', 'convert')
    }
    if (action !== 'businessDays') {
      misplaced('days', 'businessDays')
      misplaced('weekend', 'businessDays')
      misplaced('holidays', 'businessDays')
    }
    const required = (field: 'input' | 'duration' | 'end') => {
      const value = fields[field]
      if (value === undefined) throw validationError(field, `is required for action ${action}`)
      return value
    }
    const read = (text: string, field: string) => readValue(text, field, options)
    try {
      return inSchemaOrder(answer())
    } catch (error) {
      if (temporalRangeError(error)) throw outOfRange('The result')
      throw error
    }
    function answer() {
      switch (action) {
        case 'add':
        case 'subtract':
          return add(read(required('input'), 'input'), readDuration(required('duration')), action, fields.overflow, options)
        case 'difference':
          return difference(read(required('input'), 'input'), read(required('end'), 'end'), fields, timezone)
        case 'convert':
          return convert(fields.input === undefined ? now(timezone) : read(fields.input, 'input'), fields, timezone)
        case 'info':
          return info(fields.input === undefined ? now(timezone) : read(fields.input, 'input'), timezone)
        case 'businessDays':
          return businessDays(read(required('input'), 'input'), fields, read)
      }
    }
  },
})
