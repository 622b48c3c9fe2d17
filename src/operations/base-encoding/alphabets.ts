/** The encodings' alphabets and the reading of symbols against them: whitespace trimmed, each symbol to its value, a foreign one refused at its position. */

import { invalidInput } from '../../core/errors.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

export const ENCODINGS = ['base58', 'base58check', 'base62', 'base36', 'base45', 'ascii85', 'z85', 'base85-rfc1924', 'bech32', 'bech32m'] as const
export type Encoding = (typeof ENCODINGS)[number]
export const BASE58_ALPHABETS = ['bitcoin', 'flickr', 'ripple'] as const
export type Base58Alphabet = (typeof BASE58_ALPHABETS)[number]

const BASE58: Record<Base58Alphabet, string> = {
  bitcoin: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  flickr: '123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ',
  ripple: 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz',
}
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
export const BASE45 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'
export const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#'
export const RFC1924 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~'
export const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

/** Each ASCII char code → its value in `alphabet`, or -1; `foldCase` also maps the other case of each letter. */
export function valuesOf(alphabet: string, foldCase = false): Int8Array {
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

export const SYMBOLS = {
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
export const WHITESPACE_BUT_SPACE = /[\t\n\v\f\r]/

/** The span of `text` without the whitespace around it. */
export function trimmedSpan(text: string, whitespace = ASCII_WHITESPACE): { start: number; end: number } {
  let start = 0
  let end = text.length
  while (start < end && whitespace.test(text[start])) start++
  while (end > start && whitespace.test(text[end - 1])) end--
  return { start, end }
}

/** The symbol values of `text` between `start` and `end`; a character outside the alphabet is a 422 naming its position. */
export function symbolValues(text: string, start: number, end: number, symbols: Symbols): Uint8Array {
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
