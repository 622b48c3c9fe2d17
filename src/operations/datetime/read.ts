import { Temporal } from 'temporal-polyfill'
import { type DevutilsError, invalidInput, isDevutilsError, validationError } from '../../core/errors.ts'
import { zoneNamed } from '../../lib/time/zones.ts'
import { outOfRange, temporalRangeError } from './range.ts'
import type { DISAMBIGUATIONS, OFFSET_OPTIONS } from './schema.ts'

const FORMS_HINT = 'use RFC 9557 / ISO 8601 text such as 2024-03-10, 2024-03-10T02:30, 2024-03-10T02:30-05:00 or 2024-03-10T02:30[America/New_York]'

/**
 * How the value was written, which decides how answers write it back: with its zone in brackets, with
 * an offset only, as UTC with `Z`, or as a wall time read in `timezone` (written with that zone).
 */
export type Form = 'zone' | 'offset' | 'utc' | 'wall'
export type Reason = 'constrained' | 'gap' | 'overlap'
export type Value = { kind: 'date'; date: Temporal.PlainDate } | { kind: 'zoned'; zoned: Temporal.ZonedDateTime; form: Form; adjusted: Reason | null }

export interface ReadOptions {
  timezone: string
  disambiguation: (typeof DISAMBIGUATIONS)[number]
  offset: (typeof OFFSET_OPTIONS)[number]
}

const TIMESTAMP_LIKE = /^[+-]?\d+(?:\.\d+)?$/
const DATE_PREFIX = /^(?:[+-]\d{6}|\d{4})-?\d{2}-?\d{2}[Tt ](?<time>.*)$/
const OFFSET_SUFFIX = /(?:[Zz]|(?<offset>[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?))$/
const ANNOTATION = /\[(!?)([^\]=]*)(?:=([^\]]*))?\]/g

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
export function wallTimeAdjustment(wall: Temporal.PlainDateTime, timeZone: string): Reason | null {
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

export /** A zone a field names, checked and spelt as Intl knows it; refused as a 400 on that field. */
function zoneOf(name: string, field: string): string {
  try {
    return zoneNamed(name).name
  } catch (error) {
    if (isDevutilsError(error))
      throw validationError(field, `'${name}' is not a known IANA time zone; use a name such as UTC, Europe/Berlin or America/New_York`)
    throw error
  }
}

export function readValue(input: string, field: string, options: ReadOptions): Value {
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
export function zonedValue(value: Value, timezone: string): Extract<Value, { kind: 'zoned' }> {
  if (value.kind === 'zoned') return value
  return { kind: 'zoned', zoned: value.date.toZonedDateTime({ timeZone: timezone }), form: 'wall', adjusted: null }
}

export function now(timezone: string): Value {
  return { kind: 'zoned', zoned: Temporal.Now.zonedDateTimeISO(timezone), form: 'wall', adjusted: null }
}
