import { isUtf8 } from 'node:buffer'
import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { withDefault } from '../../core/operation.ts'
import { showCharacterAt } from '../text/charsets.ts'
import { assertLatin1, firstInvalidUtf8Offset } from './encodings.ts'

/**
 * Bytes written as digits, one fixed-width group per byte: binary (8 digits) for binary-text and
 * hex (2 digits) for hex-text. Both read leniently and write with a chosen separator.
 */
export interface ByteDigits {
  radix: 2 | 16
  /** How one digit is called in messages: "bit", "hex digit". */
  digitName: string
  /** Characters skipped when reading, besides whitespace. */
  separators: string
  /** The letter of a `0?` prefix, skipped at the start of the input or after a separator. */
  prefixLetter: 'b' | 'x'
  /** A prefix skipped anywhere, for `\x48\x69`. */
  escapePrefix?: string
  /** What a reader may write, for error messages. */
  allowed: string
}

export const BINARY_DIGITS: ByteDigits = {
  radix: 2,
  digitName: 'bit',
  separators: ',',
  prefixLetter: 'b',
  allowed: 'only 0 and 1, whitespace, commas and 0b prefixes are allowed',
}

export const HEX_DIGITS: ByteDigits = {
  radix: 16,
  digitName: 'hex digit',
  separators: ':-,',
  prefixLetter: 'x',
  escapePrefix: '\\x',
  allowed: 'only 0-9, a-f, whitespace, the separators : - , and 0x or \\x prefixes are allowed',
}

const digitsPerByte = (radix: 2 | 16) => (radix === 2 ? 8 : 2)

/** The `encoding` field of both operations: how text and bytes map onto each other. */
export const textEncodingField = () =>
  withDefault(
    Type.Enum(['utf8', 'latin1'], {
      description:
        'How text maps to bytes: `utf8`, or `latin1` (one byte per character, U+0000–U+00FF). When reading digits, bytes that are not valid UTF-8 are refused (422) unless this is `latin1`.',
    }),
    'utf8',
  )

export type TextEncoding = 'utf8' | 'latin1'

/** The bytes of `text`; with latin1, a character above U+00FF is a 422 naming its position. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  if (encoding === 'latin1') assertLatin1(text, 'input', 'encoding')
  return Buffer.from(text, encoding)
}

/** Writes each byte as a fixed-width group of digits, groups joined by `separator`. */
export function formatBytes(bytes: Uint8Array, format: ByteDigits, separator: string, uppercase = false): string {
  if (bytes.length === 0) return ''
  const width = digitsPerByte(format.radix)
  const separatorBytes = Buffer.from(separator, 'utf8')
  // The result is measured as it will be sent: a separator such as a tab takes more room in JSON.
  const separatorInJson = Buffer.byteLength(JSON.stringify(separator)) - 2
  assertOutputWithinLimit(bytes.length * width + (bytes.length - 1) * separatorInJson)
  const table = Array.from({ length: 256 }, (_, byte) => byte.toString(format.radix).padStart(width, '0')).join('')
  const groups = Buffer.from(uppercase ? table.toUpperCase() : table, 'latin1')
  const step = width + separatorBytes.length
  const out = Buffer.allocUnsafe(bytes.length * step - separatorBytes.length)
  // Byte-by-byte copies: Buffer#copy per group costs more than the copying itself.
  let at = 0
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) for (let k = 0; k < separatorBytes.length; k++) out[at++] = separatorBytes[k]
    const from = bytes[i] * width
    for (let k = 0; k < width; k++) out[at++] = groups[from + k]
  }
  return out.toString('utf8')
}

const SKIP = -2
const FOREIGN = -1

/** For each ASCII code: its digit value, SKIP for whitespace and the format's separators, or FOREIGN. */
function asciiTable(format: ByteDigits): Int8Array {
  const table = new Int8Array(128).fill(FOREIGN)
  for (const char of ` \t\n\v\f\r${format.separators}`) table[char.charCodeAt(0)] = SKIP
  for (let digit = 0; digit < format.radix; digit++) {
    const char = digit.toString(format.radix)
    table[char.charCodeAt(0)] = digit
    table[char.toUpperCase().charCodeAt(0)] = digit
  }
  return table
}

/** The bytes read from digits, and where in the text each byte's first digit stands. */
export interface ReadBytes {
  bytes: Buffer
  positions: Int32Array
}

/**
 * Reads bytes written as digits, ignoring whitespace, the format's separators and prefixes. A
 * foreign character, or digits that do not fill the last byte, are 422s with a position in `text`.
 */
export function readBytes(text: string, format: ByteDigits): ReadBytes {
  const width = digitsPerByte(format.radix)
  const capacity = Math.ceil(text.length / width)
  const bytes = Buffer.alloc(capacity)
  const positions = new Int32Array(capacity)
  let byteCount = 0
  let digitCount = 0
  let value = 0
  let tokenStart = true
  const { radix, escapePrefix } = format
  const table = asciiTable(format)
  const prefixLetter = format.prefixLetter.charCodeAt(0)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (tokenStart && code === 0x30 && (text.charCodeAt(i + 1) | 0x20) === prefixLetter) {
      i++
      tokenStart = false
      continue
    }
    const kind = code < 0x80 ? table[code] : FOREIGN
    if (kind >= 0) {
      if (digitCount === 0) positions[byteCount] = i
      value = value * radix + kind
      if (++digitCount === width) {
        bytes[byteCount++] = value
        digitCount = 0
        value = 0
      }
      tokenStart = false
      continue
    }
    if (escapePrefix !== undefined && text.startsWith(escapePrefix, i)) {
      i += escapePrefix.length - 1
      tokenStart = false
      continue
    }
    if (kind === SKIP || (code >= 0x80 && /^\s$/u.test(text[i]))) {
      tokenStart = true
      continue
    }
    throw invalidInput(`${showCharacterAt(text, i)} at position ${i} is not a ${format.digitName}; ${format.allowed}`, { position: i })
  }
  if (digitCount !== 0) {
    const total = byteCount * width + digitCount
    const position = positions[byteCount]
    throw invalidInput(
      `${total} ${format.digitName}${total === 1 ? '' : 's'} cannot make whole bytes of ${width}: the last byte, starting at position ${position}, has only ${digitCount}`,
      { position },
    )
  }
  return { bytes: bytes.subarray(0, byteCount), positions: positions.subarray(0, byteCount) }
}

/** The text the bytes spell; bytes that are not UTF-8 are a 422 pointing at the digits of the first bad byte. */
export function decodeText({ bytes, positions }: ReadBytes, encoding: TextEncoding): string {
  if (encoding === 'utf8' && !isUtf8(bytes)) {
    const offset = firstInvalidUtf8Offset(bytes)
    throw invalidInput(
      `The bytes are not valid UTF-8: byte ${offset}, written at position ${positions[offset]}, cannot start or continue a character; set encoding to latin1 to read each byte as one character`,
      { position: positions[offset], byte: offset },
    )
  }
  return bytes.toString(encoding)
}
