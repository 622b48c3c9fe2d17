/** Durations: ISO 8601 (`PT1H30M`) and several parts (`1h 30m`) read in seconds, and seconds written both ways. */

import { invalidInput } from '../../core/errors.ts'
import { readDecimal, terminating } from './decimals.ts'
import { abs, add, multiply, type Rational, ratio, subtract, times, ZERO } from './rational.ts'
import { findUnit } from './unit-names.ts'
import { DAY, HOUR, MINUTE, SECOND, SYMBOLS } from './unit-table.ts'

/** Units only duration text gives these meanings: `m` (a minute, not a metre) and `w` (a week). */
const DURATION_ONLY = new Map([
  ['m', 'min'],
  ['w', 'wk'],
])
const ISO_DURATION =
  /^([+-])?P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i
const DURATION_PART = /(\d+(?:\.\d+)?|\.\d+)\s*([a-zµμ]+)\s*,?\s*/giy

/** An ISO 8601 duration (`PT1H30M`, `P1W`, `P2DT3H`) in seconds; undefined when `text` is not one. */
export function isoDuration(text: string): Rational | undefined {
  const match = ISO_DURATION.exec(text)
  if (!match || text.toUpperCase().replace(/^[+-]/, '') === 'P' || /T$/i.test(text)) return undefined
  const [, sign, years, months, weeks, days, hours, minutes, seconds] = match
  if (years !== undefined || months !== undefined) {
    throw invalidInput(`${text} holds years or months, whose length varies: calendar units need a date: use datetime`, { field: 'input' })
  }
  const parts: Array<[string | undefined, Rational]> = [
    [weeks, times(DAY, 7)],
    [days, DAY],
    [hours, HOUR],
    [minutes, MINUTE],
    [seconds, SECOND],
  ]
  let total = ZERO
  for (const [amount, size] of parts) if (amount !== undefined) total = add(total, multiply(readDecimal(amount.replace(',', '.')), size))
  return sign === '-' ? ratio(-total.n, total.d) : total
}

/** A duration of several parts (`1h 30m`, `2 days 4 hours`) in seconds; undefined when `text` is not one. */
export function partsDuration(text: string): Rational | undefined {
  const sign = /^[+-]/.test(text) ? text[0] : ''
  const body = text.slice(sign.length).trim()
  DURATION_PART.lastIndex = 0
  let total = ZERO
  let parts = 0
  let match: RegExpExecArray | null
  // biome-ignore lint/suspicious/noAssignInExpressions: the sticky pattern walks the text part by part
  while ((match = DURATION_PART.exec(body)) !== null) {
    const [, amount, name] = match
    const alias = DURATION_ONLY.get(name)
    const unit = alias ? SYMBOLS.get(alias) : findUnit(name)?.unit
    if (unit?.quantity !== 'time') return undefined
    total = add(total, multiply(readDecimal(amount), unit.factor))
    parts++
    if (DURATION_PART.lastIndex === body.length) return parts > 1 ? (sign === '-' ? ratio(-total.n, total.d) : total) : undefined
  }
  return undefined
}

/** A duration in seconds as ISO 8601 (`P1DT2H30M`) and in short words (`1d 2h 30m`); a day is a fixed length. */
export function durationTexts(seconds: Rational): { iso: string; human: string } {
  const negative = seconds.n < 0n
  let rest = abs(seconds)
  const parts: Array<[bigint | Rational, string]> = []
  for (const [size, letter] of [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'm'],
  ] as const) {
    const count = rest.n / (rest.d * size.n)
    parts.push([count, letter])
    rest = subtract(rest, times(size, ratio(count)))
  }
  parts.push([rest, 's'])
  const written = parts
    .map(([amount, letter]) => [typeof amount === 'bigint' ? amount.toString() : terminating(amount), letter] as const)
    .filter(([amount]) => amount !== '0')
  const sign = negative ? '-' : ''
  if (written.length === 0) return { iso: 'PT0S', human: '0s' }
  const human = sign + written.map(([amount, letter]) => `${amount}${letter}`).join(' ')
  const date = written.filter(([, letter]) => letter === 'd').map(([amount]) => `${amount}D`)
  const time = written.filter(([, letter]) => letter !== 'd').map(([amount, letter]) => `${amount}${letter.toUpperCase()}`)
  return { iso: `${sign}P${date.join('')}${time.length > 0 ? `T${time.join('')}` : ''}`, human }
}
