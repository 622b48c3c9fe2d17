/** Base45 (RFC 9285): two bytes to three symbols. */

import { invalidInput } from '../../core/errors.ts'
import { BASE45, SYMBOLS, symbolValues, trimmedSpan, WHITESPACE_BUT_SPACE } from './alphabets.ts'

// Base45 (RFC 9285): two bytes make three symbols, least significant first; a last lone byte, two.
export function encodeBase45(bytes: Uint8Array): string {
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

export function decodeBase45(text: string): Uint8Array {
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
