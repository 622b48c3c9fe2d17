/** Decimal text to exact rationals and back: reading numbers within their limits, and rounding once to significant digits. */

import { validationError } from '../../core/errors.ts'
import { compare, type Rational, ratio, ZERO } from './rational.ts'

/** Digits of a decimal at most, and the magnitude of a value other than 0, as a power of ten either way. */
const MAX_DIGITS = 100
const MAX_EXPONENT = 300

export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/

/** A decimal text, exactly, refused (400) past the digit and magnitude limits before any large power is built. */
export function readDecimal(text: string): Rational {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match
  const digits = whole + fraction
  if (digits.length > MAX_DIGITS) throw validationError('input', `has a number of ${digits.length} digits; at most ${MAX_DIGITS} are read`)
  const significant = digits.replace(/^0+/, '')
  if (significant === '') return ZERO
  // An exponent of many digits is out of range whatever it says; Number would read it as Infinity.
  const longExponent = exponentText.replace(/^[+-]?0*/, '').length > 6
  const exponent = longExponent ? (exponentText.startsWith('-') ? -1e7 : 1e7) : Number(exponentText)
  const scale = exponent - fraction.length
  // ⌊log10 |value|⌋: the place of the first significant digit.
  const magnitude = significant.length - 1 + scale
  const aboveOne = significant.replace(/^1/, '').replace(/0+$/, '') !== ''
  if (magnitude > MAX_EXPONENT || (magnitude === MAX_EXPONENT && aboveOne))
    throw validationError('input', `is too large: |value| may be at most 1e${MAX_EXPONENT}`)
  if (magnitude < -MAX_EXPONENT) throw validationError('input', `is too small: a value other than 0 must be at least 1e-${MAX_EXPONENT} in size`)
  const integer = BigInt(sign === '-' ? `-${significant}` : significant)
  return scale >= 0 ? ratio(integer * 10n ** BigInt(scale)) : ratio(integer, 10n ** BigInt(-scale))
}

/** A JSON number through its shortest round-trip text, so that 0.1 means one tenth. */
export const numberText = (value: number) => String(value)

export interface Rounded {
  text: string
  exact: boolean
}

/** ⌊log10 |value|⌋ of a value other than 0. */
function decimalExponent(value: Rational): number {
  const n = value.n < 0n ? -value.n : value.n
  let exponent = n.toString().length - value.d.toString().length
  const ten = (power: number) => (power >= 0 ? ratio(10n ** BigInt(power)) : ratio(1n, 10n ** BigInt(-power)))
  const size = ratio(n, value.d)
  if (compare(size, ten(exponent)) < 0) exponent--
  return exponent
}

/**
 * `value` rounded once, half to even, to `digits` significant digits, as JavaScript writes
 * numbers: positional from 1e-7 up to 1e21, with an exponent outside it; trailing zeros trimmed.
 */
export function roundToDigits(value: Rational, digits: number): Rounded {
  if (value.n === 0n) return { text: '0', exact: true }
  const negative = value.n < 0n
  const n = negative ? -value.n : value.n
  let exponent = decimalExponent(value)
  const shift = digits - 1 - exponent
  const numerator = shift >= 0 ? n * 10n ** BigInt(shift) : n
  const denominator = shift >= 0 ? value.d : value.d * 10n ** BigInt(-shift)
  let quotient = numerator / denominator
  const remainder = numerator % denominator
  const twice = remainder * 2n
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient++
  if (quotient === 10n ** BigInt(digits)) {
    quotient /= 10n
    exponent++
  }
  const significant = quotient.toString().replace(/0+$/, '')
  return { text: (negative ? '-' : '') + positional(significant, exponent), exact: remainder === 0n }
}

function positional(significant: string, exponent: number): string {
  if (exponent >= 21 || exponent <= -7) {
    const mantissa = significant.length > 1 ? `${significant[0]}.${significant.slice(1)}` : significant
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`
  }
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${significant}`
  if (significant.length <= exponent + 1) return significant + '0'.repeat(exponent + 1 - significant.length)
  return `${significant.slice(0, exponent + 1)}.${significant.slice(exponent + 1)}`
}

/** A value whose denominator divides a power of ten, written in full. */
export function terminating(value: Rational): string {
  let power = 0
  let d = value.d
  while (d % 10n === 0n) [d, power] = [d / 10n, power + 1]
  while (d % 2n === 0n || d % 5n === 0n) [d, power] = [d % 2n === 0n ? d / 2n : d / 5n, power + 1]
  const scaled = (value.n * 10n ** BigInt(power)) / value.d
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(power + 1, '0')
  const whole = digits.slice(0, digits.length - power)
  const fraction = digits.slice(digits.length - power).replace(/0+$/, '')
  return `${scaled < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
