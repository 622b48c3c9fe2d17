import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** ECMAScript's time range: ±100,000,000 days around 1970, in milliseconds. */
const MAX_INSTANT = 8.64e15

const ACTIONS = ['timestampToDate', 'dateToTimestamp'] as const
type Action = (typeof ACTIONS)[number]
const UNITS = ['seconds', 'milliseconds', 'microseconds', 'nanoseconds'] as const
type Unit = (typeof UNITS)[number]
/** How many powers of ten turn one of the unit into milliseconds. */
const UNIT_TO_MS_EXPONENT: Record<Unit, number> = { seconds: 3, milliseconds: 0, microseconds: -3, nanoseconds: -6 }
/** `auto` picks the first unit whose bound the magnitude stays under. */
const AUTO_BOUNDS: Array<[Unit, number]> = [
  ['seconds', 11],
  ['milliseconds', 14],
  ['microseconds', 17],
]

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

// ---- The proleptic Gregorian calendar, for any year (Howard Hinnant's days_from_civil and civil_from_days) ----

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** A date and a time of day, without a zone. */
interface CalendarFields {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  millisecond: number
}

interface WallTime extends CalendarFields {
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
    // 1970-01-01 was a Thursday (4).
    weekday: ((days % 7) + 11) % 7,
  }
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
export const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31)

// ---- Time zones, through Intl ----

export interface Zone {
  /** The name to echo: the caller's, with its letter case corrected where Intl knows it under that name. */
  name: string
  formatter: Intl.DateTimeFormat
}

const zones = new Map<string, Zone>()
/** Intl accepts any letter case, so callers could fill the cache with variants: keep it bounded. */
const MAX_CACHED_ZONES = 1000

export function zoneNamed(timezone: string): Zone {
  let zone = zones.get(timezone)
  if (zone) return zone
  let formatter: Intl.DateTimeFormat
  try {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
  } catch {
    throw validationError('timezone', `'${timezone}' is not a known IANA time zone; use a name such as UTC, Europe/Berlin or America/New_York`)
  }
  const resolved = formatter.resolvedOptions().timeZone
  zone = { name: resolved.toLowerCase() === timezone.toLowerCase() ? resolved : timezone, formatter }
  if (zones.size >= MAX_CACHED_ZONES) zones.clear()
  zones.set(timezone, zone)
  return zone
}

const LONG_OFFSET = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/

/** The zone's UTC offset at an instant, in milliseconds (east positive; whole seconds, as in the tz database). */
export function offsetAt(zone: Zone, instant: number): number {
  const clamped = Math.min(MAX_INSTANT, Math.max(-MAX_INSTANT, instant))
  const name = zone.formatter.formatToParts(clamped).find((part) => part.type === 'timeZoneName')?.value ?? ''
  const match = LONG_OFFSET.exec(name)
  if (!match) throw new Error(`Unexpected offset text from Intl: ${name}`)
  if (!match[1]) return 0
  const size = Number(match[2]) * HOUR + Number(match[3]) * MINUTE + Number(match[4] ?? 0) * SECOND
  return match[1] === '-' ? -size : size
}

/**
 * The instant at which the zone's clocks show `wall` (milliseconds since 1970 on the wall clock).
 * Ambiguities are settled as JavaScript's Date and Temporal's default do: a wall time in an overlap
 * (clocks turned back) is the earlier instant; one in a gap (clocks turned forward) is read with
 * the offset from before the gap, so 02:30 on a spring-forward night becomes 03:30.
 */
function instantOfWallTime(zone: Zone, wall: number): number {
  const before = offsetAt(zone, wall - DAY)
  const after = offsetAt(zone, wall + DAY)
  const valid = [before, after].filter((offset) => offsetAt(zone, wall - offset) === offset).map((offset) => wall - offset)
  return valid.length > 0 ? Math.min(...valid) : wall - before
}

// ---- Writing dates ----

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** Years as toISOString writes them: four digits within 0-9999, otherwise a sign and six digits. */
const isoYear = (year: number) => (year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`)

export function formatOffset(offset: number, separator: ':' | ''): string {
  const size = Math.abs(offset)
  const hours = Math.floor(size / HOUR)
  const minutes = Math.floor((size % HOUR) / MINUTE)
  const seconds = Math.floor((size % MINUTE) / SECOND)
  const text = `${offset < 0 ? '-' : '+'}${pad(hours)}${separator}${pad(minutes)}`
  return seconds === 0 ? text : `${text}${separator}${pad(seconds)}`
}

/** ISO 8601 wall time with the offset, e.g. `2023-11-14T23:13:20.000+01:00`. */
function localIso(instant: number, offset: number): string {
  const t = wallTime(instant + offset)
  return `${isoYear(t.year)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${pad(t.millisecond, 3)}${formatOffset(offset, ':')}`
}

/**
 * RFC 2822 date in the zone, e.g. `Tue, 14 Nov 2023 22:13:20 +0000`. Offsets with seconds (local
 * mean time before the 20th century) cannot be written there, so those instants are written in UTC.
 * Years before 0 have no RFC 2822 form; they are written with a minus sign, as toUTCString does.
 */
function rfc2822(instant: number, zoneOffset: number): string {
  const offset = zoneOffset % MINUTE === 0 ? zoneOffset : 0
  const t = wallTime(instant + offset)
  const year = t.year < 0 ? `-${pad(-t.year, 4)}` : pad(t.year, 4)
  return `${WEEKDAYS[t.weekday]}, ${pad(t.day)} ${MONTHS[t.month - 1]} ${year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} ${formatOffset(offset, '')}`
}

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
const YEAR = 365.2425 * DAY
const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', YEAR],
  ['month', YEAR / 12],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
]

/**
 * How far `instant` is from `now`, in words: "just now" within 10 seconds, otherwise the largest
 * unit of which at least one whole unit lies between them, counted in whole units (rounded toward
 * zero), worded by Intl.RelativeTimeFormat (so one day back is "yesterday", one year ahead "next year").
 */
export function relativeTime(instant: number, now: number): string {
  const difference = instant - now
  if (Math.abs(difference) < 10 * SECOND) return 'just now'
  const [unit, size] = RELATIVE_UNITS.find(([, size]) => Math.abs(difference) >= size)!
  return relativeFormat.format(Math.trunc(difference / size), unit)
}

// ---- Reading timestamps ----

/** A decimal number, exactly: (negative ? -1 : 1) × digits × 10^exponent. */
interface Decimal {
  negative: boolean
  digits: bigint
  exponent: number
}

const TIMESTAMP_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/

/** A string of digits with an optional sign and fraction; anything else is not a timestamp. */
function decimalFromText(text: string): Decimal | undefined {
  const match = TIMESTAMP_TEXT.exec(text.trim())
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined
  return decimal(match[1] === '-', match[2], match[3] ?? '', 0)
}

/** A JSON number, through its shortest decimal text, so that 1700000000.123 means exactly that. */
function decimalFromNumber(value: number): Decimal {
  const match = NUMBER_TEXT.exec(String(value))!
  return decimal(match[1] === '-', match[2], match[3] ?? '', Number(match[4] ?? 0))
}

function decimal(negative: boolean, whole: string, fraction: string, exponent: number): Decimal {
  return { negative, digits: BigInt(whole + fraction || '0'), exponent: exponent - fraction.length }
}

/** Whether |value| < 10^power, exactly. */
function magnitudeBelow({ digits, exponent }: Decimal, power: number): boolean {
  return exponent >= 0 ? digits * 10n ** BigInt(exponent) < 10n ** BigInt(power) : digits < 10n ** BigInt(power - exponent)
}

function detectUnit(value: Decimal): Unit {
  return AUTO_BOUNDS.find(([, power]) => magnitudeBelow(value, power))?.[0] ?? 'nanoseconds'
}

/**
 * The instant in whole milliseconds. Sub-millisecond fractions are floored (toward the past), so
 * the instant is the millisecond that contains the given time, as the calendar fields show it.
 */
function toMilliseconds(value: Decimal, unit: Unit, input: unknown): number {
  const scale = value.exponent + UNIT_TO_MS_EXPONENT[unit]
  let magnitude: bigint
  if (scale >= 0) magnitude = value.digits * 10n ** BigInt(scale)
  else {
    const divisor = 10n ** BigInt(-scale)
    magnitude = value.digits / divisor
    if (value.negative && value.digits % divisor !== 0n) magnitude += 1n
  }
  if (magnitude > BigInt(MAX_INSTANT)) throw outOfRange(`${String(input).trim()} ${unit}`)
  return Number(value.negative ? -magnitude : magnitude)
}

function outOfRange(what: string) {
  return invalidInput(`${what} is outside the range of dates that can be converted: ±8.64e15 milliseconds around 1970 (-271821-04-20 to +275760-09-13)`, {
    min: -MAX_INSTANT,
    max: MAX_INSTANT,
  })
}

// ---- Reading dates ----

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
  const wall =
    daysFromCivil(fields.year, fields.month, fields.day) * DAY + fields.hour * HOUR + fields.minute * MINUTE + fields.second * SECOND + fields.millisecond
  const instant = fields.offset === undefined ? instantOfWallTime(zone, wall) : wall - fields.offset
  if (Math.abs(instant) > MAX_INSTANT) throw outOfRange(text)
  return instant
}

/** Which family of the date reader's formats reads `text`: ISO 8601 (extended or basic), or the HTTP and e-mail ones (RFC 2822, RFC 850, asctime). */
export function dateFamilyOf(text: string): 'iso8601' | 'http' | undefined {
  const index = DATE_FORMATS.findIndex((format) => format.pattern.test(text))
  return index < 0 ? undefined : index < 2 ? 'iso8601' : 'http'
}

/** A timestamp text read as action timestampToDate reads it with unit `auto`; undefined for any other text or one out of range. */
export function readTimestampText(text: string): { unit: Unit; instant: number } | undefined {
  const value = decimalFromText(text)
  if (value === undefined) return undefined
  const unit = detectUnit(value)
  try {
    return { unit, instant: toMilliseconds(value, unit, text) }
  } catch {
    return undefined
  }
}

// ---- The operation ----

function inferAction(input: number | string | undefined): Action {
  return typeof input === 'string' && decimalFromText(input) === undefined ? 'dateToTimestamp' : 'timestampToDate'
}

export const timestamp = defineOperation({
  name: 'timestamp',
  category: 'converters',
  summary: 'Convert Unix timestamps to dates and dates to Unix timestamps',
  title: 'Unix timestamp',
  aliases: ['epoch', 'unix time', 'epoch to date', 'date to epoch', 'iso 8601', 'rfc 3339', 'time zone', 'timezone', 'date', 'time', 'now'],
  description:
    '`timestampToDate` reads a Unix timestamp (seconds, milliseconds, microseconds or nanoseconds; by default the unit is guessed from the magnitude: below 1e11 seconds, below 1e14 milliseconds, below 1e17 microseconds, otherwise nanoseconds) and writes the instant as ISO 8601 in UTC, RFC 2822 and ISO 8601 in `timezone`, and in words relative to now. ' +
    '`dateToTimestamp` reads ISO 8601 / RFC 3339 (calendar dates, extended or basic format; a date or date-time without an offset is a wall time in `timezone`), RFC 2822, and the three HTTP date formats of RFC 7231, and gives the Unix timestamp. ' +
    'Without `action`, a number or a string of digits (with optional sign and fraction) is a timestamp and any other string a date. Without `input`, the current time is used. ' +
    'Dates that do not exist (2023-02-30, 25:00, a leap second) and instants beyond ±8.64e15 ms are refused with 422. Sub-millisecond fractions are floored to the millisecond. ' +
    'Wall times that a daylight-saving change skips move forward by the gap (02:30 becomes 03:30); wall times it repeats take the earlier instant, as JavaScript does.',
  allowGet: true,
  input: Type.Object(
    {
      input: Type.Optional(
        Type.Union([Type.Number(), Type.String({ maxLength: 100 })], {
          description: 'A Unix timestamp (a number, or a string of digits with optional sign and fraction), or a date text. Omitted: now.',
          examples: [1700000000, '2023-11-14T22:13:20Z'],
        }),
      ),
      action: Type.Optional(
        Type.Enum(ACTIONS, {
          description:
            'What to do. Omitted: `timestampToDate` for a number or a string of digits, `dateToTimestamp` for any other string, `timestampToDate` when `input` is omitted too.',
        }),
      ),
      unit: withDefault(
        Type.Enum(['auto', ...UNITS], {
          description:
            'timestampToDate: the unit of `input`. `auto` goes by magnitude: |n| < 1e11 seconds, < 1e14 milliseconds, < 1e17 microseconds, else nanoseconds.',
        }),
        'auto',
      ),
      timezone: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            'An IANA time zone name (Europe/Berlin, America/New_York, UTC). timestampToDate writes `local` and `rfc2822` in it; dateToTimestamp reads dates without an offset in it.',
        }),
        'UTC',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.String(), Type.Number()], {
      description:
        'timestampToDate: the instant as ISO 8601 in UTC with milliseconds. dateToTimestamp: Unix seconds (a number, with a fraction for sub-second instants).',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    unit: Type.Optional(Type.Enum(UNITS, { description: 'timestampToDate: the unit `input` was read in.' })),
    unix: Type.Number({ description: 'Unix time in seconds; may have a fraction.' }),
    unixMs: Type.Integer({ description: 'Unix time in milliseconds.' }),
    iso: Type.String({ description: 'ISO 8601 in UTC with milliseconds, e.g. 2023-11-14T22:13:20.000Z.' }),
    rfc2822: Type.Optional(Type.String({ description: 'timestampToDate: RFC 2822 in `timezone`, e.g. Tue, 14 Nov 2023 22:13:20 +0000.' })),
    local: Type.Optional(
      Type.String({ description: 'timestampToDate: ISO 8601 wall time in `timezone` with its offset, e.g. 2023-11-14T23:13:20.000+01:00.' }),
    ),
    timezone: Type.Optional(Type.String({ description: 'timestampToDate: the time zone of `local` and `rfc2822`.' })),
    relative: Type.Optional(Type.String({ description: 'timestampToDate: the instant relative to now, e.g. "2 years ago", "in 3 days", "just now".' })),
  }),
  actions: {
    timestampToDate: { fields: ['input', 'unit', 'timezone'] },
    dateToTimestamp: { fields: ['input', 'timezone'] },
  },
  examples: [
    // The relative wording depends on the current time, so timestampToDate examples show no fixed output.
    { summary: 'Unix seconds to a date', input: { input: 1700000000 } },
    { summary: 'Milliseconds, shown in a time zone', input: { input: '1700000000000', timezone: 'Europe/Berlin' } },
    {
      summary: 'An ISO 8601 date to Unix seconds',
      input: { input: '2023-11-14T23:13:20+01:00' },
      output: { result: 1700000000, action: 'dateToTimestamp', unix: 1700000000, unixMs: 1700000000000, iso: '2023-11-14T22:13:20.000Z' },
    },
    {
      summary: 'An HTTP date (RFC 7231)',
      input: { input: 'Sun, 06 Nov 1994 08:49:37 GMT' },
      output: { result: 784111777, action: 'dateToTimestamp', unix: 784111777, unixMs: 784111777000, iso: '1994-11-06T08:49:37.000Z' },
    },
    {
      summary: 'A wall time in a time zone',
      input: { input: '2024-07-01 09:30', timezone: 'Asia/Kolkata' },
      output: { result: 1719806400, action: 'dateToTimestamp', unix: 1719806400, unixMs: 1719806400000, iso: '2024-07-01T04:00:00.000Z' },
    },
  ],
  run({ input, action: requested, unit: requestedUnit, timezone }) {
    const zone = zoneNamed(timezone)
    const now = Date.now()
    const action = requested ?? inferAction(input)
    if (action === 'dateToTimestamp') {
      if (typeof input === 'number') throw validationError('input', 'must be a date text when action is dateToTimestamp')
      const instant = input === undefined ? now : parseDate(input, zone, now)
      return { result: instant / SECOND, action, unix: instant / SECOND, unixMs: instant, iso: new Date(instant).toISOString() }
    }
    let instant = now
    let unit: Unit = 'milliseconds'
    if (input !== undefined) {
      const value = typeof input === 'number' ? decimalFromNumber(input) : decimalFromText(input)
      if (value === undefined) {
        throw invalidInput(`'${input}' is not a timestamp; give a number of seconds, milliseconds, microseconds or nanoseconds, such as 1700000000`, { input })
      }
      unit = requestedUnit === 'auto' ? detectUnit(value) : requestedUnit
      instant = toMilliseconds(value, unit, input)
    }
    const offset = offsetAt(zone, instant)
    const iso = new Date(instant).toISOString()
    return {
      result: iso,
      action,
      unit,
      unix: instant / SECOND,
      unixMs: instant,
      iso,
      rfc2822: rfc2822(instant, offset),
      local: localIso(instant, offset),
      timezone: zone.name,
      relative: relativeTime(instant, now),
    }
  },
})
