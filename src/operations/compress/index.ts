import zlib from 'node:zlib'
import { Type } from 'typebox'
import { invalidInput, isDevutilsError, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { BYTE_ENCODINGS, type ByteEncoding, bytesToText, textToBytes } from '../../lib/bytes/encodings.ts'
import { INFLATE_FORMATS, type Inflated, type InflateFormat, inflate, MAX_INFLATE_RATIO, RATIO_GRACE_BYTES } from '../../lib/bytes/inflate.ts'

export const COMPRESSION_FORMATS = INFLATE_FORMATS
type Format = InflateFormat

const ACTIONS = ['compress', 'decompress'] as const
const MAX_ZLIB_LEVEL = 9
const MAX_BROTLI_LEVEL = 11

/** The longest `input` accepted, in characters: 16 MiB, the size of the largest answer. */
export const MAX_INPUT_LENGTH = OUTPUT_LIMIT_BYTES

/**
 * Compression above this many characters of input runs on a worker thread, and brotli at high levels
 * sooner. Decompression of more than 1 KiB, or of any brotli stream, goes there too: a few bytes of
 * brotli can expand to a mebibyte (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
const COMPRESS_OFFLOAD_CHARACTERS = 16 * 1024
const SLOW_BROTLI_OFFLOAD_CHARACTERS = 4 * 1024
const DECOMPRESS_OFFLOAD_CHARACTERS = 1024

/** How many output characters (UTF-8 bytes in the answer) each decompressed byte costs at most, per encoding. */
const OUTPUT_BYTES_PER_BYTE: Record<ByteEncoding, number> = { utf8: 1, latin1: 2, hex: 2, base64: 4 / 3 }

/**
 * The bytes a decompressed byte takes in the answer's JSON when written as text (utf8 and latin1):
 * a control character is escaped (`\u0000`, or `\n` and the like), `"` and `\` too; latin1 writes
 * the upper half as two UTF-8 bytes. The bytes of a multi-byte UTF-8 character stay as they are.
 */
const JSON_BYTES_OF_BYTE: Record<'utf8' | 'latin1', Uint8Array> = { utf8: jsonBytesOfByte(1), latin1: jsonBytesOfByte(2) }

function jsonBytesOfByte(upperHalf: number): Uint8Array {
  const table = new Uint8Array(256).fill(1, 0x20, 0x80).fill(upperHalf, 0x80)
  table.fill(6, 0, 0x20)
  for (const escapedShort of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) table[escapedShort] = 2
  return table
}

/**
 * The size of decompressed bytes written as text in the answer's JSON, counted from the bytes before
 * the text is built: zeros decompress from next to nothing and take six bytes each as `\u0000`.
 */
function jsonLengthOf(bytes: Buffer, bytesOfByte: Uint8Array): number {
  let length = 0
  for (let i = 0; i < bytes.length; i++) length += bytesOfByte[bytes[i]]
  return length
}

const FORMAT_NAMES: Record<Format, string> = { gzip: 'gzip', deflate: 'zlib (deflate)', 'deflate-raw': 'raw deflate', brotli: 'brotli' }

function compressBytes(bytes: Buffer, format: Format, level: number): Buffer {
  switch (format) {
    case 'gzip':
      return zlib.gzipSync(bytes, { level })
    case 'deflate':
      return zlib.deflateSync(bytes, { level })
    case 'deflate-raw':
      return zlib.deflateRawSync(bytes, { level })
    case 'brotli':
      return zlib.brotliCompressSync(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: level, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      })
  }
}

const hex = (byte: number) => byte.toString(16).padStart(2, '0')

/** Header checks that zlib makes too, but without saying where: here the message names the byte. */
export function assertHeader(bytes: Buffer, format: Format): void {
  if (format === 'gzip') {
    if (bytes.length >= 1 && bytes[0] !== 0x1f) throw notFormat(format, 0, `is ${hex(bytes[0])}, not 1f (gzip data starts with 1f 8b)`)
    if (bytes.length >= 2 && bytes[1] !== 0x8b) throw notFormat(format, 1, `is ${hex(bytes[1])}, not 8b (gzip data starts with 1f 8b)`)
    if (bytes.length >= 3 && bytes[2] !== 8) throw notFormat(format, 2, `names compression method ${bytes[2]}, not 8 (deflate), the only one gzip defines`)
  } else if (format === 'deflate' && bytes.length >= 2) {
    if ((bytes[0] & 0x0f) !== 8) throw notFormat(format, 0, `names compression method ${bytes[0] & 0x0f}, not 8 (deflate)`)
    if ((bytes[0] * 256 + bytes[1]) % 31 !== 0) throw notFormat(format, 1, `fails the header check (${hex(bytes[0])}${hex(bytes[1])} is not a multiple of 31)`)
  }
}

function notFormat(format: Format, position: number, what: string) {
  return invalidInput(`The input is not ${FORMAT_NAMES[format]} data: byte ${position} ${what}`, { position, reason: 'header' })
}

/** zlib's errors as 422s: a stream cut short, or bytes that are not a valid stream. */
function decompressionError(error: unknown, bytes: Buffer, format: Format): Error {
  if (isDevutilsError(error)) return error
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (code === 'Z_BUF_ERROR') {
    // zlib reads whatever follows a gzip member as the start of another, so a stray byte there looks like a cut.
    const or = format === 'gzip' && bytes.length > 0 ? ' (or a stray byte follows a gzip member)' : ''
    return invalidInput(`The ${FORMAT_NAMES[format]} data is truncated${or}: its ${bytes.length} bytes end before the compressed stream does`, {
      position: bytes.length,
      reason: 'truncated',
    })
  }
  if (typeof code === 'string' && code.startsWith('ERR__ERROR_FORMAT_')) {
    const reason = code.slice('ERR__ERROR_FORMAT_'.length).toLowerCase()
    return invalidInput(`The brotli data is corrupt (format error: ${reason.replaceAll('_', ' ')})`, { reason })
  }
  if (format === 'gzip' && message === 'incorrect header check') {
    // The first member's header was checked before: this is whatever follows the first member.
    return invalidInput('The bytes after the end of the gzip data are not another gzip member; remove them', { reason: 'trailing data' })
  }
  if (typeof code === 'string') return invalidInput(`The ${FORMAT_NAMES[format]} data is corrupt: ${String(message)}`, { reason: String(message) })
  throw error
}

function encodingField(description: string) {
  return Type.Optional(Type.Enum(BYTE_ENCODINGS, { description }))
}

const ratioOf = (original: number, compressed: number) => (compressed === 0 ? 0 : Math.round((original / compressed) * 1000) / 1000)

export const compress = defineOperation({
  name: 'compress',
  category: 'encoders',
  summary: 'Compress text or bytes with gzip, deflate or brotli, or decompress them',
  title: 'Compress and decompress',
  labels: { choices: { format: { 'deflate-raw': 'raw deflate' } } },
  aliases: ['gzip', 'gunzip', 'zlib', 'deflate', 'inflate', 'brotli', 'zip', 'unzip'],
  description:
    'Compresses the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) as gzip (RFC 1952), zlib-wrapped deflate (RFC 1950, `deflate`), raw deflate (RFC 1951, `deflate-raw`) or brotli (RFC 7932), ' +
    'and writes the compressed bytes as base64 (or hex, or Latin-1); `decompress` reads them back. ' +
    'gzip output has no file name and a zero modification time, so the same input always gives the same bytes; concatenated gzip members decompress as one. ' +
    'Decompression stops as soon as the output would pass the 16 MiB output limit (in the chosen outputEncoding), ' +
    `or, past ${RATIO_GRACE_BYTES / (1024 * 1024)} MiB, ${MAX_INFLATE_RATIO} times the size of the compressed data (more than deflate can expand; brotli can), so a zip bomb is a 422 LIMIT_EXCEEDED that costs little; ` +
    'the limit counts the result as its JSON is written, where a control character takes six bytes (`\\u0000`). ' +
    'Data that is truncated, corrupt, or followed by extra bytes is a 422 INVALID_INPUT; decompressed bytes that are not UTF-8 are a 422 unless `outputEncoding` asks for hex, base64 or latin1. ' +
    '`ratio` is the uncompressed size divided by the compressed size.',
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT_LENGTH,
        description:
          'The text or bytes to compress (see `inputEncoding`), or the compressed bytes to decompress, as base64 unless `inputEncoding` says otherwise.',
        examples: ['hello'],
      }),
      action: withDefault(Type.Enum(ACTIONS, { description: 'Compress `input`, or decompress the compressed bytes in `input`.' }), 'compress'),
      format: withDefault(
        Type.Enum(COMPRESSION_FORMATS, {
          description:
            'The format: `gzip` (RFC 1952), `deflate` (the zlib wrapper of RFC 1950, what HTTP calls deflate), `deflate-raw` (bare RFC 1951 deflate, as inside ZIP files) or `brotli` (RFC 7932).',
        }),
        'gzip',
      ),
      level: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: MAX_BROTLI_LEVEL,
          description:
            'When compressing: 0 (fastest; gzip and deflate store the bytes uncompressed) to 9 (smallest) for gzip, deflate and deflate-raw, 0 to 11 for brotli (its quality). Above 9 with a zlib format is a 400.',
        }),
        6,
      ),
      inputEncoding: encodingField(
        'How `input` is turned into bytes. Default: `utf8` text when compressing, `base64` when decompressing (where `utf8` is refused: compressed data is not text).',
      ),
      outputEncoding: encodingField(
        'How the produced bytes are written. Default: `base64` when compressing (where `utf8` is refused), `utf8` when decompressing (refused with 422 if the bytes are not valid UTF-8).',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The compressed bytes in `outputEncoding` (base64 by default), or the decompressed text or bytes.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    format: Type.Enum(COMPRESSION_FORMATS, { description: 'The format used.' }),
    level: Type.Optional(Type.Integer({ description: 'The compression level used; only when compressing (a stream does not record it).' })),
    originalBytes: Type.Integer({ description: 'The size of the uncompressed data, in bytes.' }),
    compressedBytes: Type.Integer({ description: 'The size of the compressed data, in bytes.' }),
    ratio: Type.Number({ description: 'originalBytes ÷ compressedBytes, to 3 decimals: above 1 the data shrank. 0 when the original is empty.' }),
  }),
  actions: {
    compress: { fields: ['input', 'format', 'level', 'inputEncoding', 'outputEncoding'] },
    decompress: { fields: ['input', 'format', 'inputEncoding', 'outputEncoding'] },
  },
  examples: [
    {
      summary: 'gzip text (the default), written as base64',
      input: { input: 'hello' },
      output: {
        result: 'H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==',
        action: 'compress',
        format: 'gzip',
        level: 6,
        originalBytes: 5,
        compressedBytes: 25,
        ratio: 0.2,
      },
    },
    {
      summary: 'Decompress a gzip stream given as base64',
      input: { input: 'H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==', action: 'decompress' },
      output: { result: 'hello', action: 'decompress', format: 'gzip', originalBytes: 5, compressedBytes: 25, ratio: 0.2 },
    },
    {
      summary: 'Brotli at its highest level, written as hex',
      input: { input: 'abcabcabcabcabcabcabcabcabcabc', format: 'brotli', level: 11, outputEncoding: 'hex' },
      output: { result: '1b1d00f825c3c4c6829b20a01a', action: 'compress', format: 'brotli', level: 11, originalBytes: 30, compressedBytes: 13, ratio: 2.308 },
    },
    {
      summary: 'Inflate a zlib stream given as hex',
      input: { input: '789ccb48cdc9c90700062c0215', action: 'decompress', format: 'deflate', inputEncoding: 'hex' },
      output: { result: 'hello', action: 'decompress', format: 'deflate', originalBytes: 5, compressedBytes: 13, ratio: 0.385 },
    },
  ],
  offload({ input, action, format, level }) {
    if (action === 'decompress') return format === 'brotli' || input.length > DECOMPRESS_OFFLOAD_CHARACTERS
    return input.length > (format === 'brotli' && level >= 9 ? SLOW_BROTLI_OFFLOAD_CHARACTERS : COMPRESS_OFFLOAD_CHARACTERS)
  },
  run({ input, action, format, level, inputEncoding, outputEncoding }) {
    if (action === 'compress') {
      if (format !== 'brotli' && level > MAX_ZLIB_LEVEL)
        throw validationError('level', `must be at most ${MAX_ZLIB_LEVEL} for ${format}; only brotli goes to 11`)
      if (outputEncoding === 'utf8') throw validationError('outputEncoding', 'must be base64, hex or latin1 when compressing: compressed bytes are not text')
      const encoding = outputEncoding ?? 'base64'
      const original = textToBytes(input, inputEncoding ?? 'utf8')
      const compressed = compressBytes(original, format, level)
      assertOutputWithinLimit(Math.ceil(compressed.length * OUTPUT_BYTES_PER_BYTE[encoding]))
      return {
        result: bytesToText(compressed, encoding),
        action,
        format,
        level,
        originalBytes: original.length,
        compressedBytes: compressed.length,
        ratio: ratioOf(original.length, compressed.length),
      }
    }
    if (inputEncoding === 'utf8') throw validationError('inputEncoding', 'must be base64, hex or latin1 when decompressing: compressed bytes are not text')
    const encoding = outputEncoding ?? 'utf8'
    const compressed = textToBytes(input, inputEncoding ?? 'base64')
    assertHeader(compressed, format)
    const maxBytes = Math.floor(OUTPUT_LIMIT_BYTES / OUTPUT_BYTES_PER_BYTE[encoding])
    let inflated: Inflated
    try {
      inflated = inflate(compressed, format, { maxBytes, subject: 'The data', reason: 'the most that fits the output limit in this outputEncoding' })
    } catch (error) {
      throw decompressionError(error, compressed, format)
    }
    const used = inflated.bytesRead
    const extra = compressed.length - used
    if (extra > 0) {
      throw invalidInput(
        `The ${FORMAT_NAMES[format]} stream ends at byte ${used}, but ${extra === 1 ? '1 more byte follows' : `${extra} more bytes follow`}; remove them`,
        {
          position: used,
          reason: 'trailing data',
        },
      )
    }
    const original = inflated.output
    // hex and base64 were held to the limit as they were decompressed; text can grow in its JSON.
    if (encoding === 'utf8' || encoding === 'latin1') assertOutputWithinLimit(jsonLengthOf(original, JSON_BYTES_OF_BYTE[encoding]))
    return {
      result: bytesToText(original, encoding),
      action,
      format,
      originalBytes: original.length,
      compressedBytes: compressed.length,
      ratio: ratioOf(original.length, compressed.length),
    }
  },
})
