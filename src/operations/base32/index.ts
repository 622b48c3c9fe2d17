import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { decodeBase32, encodeBase32 } from '../../lib/bytes/base32.ts'
import { type ByteEncoding, bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'

/**
 * Inputs longer than this run on a worker thread: encoding and decoding are linear, but a longer
 * input would hold the event loop for tens of milliseconds (docs/PERFORMANCE.md, "Offload
 * thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

/** How long `bytes` become once written in `encoding` (UTF-8 bytes of the text), to refuse an oversized result before building it. */
function writtenLength(bytes: Uint8Array, encoding: ByteEncoding): number {
  switch (encoding) {
    case 'hex':
      return bytes.length * 2
    case 'base64':
      return Math.ceil(bytes.length / 3) * 4
    case 'latin1':
      return bytes.length + bytes.reduce((high, byte) => high + (byte >> 7), 0)
    case 'utf8':
      return bytes.length
  }
}

export const base32 = defineOperation({
  name: 'base32',
  category: 'encoders',
  runsInBrowser: true,
  summary: 'Encode text or bytes as Base32 (RFC 4648, base32hex or Crockford), or decode it',
  title: 'Base32',
  aliases: ['base32hex', 'crockford', 'rfc 4648'],
  description:
    'Encodes the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) as Base32: the RFC 4648 §6 alphabet (`rfc4648`), the extended-hex alphabet of §7 (`hex`), ' +
    "or Douglas Crockford's alphabet (`crockford`, applied to the same 5-bit groups as RFC 4648, never padded, without check symbols). Encoded text is upper case. " +
    'Decoding is case-insensitive, ignores whitespace (and hyphens for Crockford, where I and L read as 1 and O as 0) and accepts missing padding; any other character, ' +
    'wrong padding, a length that cannot hold whole bytes (1, 3 or 6 symbols more than a multiple of 8) or a last symbol with non-zero unused bits is a 422 naming its position. ' +
    'Decoded bytes that are not UTF-8 are refused with 422 unless `outputEncoding` asks for hex, base64 or latin1.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the Base32 to decode. May be empty.', examples: ['foobar'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode `input` to Base32, or decode Base32 in `input`.' }), 'encode'),
      variant: withDefault(
        Type.Enum(['rfc4648', 'hex', 'crockford'], {
          description:
            'The alphabet: `rfc4648` (A–Z 2–7, RFC 4648 §6), `hex` (0–9 A–V, RFC 4648 §7, keeps sort order) or `crockford` (0–9 and letters without I L O U).',
        }),
        'rfc4648',
      ),
      padding: Type.Optional(
        Type.Boolean({
          description:
            "Pad the encoded text with '=' to a multiple of 8 characters. Default: true for `rfc4648` and `hex`; Crockford base32 never pads, so `true` is refused with it. Decoding always accepts text with or without padding.",
        }),
      ),
      ...codecEncodingFields(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The Base32 text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'variant', 'padding', 'inputEncoding'] },
    decode: { fields: ['input', 'variant', 'outputEncoding'] },
  },
  examples: [
    { summary: 'Encode text', input: { input: 'foobar' }, output: { result: 'MZXW6YTBOI======', action: 'encode' } },
    { summary: 'Decode, lower case and unpadded', input: { input: 'mzxw6ytboi', action: 'decode' }, output: { result: 'foobar', action: 'decode' } },
    {
      summary: 'Extended-hex alphabet, unpadded',
      input: { input: 'foobar', variant: 'hex', padding: false },
      output: { result: 'CPNMUOJ1E8', action: 'encode' },
    },
    {
      summary: 'Crockford, hyphens and look-alike letters',
      input: { input: 'csqp-yrki-e8', action: 'decode', variant: 'crockford' },
      output: { result: 'foobar', action: 'decode' },
    },
    {
      summary: 'Decode bytes that are not text, as hex',
      input: { input: '74======', action: 'decode', outputEncoding: 'hex' },
      output: { result: 'ff', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, variant, padding, inputEncoding, outputEncoding }) {
    if (variant === 'crockford' && padding === true) throw validationError('padding', 'must not be true with variant crockford, which never pads')
    if (action === 'encode') {
      return { result: encodeBase32(textToBytes(input, inputEncoding), variant, padding ?? true), action }
    }
    const bytes = decodeBase32(input, variant)
    assertOutputWithinLimit(writtenLength(bytes, outputEncoding))
    return { result: bytesToText(bytes, outputEncoding), action }
  },
})
