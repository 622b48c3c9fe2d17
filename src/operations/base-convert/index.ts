import { Type } from 'typebox'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

export const MAX_DIGITS = 10_000
/** Room for 10,000 digits with a `_` between every two, plus a sign, a prefix and some whitespace. */
const MAX_INPUT_LENGTH = 2 * MAX_DIGITS + 100

const PREFIX_BASE: Record<string, number> = { x: 16, o: 8, b: 2 }
/** BigInt() reads these bases natively (and in better than quadratic time) given the prefix. */
const NATIVE_PREFIX: Record<number, string> = { 2: '0b', 8: '0o', 10: '', 16: '0x' }

interface ParsedInteger {
  negative: boolean
  /** Lower-case digits without sign, prefix or underscores. */
  digits: string
}

/**
 * Reads an integer written in `base`: surrounding whitespace, a sign, a `0x`/`0o`/`0b` prefix that
 * matches the base and `_` between two digits are allowed. Positions in errors index `text`.
 */
export function parseInteger(text: string, base: number): ParsedInteger {
  const start = text.length - text.trimStart().length
  const end = text.trimEnd().length
  let i = start
  const negative = text[i] === '-'
  if (text[i] === '-' || text[i] === '+') i++
  const prefix = text.slice(i, i + 2).toLowerCase()
  if (prefix[0] === '0' && PREFIX_BASE[prefix[1]] === base) i += 2
  const bodyStart = i
  let digits = ''
  let runStart = i
  for (; i <= end; i++) {
    const char = i < end ? text[i] : ''
    if (char !== '' && char !== '_' && digitValue(char) < base) continue
    digits += text.slice(runStart, i)
    runStart = i + 1
    if (char === '') break
    if (char === '_') {
      if (i === bodyStart || i + 1 === end || text[i + 1] === '_') {
        throw invalidInput(`'_' at position ${i} is not between two digits; an underscore may only separate digits`, { position: i })
      }
      continue
    }
    throw badCharacter(text, i, base)
  }
  if (digits.length === 0) throw invalidInput(`input has no digits; give an integer in base ${base}`, { position: bodyStart })
  if (digits.length > MAX_DIGITS) {
    throw limitExceeded(`input has ${digits.length} digits; at most ${MAX_DIGITS} are converted`, { limit: MAX_DIGITS, digits: digits.length })
  }
  return { negative, digits: digits.toLowerCase() }
}

/** The value of a digit character (0-9, then a-z or A-Z for 10-35), or 99 for anything else. */
function digitValue(char: string): number {
  const code = char.charCodeAt(0)
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x7a ? lower - 0x61 + 10 : 99
}

function badCharacter(text: string, position: number, base: number) {
  const char = text[position]
  if (char === '.') {
    return invalidInput(`'.' at position ${position} starts a fraction, and fractions are not supported; give an integer`, { position })
  }
  const lower = char.toLowerCase()
  const misplacedPrefix = text[position - 1] === '0' && PREFIX_BASE[lower] !== undefined && PREFIX_BASE[lower] !== base
  const hint = misplacedPrefix ? ` (the 0${lower} prefix goes with fromBase ${PREFIX_BASE[lower]})` : ''
  return invalidInput(`${showCharacterAt(text, position)} at position ${position} is not a digit in base ${base}${hint}`, { position })
}

/** Digits per chunk that parseInt reads exactly: base^n stays below 2^53. */
const CHUNK_DIGITS = Array.from({ length: 37 }, (_, base) => (base < 2 ? 0 : Math.floor(53 / Math.log2(base))))

/**
 * The value of lower-case `digits` in `base`. Bases 2, 8, 10 and 16 use BigInt's own parser. Others
 * split the digits into chunks that parseInt reads exactly and join neighbours pairwise, squaring the
 * multiplier at each level: the work sits in a few large multiplications instead of one per digit.
 */
export function digitsToBigInt(digits: string, base: number): bigint {
  if (base in NATIVE_PREFIX) return BigInt(NATIVE_PREFIX[base] + digits)
  const size = CHUNK_DIGITS[base]
  const head = digits.length % size || size
  let values: bigint[] = [BigInt(parseInt(digits.slice(0, head), base))]
  for (let at = head; at < digits.length; at += size) values.push(BigInt(parseInt(digits.slice(at, at + size), base)))
  let multiplier = BigInt(base) ** BigInt(size)
  while (values.length > 1) {
    const next: bigint[] = []
    // Pair from the least significant end, so that every pair's low half has the same width.
    const odd = values.length % 2
    if (odd) next.push(values[0])
    for (let k = odd; k < values.length; k += 2) next.push(values[k] * multiplier + values[k + 1])
    values = next
    if (values.length > 1) multiplier *= multiplier
  }
  return values[0]
}

export function convert(text: string, fromBase: number, toBase: number): string {
  const { negative, digits } = parseInteger(text, fromBase)
  const value = digitsToBigInt(digits, fromBase)
  const written = value.toString(toBase)
  return negative && value !== 0n ? `-${written}` : written
}

const base = (description: string) => Type.Integer({ minimum: 2, maximum: 36, description })

export const baseConvert = defineOperation({
  name: 'base-convert',
  category: 'converters',
  summary: 'Convert an integer between bases 2 and 36',
  title: 'Number base converter',
  aliases: ['radix', 'binary', 'octal', 'decimal', 'hexadecimal', 'hex to decimal', 'decimal to hex', 'decimal to binary', 'base 36'],
  description:
    'Converts an integer of any size (up to 10,000 digits, exactly) from one base to another, 2 to 36. Digits above 9 are letters: case-insensitive on input, lower-case on output. ' +
    'The input may have surrounding whitespace, a leading `-` or `+`, `_` between two digits (`1_000_000`), and a `0x`, `0o` or `0b` prefix when `fromBase` is 16, 8 or 2. ' +
    'A character that is not a digit of `fromBase` is a 422 naming it and its position; fractions are not supported (422).',
  input: Type.Object(
    {
      input: Type.Union(
        [
          Type.String({ maxLength: MAX_INPUT_LENGTH, description: 'The integer as text in `fromBase`, e.g. `ff`, `-0x1F`, `1_000_000`.' }),
          Type.Integer({
            minimum: -Number.MAX_SAFE_INTEGER,
            maximum: Number.MAX_SAFE_INTEGER,
            description: 'A safe integer as a JSON number; its decimal digits are read as digits of `fromBase`.',
          }),
        ],
        {
          description:
            'The integer to convert, written in `fromBase`: text of up to 10,000 digits, or a safe integer as a JSON number (whose decimal digits are read in `fromBase`).',
          examples: ['255'],
        },
      ),
      fromBase: withDefault(base('The base `input` is written in, 2 to 36.'), 10),
      toBase: withDefault(base('The base to write the result in, 2 to 36.'), 16),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The integer written in `toBase`, lower-case digits, with a leading `-` when negative.' }),
    fromBase: Type.Integer({ description: 'The base the input was read in.' }),
    toBase: Type.Integer({ description: 'The base of `result`.' }),
  }),
  examples: [
    { summary: 'Decimal to hexadecimal (the defaults)', input: { input: '255' }, output: { result: 'ff', fromBase: 10, toBase: 16 } },
    {
      summary: 'Hexadecimal with a prefix to binary',
      input: { input: '0xFF_FF', fromBase: 16, toBase: 2 },
      output: { result: '1111111111111111', fromBase: 16, toBase: 2 },
    },
    { summary: 'A negative number to base 36', input: { input: '-1295', toBase: 36 }, output: { result: '-zz', fromBase: 10, toBase: 36 } },
    { summary: 'Beyond 2^53, exactly', input: { input: '18446744073709551615', toBase: 16 }, output: { result: 'ffffffffffffffff', fromBase: 10, toBase: 16 } },
  ],
  runsInBrowser: true,
  run: ({ input, fromBase, toBase }) => ({ result: convert(String(input), fromBase, toBase), fromBase, toBase }),
})
