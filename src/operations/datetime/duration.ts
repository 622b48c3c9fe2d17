import { Temporal } from 'temporal-polyfill'
import { invalidInput } from '../../core/errors.ts'
import { temporalRangeError } from './range.ts'

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

export function readDuration(text: string): Temporal.Duration {
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
export function humanDuration(duration: Temporal.Duration, zeroUnit: string): string {
  const parts = HUMAN_FIELDS.filter((unit) => duration[unit] !== 0).map((unit) => {
    const count = Math.abs(duration[unit])
    return `${count} ${count === 1 ? unit.slice(0, -1) : unit}`
  })
  return parts.length > 0 ? parts.join(', ') : `0 ${zeroUnit}`
}

/** `numerator / denominator` as the nearest double, through its decimal digits: exact where a double can be. */
export function ratio(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const whole = n / d
  const fraction = ((n % d) * 10n ** 24n) / d
  const value = Number(`${whole}.${fraction.toString().padStart(24, '0')}`)
  return negative && value !== 0 ? -value : value
}

export const NS_PER: Record<'hours' | 'minutes' | 'seconds' | 'milliseconds', bigint> = {
  hours: 3_600_000_000_000n,
  minutes: 60_000_000_000n,
  seconds: 1_000_000_000n,
  milliseconds: 1_000_000n,
}
