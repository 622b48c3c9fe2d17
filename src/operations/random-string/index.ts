import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import {
  applyExclusions,
  DIGITS,
  distinctCharacters,
  entropyBits,
  excludeField,
  excludeSimilarField,
  LOWERCASE,
  randomText,
  UPPERCASE,
} from '../../lib/text/charsets.ts'

/** length × count may not exceed this many characters: even at 6 bytes each (JSON-escaped), far below the output limit. */
export const MAX_TOTAL_CHARACTERS = 1_048_576

/**
 * Past this many characters in all (length × count) strings are drawn on a worker thread: each
 * character is drawn by rejection sampling on its own, which for a mebibyte of them holds the event
 * loop for a large fraction of a second (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_CHARACTERS = 64 * 1024

const PRINTABLE_ASCII = Array.from({ length: 126 - 33 + 1 }, (_, i) => String.fromCharCode(33 + i)).join('')

export const CHARSETS = {
  alphanumeric: UPPERCASE + LOWERCASE + DIGITS,
  alpha: UPPERCASE + LOWERCASE,
  numeric: DIGITS,
  lowercase: LOWERCASE,
  uppercase: UPPERCASE,
  hex: `${DIGITS}abcdef`,
  base64url: `${UPPERCASE + LOWERCASE + DIGITS}-_`,
  ascii: PRINTABLE_ASCII,
} as const
type Charset = keyof typeof CHARSETS

const CHARSET_NAMES = Object.keys(CHARSETS) as Charset[]

export const randomString = defineOperation({
  name: 'random-string',
  category: 'generators',
  summary: 'Generate random strings from a character set',
  title: 'Random string',
  aliases: ['token', 'random token', 'api key', 'secret', 'random characters', 'nonce'],
  description:
    "Generates strings whose characters are drawn independently and uniformly (rejection sampling over the operating system's CSPRNG) from a named `charset` or from your own `characters`, minus any exclusions. " +
    'Charsets: alphanumeric (A–Z a–z 0–9), alpha (A–Z a–z), numeric (0–9), lowercase (a–z), uppercase (A–Z), hex (0–9 a–f, lower case), base64url (A–Z a–z 0–9 - _), ascii (the 94 printable ASCII characters, U+0021 to U+007E: no space). ' +
    `length × count may be at most ${MAX_TOTAL_CHARACTERS}. ` +
    '`entropyBits` is length × log2(number of characters that can be drawn), rounded to 2 decimals.',
  input: Type.Object(
    {
      length: withDefault(Type.Integer({ minimum: 1, maximum: 4096, description: 'Characters per string, 1 to 4096.' }), 16),
      count: withDefault(
        Type.Integer({ minimum: 1, maximum: 1000, description: `How many strings, 1 to 1000; length × count may be at most ${MAX_TOTAL_CHARACTERS}.` }),
        1,
      ),
      charset: Type.Optional(
        Type.Enum(CHARSET_NAMES, {
          description:
            'The named character set; alphanumeric when neither this nor `characters` is given. hex is lower case; ascii is the printable characters U+0021–U+007E (no space). Not together with `characters`.',
        }),
      ),
      characters: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 256,
          description: 'Your own character set instead of `charset`: 1 to 256 distinct characters (Unicode code points), each drawn with equal probability.',
        }),
      ),
      exclude: excludeField(),
      excludeSimilar: excludeSimilarField(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The first string.' }),
    results: Type.Array(Type.String(), { description: 'All the strings, `count` of them.' }),
    entropyBits: Type.Number({ description: 'Entropy of each string: length × log2(character set size after exclusions), rounded to 2 decimals.' }),
  }),
  examples: [
    { summary: 'A 16-character alphanumeric string', input: {} },
    { summary: 'Ten 32-digit hex tokens', input: { length: 32, count: 10, charset: 'hex' } },
    { summary: 'A PIN-like code from custom characters', input: { length: 6, characters: '23456789' } },
  ],
  offload: ({ length, count }) => length * count > OFFLOAD_CHARACTERS,
  allowGet: true,
  runsInBrowser: true,
  run({ length, count, charset, characters, exclude, excludeSimilar }) {
    if (characters !== undefined && charset !== undefined) throw validationError('characters', 'cannot be combined with charset; send one or the other')
    if (length * count > MAX_TOTAL_CHARACTERS) {
      throw validationError(
        'count',
        `× length must be at most ${MAX_TOTAL_CHARACTERS} characters in all, and ${count} strings of ${length} make ${length * count}`,
      )
    }
    const source = characters === undefined ? Array.from(CHARSETS[charset ?? 'alphanumeric']) : distinctCharacters(characters, 'characters')
    const what = characters === undefined ? `the ${charset ?? 'alphanumeric'} charset` : 'characters'
    const alphabet = applyExclusions(source, { exclude, excludeSimilar }, what, 'exclude fewer characters')
    const results = Array.from({ length: count }, () => randomText(alphabet, length))
    return { result: results[0], results, entropyBits: entropyBits(length, alphabet.length) }
  },
})
