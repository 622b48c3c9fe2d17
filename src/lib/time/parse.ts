import { invalidInput } from '../../core/errors.ts'
import {
  type CalendarFields,
  DAY,
  daysFromCivil,
  daysInMonth,
  HOUR,
  MINUTE,
  MONTH_NAMES,
  MONTHS,
  SECOND,
  WEEKDAY_NAMES,
  WEEKDAYS,
  wallTime,
} from './calendar.ts'
import { isoYear, pad } from './format.ts'
import { MAX_INSTANT, outOfRange } from './range.ts'
import { decimalFromText } from './timestamps.ts'
import { instantOfWallTime, type Zone } from './zones.ts'

/** Reading dates: ISO 8601 / RFC 3339, RFC 2822 and the HTTP date forms of RFC 7231. */
const MONTH = `(?<month>${MONTHS.join('|')})`
const ISO_OFFSET = '(?<offset>Z|z|[+-]\\d{2}(?::\\d{2}(?::\\d{2})?|\\d{2})?)'
/** A date or date-time of ISO 8601's extended format (RFC 3339 and more: optional seconds, `,` fractions, years of ±6 digits). */
const ISO_EXTENDED = new RegExp(
  `^(?<year>[+-]\\d{6}|\\d{4})-(?<month>\\d{2})-(?<day>\\d{2})(?:[Tt ](?<hour>\\d{2}):(?<minute>\\d{2})(?::(?<second>\\d{2})(?:[.,](?<fraction>\\d+))?)?${ISO_OFFSET}?)?$`,
  'd',
)
const ISO_BASIC =
  /^(?<year>\d{4})(?<month>\d{2})(?<day>\d{2})(?:[Tt](?<hour>\d{2})(?<minute>\d{2})(?:(?<second>\d{2})(?:[.,](?<fraction>\d+))?)?(?<offset>Z|z|[+-]\d{2}(?:\d{2})?)?)?$/d
/** RFC 2822 §3.3, with its obsolete zones and two- or three-digit years, and a trailing comment such as `(UTC)`. */
const RFC_2822 = new RegExp(
  `^(?:(?<weekday>${WEEKDAYS.join('|')})\\s*,\\s*)?(?<day>\\d{1,2})\\s+${MONTH}\\s+(?<year>\\d{2,})\\s+(?<hour>\\d{2}):(?<minute>\\d{2})(?::(?<second>\\d{2}))?\\s+(?<offset>[+-]\\d{4}|UT|GMT|[ECMP][SD]T|[A-IK-Z])(?:\\s*\\([^()]*\\))?$`,
  'di',
)
/** RFC 7231's obsolete HTTP date forms: RFC 850 and asctime. IMF-fixdate is RFC 2822 already. */
const RFC_850 = new RegExp(
  `^(?<weekday>${WEEKDAY_NAMES.join('|')}),\\s+(?<day>\\d{2})-${MONTH}-(?<year>\\d{2})\\s+(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})\\s+GMT$`,
  'di',
)
const ASCTIME = new RegExp(
  `^(?<weekday>${WEEKDAYS.join('|')})\\s+${MONTH}\\s+(?<day>\\d{1,2})\\s+(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})\\s+(?<year>\\d{4})$`,
  'di',
)

/** RFC 2822 §4.3 zone names; military letters carry no reliable offset and count as -0000. */
const ZONE_OFFSETS: Record<string, number> = { UT: 0, GMT: 0, EST: -5, EDT: -4, CST: -6, CDT: -5, MST: -7, MDT: -6, PST: -8, PDT: -7 }

type Groups = Record<string, string | undefined>

interface DateFormat {
  pattern: RegExp
  year(text: string, now: number): number
  /** Milliseconds east of UTC, or undefined for a wall time of `timezone`. */
  offset(groups: Groups): number | undefined
}

const optionalIsoOffset = ({ offset }: Groups) => (offset === undefined ? undefined : isoOffset(offset))

const DATE_FORMATS: DateFormat[] = [
  { pattern: ISO_EXTENDED, year: Number, offset: optionalIsoOffset },
  { pattern: ISO_BASIC, year: Number, offset: optionalIsoOffset },
  { pattern: RFC_2822, year: rfc2822Year, offset: ({ offset }) => rfc2822Zone(offset!) },
  { pattern: RFC_850, year: rfc850Year, offset: () => 0 },
  { pattern: ASCTIME, year: Number, offset: () => 0 },
]

interface DateFields extends CalendarFields {
  offset: number | undefined
  /** The weekday the text names (0 = Sunday), checked against the date. */
  weekday: number | undefined
}

/** A problem in one part of a date (a named group of its pattern), reported at that part's position. */
class DatePartError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(message)
  }
}

function isoOffset(text: string): number {
  if (text === 'Z' || text === 'z') return 0
  const [hours, minutes = '0', seconds = '0'] = text
    .slice(1)
    .replace(/^(\d{2})(\d{2})$/, '$1:$2')
    .split(':')
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59)
    throw new DatePartError('offset', `the offset ${text} does not exist; offsets go up to ±23:59`)
  const size = Number(hours) * HOUR + Number(minutes) * MINUTE + Number(seconds) * SECOND
  return text[0] === '-' ? -size : size
}

/** RFC 2822 years of two or three digits (obs-year): 00-49 are 2000-2049, 50-999 are 1950-2899. */
function rfc2822Year(text: string): number {
  const year = Number(text)
  if (text.length === 2) return year < 50 ? 2000 + year : 1900 + year
  return text.length === 3 ? 1900 + year : year
}

/** RFC 7231 §7.1.1.1: a two-digit year more than 50 years ahead is the most recent past year with those digits. */
function rfc850Year(text: string, now: number): number {
  const thisYear = wallTime(now).year
  const year = thisYear - (thisYear % 100) + Number(text)
  return year > thisYear + 50 ? year - 100 : year
}

function rfc2822Zone(zone: string): number {
  return /^[+-]\d{4}$/.test(zone) ? isoOffset(zone) : (ZONE_OFFSETS[zone.toUpperCase()] ?? 0) * HOUR
}

const nameIndex = (names: string[], name: string) => names.findIndex((candidate) => candidate.toLowerCase() === name.slice(0, 3).toLowerCase())

function readFields(format: DateFormat, groups: Groups, now: number): DateFields {
  const { year, month, day, hour = '0', minute = '0', second = '0', fraction = '', weekday } = groups
  if (year === '-000000') throw new DatePartError('year', 'ISO 8601 does not allow the year -000000; write +000000')
  return {
    year: format.year(year!, now),
    month: /^\d+$/.test(month!) ? Number(month) : nameIndex(MONTHS, month!) + 1,
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    // Digits past the millisecond are dropped: the instant is the millisecond that contains the time.
    millisecond: Number(fraction.slice(0, 3).padEnd(3, '0')),
    offset: format.offset(groups),
    weekday: weekday === undefined ? undefined : nameIndex(WEEKDAYS, weekday),
  }
}

/** The parts of a date text (trimmed; `lead` is the whitespace cut from the input), checked to exist. */
function dateFields(text: string, lead: number, now: number): DateFields {
  for (const format of DATE_FORMATS) {
    const match = format.pattern.exec(text)
    if (!match) continue
    try {
      const fields = readFields(format, match.groups as Groups, now)
      checkFields(fields)
      return fields
    } catch (error) {
      if (!(error instanceof DatePartError)) throw error
      const position = lead + (match.indices!.groups![error.part]?.[0] ?? 0)
      throw invalidInput(`${text} is not a valid date: ${error.message} (position ${position})`, { position })
    }
  }
  const hint = decimalFromText(text) ? '; it looks like a timestamp, which action timestampToDate reads' : ''
  throw invalidInput(
    `'${text}' is not a date in a known format: use ISO 8601 / RFC 3339 (2023-11-14T22:13:20Z, 2023-11-14), RFC 2822 (Tue, 14 Nov 2023 22:13:20 +0000) or an HTTP date (RFC 7231)${hint}`,
    { position: lead },
  )
}

/** Refuses dates and times that do not exist, such as 2023-02-30 or 25:00. */
function checkFields({ year, month, day, hour, minute, second, weekday }: DateFields): void {
  if (month < 1 || month > 12) throw new DatePartError('month', `there is no month ${month}`)
  const monthLength = daysInMonth(year, month)
  if (day < 1 || day > monthLength) throw new DatePartError('day', `${MONTH_NAMES[month - 1]} ${year} has ${monthLength} days`)
  if (hour > 23) throw new DatePartError('hour', 'hours go from 00 to 23')
  if (minute > 59) throw new DatePartError('minute', 'minutes go from 00 to 59')
  if (second === 60) throw new DatePartError('second', 'it names a leap second, which Unix time cannot represent; use :59 or the next minute')
  if (second > 59) throw new DatePartError('second', 'seconds go from 00 to 59')
  if (weekday !== undefined) {
    const actual = wallTime(daysFromCivil(year, month, day) * DAY).weekday
    if (actual !== weekday)
      throw new DatePartError('weekday', `it names the wrong weekday: ${isoYear(year)}-${pad(month)}-${pad(day)} is a ${WEEKDAY_NAMES[actual]}`)
  }
}

/** The instant a date text names; without an offset it is a wall time of `zone`. */
export function parseDate(input: string, zone: Zone, now: number): number {
  const text = input.trim()
  const fields = dateFields(text, input.length - input.trimStart().length, now)
  const { year, month, day, hour, minute, second, millisecond, offset } = fields
  const instant =
    offset === undefined
      ? instantOfWallTime(zone, fields)
      : daysFromCivil(year, month, day) * DAY + hour * HOUR + minute * MINUTE + second * SECOND + millisecond - offset
  if (instant === undefined || Math.abs(instant) > MAX_INSTANT) throw outOfRange(text)
  return instant
}

/** Which family of the date reader's formats reads `text`: ISO 8601 (extended or basic), or the HTTP and e-mail ones (RFC 2822, RFC 850, asctime). */
export function dateFamilyOf(text: string): 'iso8601' | 'http' | undefined {
  const index = DATE_FORMATS.findIndex((format) => format.pattern.test(text))
  return index < 0 ? undefined : index < 2 ? 'iso8601' : 'http'
}
