/** Exact rational arithmetic over bigints: the converter works in exact fractions and rounds once, at the end. */

/** n / d, with d > 0 and no common factor. */
export interface Rational {
  n: bigint
  d: bigint
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b]
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

export function ratio(n: bigint, d = 1n): Rational {
  if (d < 0n) [n, d] = [-n, -d]
  const divisor = gcd(n, d) || 1n
  return { n: n / divisor, d: d / divisor }
}

export const add = (a: Rational, b: Rational) => ratio(a.n * b.d + b.n * a.d, a.d * b.d)
export const subtract = (a: Rational, b: Rational) => ratio(a.n * b.d - b.n * a.d, a.d * b.d)
export const multiply = (a: Rational, b: Rational) => ratio(a.n * b.n, a.d * b.d)
export const divide = (a: Rational, b: Rational) => ratio(a.n * b.d, a.d * b.n)
export const ZERO = ratio(0n)
export const ONE = ratio(1n)

/** A decimal text such as `0.0254` or `1.602176634e-19`, exactly; only for the tables' own constants. */
export function exactly(text: string): Rational {
  const [mantissa, exponent = '0'] = text.split('e')
  const [whole, fraction = ''] = mantissa.split('.')
  const scale = Number(exponent) - fraction.length
  const digits = BigInt(whole + fraction)
  return scale >= 0 ? ratio(digits * 10n ** BigInt(scale)) : ratio(digits, 10n ** BigInt(-scale))
}

export const times = (...factors: Array<Rational | string | number>) =>
  factors.reduce<Rational>((product, factor) => multiply(product, typeof factor === 'object' ? factor : exactly(String(factor))), ONE)
export const per = (a: Rational, b: Rational) => divide(a, b)

export const abs = (value: Rational) => (value.n < 0n ? ratio(-value.n, value.d) : value)
export const compare = (a: Rational, b: Rational) => {
  const difference = a.n * b.d - b.n * a.d
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}
