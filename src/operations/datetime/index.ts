import type { Temporal as TemporalTypes } from 'temporal-polyfill'
import { Type } from 'typebox'
import { type DevutilsError, invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, type OperationInput, withDefault } from '../../core/operation.ts'
import { daysFromCivil } from '../../lib/time/calendar.ts'
import { zoneNamed } from '../../lib/time/zones.ts'

type ZonedDateTime = TemporalTypes.ZonedDateTime
type PlainDate = TemporalTypes.PlainDate
type PlainDateTime = TemporalTypes.PlainDateTime
type Duration = TemporalTypes.Duration
type TemporalNamespace = typeof TemporalTypes

/** temporal-polyfill, loaded with the first call (see lazily): Node has no Temporal global yet. */
const temporalModule = lazily(() => import('temporal-polyfill'))

const ACTIONS = ['add', 'subtract', 'difference', 'convert', 'info', 'businessDays'] as const
const DISAMBIGUATIONS = ['compatible', 'earlier', 'later', 'reject'] as const
const OFFSET_OPTIONS = ['use', 'prefer', 'ignore', 'reject'] as const
const OVERFLOWS = ['constrain', 'reject'] as const
const LARGEST_UNITS = ['auto', 'years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const
const SMALLEST_UNITS = ['auto', 'years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'] as const
const ROUNDING_MODES = ['trunc', 'halfExpand', 'floor', 'ceil'] as const
type Unit = Exclude<(typeof SMALLEST_UNITS)[number], 'auto'>
/** Units from the largest to the smallest, to compare them. */
const UNIT_ORDER: readonly Unit[] = SMALLEST_UNITS.filter((unit): unit is Unit => unit !== 'auto')
const TIME_UNITS = new Set<Unit>(['hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'])
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

const MAX_TEXT = 100
const MAX_BUSINESS_SPAN = 1_000_000
const MAX_BUSINESS_DAYS = 10_000
const MAX_HOLIDAYS = 1000
const MAX_TARGET_ZONES = 50

const RANGE_HINT = 'Temporal dates run from -271821-04-19 to +275760-09-13'
const FORMS_HINT = 'use RFC 9557 / ISO 8601 text such as 2024-03-10, 2024-03-10T02:30, 2024-03-10T02:30-05:00 or 2024-03-10T02:30[America/New_York]'

// ---- Reading values ----

/**
 * How the value was written, which decides how answers write it back: with its zone in brackets, with
 * an offset only, as UTC with `Z`, or as a wall time read in `timezone` (written with that zone).
 */
type Form = 'zone' | 'offset' | 'utc' | 'wall'
type Reason = 'constrained' | 'gap' | 'overlap'
type Value = { kind: 'date'; date: PlainDate } | { kind: 'zoned'; zoned: ZonedDateTime; form: Form; adjusted: Reason | null }

interface ReadOptions {
  timezone: string
  disambiguation: (typeof DISAMBIGUATIONS)[number]
  offset: (typeof OFFSET_OPTIONS)[number]
}

const TIMESTAMP_LIKE = /^[+-]?\d+(?:\.\d+)?$/
const DATE_PREFIX = /^(?:[+-]\d{6}|\d{4})-?\d{2}-?\d{2}[Tt ](?<time>.*)$/
const OFFSET_SUFFIX = /(?:[Zz]|(?<offset>[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?))$/
const ANNOTATION = /\[(!?)([^\]=]*)(?:=([^\]]*))?\]/g

function temporalRangeError(error: unknown): error is RangeError {
  return error instanceof RangeError
}

function outOfRange(what: string): DevutilsError {
  return invalidInput(`${what} is beyond the range of dates: ${RANGE_HINT}`)
}

/**
 * The RFC 9557 annotations of a text: a critical one (`[!…]`) that is not understood, or a calendar
 * other than ISO 8601, is refused where it stands. Returns the time zone annotation, if any.
 */
function readAnnotations(text: string, field: string, lead: number): { zone?: string; zonePosition: number } {
  let zone: string | undefined
  let zonePosition = 0
  for (const match of text.matchAll(ANNOTATION)) {
    const [, critical, key, value] = match
    const position = lead + match.index
    if (value === undefined) {
      if (zone === undefined) {
        zone = key.replace(/^!/, '')
        zonePosition = position
      }
      continue
    }
    if (key === 'u-ca') {
      if (value.toLowerCase() !== 'iso8601')
        throw invalidInput(`${field} asks for the calendar '${value}' (position ${position}); only the ISO 8601 calendar (u-ca=iso8601) is offered`, {
          field,
          position,
        })
    } else if (critical === '!') {
      throw invalidInput(
        `${field} has the critical annotation [!${key}=${value}] (position ${position}), which is not understood, so RFC 9557 requires refusing it`,
        {
          field,
          position,
        },
      )
    }
  }
  return { zone, zonePosition }
}

/** The message for a text the polyfill refused: ours, naming the likely cause. */
function unreadable(error: unknown, text: string, field: string, options: ReadOptions, zone: string | undefined): DevutilsError {
  const message = error instanceof Error ? error.message : ''
  if (/ambiguous/i.test(message))
    return invalidInput(
      `${field} '${text}' names a wall time that a daylight-saving change skips or repeats in ${zone ?? options.timezone}, and disambiguation is reject; use compatible, earlier or later`,
      { field },
    )
  if (/offset/i.test(message) && zone !== undefined)
    return invalidInput(
      `${field} '${text}' has an offset that ${zone} does not have at that time, and offset is ${options.offset}; use offset use (trust the offset), prefer or ignore (trust the zone)`,
      { field },
    )
  if (/bound|range/i.test(message) && !/parse/i.test(message)) return outOfRange(`${field} '${text}'`)
  return invalidInput(`${field} '${text}' is not a valid date or date-time: ${FORMS_HINT}`, { field })
}

/** Whether a wall time is skipped (a gap) or repeated (an overlap) by the zone's clocks. */
function wallTimeAdjustment(wall: PlainDateTime, timeZone: string): Reason | null {
  const earlier = wall.toZonedDateTime(timeZone, { disambiguation: 'earlier' })
  const later = wall.toZonedDateTime(timeZone, { disambiguation: 'later' })
  if (earlier.epochNanoseconds === later.epochNanoseconds) return null
  return earlier.toPlainDateTime().equals(wall) && later.toPlainDateTime().equals(wall) ? 'overlap' : 'gap'
}

function normalOffset(text: string): string {
  const digits = text.slice(1).replace(/:/g, '')
  if (/[.,]/.test(digits) || (digits.length > 4 && Number(digits.slice(4)) !== 0)) throw new RangeError('sub-minute offset')
  return `${text[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, '0')}`
}

/** A zone a field names, checked and spelt as Intl knows it; refused as a 400 on that field. */
function zoneOf(name: string, field: string): string {
  try {
    return zoneNamed(name).name
  } catch (error) {
    if (isDevutilsError(error))
      throw validationError(field, `'${name}' is not a known IANA time zone; use a name such as UTC, Europe/Berlin or America/New_York`)
    throw error
  }
}

function readValue(Temporal: TemporalNamespace, input: string, field: string, options: ReadOptions): Value {
  const text = input.trim()
  const lead = input.length - input.trimStart().length
  if (TIMESTAMP_LIKE.test(text) && !/^\d{8}$/.test(text))
    throw invalidInput(`${field} '${text}' looks like a Unix timestamp: convert it with timestamp (or a pipeline) first`, { field })
  const { zone, zonePosition } = readAnnotations(text, field, lead)
  if (zone !== undefined && !/^[+-]\d{2}/.test(zone)) {
    try {
      zoneNamed(zone)
    } catch {
      throw invalidInput(`${field} names the time zone '${zone}' (position ${zonePosition}), which is not a known IANA time zone`, {
        field,
        position: zonePosition,
      })
    }
  }
  const bare = text.replace(/\[.*$/, '')
  const time = DATE_PREFIX.exec(bare)?.groups?.time
  const offsetMatch = time === undefined ? null : OFFSET_SUFFIX.exec(time)
  try {
    if (zone !== undefined) {
      const zoned = Temporal.ZonedDateTime.from(text, { disambiguation: options.disambiguation, offset: options.offset })
      const explicitOffset = offsetMatch !== null && options.offset !== 'ignore'
      const adjusted = time === undefined || explicitOffset ? null : wallTimeAdjustment(Temporal.PlainDateTime.from(text), zoned.timeZoneId)
      return { kind: 'zoned', zoned, form: 'zone', adjusted }
    }
    if (offsetMatch !== null) {
      const instant = Temporal.Instant.from(text)
      const offset = offsetMatch.groups?.offset
      if (offset === undefined) return { kind: 'zoned', zoned: instant.toZonedDateTimeISO('UTC'), form: 'utc', adjusted: null }
      return { kind: 'zoned', zoned: instant.toZonedDateTimeISO(normalOffset(offset)), form: 'offset', adjusted: null }
    }
    if (time !== undefined) {
      const wall = Temporal.PlainDateTime.from(text)
      const zoned = wall.toZonedDateTime(options.timezone, { disambiguation: options.disambiguation })
      return { kind: 'zoned', zoned, form: 'wall', adjusted: wallTimeAdjustment(wall, options.timezone) }
    }
    return { kind: 'date', date: Temporal.PlainDate.from(text) }
  } catch (error) {
    if (!temporalRangeError(error)) throw error
    throw unreadable(error, text, field, options, zone)
  }
}

/** A date becomes its first instant in `timezone` where a time of day is needed. */
function zonedValue(value: Value, timezone: string): Extract<Value, { kind: 'zoned' }> {
  if (value.kind === 'zoned') return value
  return { kind: 'zoned', zoned: value.date.toZonedDateTime({ timeZone: timezone }), form: 'wall', adjusted: null }
}

function now(Temporal: TemporalNamespace, timezone: string): Value {
  return { kind: 'zoned', zoned: Temporal.Now.zonedDateTimeISO(timezone), form: 'wall', adjusted: null }
}

// ---- Writing values ----

function written(zoned: ZonedDateTime, form: Form): string {
  if (form === 'utc') return zoned.toInstant().toString()
  if (form === 'offset') return zoned.toString({ timeZoneName: 'never' })
  return zoned.toString()
}

const FIXED_ZONE = /^(?:[+-]\d|(?:Etc\/)?(?:UTC|UCT|GMT|Zulu|Universal|Greenwich)(?:[+-]\d{1,2})?$)/i

/** The host's tz database version, for answers that depend on a zone's rules (a fixed offset has none). */
function tzdata(timeZone: string): { tzdataVersion?: string } {
  return FIXED_ZONE.test(timeZone) ? {} : { tzdataVersion: process.versions.tz ?? 'unknown' }
}

/** Daylight-saving time, as the tz database's offsets show it: an offset above the year's smaller one (January's or July's). */
function isDst(zoned: ZonedDateTime): boolean {
  const january = zoned.with({ month: 1, day: 1 }).offsetNanoseconds
  const july = zoned.with({ month: 7, day: 1 }).offsetNanoseconds
  return zoned.offsetNanoseconds > Math.min(january, july)
}

const abbreviations = new Map<string, Intl.DateTimeFormat>()
function abbreviation(zoned: ZonedDateTime): string {
  let format = abbreviations.get(zoned.timeZoneId)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zoned.timeZoneId, timeZoneName: 'short' })
    if (abbreviations.size >= 1000) abbreviations.clear()
    abbreviations.set(zoned.timeZoneId, format)
  }
  return format.formatToParts(zoned.epochMilliseconds).find((part) => part.type === 'timeZoneName')?.value ?? zoned.offset
}

// ---- Durations ----

const HUMAN_UNITS: Record<string, string> = {}
for (const [unit, names] of Object.entries({
  years: ['y', 'yr', 'yrs', 'year', 'years'],
  months: ['mo', 'mos', 'mon', 'mons', 'month', 'months'],
  weeks: ['w', 'wk', 'wks', 'week', 'weeks'],
  days: ['d', 'day', 'days'],
  hours: ['h', 'hr', 'hrs', 'hour', 'hours'],
  minutes: ['m', 'min', 'mins', 'minute', 'minutes'],
  seconds: ['s', 'sec', 'secs', 'second', 'seconds'],
  milliseconds: ['ms', 'msec', 'msecs', 'millisecond', 'milliseconds'],
})) {
  for (const name of names) HUMAN_UNITS[name] = unit
}
const HUMAN_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*(?:,\s*|and\s+)?/giy

function readDuration(Temporal: TemporalNamespace, text: string): Duration {
  const trimmed = text.trim()
  try {
    if (/^[+-]?P/i.test(trimmed)) return Temporal.Duration.from(trimmed)
    const sign = trimmed.startsWith('-') ? -1 : 1
    const body = trimmed.replace(/^[+-]\s*/, '')
    const fields: Record<string, number> = {}
    HUMAN_PART.lastIndex = 0
    let end = 0
    for (let match = HUMAN_PART.exec(body); match !== null; match = HUMAN_PART.exec(body)) {
      const unit = HUMAN_UNITS[match[2].toLowerCase()]
      if (unit === undefined)
        throw invalidInput(`duration has the unknown unit '${match[2]}': use y, mo, w, d, h, m (minutes), s or ms, or ISO 8601 such as P1DT2H`, {
          field: 'duration',
        })
      if (match[1].includes('.'))
        throw invalidInput(`duration has the fraction ${match[1]}: use whole numbers (1h 30m) or ISO 8601 (PT1.5H)`, { field: 'duration' })
      if (unit in fields) throw invalidInput(`duration gives ${unit} twice`, { field: 'duration' })
      fields[unit] = sign * Number(match[1])
      end = HUMAN_PART.lastIndex
    }
    if (end === 0 || end !== body.length)
      throw invalidInput(
        `duration '${trimmed}' is not a duration: use ISO 8601 (P1Y2M3DT4H5M6.789S, -P1D) or words such as 1h 30m or 2 days 3 hours (m is minutes, mo months)`,
        {
          field: 'duration',
          position: text.length - text.trimStart().length + (trimmed.length - body.length) + end,
        },
      )
    return Temporal.Duration.from(fields)
  } catch (error) {
    if (!temporalRangeError(error)) throw error
    throw invalidInput(
      `duration '${trimmed}' is not a valid duration: use ISO 8601 (P1Y2M3DT4H5M6.789S, -P1D) or words such as 1h 30m; each part must be below 2^32 (years, months, weeks) or within ±2^53 seconds in all`,
      {
        field: 'duration',
      },
    )
  }
}

const HUMAN_FIELDS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'] as const

/** A duration in words, its magnitude only ("1 year, 2 months, 3 days"); `sign` says its direction. */
function humanDuration(duration: Duration, zeroUnit: string): string {
  const parts = HUMAN_FIELDS.filter((unit) => duration[unit] !== 0).map((unit) => {
    const count = Math.abs(duration[unit])
    return `${count} ${count === 1 ? unit.slice(0, -1) : unit}`
  })
  return parts.length > 0 ? parts.join(', ') : `0 ${zeroUnit}`
}

/** `numerator / denominator` as the nearest double, through its decimal digits: exact where a double can be. */
function ratio(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const whole = n / d
  const fraction = ((n % d) * 10n ** 24n) / d
  const value = Number(`${whole}.${fraction.toString().padStart(24, '0')}`)
  return negative && value !== 0 ? -value : value
}

const NS_PER: Record<'hours' | 'minutes' | 'seconds' | 'milliseconds', bigint> = {
  hours: 3_600_000_000_000n,
  minutes: 60_000_000_000n,
  seconds: 1_000_000_000n,
  milliseconds: 1_000_000n,
}

// ---- Business days ----

/** Days since 1970-01-01 of an ISO date. */
const epochDay = (date: PlainDate) => daysFromCivil(date.year, date.month, date.day)
/** 1 = Monday … 7 = Sunday; 1970-01-01 was a Thursday. */
const isoWeekday = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1

// ---- The operation ----

const zonedOutput = {
  instant: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, convert: the instant in UTC (ISO 8601 with Z); null for a plain date.' }),
  ),
  offset: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, info: the UTC offset of the result, e.g. -04:00; null for a plain date.' }),
  ),
  timezone: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, info: the time zone of the result; null for a plain date.' })),
}

const INPUT = Type.Object(
  {
    input: Type.Optional(
      Type.String({
        maxLength: MAX_TEXT,
        description:
          'RFC 9557 / ISO 8601 text: 2024-03-10, 2024-03-10T02:30, 2024-03-10T02:30-05:00, 2024-03-10T02:30[America/New_York]. Omitted: now (info and convert only).',
        examples: ['2024-03-10T02:30[America/New_York]', '2024-01-31'],
      }),
    ),
    action: withDefault(Type.Enum(ACTIONS, { description: 'What to do.' }), 'info'),
    timezone: withDefault(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'The IANA time zone of a date-time without zone or offset (and of a date where a time is needed).',
      }),
      'UTC',
    ),
    disambiguation: withDefault(
      Type.Enum(DISAMBIGUATIONS, {
        description:
          'A wall time a daylight-saving change skips or repeats: compatible (skipped times move forward by the gap, repeated ones take the earlier instant), earlier, later, or reject (422).',
      }),
      'compatible',
    ),
    offset: withDefault(
      Type.Enum(OFFSET_OPTIONS, {
        description: 'When `input` has both an offset and a zone and they disagree: use the offset, prefer it where valid, ignore it, or reject (422).',
      }),
      'reject',
    ),
    duration: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TEXT,
        description: 'add/subtract: ISO 8601 (P1Y2M3DT4H5M6.789S, -P1D) or words (1h 30m, 2 days 3 hours; m is minutes, mo months).',
        examples: ['P1M', '1h 30m'],
      }),
    ),
    overflow: withDefault(
      Type.Enum(OVERFLOWS, { description: 'add/subtract: a day the month lacks (Jan 31 + 1 month) is constrained to its last day, or refused.' }),
      'constrain',
    ),
    end: Type.Optional(
      Type.String({ maxLength: MAX_TEXT, description: 'difference: the second value (same forms as input). businessDays: the end date, exclusive.' }),
    ),
    largestUnit: withDefault(
      Type.Enum(LARGEST_UNITS, { description: 'difference: the largest unit of the result; auto is years, or hours between two values with offsets only.' }),
      'auto',
    ),
    smallestUnit: withDefault(
      Type.Enum(SMALLEST_UNITS, { description: 'difference: the smallest unit; auto is days between dates, milliseconds otherwise.' }),
      'auto',
    ),
    roundingMode: withDefault(Type.Enum(ROUNDING_MODES, { description: 'difference: how to round to smallestUnit.' }), 'trunc'),
    toTimezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'convert: the IANA time zone to show the instant in.' })),
    toTimezones: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: MAX_TARGET_ZONES,
        description: 'convert: several IANA time zones at once (instead of toTimezone).',
      }),
    ),
    days: Type.Optional(
      Type.Integer({
        minimum: -MAX_BUSINESS_DAYS,
        maximum: MAX_BUSINESS_DAYS,
        description: 'businessDays: the working days to add (negative: go back), instead of end.',
      }),
    ),
    // The default is written in the description: an array default cannot be a query parameter's example.
    weekend: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
        maxItems: 7,
        uniqueItems: true,
        description: 'businessDays: the weekend, as ISO weekdays (1 Monday … 7 Sunday). Omitted: [6, 7], Saturday and Sunday.',
      }),
    ),
    holidays: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_TEXT }), { maxItems: MAX_HOLIDAYS, description: 'businessDays: dates that are not working days (2024-12-25).' }),
    ),
  },
  { additionalProperties: false },
)

type Fields = OperationInput<typeof INPUT>

/** Each action's answer, its fields in the order the output schema documents them. */
function inSchemaOrder<T extends object>(data: T): T {
  const entries = Object.entries(data)
  const rank = (key: string) => OUTPUT_ORDER.indexOf(key)
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b))) as T
}

const OUTPUT = Type.Object({
  result: Type.Union([Type.String(), Type.Integer()], {
    description:
      "add/subtract: the RFC 9557 result (a date for a date). difference: the ISO 8601 duration. convert: the first target's RFC 9557 date-time. info: the normalised input. businessDays: the count, or the resulting date.",
  }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  ...zonedOutput,
  adjusted: Type.Optional(
    Type.Union([Type.Object({ reason: Type.Enum(['constrained', 'gap', 'overlap'] as const) }), Type.Null()], {
      description: 'add/subtract: why the result is not the plain sum: a day constrained to the month, or a wall time in a gap or overlap; null otherwise.',
    }),
  ),
  human: Type.Optional(Type.String({ description: 'difference: the duration in words, its magnitude ("1 year, 2 months, 3 days").' })),
  sign: Type.Optional(Type.Integer({ minimum: -1, maximum: 1, description: 'difference: -1 when end comes before input, 0 when equal, 1 otherwise.' })),
  totals: Type.Optional(
    Type.Object(
      { days: Type.Number(), hours: Type.Number(), minutes: Type.Number(), seconds: Type.Number(), milliseconds: Type.Number() },
      { description: 'difference: the whole difference in each unit, computed exactly from nanoseconds; days count calendar days from input.' },
    ),
  ),
  conversions: Type.Optional(
    Type.Array(
      Type.Object({
        timezone: Type.String(),
        dateTime: Type.String({ description: 'RFC 9557 date-time in the zone.' }),
        offset: Type.String(),
        abbreviation: Type.String({ description: "Intl's short name, e.g. EST or GMT+1." }),
        isDst: Type.Boolean(),
      }),
      { description: 'convert: the instant in each target zone.' },
    ),
  ),
  date: Type.Optional(Type.String({ description: 'info: the date, YYYY-MM-DD.' })),
  time: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'info: the time of day; null for a date.' })),
  weekday: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'info: the ISO weekday, 1 Monday … 7 Sunday.' })),
  weekdayName: Type.Optional(Type.String()),
  isoWeek: Type.Optional(Type.Object({ yearOfWeek: Type.Integer(), week: Type.Integer() }, { description: 'info: the ISO 8601 week, e.g. 2020-W53.' })),
  dayOfYear: Type.Optional(Type.Integer()),
  daysInMonth: Type.Optional(Type.Integer()),
  daysInYear: Type.Optional(Type.Integer()),
  inLeapYear: Type.Optional(Type.Boolean()),
  quarter: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  isDst: Type.Optional(Type.Boolean({ description: 'info: whether daylight-saving time is in effect (zoned values).' })),
  startOfDay: Type.Optional(Type.String({ description: 'info: the first instant of the day (zoned values); not always 00:00.' })),
  hoursInDay: Type.Optional(Type.Number({ description: 'info: the length of the day in hours (zoned values): 23, 24 or 25 around daylight-saving changes.' })),
  previousTransition: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "info: the zone's last offset change before this instant." })),
  nextTransition: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "info: the zone's next offset change." })),
  calendarDays: Type.Optional(Type.Integer({ description: 'businessDays: the calendar days from input to end (or to the result).' })),
  weekendDays: Type.Optional(Type.Integer({ description: 'businessDays: the weekend days in between, skipped.' })),
  holidaysHit: Type.Optional(Type.Integer({ description: 'businessDays: the holidays in between that fell on working days, skipped.' })),
  tzdataVersion: Type.Optional(Type.String({ description: "The host's tz database version, for answers that depend on a zone's rules." })),
})
const OUTPUT_ORDER = Object.keys(OUTPUT.properties)

export const datetime = defineOperation({
  name: 'datetime',
  category: 'converters',
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
    "Answers that depend on a zone's rules give `tzdataVersion`, the host's tz database version, since the rules change with it.",
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
  async run(fields) {
    const { Temporal } = await temporalModule()
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
    const read = (text: string, field: string) => readValue(Temporal, text, field, options)
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
          return add(Temporal, read(required('input'), 'input'), readDuration(Temporal, required('duration')), action, fields.overflow, options)
        case 'difference':
          return difference(read(required('input'), 'input'), read(required('end'), 'end'), fields, timezone)
        case 'convert':
          return convert(fields.input === undefined ? now(Temporal, timezone) : read(fields.input, 'input'), fields, timezone)
        case 'info':
          return info(fields.input === undefined ? now(Temporal, timezone) : read(fields.input, 'input'), timezone)
        case 'businessDays':
          return businessDays(Temporal, read(required('input'), 'input'), fields, read)
      }
    }
  },
})

function add(Temporal: TemporalNamespace, start: Value, given: Duration, action: 'add' | 'subtract', overflow: 'constrain' | 'reject', options: ReadOptions) {
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
  const addCalendar = <T extends PlainDate | PlainDateTime>(value: T): { sum: T; constrained: boolean } => {
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

/** Runs date arithmetic, turning the polyfill's range errors into ours. */
function safely<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (temporalRangeError(error)) throw outOfRange('The result')
    throw error
  }
}

const unitIndex = (unit: Unit) => UNIT_ORDER.indexOf(unit)

function difference(start: Value, end: Value, fields: Fields, timezone: string) {
  const { largestUnit: largest, smallestUnit: smallest, roundingMode } = fields
  const plain = start.kind === 'date' && end.kind === 'date' && !TIME_UNITS.has(largest as Unit) && !TIME_UNITS.has(smallest as Unit)
  const offsetsOnly =
    start.kind === 'zoned' && end.kind === 'zoned' && start.form !== 'zone' && start.form !== 'wall' && end.form !== 'zone' && end.form !== 'wall'
  const largestUnit: Unit = largest !== 'auto' ? largest : offsetsOnly ? 'hours' : 'years'
  const smallestUnit: Unit = smallest !== 'auto' ? smallest : plain ? 'days' : 'milliseconds'
  if (unitIndex(smallestUnit) < unitIndex(largestUnit)) {
    if (largest === 'auto')
      throw validationError('smallestUnit', `${smallestUnit} is larger than the automatic largestUnit (${largestUnit}); give largestUnit too`)
    throw validationError('smallestUnit', `must not be larger than largestUnit (${largestUnit})`)
  }
  let duration: Duration
  let days: number
  let nanoseconds: bigint
  let zone: string | undefined
  if (plain && start.kind === 'date' && end.kind === 'date') {
    duration = start.date.until(end.date, { largestUnit: largestUnit as 'years', smallestUnit: smallestUnit as 'days', roundingMode })
    const whole = start.date.until(end.date, { largestUnit: 'days' }).days
    days = whole
    nanoseconds = BigInt(whole) * 86_400_000_000_000n
  } else {
    const from = zonedValue(start, timezone).zoned
    const to = zonedValue(end, timezone).zoned.withTimeZone(from.timeZoneId)
    zone = from.timeZoneId
    duration = from.until(to, { largestUnit, smallestUnit, roundingMode })
    nanoseconds = to.epochNanoseconds - from.epochNanoseconds
    const whole = from.until(to, { largestUnit: 'days', smallestUnit: 'days', roundingMode: 'trunc' }).days
    const dayStart = from.add({ days: whole })
    const rest = to.epochNanoseconds - dayStart.epochNanoseconds
    if (rest === 0n) days = whole
    else {
      const length = from.add({ days: whole + (rest < 0n ? -1 : 1) }).epochNanoseconds - dayStart.epochNanoseconds
      const magnitude = length < 0n ? -length : length
      days = ratio(BigInt(whole) * magnitude + rest, magnitude)
    }
  }
  return {
    result: duration.toString(),
    action: 'difference' as const,
    human: humanDuration(duration, plain ? 'days' : 'seconds'),
    sign: duration.sign,
    totals: {
      days,
      hours: ratio(nanoseconds, NS_PER.hours),
      minutes: ratio(nanoseconds, NS_PER.minutes),
      seconds: ratio(nanoseconds, NS_PER.seconds),
      milliseconds: ratio(nanoseconds, NS_PER.milliseconds),
    },
    ...(zone === undefined ? {} : tzdata(zone)),
  }
}

function convert(value: Value, fields: Fields, timezone: string) {
  const { toTimezone, toTimezones } = fields
  if (toTimezone !== undefined && toTimezones !== undefined) throw validationError('toTimezones', 'cannot be given with toTimezone: give one or the other')
  if (toTimezone === undefined && toTimezones === undefined) throw validationError('toTimezone', 'is required for action convert (or give toTimezones)')
  const targets = toTimezone === undefined ? toTimezones!.map((name, index) => zoneOf(name, `toTimezones/${index}`)) : [zoneOf(toTimezone, 'toTimezone')]
  const zoned = zonedValue(value, timezone).zoned
  const conversions = targets.map((target) => {
    const there = zoned.withTimeZone(target)
    return { timezone: there.timeZoneId, dateTime: there.toString(), offset: there.offset, abbreviation: abbreviation(there), isDst: isDst(there) }
  })
  const ruled = conversions.find((conversion) => !FIXED_ZONE.test(conversion.timezone))
  return {
    result: conversions[0].dateTime,
    action: 'convert' as const,
    instant: zoned.toInstant().toString(),
    conversions,
    ...(ruled === undefined ? {} : tzdata(ruled.timezone)),
  }
}

function info(value: Value, timezone: string) {
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

function businessDays(Temporal: TemporalNamespace, start: Value, fields: Fields, read: (text: string, field: string) => Value) {
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
