import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type Base64Variant, decodeBase64 } from '../../lib/bytes/base64.ts'
import { bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'

/**
 * Inputs longer than this run on a worker thread: encoding is native, but wrapping it in short
 * lines or decoding a lax input is not, and past this length holds the event loop for tens of
 * milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export function encodeBase64(bytes: Buffer, variant: Base64Variant, padding: boolean, lineLength: number): string {
  let text = bytes.toString(variant === 'url' ? 'base64url' : 'base64')
  if (variant === 'url' && padding) text = text.padEnd(Math.ceil(text.length / 4) * 4, '=')
  if (variant === 'standard' && !padding) text = text.replace(/=+$/, '')
  if (lineLength === 0 || text.length <= lineLength) return text
  const lines: string[] = []
  for (let i = 0; i < text.length; i += lineLength) lines.push(text.slice(i, i + lineLength))
  return lines.join('\n')
}

export const base64 = defineOperation({
  name: 'base64',
  category: 'encoders',
  runsInBrowser: true,
  summary: 'Encode text or bytes as Base64, or decode Base64',
  title: 'Base64',
  aliases: ['b64', 'base64url', 'atob', 'btoa', 'data uri', 'rfc 4648', 'encode', 'decode'],
  description:
    'Encodes the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) as Base64 (RFC 4648 §4) or its URL-safe variant (§5), or decodes Base64. ' +
    'Decoding is lenient by default: it accepts either alphabet, missing padding, whitespace and line breaks, and a `data:…;base64,` prefix; any other character is a 422 naming its position. ' +
    '`strict` decoding accepts only the canonical form of the chosen variant. Decoded bytes that are not UTF-8 are refused with 422 unless `outputEncoding` asks for hex, base64 or latin1.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the Base64 to decode. May be empty.', examples: ['hi'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode `input` to Base64, or decode Base64 in `input`.' }), 'encode'),
      variant: withDefault(
        Type.Enum(['standard', 'url'], {
          description: 'The alphabet: `standard` (`+` `/`, RFC 4648 §4) or `url` (`-` `_`, RFC 4648 §5). Decoding accepts either unless `strict`.',
        }),
        'standard',
      ),
      padding: Type.Optional(
        Type.Boolean({
          description: "Write '=' padding when encoding (and require it when decoding strictly). Default: true for `standard`, false for `url`.",
        }),
      ),
      lineLength: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: 1024,
          multipleOf: 4,
          description:
            'Wrap the encoded text into lines of this many characters, separated by \\n: 0 = no wrapping, 76 = MIME, 64 = PEM. A multiple of 4, at most 1024.',
        }),
        0,
      ),
      strict: withDefault(
        Type.Boolean({
          description:
            'Decode only canonical Base64 of `variant`: no whitespace, no data: prefix, no characters of the other alphabet, padding as `padding` says, zero unused bits.',
        }),
        false,
      ),
      ...codecEncodingFields(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The Base64 text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'variant', 'padding', 'lineLength', 'inputEncoding'] },
    decode: { fields: ['input', 'variant', 'padding', 'strict', 'outputEncoding'] },
  },
  examples: [
    { summary: 'Encode text', input: { input: 'hi' }, output: { result: 'aGk=', action: 'encode' } },
    { summary: 'Decode Base64', input: { input: 'aGVsbG8gd29ybGQ=', action: 'decode' }, output: { result: 'hello world', action: 'decode' } },
    { summary: 'URL-safe, unpadded', input: { input: '\u00ff\u00fe', variant: 'url', inputEncoding: 'latin1' }, output: { result: '__4', action: 'encode' } },
    {
      summary: 'Decode bytes that are not text, as hex',
      input: { input: '/wA=', action: 'decode', outputEncoding: 'hex' },
      output: { result: 'ff00', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, variant, padding, lineLength, strict, inputEncoding, outputEncoding }) {
    const pad = padding ?? variant === 'standard'
    if (action === 'encode') {
      return { result: encodeBase64(textToBytes(input, inputEncoding), variant, pad, lineLength), action }
    }
    return { result: bytesToText(decodeBase64(input, { variant, padding: pad, strict }), outputEncoding), action }
  },
})
