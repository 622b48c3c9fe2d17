import { MAX_INSTANT, outOfRange } from './range.ts'

/** Unix timestamps of any unit, read exactly as decimals. */

export const TIMESTAMP_UNITS = ['seconds', 'milliseconds', 'microseconds', 'nanoseconds'] as const
export type TimestampUnit = (typeof TIMESTAMP_UNITS)[number]
/** How many powers of ten turn one of the unit into milliseconds. */
const UNIT_TO_MS_EXPONENT: Record<TimestampUnit, number> = { seconds: 3, milliseconds: 0, microseconds: -3, nanoseconds: -6 }
/** `auto` picks the first unit whose bound the magnitude stays under. */
const AUTO_BOUNDS: Array<[TimestampUnit, number]> = [
  ['seconds', 11],
  ['milliseconds', 14],
  ['microseconds', 17],
]

/** A decimal number, exactly: (negative ? -1 : 1) × digits × 10^exponent. */
export interface Decimal {
  negative: boolean
  digits: bigint
  exponent: number
}

const TIMESTAMP_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/

/** A string of digits with an optional sign and fraction; anything else is not a timestamp. */
export function decimalFromText(text: string): Decimal | undefined {
  const match = TIMESTAMP_TEXT.exec(text.trim())
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined
  return decimal(match[1] === '-', match[2], match[3] ?? '', 0)
}

/** A JSON number, through its shortest decimal text, so that 1700000000.123 means exactly that. */
export function decimalFromNumber(value: number): Decimal {
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

/** The unit `auto` reads a timestamp in: |n| < 1e11 seconds, < 1e14 milliseconds, < 1e17 microseconds, else nanoseconds. */
export function detectUnit(value: Decimal): TimestampUnit {
  return AUTO_BOUNDS.find(([, power]) => magnitudeBelow(value, power))?.[0] ?? 'nanoseconds'
}

/**
 * The instant in whole milliseconds. Sub-millisecond fractions are floored (toward the past), so
 * the instant is the millisecond that contains the given time, as the calendar fields show it.
 */
export function toMilliseconds(value: Decimal, unit: TimestampUnit, input: unknown): number {
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

/** A timestamp text read as the timestamp operation reads it with unit `auto`; undefined for any other text or one out of range. */
export function readTimestampText(text: string): { unit: TimestampUnit; instant: number } | undefined {
  const value = decimalFromText(text)
  if (value === undefined) return undefined
  const unit = detectUnit(value)
  try {
    return { unit, instant: toMilliseconds(value, unit, text) }
  } catch {
    return undefined
  }
}
