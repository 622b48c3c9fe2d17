import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { BINARY_DIGITS, decodeText, encodeText, formatBytes, readBytes, textEncodingField } from '../../lib/bytes/byte-digits.ts'

/**
 * Inputs longer than this run on a worker thread: each byte becomes eight digits and a separator,
 * linear but enough to hold the event loop for tens of milliseconds past this length
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export const binaryText = defineOperation({
  name: 'binary-text',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Write text as binary bytes, or read binary back to text',
  title: 'Text to binary',
  aliases: ['bits', 'ones and zeros', 'binary code', 'ascii to binary', 'binary to text'],
  description:
    '`textToBinary` writes each byte of the text (UTF-8, or Latin-1) as 8 bits, bytes joined by `separator`. ' +
    '`binaryToText` reads bits leniently: whitespace, commas and `0b` prefixes (at the start of a group) are ignored, so `0b01001000, 0b01101001` and `0100 1000 0110 1001` both read as "Hi". ' +
    'Any other character, or a bit count that is not a multiple of 8, is a 422 naming its position; bytes that are not valid UTF-8 are a 422 unless `encoding` is `latin1`.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to write as binary, or the binary to read.', examples: ['Hi'] }),
      action: withDefault(Type.Enum(['textToBinary', 'binaryToText'], { description: 'Write text as binary, or read binary back to text.' }), 'textToBinary'),
      encoding: textEncodingField(),
      separator: withDefault(
        Type.String({
          maxLength: 8,
          description:
            'textToBinary: written between bytes, 0 to 8 characters. Reading ignores only whitespace and commas, so use one of those to read the output back.',
        }),
        ' ',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The binary (textToBinary) or the text (binaryToText).' }),
    action: Type.Enum(['textToBinary', 'binaryToText'], { description: 'The action performed.' }),
  }),
  actions: {
    textToBinary: { fields: ['input', 'encoding', 'separator'] },
    binaryToText: { fields: ['input', 'encoding'] },
  },
  examples: [
    { summary: 'Text to binary', input: { input: 'Hi' }, output: { result: '01001000 01101001', action: 'textToBinary' } },
    {
      summary: 'Binary to text, leniently',
      input: { input: '0b01001000,0b01101001', action: 'binaryToText' },
      output: { result: 'Hi', action: 'binaryToText' },
    },
    { summary: 'UTF-8 bytes without a separator', input: { input: 'é', separator: '' }, output: { result: '1100001110101001', action: 'textToBinary' } },
    { summary: 'One byte per character with Latin-1', input: { input: 'é', encoding: 'latin1' }, output: { result: '11101001', action: 'textToBinary' } },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, encoding, separator }) {
    if (action === 'textToBinary') return { result: formatBytes(encodeText(input, encoding), BINARY_DIGITS, separator), action }
    return { result: decodeText(readBytes(input, BINARY_DIGITS), encoding), action }
  },
})
