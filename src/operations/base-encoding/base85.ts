/** The base-85 encodings: Ascii85 (Adobe), Z85 (ZeroMQ) and RFC 1924's, four bytes to five symbols. */

import { invalidInput } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'
import { RFC1924, SYMBOLS, symbolValues, trimmedSpan, Z85 } from './alphabets.ts'

// The base85 family: four bytes as one big-endian number written in five base-85 digits.
const ASCII85_ZERO = 'z'.charCodeAt(0)
const ASCII85_FIRST = '!'.charCodeAt(0)
const ASCII85_LAST = 'u'.charCodeAt(0)
/** Adobe's decoders skip these anywhere in the text. */
const ASCII85_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])

function fiveDigits(value: number, alphabet: string | null): string {
  let text = ''
  for (let k = 4; k >= 0; k--) {
    const digit = Math.floor(value / 85 ** k) % 85
    text += alphabet === null ? String.fromCharCode(ASCII85_FIRST + digit) : alphabet[digit]
  }
  return text
}

export function encodeAscii85(bytes: Uint8Array, delimiters: boolean): string {
  assertOutputWithinLimit(Math.ceil(bytes.length / 4) * 5 + 4)
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts: string[] = []
  const whole = bytes.length - (bytes.length % 4)
  for (let i = 0; i < whole; i += 4) {
    const value = buffer.readUInt32BE(i)
    parts.push(value === 0 ? 'z' : fiveDigits(value, null))
  }
  const rest = bytes.length - whole
  if (rest > 0) {
    const padded = Buffer.alloc(4)
    buffer.copy(padded, 0, whole)
    parts.push(fiveDigits(padded.readUInt32BE(0), null).slice(0, rest + 1))
  }
  const body = parts.join('')
  return delimiters ? `<~${body}~>` : body
}

export function decodeAscii85(text: string): Uint8Array {
  let { start, end } = trimmedSpan(text)
  if (text.startsWith('<~', start)) {
    if (end - start < 4 || !text.startsWith('~>', end - 2)) {
      throw invalidInput("Ascii85 text that opens with '<~' must close with '~>'", { position: end })
    }
    start += 2
    end -= 2
  } else if (text.startsWith('~>', end - 2) && end - 2 >= start) {
    end -= 2
  }
  // Each character gives at most four bytes ('z').
  const out = Buffer.allocUnsafe((end - start) * 4)
  let length = 0
  let value = 0
  let count = 0
  let groupStart = -1
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (ASCII85_WHITESPACE.has(code)) continue
    if (code === ASCII85_ZERO) {
      if (count > 0)
        throw invalidInput(`'z' at position ${i} falls inside a group of five; it may only stand for a whole group of four zero bytes`, { position: i })
      out.writeUInt32BE(0, length)
      length += 4
      continue
    }
    if (code < ASCII85_FIRST || code > ASCII85_LAST) {
      throw invalidInput(
        `${showCharacterAt(text, i)} at position ${i} is not an Ascii85 character; allowed are ! to u, z, whitespace and the <~ ~> delimiters`,
        {
          position: i,
        },
      )
    }
    if (count === 0) groupStart = i
    value = value * 85 + (code - ASCII85_FIRST)
    if (++count === 5) {
      if (value > 0xffffffff) throw overflow('Ascii85', groupStart)
      out.writeUInt32BE(value, length)
      length += 4
      value = 0
      count = 0
    }
  }
  if (count === 1)
    throw invalidInput(`the last Ascii85 group, at position ${groupStart}, has a single character, which holds no byte`, { position: groupStart })
  if (count > 0) {
    // A short last group is read as if padded with 'u', the highest digit, and gives one byte fewer than its characters.
    for (let k = count; k < 5; k++) value = value * 85 + 84
    if (value > 0xffffffff) throw overflow('Ascii85', groupStart)
    const padded = Buffer.alloc(4)
    padded.writeUInt32BE(value, 0)
    padded.copy(out, length, 0, count - 1)
    length += count - 1
  }
  return out.subarray(0, length)
}

function overflow(label: string, position: number): Error {
  return invalidInput(`the ${label} group at position ${position} is worth more than four bytes hold (2^32 - 1)`, { position })
}

export function encodeZ85(bytes: Uint8Array): string {
  if (bytes.length % 4 !== 0) {
    throw invalidInput(`Z85 needs a multiple of 4 bytes (ZeroMQ RFC 32); the input has ${bytes.length}. Pad it, or use ascii85, which takes any length`, {
      length: bytes.length,
    })
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts: string[] = []
  for (let i = 0; i < bytes.length; i += 4) parts.push(fiveDigits(buffer.readUInt32BE(i), Z85))
  return parts.join('')
}

export function decodeZ85(text: string): Uint8Array {
  const { start, end } = trimmedSpan(text)
  const digits = symbolValues(text, start, end, SYMBOLS.z85)
  if (digits.length % 5 !== 0) {
    throw invalidInput(`Z85 text must be a multiple of 5 characters (ZeroMQ RFC 32); this has ${digits.length}`, { length: digits.length })
  }
  const out = Buffer.alloc((digits.length / 5) * 4)
  for (let i = 0; i < digits.length; i += 5) {
    let value = 0
    for (let k = 0; k < 5; k++) value = value * 85 + digits[i + k]
    if (value > 0xffffffff) throw overflow('Z85', start + i)
    out.writeUInt32BE(value, (i / 5) * 4)
  }
  return out
}

// RFC 1924: an IPv6 address as one 128-bit number in twenty base-85 digits (not git's 4-byte groups).
const RFC1924_BYTES = 16
const RFC1924_CHARACTERS = 20

export function encodeRfc1924(bytes: Uint8Array): string {
  if (bytes.length !== RFC1924_BYTES) {
    throw invalidInput(
      `RFC 1924 base85 encodes exactly 16 bytes (an IPv6 address); the input has ${bytes.length}. Give an address as its 32 hex digits with inputEncoding hex`,
      { length: bytes.length },
    )
  }
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  const digits: string[] = []
  for (let k = 0; k < RFC1924_CHARACTERS; k++) {
    digits.push(RFC1924[Number(value % 85n)])
    value /= 85n
  }
  return digits.reverse().join('')
}

export function decodeRfc1924(text: string): Uint8Array {
  const { start, end } = trimmedSpan(text)
  const digits = symbolValues(text, start, end, SYMBOLS.rfc1924)
  if (digits.length !== RFC1924_CHARACTERS) {
    throw invalidInput(`RFC 1924 base85 text is exactly 20 characters (16 bytes); this has ${digits.length}`, { length: digits.length })
  }
  let value = 0n
  for (const digit of digits) value = value * 85n + BigInt(digit)
  if (value >> 128n !== 0n) throw invalidInput('the RFC 1924 text is worth more than 128 bits hold', { position: start })
  return Buffer.from(value.toString(16).padStart(32, '0'), 'hex')
}
