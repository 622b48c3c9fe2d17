import { Type } from 'typebox'
import { DevutilsError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { shuffle } from '../../lib/random/random.ts'
import {
  applyExclusions,
  DIGITS,
  distinctCharacters,
  drawCharacter,
  entropyBits,
  excludeField,
  excludeSimilarField,
  LOWERCASE,
  UPPERCASE,
} from '../../lib/text/charsets.ts'

export const DEFAULT_SYMBOLS = '!@#$%^&*()-_=+[]{};:,.<>?/~'

/**
 * Past this many characters in all (length × count) passwords are made on a worker thread: each
 * character is drawn by rejection sampling on its own, and a hundred of the longest hold the event
 * loop for tens of milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_CHARACTERS = 64 * 1024

const CLASS_FIELDS = ['uppercase', 'lowercase', 'numbers', 'symbols'] as const

const STRENGTHS = ['weak', 'fair', 'strong', 'very-strong'] as const

function strengthOf(bits: number): (typeof STRENGTHS)[number] {
  if (bits < 40) return 'weak'
  if (bits < 64) return 'fair'
  if (bits < 100) return 'strong'
  return 'very-strong'
}

const classToggle = (what: string) => withDefault(Type.Boolean({ description: `Include ${what}; every password then holds at least one.` }), true)

export const password = defineOperation({
  name: 'password',
  category: 'generators',
  summary: 'Generate secure random passwords',
  title: 'Password generator',
  aliases: ['random password', 'strong password', 'secure password', 'passphrase', 'generate password'],
  description:
    "Generates passwords from the operating system's CSPRNG with unbiased (rejection-sampled) choices. " +
    'Every enabled class (upper-case letters, lower-case letters, digits, symbols) appears at least once in every password: one character is drawn uniformly from each class, the rest uniformly from all enabled classes together, and the whole is shuffled. ' +
    '`entropyBits` is length × log2(pool size), the pool being every character that can be drawn after exclusions, rounded to 2 decimals; `strength` reads it as weak (< 40 bits), fair (< 64), strong (< 100) or very-strong. ' +
    'No class enabled, or a class left empty by `exclude` / `excludeSimilar`, is a 400.',
  input: Type.Object(
    {
      length: withDefault(Type.Integer({ minimum: 4, maximum: 1024, description: 'Characters per password, 4 to 1024.' }), 16),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 100, description: 'How many passwords, 1 to 100.' }), 1),
      uppercase: classToggle('upper-case letters A–Z'),
      lowercase: classToggle('lower-case letters a–z'),
      numbers: classToggle('digits 0–9'),
      symbols: classToggle('the characters of `symbolSet`'),
      symbolSet: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 256,
          pattern: '^[^A-Za-z0-9\\u0000-\\u001f\\u007f-\\u009f]*$',
          description: 'The symbols class: 1 to 256 distinct characters, none of them an ASCII letter, a digit or a control character.',
        }),
        DEFAULT_SYMBOLS,
      ),
      excludeSimilar: excludeSimilarField(),
      exclude: excludeField(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The first password.' }),
    results: Type.Array(Type.String(), { description: 'All the passwords, `count` of them.' }),
    entropyBits: Type.Number({ description: 'Entropy of each password: length × log2(pool size), rounded to 2 decimals.' }),
    strength: Type.Enum(STRENGTHS, { description: 'weak below 40 bits, fair below 64, strong below 100, very-strong from 100.' }),
  }),
  examples: [
    { summary: 'One 16-character password with every class', input: {} },
    { summary: 'Five 24-character passwords without look-alike characters', input: { length: 24, count: 5, excludeSimilar: true } },
    { summary: 'Letters and digits only', input: { length: 12, symbols: false } },
  ],
  offload: ({ length, count }) => length * count > OFFLOAD_CHARACTERS,
  allowGet: true,
  runsInBrowser: true,
  run({ length, count, symbolSet, excludeSimilar, exclude, ...toggles }) {
    const alphabets = {
      uppercase: Array.from(UPPERCASE),
      lowercase: Array.from(LOWERCASE),
      numbers: Array.from(DIGITS),
      symbols: distinctCharacters(symbolSet, 'symbolSet'),
    }
    const enabled = CLASS_FIELDS.filter((field) => toggles[field])
    if (enabled.length === 0) {
      throw new DevutilsError(
        'VALIDATION_ERROR',
        'No character class is enabled; set at least one of uppercase, lowercase, numbers or symbols to true',
        CLASS_FIELDS.map((field) => ({ field, message: 'is false' })),
      )
    }
    // length >= 4 by the schema and there are 4 classes, so each class always has a place.
    const classes = enabled.map((field) =>
      applyExclusions(alphabets[field], { exclude, excludeSimilar }, `the ${field} class`, `keep at least one of its characters or set ${field} to false`),
    )
    const pool = classes.flat()
    const results: string[] = []
    for (let n = 0; n < count; n++) {
      const characters = classes.map(drawCharacter)
      while (characters.length < length) characters.push(drawCharacter(pool))
      results.push(shuffle(characters).join(''))
    }
    const bits = entropyBits(length, pool.length)
    return { result: results[0], results, entropyBits: bits, strength: strengthOf(bits) }
  },
})
