import { Temporal } from 'temporal-polyfill'
import { validationError } from '../../core/errors.ts'
import { type CalendarFields, HOUR, MINUTE, SECOND } from './calendar.ts'
import { MAX_INSTANT } from './range.ts'

/**
 * IANA time zones. An offset at an instant is read from Intl directly, the cheaper way to that one
 * number; a wall time and the next transition are found by Temporal, which settles gaps and overlaps
 * and finds transitions in fewer look-ups than a search over offsets would.
 */
export interface Zone {
  /** The name to echo: the caller's, with its letter case corrected where Intl knows it under that name. */
  name: string
  /** The zone's identifier as Intl resolved it, for Temporal. */
  id: string
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
  zone = { name: resolved.toLowerCase() === timezone.toLowerCase() ? resolved : timezone, id: resolved, formatter }
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
 * The instant at which the zone's clocks show `wall`, or undefined beyond Temporal's range. Ambiguities
 * are settled as JavaScript's Date does, which is Temporal's `compatible`: a wall time in an overlap
 * (clocks turned back) is the earlier instant; one in a gap (clocks turned forward) is read with
 * the offset from before the gap, so 02:30 on a spring-forward night becomes 03:30.
 */
export function instantOfWallTime(zone: Zone, wall: CalendarFields): number | undefined {
  try {
    return Temporal.PlainDateTime.from(wall, { overflow: 'reject' }).toZonedDateTime(zone.id).epochMilliseconds
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** The first instant after `instant` at which the zone's offset changes, or undefined when none follows. */
export function nextTransition(zone: Zone, instant: number): number | undefined {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone.id).getTimeZoneTransition('next')?.epochMilliseconds
}
