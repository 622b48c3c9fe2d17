import { defineRecogniser, isPlausibleTime, suggest, unlessRefused } from '../../core/recognise.ts'
import { dateFamilyOf, parseDate } from '../../lib/time/parse.ts'
import { readTimestampText } from '../../lib/time/timestamps.ts'
import { zoneNamed } from '../../lib/time/zones.ts'

/** RFC 850 dates carry two-digit years, read relative to a year: a fixed one, so that an answer never changes with the clock. */
const FIXED_NOW = Date.UTC(2000, 0, 1)
const UTC = zoneNamed('UTC')
const dateToTimestamp = suggest('timestamp', { action: 'dateToTimestamp' })

export const isoDateTime = defineRecogniser({
  type: 'isoDateTime',
  label: 'ISO 8601 / RFC 3339 date or date-time',
  recognise(text) {
    if (text.length > 64 || dateFamilyOf(text) !== 'iso8601') return undefined
    const instant = unlessRefused(() => parseDate(text, UTC, FIXED_NOW))
    if (instant === undefined) return undefined
    // Digits alone (20231127) are a basic-format date only inside the window: 11111111 is a byte in binary rather than the year 1111.
    if (/^\d+$/.test(text) && !isPlausibleTime(instant)) return undefined
    return {
      confidence: 95,
      details: { time: new Date(instant).toISOString(), hasOffset: /(?:[Zz]|[+-]\d\d(?::?\d\d)?)$/.test(text) && text.length > 10 },
      next: dateToTimestamp,
    }
  },
})

export const httpDate = defineRecogniser({
  type: 'httpDate',
  label: 'HTTP / e-mail date (RFC 7231, RFC 2822)',
  recognise(text) {
    if (text.length > 64 || dateFamilyOf(text) !== 'http') return undefined
    const instant = unlessRefused(() => parseDate(text, UTC, FIXED_NOW))
    if (instant === undefined) return undefined
    return { confidence: 90, details: { time: new Date(instant).toISOString() }, next: dateToTimestamp }
  },
})

export const unixTimestamp = defineRecogniser({
  type: 'unixTimestamp',
  label: 'Unix timestamp',
  recognise(text) {
    if (!/^[+-]?\d{9,19}(?:\.\d+)?$/.test(text) || text.length > 64) return undefined
    const found = readTimestampText(text)
    if (found === undefined) return undefined
    return {
      confidence: isPlausibleTime(found.instant) ? 70 : 20,
      details: { unit: found.unit, time: new Date(found.instant).toISOString() },
      next: suggest('timestamp', { action: 'timestampToDate' }),
    }
  },
})
