import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { DAY, HOUR, MINUTE, MONTHS, SECOND, WEEKDAYS, wallTime } from '../../lib/time/calendar.ts'
import { formatOffset, isoYear, pad } from '../../lib/time/format.ts'
import { parseDate } from '../../lib/time/parse.ts'
import { decimalFromNumber, decimalFromText, detectUnit, TIMESTAMP_UNITS, type TimestampUnit, toMilliseconds } from '../../lib/time/timestamps.ts'
import { offsetAt, zoneNamed } from '../../lib/time/zones.ts'

const ACTIONS = ['timestampToDate', 'dateToTimestamp'] as const
type Action = (typeof ACTIONS)[number]

// ---- Writing dates ----

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

// ---- The operation ----

function inferAction(input: number | string | undefined): Action {
  return typeof input === 'string' && decimalFromText(input) === undefined ? 'dateToTimestamp' : 'timestampToDate'
}

export const timestamp = defineOperation({
  name: 'timestamp',
  category: 'converters',
  runsInBrowser: true,
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
        Type.Enum(['auto', ...TIMESTAMP_UNITS], {
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
          'x-suggestions': 'timeZones',
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
      // The same instant in the zone asked, which a reader who chose a zone wants to see first.
      'x-zoned': { value: 'local', zone: 'timezone' },
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    unit: Type.Optional(Type.Enum(TIMESTAMP_UNITS, { description: 'timestampToDate: the unit `input` was read in.' })),
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
    let unit: TimestampUnit = 'milliseconds'
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
