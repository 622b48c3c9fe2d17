import { validationError } from '../../core/errors.ts'
import { type Value, zonedValue, zoneOf } from './read.ts'
import type { Fields } from './schema.ts'
import { abbreviation, FIXED_ZONE, isDst, tzdata } from './write.ts'

/** convert: the same instant in each target zone. */
export function convert(value: Value, fields: Fields, timezone: string) {
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
