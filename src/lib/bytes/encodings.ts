import { isUtf8 } from 'node:buffer'
import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { withDefault } from '../../core/operation.ts'

export const BYTE_ENCODINGS = ['utf8', 'hex', 'base64', 'latin1'] as const
export type ByteEncoding = (typeof BYTE_ENCODINGS)[number]

/** The `inputEncoding` field shared by every operation that reads bytes from `input`. */
export const inputEncodingField = (
  description = 'How `input` is turned into bytes: UTF-8 text, hex digits, base64, or Latin-1 text (one byte per character, U+0000–U+00FF).',
) => withDefault(Type.Enum(BYTE_ENCODINGS, { description }), 'utf8')

/** The `outputEncoding` field shared by every operation that produces bytes. */
export const outputEncodingField = (
  description = 'How the produced bytes are written: UTF-8 text (refused with 422 if the bytes are not valid UTF-8), hex, base64, or Latin-1 text.',
) => withDefault(Type.Enum(BYTE_ENCODINGS, { description }), 'utf8')

/** `inputEncoding` and `outputEncoding` of a codec that encodes bytes to text and decodes them back. */
export const codecEncodingFields = () => ({
  inputEncoding: inputEncodingField('When encoding: how `input` is turned into bytes (`utf8` text, `hex`, `base64`, or `latin1`).'),
  outputEncoding: outputEncodingField(
    'When decoding: how the decoded bytes are written. `utf8` refuses bytes that are not valid UTF-8 (422); `hex`, `base64` and `latin1` take any bytes.',
  ),
})

const BASE64_CHAR = /[A-Za-z0-9+/\-_]/
const HEX_DIGIT = /[0-9a-fA-F]/
const WHITESPACE = /\s/

/** Reads `text` as bytes in the given encoding; anything that is not that encoding is a 422 with its position. */
export function textToBytes(text: string, encoding: ByteEncoding, field = 'input'): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8')
    case 'latin1':
      assertLatin1(text, field, 'inputEncoding')
      return Buffer.from(text, 'latin1')
    case 'hex': {
      // Positions are counted in the text as sent, whitespace included.
      let digits = 0
      for (let i = 0; i < text.length; i++) {
        if (WHITESPACE.test(text[i])) continue
        if (!HEX_DIGIT.test(text[i])) throw invalidInput(`${field} is not hex: '${text[i]}' at position ${i} is not a hex digit`, { field, position: i })
        digits++
      }
      if (digits % 2 !== 0) throw invalidInput(`${field} has an odd number of hex digits (${digits}); each byte takes two`, { field })
      return Buffer.from(text.replace(/\s+/g, ''), 'hex')
    }
    case 'base64': {
      let symbols = 0
      let padding = 0
      for (let i = 0; i < text.length; i++) {
        if (WHITESPACE.test(text[i])) continue
        if (text[i] === '=' && padding < 2) padding++
        else if (padding === 0 && BASE64_CHAR.test(text[i])) symbols++
        else throw invalidInput(`${field} is not base64: '${text[i]}' at position ${i} is not a base64 character here`, { field, position: i })
      }
      if (symbols % 4 === 1) throw invalidInput(`${field} is not base64: ${symbols} characters cannot encode whole bytes`, { field })
      return Buffer.from(text.replace(/[\s=]+/g, ''), 'base64')
    }
  }
}

/** Refuses a character above U+00FF, naming it, its position and the field that would take it as UTF-8. */
export function assertLatin1(text: string, field: string, encodingField: string): void {
  const position = text.search(/[^\u0000-\u00ff]/u)
  if (position < 0) return
  const codePoint = text.codePointAt(position)!
  throw invalidInput(
    `'${String.fromCodePoint(codePoint)}' (U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}) at position ${position} is outside Latin-1 (U+0000–U+00FF); set ${encodingField} to utf8 for such text`,
    { field, position },
  )
}

/**
 * Writes bytes as text in the given encoding. Bytes that are not valid UTF-8 are refused with a hint
 * rather than replaced with U+FFFD.
 */
export function bytesToText(bytes: Uint8Array, encoding: ByteEncoding): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  switch (encoding) {
    case 'utf8': {
      if (!isUtf8(buffer)) {
        const position = firstInvalidUtf8Offset(buffer)
        throw invalidInput(
          `The decoded bytes are not valid UTF-8 (first bad byte at offset ${position}); ask for outputEncoding hex, base64 or latin1 to get them as they are`,
          { position, hint: 'set outputEncoding to hex, base64 or latin1' },
        )
      }
      return buffer.toString('utf8')
    }
    case 'latin1':
      return buffer.toString('latin1')
    case 'hex':
      return buffer.toString('hex')
    case 'base64':
      return buffer.toString('base64')
  }
}

/** The offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]
    if (lead < 0x80) {
      i++
      continue
    }
    let length: number
    let min: number
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80]
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800]
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000]
    else return i
    let codePoint = lead & (0xff >> (length + 1))
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) return i
      codePoint = (codePoint << 6) | (next & 0x3f)
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i
    i += length
  }
  return -1
}
