import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type ByteEncoding, bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'
import { BASE58_ALPHABETS, ENCODINGS } from './alphabets.ts'
import { decodeBase45, encodeBase45 } from './base45.ts'
import { decodeAscii85, decodeRfc1924, decodeZ85, encodeAscii85, encodeRfc1924, encodeZ85 } from './base85.ts'
import { BECH32, BECH32_MAX_LENGTH, decodeBech32, encodeBech32 } from './bech32.ts'
import { decodeRadix, encodeRadix, RADIX, RADIX_MAX_BYTES, RADIX_MAX_CHARACTERS } from './radix.ts'

/** Past this many characters of input a radix encoding runs on a worker thread. */
export const RADIX_OFFLOAD_LENGTH = 1024
/** The linear encodings move to a worker thread only for large inputs. */
export const LINEAR_OFFLOAD_LENGTH = 64 * 1024

/** How long `bytes` become once written in `encoding`, to refuse an oversized result before building it. */
function writtenLength(bytes: Uint8Array, encoding: ByteEncoding): number {
  switch (encoding) {
    case 'hex':
      return bytes.length * 2
    case 'base64':
      return Math.ceil(bytes.length / 3) * 4
    case 'latin1':
      return bytes.length * 2
    case 'utf8':
      return bytes.length
  }
}

const EncodingEnum = Type.Enum(ENCODINGS, {
  description:
    '`base58` (Bitcoin, Flickr or Ripple alphabet), `base58check` (base58 with a 4-byte double-SHA-256 checksum), `base62` (0–9 A–Z a–z), `base36` (0–9 a–z), ' +
    '`base45` (RFC 9285), `ascii85` (Adobe, with `<~ ~>` and `z`), `z85` (ZeroMQ RFC 32), `base85-rfc1924` (RFC 1924, 16 bytes), `bech32` (BIP-173) or `bech32m` (BIP-350).',
})

export const baseEncoding = defineOperation({
  name: 'base-encoding',
  category: 'encoders',
  runsInBrowser: true,
  summary: 'Encode bytes as base58(check), base62, base36, base45, Ascii85, Z85, RFC 1924 base85 or bech32(m), or decode them',
  title: 'Base58, Base45, Base85 and Bech32',
  labels: { fields: { hrp: 'Human-readable part' } },
  aliases: [
    'base58',
    'base58check',
    'bitcoin address',
    'base62',
    'base36',
    'base45',
    'rfc 9285',
    'ascii85',
    'base85',
    'z85',
    'zeromq',
    'rfc 1924',
    'bech32',
    'bech32m',
    'segwit',
    'bip-173',
    'bip-350',
    'flickr',
    'ripple',
  ],
  description:
    'Encodes the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) in one of the less common base encodings, or decodes them. ' +
    "base58 (Bitcoin alphabet by default, or Flickr's or Ripple's), base58check (the payload followed by the first 4 bytes of its double SHA-256, as Bitcoin addresses and WIF keys are written), " +
    'base62 and base36 read the bytes as one big-endian number and write each leading zero byte as one zero digit; base36 decodes either case and writes lower case. ' +
    'base45 follows RFC 9285 (upper case only; a lone last character or a triple above 65535 is refused). ' +
    "ascii85 follows Adobe: `z` for four zero bytes, whitespace ignored anywhere, `<~ ~>` written unless `delimiters` is false and optional when decoding (Adobe's `y` for four spaces is not read). " +
    "z85 follows ZeroMQ RFC 32 (a multiple of 4 bytes, 5 characters). base85-rfc1924 is RFC 1924: exactly 16 bytes (an IPv6 address, given as hex) as one 128-bit number in 20 characters — not git's base85. " +
    "bech32 and bech32m (BIP-173, BIP-350) encode bytes under a human-readable part `hrp`; decoding answers `hrp`, the data part's 5-bit `words` and, when the text is a SegWit address " +
    '(HRP bc, tb or bcrt, witness version 0 in bech32 or 1–16 in bech32m, a program of 2–40 bytes, 20 or 32 for version 0), `segwit` with its version and program; `result` is then the program, ' +
    'and otherwise the words read as bytes (bits that do not fill a last byte are dropped; `words` keeps them). A string whose checksum holds only as the other variant is refused with a message that says so. ' +
    'Decoding ignores whitespace around the text; a character outside the alphabet is a 422 naming its position, and so are a checksum mismatch and a length the encoding cannot have. ' +
    `base58, base58check, base62 and base36 cost the square of the length: at most ${RADIX_MAX_BYTES} bytes (base58check: ${RADIX_MAX_BYTES - 4} and its checksum) or ${RADIX_MAX_CHARACTERS} characters, ` +
    `and bech32 at most ${BECH32_MAX_LENGTH} characters, else 422 LIMIT_EXCEEDED. Decoded bytes that are not UTF-8 are refused with 422 unless \`outputEncoding\` asks for hex, base64 or latin1.`,
  input: Type.Object(
    {
      input: Type.String({ description: 'The text or bytes to encode, or the encoded text to decode. May be empty.', examples: ['Hello World!'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode `input`, or decode the encoded text in `input`.' }), 'encode'),
      encoding: EncodingEnum,
      alphabet: Type.Optional(
        Type.Enum(BASE58_ALPHABETS, {
          description: 'For base58 and base58check only: the alphabet, `bitcoin` (the default; also IPFS), `flickr` or `ripple` (XRP).',
        }),
      ),
      delimiters: Type.Optional(
        Type.Boolean({
          description: 'For ascii85 only: write the `<~` `~>` delimiters when encoding (default true). Decoding reads text with or without them.',
        }),
      ),
      hrp: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 83,
          pattern: '^[\\x21-\\x7e]+$',
          description:
            'For bech32 and bech32m: the human-readable part, 1–83 US-ASCII characters 33–126 (`bc` for Bitcoin, `tb` for testnet), written lower case. Required to encode; when decoding, the HRP the text must have.',
          examples: ['bc'],
        }),
      ),
      ...codecEncodingFields(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The encoded text (encode) or the decoded bytes, written as `outputEncoding` says (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
    encoding: Type.Enum(ENCODINGS, { description: 'The encoding used.' }),
    hrp: Type.Optional(Type.String({ description: 'bech32 and bech32m: the human-readable part, lower case.' })),
    words: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0, maximum: 31 }), { description: 'bech32 and bech32m decode: the data part as 5-bit values, without the checksum.' }),
    ),
    segwit: Type.Optional(
      Type.Object(
        {
          version: Type.Integer({ minimum: 0, maximum: 16, description: 'The witness version.' }),
          program: Type.String({ description: 'The witness program, lower-case hex.' }),
        },
        { description: 'bech32 and bech32m decode of a SegWit address (BIP-173, BIP-350): its witness version and program.' },
      ),
    ),
  }),
  actions: {
    encode: { fields: ['input', 'encoding', 'alphabet', 'delimiters', 'hrp', 'inputEncoding'] },
    decode: { fields: ['input', 'encoding', 'alphabet', 'hrp', 'outputEncoding'] },
  },
  examples: [
    {
      summary: 'Encode text as base58',
      input: { input: 'Hello World!', encoding: 'base58' },
      output: { result: '2NEpo7TZRRrLZSi2U', action: 'encode', encoding: 'base58' },
    },
    {
      summary: 'Decode a Bitcoin address (base58check), as hex',
      input: { input: '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs', action: 'decode', encoding: 'base58check', outputEncoding: 'hex' },
      output: { result: '00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31', action: 'decode', encoding: 'base58check' },
    },
    {
      summary: 'Z85 of bytes given as hex (ZeroMQ RFC 32)',
      input: { input: '864FD26FB559F75B', encoding: 'z85', inputEncoding: 'hex' },
      output: { result: 'HelloWorld', action: 'encode', encoding: 'z85' },
    },
    {
      summary: 'Decode a bech32m SegWit address',
      input: { input: 'BC1SW50QGDZ25J', action: 'decode', encoding: 'bech32m', outputEncoding: 'hex' },
      output: { result: '751e', action: 'decode', encoding: 'bech32m', hrp: 'bc', words: [16, 14, 20, 15, 0], segwit: { version: 16, program: '751e' } },
    },
  ],
  offload: ({ input, encoding }) => input.length > (RADIX.has(encoding) ? RADIX_OFFLOAD_LENGTH : LINEAR_OFFLOAD_LENGTH),
  async run({ input, action, encoding, alphabet, delimiters, hrp, inputEncoding, outputEncoding }) {
    if (alphabet !== undefined && encoding !== 'base58' && encoding !== 'base58check') {
      throw validationError('alphabet', 'applies only to base58 and base58check')
    }
    if (delimiters !== undefined && encoding !== 'ascii85') throw validationError('delimiters', 'applies only to ascii85')
    if (hrp !== undefined && !BECH32.has(encoding)) throw validationError('hrp', 'applies only to bech32 and bech32m')
    const base58Alphabet = alphabet ?? 'bitcoin'
    if (action === 'encode') {
      const bytes = textToBytes(input, inputEncoding)
      let result: string
      if (RADIX.has(encoding)) result = await encodeRadix(bytes, encoding, base58Alphabet)
      else if (encoding === 'base45') {
        assertOutputWithinLimit(Math.ceil(bytes.length / 2) * 3)
        result = encodeBase45(bytes)
      } else if (encoding === 'ascii85') result = encodeAscii85(bytes, delimiters ?? true)
      else if (encoding === 'z85') result = encodeZ85(bytes)
      else if (encoding === 'base85-rfc1924') result = encodeRfc1924(bytes)
      else {
        if (hrp === undefined) throw validationError('hrp', `is required to encode ${encoding}: the human-readable part, such as bc`)
        return { result: await encodeBech32(bytes, encoding as 'bech32' | 'bech32m', hrp), action, encoding, hrp: hrp.toLowerCase() }
      }
      return { result, action, encoding }
    }
    if (BECH32.has(encoding)) {
      const decoded = await decodeBech32(input, encoding as 'bech32' | 'bech32m', hrp)
      const answer = { result: bytesToText(decoded.bytes, outputEncoding), action, encoding, hrp: decoded.hrp, words: decoded.words }
      return decoded.segwit ? { ...answer, segwit: decoded.segwit } : answer
    }
    let bytes: Uint8Array
    if (RADIX.has(encoding)) bytes = await decodeRadix(input, encoding, base58Alphabet)
    else if (encoding === 'base45') bytes = decodeBase45(input)
    else if (encoding === 'ascii85') bytes = decodeAscii85(input)
    else if (encoding === 'z85') bytes = decodeZ85(input)
    else bytes = decodeRfc1924(input)
    assertOutputWithinLimit(writtenLength(bytes, outputEncoding))
    return { result: bytesToText(bytes, outputEncoding), action, encoding }
  },
})
