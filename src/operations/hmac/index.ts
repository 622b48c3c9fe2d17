import { createHmac } from 'node:crypto'
import { Type } from 'typebox'
import { invalidInput, isDevutilsError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { inputEncodingField, textToBytes } from '../../lib/bytes/encodings.ts'
import {
  algorithmField,
  canonicalAlgorithm,
  DIGEST_ENCODINGS,
  digestEncodingField,
  digestMatches,
  expectedField,
  updateInSlices,
} from '../../lib/crypto/digest.ts'

/**
 * Hex or base64 inputs longer than this are read and authenticated on a worker thread: decoding them is
 * JavaScript, linear but slow enough past this length to hold the event loop for tens of
 * milliseconds. Text needs no such help: it becomes bytes natively, and the code yields to the
 * event loop between slices (see `updateInSlices`) (docs/PERFORMANCE.md, "Offload thresholds and
 * cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export const HMAC_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-384', 'sha3-512'] as const
type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number]

const KEY_ENCODINGS = ['utf8', 'hex', 'base64'] as const

/**
 * The key as bytes. The decoders' own messages quote the offending character, which here would be
 * part of the secret, so their errors are reworded to give only where the problem is.
 */
function keyBytes(key: string, keyEncoding: (typeof KEY_ENCODINGS)[number]): Buffer {
  try {
    return textToBytes(key, keyEncoding, 'key')
  } catch (error) {
    if (!isDevutilsError(error)) throw error
    const position = (error.details as { position?: number } | undefined)?.position
    if (position === undefined) {
      throw invalidInput(`key is not valid ${keyEncoding}: its length cannot encode whole bytes`, { field: 'key' })
    }
    throw invalidInput(`key is not valid ${keyEncoding}: the character at position ${position} (not counting whitespace) is not allowed`, {
      field: 'key',
      position,
    })
  }
}

export const hmac = defineOperation({
  name: 'hmac',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Compute or verify an HMAC (RFC 2104) with MD5, SHA-1, SHA-2 or SHA-3',
  title: 'HMAC',
  aliases: ['signature', 'message authentication code', 'webhook signature', 'keyed hash'],
  description:
    'Computes the keyed-hash message authentication code of `input` under `key` (RFC 2104), written as hex, base64 or base64url. ' +
    'The key is UTF-8 text by default, or bytes given as hex or base64; it is never echoed in a response or an error message. ' +
    'Algorithm names follow the rules of `hash`: any letter case, and a hyphen may follow "sha" (SHA-256, SHA3-256). ' +
    'With `expected`, `matches` tells whether it equals the code, compared in constant time (hex in any letter case; base64 with or without padding).',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The message (text, or encoded bytes, see `inputEncoding`). May be empty.',
        examples: ['what do ya want for nothing?'],
      }),
      key: Type.String({
        maxLength: 4096,
        writeOnly: true,
        description: 'The secret key, written in `keyEncoding`; may be empty, at most 4096 characters. Never echoed back, never logged.',
      }),
      keyEncoding: withDefault(Type.Enum(KEY_ENCODINGS, { description: 'How `key` is turned into bytes: UTF-8 text, hex digits, or base64.' }), 'utf8'),
      algorithm: algorithmField(
        HMAC_ALGORITHMS,
        `The hash function, one of ${HMAC_ALGORITHMS.join(', ')}; any letter case, and a hyphen may follow "sha" (SHA-256, SHA3-256 work too).`,
      ),
      inputEncoding: inputEncodingField(),
      encoding: digestEncodingField('How the code is written: lower-case `hex`, `base64`, or unpadded `base64url`.'),
      expected: expectedField(
        'A code to verify, written in `encoding`: `matches` then tells whether it is the HMAC of `input` under `key`, compared in constant time. Hex is compared in any letter case; base64 and base64url with or without "=" padding.',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The HMAC, written in `encoding`.' }),
    algorithm: Type.Enum(HMAC_ALGORITHMS, { description: 'The canonical name of the hash function used.' }),
    encoding: Type.Enum(DIGEST_ENCODINGS, { description: 'How `result` is written.' }),
    matches: Type.Optional(Type.Boolean({ description: 'Present only when `expected` was given: whether it equals the HMAC.' })),
  }),
  examples: [
    {
      summary: 'HMAC-SHA256 (RFC 4231 test case 2)',
      input: { input: 'what do ya want for nothing?', key: 'Jefe' },
      output: { result: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', algorithm: 'sha256', encoding: 'hex' },
    },
    {
      summary: 'HMAC-SHA1 with a hex key, as base64 (RFC 2202 test case 1)',
      input: { input: 'Hi There', key: '0b'.repeat(20), keyEncoding: 'hex', algorithm: 'SHA-1', encoding: 'base64' },
      output: { result: 'thcxhlUFcmTii8C2+zeMjvFGvgA=', algorithm: 'sha1', encoding: 'base64' },
    },
    {
      summary: 'Verify a code given in upper-case hex',
      input: {
        input: 'what do ya want for nothing?',
        key: 'Jefe',
        algorithm: 'SHA-256',
        expected: '5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843',
      },
      output: { result: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', algorithm: 'sha256', encoding: 'hex', matches: true },
    },
  ],
  verdict: { field: 'matches', failure: 'the HMAC does not match --expected' },
  offload: ({ input, inputEncoding }) => (inputEncoding === 'hex' || inputEncoding === 'base64') && input.length > OFFLOAD_LENGTH,
  async run({ input, key, keyEncoding, algorithm: spelling, inputEncoding, encoding, expected }) {
    const algorithm = canonicalAlgorithm<HmacAlgorithm>(spelling)
    const mac = createHmac(algorithm, keyBytes(key, keyEncoding))
    await updateInSlices(textToBytes(input, inputEncoding), (slice) => mac.update(slice))
    const result = mac.digest(encoding)
    return expected === undefined ? { result, algorithm, encoding } : { result, algorithm, encoding, matches: digestMatches(result, expected, encoding) }
  },
})
