import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { escapeJson, unescapeJson } from '../../lib/json/string-literal.ts'

/**
 * Inputs longer than this run on a worker thread: escaping is linear (asciiOnly writes six
 * characters for each non-ASCII one), but a longer text would hold the event loop for tens of
 * milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export const jsonEscape = defineOperation({
  name: 'json-escape',
  category: 'encoders',
  summary: 'Escape text as the body of a JSON string literal, or unescape one',
  title: 'JSON string escape',
  aliases: ['escape json', 'unescape json', 'stringify', 'string literal', 'quote'],
  description:
    'Escape writes `input` as the body of a JSON string literal, exactly as JSON.stringify writes it between its quotes: `"` and `\\` are escaped, ' +
    'control characters use the short forms `\\b \\f \\n \\r \\t` where they exist and `\\u00xx` otherwise, `/` is left alone. `asciiOnly` also escapes every ' +
    'non-ASCII character as `\\uxxxx` (characters above U+FFFF as a surrogate pair); hex digits are lower case. ' +
    'Unescape reads a JSON string literal (RFC 8259 §7) with or without its surrounding quotes (a leading `"` means the quotes are included) and follows the grammar exactly: ' +
    'an invalid escape, a raw control character (U+0000–U+001F), an unescaped quote, or an escaped surrogate without its other half is a 422 naming its position ' +
    '(a position counts UTF-16 code units of `input`, as JavaScript indexes strings).',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The text to escape, or the JSON string literal (with or without its quotes) to unescape. May be empty.',
        examples: ['say "hi"\n'],
      }),
      action: withDefault(
        Type.Enum(['escape', 'unescape'], { description: 'Escape `input` into a JSON string literal, or unescape a JSON string literal in `input`.' }),
        'escape',
      ),
      wrapInQuotes: withDefault(
        Type.Boolean({
          description: 'Escape only: put `"` around the result, giving a complete JSON string. Unescape accepts both forms and ignores this field.',
        }),
        false,
      ),
      asciiOnly: withDefault(
        Type.Boolean({
          description:
            'Escape only: also write every non-ASCII character as `\\uxxxx` (a surrogate pair above U+FFFF), so the result is pure ASCII. Unescape ignores this field.',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The escaped literal body (escape) or the text it stands for (unescape).' }),
    action: Type.Enum(['escape', 'unescape'], { description: 'The action performed.' }),
  }),
  actions: {
    escape: { fields: ['input', 'wrapInQuotes', 'asciiOnly'] },
    unescape: { fields: ['input'] },
  },
  examples: [
    { summary: 'Escape quotes and a line break', input: { input: 'say "hi"\n' }, output: { result: 'say \\"hi\\"\\n', action: 'escape' } },
    {
      summary: 'Escape to ASCII, in quotes',
      input: { input: 'café 😀', asciiOnly: true, wrapInQuotes: true },
      output: { result: '"caf\\u00e9 \\ud83d\\ude00"', action: 'escape' },
    },
    {
      summary: 'Unescape a quoted literal',
      input: { input: '"tab\\there \\u00E9 \\/"', action: 'unescape' },
      output: { result: 'tab\there é /', action: 'unescape' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run({ input, action, wrapInQuotes, asciiOnly }) {
    return { result: action === 'escape' ? escapeJson(input, asciiOnly, wrapInQuotes) : unescapeJson(input), action }
  },
})
