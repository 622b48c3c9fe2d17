import { Type } from 'typebox'
import { type OperationInput, withDefault } from '../../core/operation.ts'

export const ACTIONS = ['add', 'subtract', 'difference', 'convert', 'info', 'businessDays'] as const
export const DISAMBIGUATIONS = ['compatible', 'earlier', 'later', 'reject'] as const
export const OFFSET_OPTIONS = ['use', 'prefer', 'ignore', 'reject'] as const
const OVERFLOWS = ['constrain', 'reject'] as const
const LARGEST_UNITS = ['auto', 'years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const
export const SMALLEST_UNITS = [
  'auto',
  'years',
  'months',
  'weeks',
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
] as const
const ROUNDING_MODES = ['trunc', 'halfExpand', 'floor', 'ceil'] as const

const MAX_TEXT = 100
export const MAX_BUSINESS_SPAN = 1_000_000
const MAX_BUSINESS_DAYS = 10_000
const MAX_HOLIDAYS = 1000
const MAX_TARGET_ZONES = 50

const zonedOutput = {
  instant: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, convert: the instant in UTC (ISO 8601 with Z); null for a plain date.' }),
  ),
  offset: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, info: the UTC offset of the result, e.g. -04:00; null for a plain date.' }),
  ),
  timezone: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'add/subtract, info: the time zone of the result; null for a plain date.' })),
}

export const INPUT = Type.Object(
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
        'x-suggestions': 'timeZones',
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
    toTimezone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'convert: the IANA time zone to show the instant in.', 'x-suggestions': 'timeZones' }),
    ),
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

export type Fields = OperationInput<typeof INPUT>

/** Each action's answer, its fields in the order the output schema documents them. */
export function inSchemaOrder<T extends object>(data: T): T {
  const entries = Object.entries(data)
  const rank = (key: string) => OUTPUT_ORDER.indexOf(key)
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b))) as T
}

export const OUTPUT = Type.Object({
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
  tzdataVersion: Type.Optional(
    Type.String({ description: "The host's tz database version, for answers that depend on a zone's rules: `unknown` where the host does not say." }),
  ),
})
const OUTPUT_ORDER = Object.keys(OUTPUT.properties)
