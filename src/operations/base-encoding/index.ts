import { createHash } from 'node:crypto'
import type { Bech32 } from '@scure/base'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type ByteEncoding, bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

export const ENCODINGS = ['base58', 'base58check', 'base62', 'base36', 'base45', 'ascii85', 'z85', 'base85-rfc1924', 'bech32', 'bech32m'] as const
type Encoding = (typeof ENCODINGS)[number]
const BASE58_ALPHABETS = ['bitcoin', 'flickr', 'ripple'] as const
type Base58Alphabet = (typeof BASE58_ALPHABETS)[number]

/**
 * Radix encodings (base58, base58check, base62, base36) read the whole input as one number, so their
 * cost grows with the square of its length: these bounds keep one call within milliseconds.
 */
export const RADIX_MAX_BYTES = 2048
export const RADIX_MAX_CHARACTERS = 4096
/** BIP-173's bound on a whole bech32 string, which its checksum is designed for. */
export const BECH32_MAX_LENGTH = 90
/** Past this many characters of input a radix encoding runs on a worker thread. */
export const RADIX_OFFLOAD_LENGTH = 1024
/** The linear encodings move to a worker thread only for large inputs. */
export const LINEAR_OFFLOAD_LENGTH = 64 * 1024

const RADIX = new Set<Encoding>(['base58', 'base58check', 'base62', 'base36'])
const BECH32 = new Set<Encoding>(['bech32', 'bech32m'])
const SEGWIT_HRPS = new Set(['bc', 'tb', 'bcrt'])

/** @scure/base, loaded with the first call that needs it. */
const scure = lazily(() => import('@scure/base'))

const BASE58: Record<Base58Alphabet, string> = {
  bitcoin: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  flickr: '123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ',
  ripple: 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz',
}
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const BASE45 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'
const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#'
const RFC1924 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~'
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

/** Each ASCII char code → its value in `alphabet`, or -1; `foldCase` also maps the other case of each letter. */
function valuesOf(alphabet: string, foldCase = false): Int8Array {
  const values = new Int8Array(128).fill(-1)
  for (let value = 0; value < alphabet.length; value++) {
    const char = alphabet[value]
    values[char.charCodeAt(0)] = value
    if (foldCase) {
      values[char.toUpperCase().charCodeAt(0)] = value
      values[char.toLowerCase().charCodeAt(0)] = value
    }
  }
  return values
}

interface Symbols {
  values: Int8Array
  /** What messages call the encoding. */
  label: string
  /** What a message says is allowed, after a character that is not. */
  allowed: string
}

const SYMBOLS = {
  bitcoin: { values: valuesOf(BASE58.bitcoin), label: 'base58', allowed: 'the Bitcoin alphabet is 1–9, A–Z and a–z without 0, O, I and l' },
  flickr: { values: valuesOf(BASE58.flickr), label: 'base58', allowed: 'the Flickr alphabet is 1–9, a–z and A–Z without 0, O, I and l' },
  ripple: { values: valuesOf(BASE58.ripple), label: 'base58', allowed: `the Ripple alphabet is ${BASE58.ripple}` },
  base62: { values: valuesOf(BASE62), label: 'base62', allowed: 'allowed are 0–9, A–Z and a–z' },
  base36: { values: valuesOf(BASE36, true), label: 'base36', allowed: 'allowed are 0–9 and A–Z in either case' },
  base45: { values: valuesOf(BASE45), label: 'base45', allowed: 'RFC 9285 allows 0–9, upper-case A–Z, space and $ % * + - . / :' },
  z85: { values: valuesOf(Z85), label: 'Z85', allowed: `the ZeroMQ alphabet is 0–9, a–z, A–Z and . - : + = ^ ! / * ? & < > ( ) [ ] { } @ % $ #` },
  rfc1924: { values: valuesOf(RFC1924), label: 'RFC 1924 base85', allowed: 'allowed are 0–9, A–Z, a–z and ! # $ % & ( ) * + - ; < = > ? @ ^ _ ` { | } ~' },
} satisfies Record<string, Symbols>

const ASCII_WHITESPACE = /[\t\n\v\f\r ]/
/** Base45 has the space among its symbols: around it only the other whitespace is ignored. */
const WHITESPACE_BUT_SPACE = /[\t\n\v\f\r]/

/** The span of `text` without the whitespace around it. */
function trimmedSpan(text: string, whitespace = ASCII_WHITESPACE): { start: number; end: number } {
  let start = 0
  let end = text.length
  while (start < end && whitespace.test(text[start])) start++
  while (end > start && whitespace.test(text[end - 1])) end--
  return { start, end }
}

/** The symbol values of `text` between `start` and `end`; a character outside the alphabet is a 422 naming its position. */
function symbolValues(text: string, start: number, end: number, symbols: Symbols): Uint8Array {
  const digits = new Uint8Array(end - start)
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? symbols.values[code] : -1
    if (value < 0) throw notASymbol(text, i, symbols)
    digits[i - start] = value
  }
  return digits
}

function notASymbol(text: string, position: number, symbols: Symbols): Error {
  const char = text[position]
  const otherCase = char.toUpperCase() !== char ? char.toUpperCase() : char.toLowerCase()
  const caseHint = otherCase !== char && otherCase.charCodeAt(0) < 128 && symbols.values[otherCase.charCodeAt(0)] >= 0 ? ' (case matters here)' : ''
  return invalidInput(`${showCharacterAt(text, position)} at position ${position} is not a ${symbols.label} character${caseHint}; ${symbols.allowed}`, {
    position,
  })
}

function assertRadixBytes(bytes: Uint8Array, encoding: Encoding, limit = RADIX_MAX_BYTES): void {
  if (bytes.length > limit) {
    throw limitExceeded(
      `${encoding} encodes at most ${limit} bytes, since its cost grows with the square of the length; the input has ${bytes.length}. Base64 or base32 have no such bound`,
      { limit, length: bytes.length },
    )
  }
}

function assertRadixCharacters(length: number, encoding: Encoding): void {
  if (length > RADIX_MAX_CHARACTERS) {
    throw limitExceeded(
      `${encoding} text of more than ${RADIX_MAX_CHARACTERS} characters is not decoded, since the cost grows with the square of the length; the input has ${length}`,
      { limit: RADIX_MAX_CHARACTERS, length },
    )
  }
}

// Base62: the same leading-zero convention as base58 (each leading zero byte is one '0'), over
// BigInt, whose division by a small number runs in native code.
const BASE62_GROUP_DIGITS = 8
const BASE62_GROUP = 62n ** BigInt(BASE62_GROUP_DIGITS)

function encodeBase62(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  if (zeros === bytes.length) return '0'.repeat(zeros)
  let value = BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset + zeros, bytes.length - zeros).toString('hex')}`)
  const digits: string[] = []
  while (value > 0n) {
    let group = Number(value % BASE62_GROUP)
    value /= BASE62_GROUP
    // Every group but the most significant one is written with all its digits, zeros included.
    for (let k = 0; k < BASE62_GROUP_DIGITS && (value > 0n || group > 0); k++) {
      digits.push(BASE62[group % 62])
      group = Math.floor(group / 62)
    }
  }
  return '0'.repeat(zeros) + digits.reverse().join('')
}

function decodeBase62(digits: Uint8Array): Uint8Array {
  let zeros = 0
  while (zeros < digits.length && digits[zeros] === 0) zeros++
  let value = 0n
  for (let i = zeros; i < digits.length; i += BASE62_GROUP_DIGITS) {
    const end = Math.min(i + BASE62_GROUP_DIGITS, digits.length)
    let group = 0
    for (let k = i; k < end; k++) group = group * 62 + digits[k]
    value = value * 62n ** BigInt(end - i) + BigInt(group)
  }
  if (value === 0n) return new Uint8Array(zeros)
  const hex = value.toString(16)
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')])
}

/** Base58Check's checksum: the first four bytes of SHA-256 applied twice. */
function base58Checksum(payload: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4)
}

async function base58Coder(alphabet: Base58Alphabet) {
  const { base58, base58flickr, base58xrp } = await scure()
  return { bitcoin: base58, flickr: base58flickr, ripple: base58xrp }[alphabet]
}

async function encodeRadix(bytes: Uint8Array, encoding: Encoding, alphabet: Base58Alphabet): Promise<string> {
  switch (encoding) {
    case 'base58':
      assertRadixBytes(bytes, encoding)
      return (await base58Coder(alphabet)).encode(bytes)
    case 'base58check':
      assertRadixBytes(bytes, encoding, RADIX_MAX_BYTES - 4)
      return (await base58Coder(alphabet)).encode(Buffer.concat([bytes, base58Checksum(bytes)]))
    case 'base62':
      assertRadixBytes(bytes, encoding)
      return encodeBase62(bytes)
    default:
      assertRadixBytes(bytes, encoding)
      return (await scure()).base36.encode(bytes)
  }
}

async function decodeRadix(text: string, encoding: Encoding, alphabet: Base58Alphabet): Promise<Uint8Array> {
  const { start, end } = trimmedSpan(text)
  assertRadixCharacters(end - start, encoding)
  if (encoding === 'base62') return decodeBase62(symbolValues(text, start, end, SYMBOLS.base62))
  if (encoding === 'base36') {
    symbolValues(text, start, end, SYMBOLS.base36)
    return (await scure()).base36.decode(text.slice(start, end).toLowerCase())
  }
  symbolValues(text, start, end, SYMBOLS[alphabet])
  const bytes = (await base58Coder(alphabet)).decode(text.slice(start, end))
  if (encoding === 'base58') return bytes
  if (bytes.length < 4) {
    throw invalidInput(`base58check text holds at least its 4-byte checksum; this decodes to ${bytes.length} bytes`, { length: bytes.length })
  }
  const payload = bytes.subarray(0, bytes.length - 4)
  if (!base58Checksum(payload).equals(bytes.subarray(bytes.length - 4))) {
    throw invalidInput('base58check checksum mismatch: the last 4 bytes are not the double SHA-256 of the rest, so the text was mistyped or altered', {
      checksum: 'mismatch',
    })
  }
  return payload
}

// Base45 (RFC 9285): two bytes make three symbols, least significant first; a last lone byte, two.
function encodeBase45(bytes: Uint8Array): string {
  const out: string[] = []
  for (let i = 0; i < bytes.length; i += 2) {
    if (i + 1 < bytes.length) {
      const n = bytes[i] * 256 + bytes[i + 1]
      out.push(BASE45[n % 45], BASE45[Math.floor(n / 45) % 45], BASE45[Math.floor(n / 2025)])
    } else {
      out.push(BASE45[bytes[i] % 45], BASE45[Math.floor(bytes[i] / 45)])
    }
  }
  return out.join('')
}

function decodeBase45(text: string): Uint8Array {
  const { start, end } = trimmedSpan(text, WHITESPACE_BUT_SPACE)
  const digits = symbolValues(text, start, end, SYMBOLS.base45)
  if (digits.length % 3 === 1) {
    throw invalidInput(
      `base45 text of ${digits.length} characters ends with a lone character at position ${end - 1}: symbols come in threes, or two for a last single byte`,
      { position: end - 1 },
    )
  }
  const bytes = new Uint8Array(Math.floor(digits.length / 3) * 2 + (digits.length % 3 === 2 ? 1 : 0))
  let j = 0
  for (let i = 0; i < digits.length; i += 3) {
    if (i + 2 < digits.length) {
      const n = digits[i] + digits[i + 1] * 45 + digits[i + 2] * 2025
      if (n > 0xffff) throw invalidInput(`the base45 triple at position ${start + i} is worth ${n}, more than two bytes hold (65535)`, { position: start + i })
      bytes[j++] = n >> 8
      bytes[j++] = n & 0xff
    } else {
      const n = digits[i] + digits[i + 1] * 45
      if (n > 0xff) throw invalidInput(`the last base45 pair at position ${start + i} is worth ${n}, more than a byte holds (255)`, { position: start + i })
      bytes[j++] = n
    }
  }
  return bytes
}

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

function encodeAscii85(bytes: Uint8Array, delimiters: boolean): string {
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

function decodeAscii85(text: string): Uint8Array {
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

function encodeZ85(bytes: Uint8Array): string {
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

function decodeZ85(text: string): Uint8Array {
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

function encodeRfc1924(bytes: Uint8Array): string {
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

function decodeRfc1924(text: string): Uint8Array {
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

// Bech32 (BIP-173) and bech32m (BIP-350).
const BECH32_VALUES = valuesOf(BECH32_CHARSET, true)
const BECH32_CHECKSUM_LENGTH = 6

interface Bech32Answer {
  bytes: Uint8Array
  hrp: string
  words: number[]
  segwit?: { version: number; program: string }
}

/** The 5-bit groups as bytes, big-endian; bits left over at the end (fewer than eight) are dropped, as `words` keeps them. */
function wordsToBytes(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(Math.floor((words.length * 5) / 8))
  let accumulator = 0
  let bits = 0
  let j = 0
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes[j++] = (accumulator >> bits) & 0xff
    }
  }
  return bytes
}

async function encodeBech32(bytes: Uint8Array, encoding: 'bech32' | 'bech32m', hrp: string): Promise<string> {
  const room = BECH32_MAX_LENGTH - hrp.length - 1 - BECH32_CHECKSUM_LENGTH
  const maxBytes = Math.floor((room * 5) / 8)
  if (bytes.length > maxBytes) {
    throw limitExceeded(
      `${encoding} text is at most ${BECH32_MAX_LENGTH} characters (BIP-173), so with a ${hrp.length}-character HRP it holds at most ${maxBytes} bytes; the input has ${bytes.length}`,
      { limit: BECH32_MAX_LENGTH, maxBytes, length: bytes.length },
    )
  }
  const coder = (await scure())[encoding]
  return coder.encode(hrp.toLowerCase(), coder.toWords(bytes), BECH32_MAX_LENGTH)
}

async function decodeBech32(input: string, encoding: 'bech32' | 'bech32m', expectedHrp: string | undefined): Promise<Bech32Answer> {
  const { start, end } = trimmedSpan(input)
  const length = end - start
  if (length > BECH32_MAX_LENGTH) {
    throw limitExceeded(`${encoding} text is at most ${BECH32_MAX_LENGTH} characters (BIP-173); this has ${length}`, { limit: BECH32_MAX_LENGTH, length })
  }
  const separator = input.lastIndexOf('1', end - 1)
  if (separator < start) throw invalidInput(`${encoding} text has no separator '1' between its human-readable part and its data`, { position: start })
  if (separator === start) throw invalidInput(`the human-readable part (HRP) is empty: the text starts with its separator '1'`, { position: start })
  for (let i = start; i < separator; i++) {
    const code = input.charCodeAt(i)
    if (code < 33 || code > 126) {
      throw invalidInput(`${showCharacterAt(input, i)} at position ${i} is out of range for the human-readable part, which takes US-ASCII 33–126`, {
        position: i,
      })
    }
  }
  for (let i = separator + 1; i < end; i++) {
    const code = input.charCodeAt(i)
    if (code >= 128 || BECH32_VALUES[code] < 0) {
      throw invalidInput(`${showCharacterAt(input, i)} at position ${i} is not a bech32 character; the data part takes ${BECH32_CHARSET} (either case)`, {
        position: i,
      })
    }
  }
  let firstCased = -1
  for (let i = start; i < end; i++) {
    const char = input[i]
    if (char.toLowerCase() === char.toUpperCase()) continue
    if (firstCased < 0) firstCased = i
    else if ((char === char.toUpperCase()) !== (input[firstCased] === input[firstCased].toUpperCase())) {
      throw invalidInput(
        `${encoding} text is all lower case or all upper case; '${char}' at position ${i} breaks the case of '${input[firstCased]}' before it`,
        {
          position: i,
        },
      )
    }
  }
  if (end - separator - 1 < BECH32_CHECKSUM_LENGTH) {
    throw invalidInput(
      `the checksum is too short: ${encoding} text ends with 6 checksum characters after the separator '1', and this has ${end - separator - 1}`,
      {
        position: separator + 1,
      },
    )
  }
  const text = input.slice(start, end).toLowerCase()
  const library = await scure()
  const decoded = library[encoding].decodeUnsafe(text, BECH32_MAX_LENGTH)
  if (!decoded) {
    const other = encoding === 'bech32' ? 'bech32m' : 'bech32'
    if (library[other].decodeUnsafe(text, BECH32_MAX_LENGTH)) {
      throw invalidInput(`${encoding} checksum mismatch, but the ${other} checksum holds: this is ${other} text (BIP-350), so ask for encoding ${other}`, {
        checksum: 'mismatch',
        encoding: other,
      })
    }
    throw invalidInput(
      `${encoding} checksum mismatch: the text was mistyped or altered (the checksum covers the lower-case human-readable part and the data)`,
      {
        checksum: 'mismatch',
      },
    )
  }
  const hrp = decoded.prefix
  if (expectedHrp !== undefined && hrp !== expectedHrp.toLowerCase()) {
    throw invalidInput(`the human-readable part is '${hrp}', not the expected '${expectedHrp.toLowerCase()}'`, { position: start, hrp })
  }
  const words = [...decoded.words]
  const segwit = segwitProgram(hrp, words, encoding, library.bech32)
  return segwit
    ? { bytes: segwit.program, hrp, words, segwit: { version: segwit.version, program: Buffer.from(segwit.program).toString('hex') } }
    : { bytes: wordsToBytes(words), hrp, words }
}

/** A SegWit address's witness version and program (BIP-173, BIP-350), when the text is one. */
function segwitProgram(
  hrp: string,
  words: readonly number[],
  encoding: 'bech32' | 'bech32m',
  coder: Pick<Bech32, 'fromWordsUnsafe'>,
): { version: number; program: Uint8Array } | undefined {
  if (!SEGWIT_HRPS.has(hrp) || words.length === 0) return undefined
  const version = words[0]
  // Version 0 is written in bech32, versions 1 to 16 in bech32m.
  if (version > 16 || (version === 0) !== (encoding === 'bech32')) return undefined
  const program = coder.fromWordsUnsafe(words.slice(1))
  if (!program || program.length < 2 || program.length > 40) return undefined
  if (version === 0 && program.length !== 20 && program.length !== 32) return undefined
  return { version, program }
}

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
  summary: 'Encode bytes as base58(check), base62, base36, base45, Ascii85, Z85, RFC 1924 base85 or bech32(m), or decode them',
  title: 'Base58, Base45, Base85 and Bech32',
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
