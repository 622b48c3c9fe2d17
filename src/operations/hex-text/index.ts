import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { decodeText, encodeText, formatBytes, HEX_DIGITS, readBytes, textEncodingField } from '../../lib/bytes/byte-digits.ts'

/**
 * Inputs longer than this run on a worker thread: each byte becomes two digits and a separator,
 * linear but enough to hold the event loop for tens of milliseconds past this length
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export const hexText = defineOperation({
  name: 'hex-text',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Write text as hexadecimal bytes, or read hex back to text',
  title: 'Text to hex',
  aliases: ['hex dump', 'hexadecimal', 'ascii to hex', 'hex to text', 'bytes'],
  description:
    '`textToHex` writes each byte of the text (UTF-8, or Latin-1) as two hex digits, bytes joined by `separator`. ' +
    '`hexToText` reads hex leniently, in either case: whitespace, the separators `:` `-` `,`, a `0x` prefix at the start of a group and `\\x` prefixes anywhere are ignored, so `48:69`, `0x48 0x69` and `\\x48\\x69` all read as "Hi". ' +
    'Any other character, or an odd number of digits, is a 422 naming its position; bytes that are not valid UTF-8 are a 422 unless `encoding` is `latin1`.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to write as hex, or the hex to read.', examples: ['Hi'] }),
      action: withDefault(Type.Enum(['textToHex', 'hexToText'], { description: 'Write text as hex, or read hex back to text.' }), 'textToHex'),
      encoding: textEncodingField(),
      separator: withDefault(
        Type.String({
          maxLength: 4,
          description:
            'textToHex: written between bytes, 0 to 4 characters (`:` gives `48:69`). Reading ignores only whitespace, `:`, `-` and `,`, so use those to read the output back.',
        }),
        '',
      ),
      uppercase: withDefault(Type.Boolean({ description: 'textToHex: write the digits a-f in upper case.' }), false),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The hex (textToHex) or the text (hexToText).' }),
    action: Type.Enum(['textToHex', 'hexToText'], { description: 'The action performed.' }),
  }),
  actions: {
    textToHex: { fields: ['input', 'encoding', 'separator', 'uppercase'] },
    hexToText: { fields: ['input', 'encoding'] },
  },
  examples: [
    { summary: 'Text to hex', input: { input: 'Hi' }, output: { result: '4869', action: 'textToHex' } },
    {
      summary: 'Upper case, colon-separated UTF-8 bytes',
      input: { input: 'né', separator: ':', uppercase: true },
      output: { result: '6E:C3:A9', action: 'textToHex' },
    },
    { summary: 'Hex to text, leniently', input: { input: '\\x48\\x69 0x21', action: 'hexToText' }, output: { result: 'Hi!', action: 'hexToText' } },
    {
      summary: 'Bytes that are not UTF-8, read as Latin-1',
      input: { input: 'ff fe', action: 'hexToText', encoding: 'latin1' },
      output: { result: 'ÿþ', action: 'hexToText' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, encoding, separator, uppercase }) {
    if (action === 'textToHex') return { result: formatBytes(encodeText(input, encoding), HEX_DIGITS, separator, uppercase), action }
    return { result: decodeText(readBytes(input, HEX_DIGITS), encoding), action }
  },
})
