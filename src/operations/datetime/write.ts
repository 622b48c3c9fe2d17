import type { Temporal } from 'temporal-polyfill'
import type { Form } from './read.ts'

export function written(zoned: Temporal.ZonedDateTime, form: Form): string {
  if (form === 'utc') return zoned.toInstant().toString()
  if (form === 'offset') return zoned.toString({ timeZoneName: 'never' })
  return zoned.toString()
}

export const FIXED_ZONE = /^(?:[+-]\d|(?:Etc\/)?(?:UTC|UCT|GMT|Zulu|Universal|Greenwich)(?:[+-]\d{1,2})?$)/i

export /**
 * The host's tz database version, for answers that depend on a zone's rules (a fixed offset has
 * none): `unknown` where the host does not say, as a browser running the web app does not.
 */
function tzdata(timeZone: string): { tzdataVersion?: string } {
  return FIXED_ZONE.test(timeZone) ? {} : { tzdataVersion: globalThis.process?.versions.tz ?? 'unknown' }
}

export /** Daylight-saving time, as the tz database's offsets show it: an offset above the year's smaller one (January's or July's). */
function isDst(zoned: Temporal.ZonedDateTime): boolean {
  const january = zoned.with({ month: 1, day: 1 }).offsetNanoseconds
  const july = zoned.with({ month: 7, day: 1 }).offsetNanoseconds
  return zoned.offsetNanoseconds > Math.min(january, july)
}

const abbreviations = new Map<string, Intl.DateTimeFormat>()
export function abbreviation(zoned: Temporal.ZonedDateTime): string {
  let format = abbreviations.get(zoned.timeZoneId)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zoned.timeZoneId, timeZoneName: 'short' })
    if (abbreviations.size >= 1000) abbreviations.clear()
    abbreviations.set(zoned.timeZoneId, format)
  }
  return format.formatToParts(zoned.epochMilliseconds).find((part) => part.type === 'timeZoneName')?.value ?? zoned.offset
}
