/** The radix encodings (base58, base58check, base62, base36), which read the whole input as one number. */

import { createHash } from 'node:crypto'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { BASE62, type Base58Alphabet, type Encoding, SYMBOLS, symbolValues, trimmedSpan } from './alphabets.ts'
import { scure } from './scure.ts'

/**
 * Radix encodings (base58, base58check, base62, base36) read the whole input as one number, so their
 * cost grows with the square of its length: these bounds keep one call within milliseconds.
 */
export const RADIX_MAX_BYTES = 2048
export const RADIX_MAX_CHARACTERS = 4096

export const RADIX = new Set<Encoding>(['base58', 'base58check', 'base62', 'base36'])

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

export async function encodeRadix(bytes: Uint8Array, encoding: Encoding, alphabet: Base58Alphabet): Promise<string> {
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

export async function decodeRadix(text: string, encoding: Encoding, alphabet: Base58Alphabet): Promise<Uint8Array> {
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
