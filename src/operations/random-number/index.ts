import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { randomOffset, randomOffsets } from '../../lib/random/offsets.ts'

/**
 * Every decimal of at most 15 significant digits survives the trip through a double (a JSON number)
 * and back, so distinct grid values stay distinct numbers; with more digits neighbours may meet.
 */
const SIGNIFICANT_DIGITS_LIMIT = 1e15

/**
 * Draws made for unique numbers on a grid finer than doubles, per number asked for: where the grid
 * holds enough distinct doubles, redraws are rare and this many never run out; where it does not
 * (decimals near the top of the safe range, where doubles lie an integer apart), drawing on would
 * never end.
 */
const DRAWS_PER_UNIQUE_NUMBER = 64

/** `count` distinct numbers from `draw`, or a 400 once the draws show the range holds too few of them. */
function distinctDoubles(count: number, draw: () => number, { min, max, decimals }: { min: number; max: number; decimals: number }): number[] {
  const seen = new Set<number>()
  for (let draws = 0; seen.size < count; draws++) {
    if (draws === count * DRAWS_PER_UNIQUE_NUMBER) {
      throw validationError(
        'count',
        `is ${count}, but ${draws} draws between ${min} and ${max} with ${decimals} decimals gave only ${seen.size} distinct numbers: so close to ±2^53, doubles cannot tell that many decimals apart; ask for fewer numbers or decimals, or set unique to false`,
      )
    }
    seen.add(draw())
  }
  return [...seen]
}

/** `scaled` / 10^decimals as the nearest double, through its decimal text so no digit is lost on the way. */
function scaledToNumber(scaled: bigint, decimals: number): number {
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(decimals + 1, '0')
  return Number(`${scaled < 0n ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`)
}

const safeInteger = (description: string) => Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, description })

export const randomNumber = defineOperation({
  name: 'random-number',
  category: 'generators',
  summary: 'Generate random integers or decimals in a range, optionally unique and sorted',
  title: 'Random number',
  aliases: ['random integer', 'dice', 'die roll', 'lottery', 'rng', 'pick a number'],
  description:
    'Draws numbers uniformly from the inclusive range [`min`, `max`] with the operating system CSPRNG and rejection sampling, so no value is favoured. ' +
    'The whole safe-integer range works, from -(2^53-1) to 2^53-1. With `decimals` d > 0 the values are the grid min, min + 10^-d, …, max, each equally likely; ' +
    'since a JSON number keeps only about 15 significant digits, values past max(|min|, |max|) × 10^d = 10^15 are the nearest doubles to their grid values. ' +
    '`unique` draws without repeats: asking for more values than the range holds ((max − min) × 10^d + 1 of them) is refused.',
  input: Type.Object(
    {
      min: withDefault(safeInteger('The smallest value that may be drawn (inclusive): a safe integer, at most `max`.'), 0),
      max: withDefault(safeInteger('The largest value that may be drawn (inclusive): a safe integer, at least `min`.'), 100),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 10000, description: 'How many numbers to draw, 1 to 10,000.' }), 1),
      decimals: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: 15,
          description:
            'Digits after the decimal point, 0 to 15: 0 gives integers. Beyond the 15 significant digits a JSON number holds, a value is the nearest double to its grid value.',
        }),
        0,
      ),
      unique: withDefault(Type.Boolean({ description: 'Never repeat a value. Asking for more values than the range holds is refused (400).' }), false),
      sort: withDefault(Type.Enum(['none', 'asc', 'desc'], { description: 'Order of `results`: as drawn (`none`), ascending or descending.' }), 'none'),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Number({ description: 'The first number of `results`.' }),
    results: Type.Array(Type.Number(), { description: 'All the numbers, `count` of them, in the order `sort` asks for.' }),
  }),
  examples: [
    { summary: 'A die roll', input: { min: 1, max: 6 } },
    { summary: 'Ten prices between 0 and 50 with two decimals, ascending', input: { min: 0, max: 50, count: 10, decimals: 2, sort: 'asc' } },
    { summary: 'Lottery numbers: 6 of 1–49 without repeats', input: { min: 1, max: 49, count: 6, unique: true, sort: 'asc' } },
    {
      summary: 'Every value of a range exactly once, sorted',
      input: { min: 1, max: 5, count: 5, unique: true, sort: 'asc' },
      output: { result: 1, results: [1, 2, 3, 4, 5] },
    },
  ],
  allowGet: true,
  runsInBrowser: true,
  run({ min, max, count, decimals, unique, sort }) {
    if (min > max) throw validationError('min', `must be <= max, but ${min} > ${max}`)
    const scale = 10n ** BigInt(decimals)
    const size = (BigInt(max) - BigInt(min)) * scale + 1n
    if (unique && BigInt(count) > size) {
      throw validationError(
        'count',
        `is ${count}, but only ${size} distinct values lie between ${min} and ${max}${decimals > 0 ? ` with ${decimals} decimal${decimals === 1 ? '' : 's'}` : ''}; ask for at most ${size} or set unique to false`,
      )
    }
    // Offsets count grid steps from min.
    const valueAt = (offset: bigint) => (decimals === 0 ? Number(BigInt(min) + offset) : scaledToNumber(BigInt(min) * scale + offset, decimals))
    const exact = Math.max(Math.abs(min), Math.abs(max)) * 10 ** decimals <= SIGNIFICANT_DIGITS_LIMIT
    let results: number[]
    if (unique && !exact) {
      // Neighbouring grid values may meet as doubles, so distinctness is checked on the numbers.
      results = distinctDoubles(count, () => valueAt(randomOffset(size)), { min, max, decimals })
    } else {
      results = randomOffsets(size, count, unique).map(valueAt)
    }
    if (sort === 'asc') results.sort((a, b) => a - b)
    else if (sort === 'desc') results.sort((a, b) => b - a)
    return { result: results[0], results }
  },
})
